/*
 * conformance_api.c: OpenCL 1.2 API and language points the Khronos conformance suite checks
 * (issue 14 item 3), written from the specification:
 *  1. CL_KERNEL_ATTRIBUTES lists work_group_size_hint, reqd_work_group_size, vec_type_hint;
 *  2. clGetKernelArgInfo: address/access/type qualifiers, type names, names (values: no
 *     type qualifier; __constant pointers: const);
 *  3. a NULL cl_mem argument is a NULL pointer in the kernel;
 *  4. clEnqueueCopyBufferRect between buffers and inside one buffer (3-D, disjoint rows
 *     interleaved in memory), overlap reported;
 *  5. __local arguments (128 bytes), __local and private arrays aligned to their type;
 *  6. extern __constant variables across clCompileProgram units, then clLinkProgram;
 *  7. a macro for every CL_DEVICE_EXTENSIONS entry, predefined macros, __FILE__ as a string,
 *     numeric constants; integer division by zero does not stop a kernel;
 *  8. vector printf (%v4hd, %v2hhd, %v8hlf, %v3hld, %v2hlx, %v4hhu).
 * Prints "PASS: conformance_api" when every check holds.
 */
#include "common.h"

static cl_program from_source(cl_context ctx, cl_device_id dev, const char *src,
                              const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build log:\n%s\n", log);
        FAILF("clBuildProgram returned %s", cl_err_name(err));
    }
    return p;
}

static const char *attr_src =
    "__kernel __attribute__((work_group_size_hint(1,1,1))) void hinted(__global int *o) { o[0] = 1; }\n"
    "__kernel __attribute__((reqd_work_group_size(4, 2, 1))) __attribute__((vec_type_hint(float4)))\n"
    "void reqd(__global int *o) { o[get_global_id(0)] = 2; }\n"
    "__kernel_exec(8, uint4) void exec_macro(__global int *o) { o[0] = 3; }\n"
    "__kernel void plain(__global int *o) { o[0] = 4; }\n";

static void kernel_attributes(cl_context ctx, cl_device_id dev)
{
    STEP("kernel attributes");
    cl_program p = from_source(ctx, dev, attr_src, "");
    struct {
        const char *kernel, *want1, *want2;
    } cases[] = {
        {"hinted", "work_group_size_hint(1,1,1)", NULL},
        {"reqd", "reqd_work_group_size(4,2,1)", "vec_type_hint(float4)"},
        {"exec_macro", "work_group_size_hint(8,1,1)", "vec_type_hint(uint4)"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_kernel k = create_kernel(p, cases[i].kernel);
        char attrs[512] = "";
        CHECK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
        printf("  %s: CL_KERNEL_ATTRIBUTES \"%s\"\n", cases[i].kernel, attrs);
        EXPECT(strstr(attrs, cases[i].want1), "%s lacks %s", attrs, cases[i].want1);
        EXPECT(!cases[i].want2 || strstr(attrs, cases[i].want2), "%s lacks %s", attrs,
               cases[i].want2);
        clReleaseKernel(k);
    }
    cl_kernel k = create_kernel(p, "plain");
    char attrs[64] = "x";
    size_t n = 0;
    CHECK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, &n));
    EXPECT(n == 1 && attrs[0] == 0, "plain kernel attributes \"%s\"", attrs);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static const char *arginfo_src =
    "kernel void get_kernel_arg_info(global const int * restrict argument0,\n"
    "    local volatile float4 *argument1, constant char *argument2,\n"
    "    private const int argument3, global unsigned char *argument4,\n"
    "    global int unsigned *argument5, private signed argument6,\n"
    "    global const volatile long * restrict argument7, global void *argument8,\n"
    "    float8 argument9) {}\n";

static void arg_info(cl_context ctx, cl_device_id dev)
{
    STEP("kernel arg info");
    cl_program p = from_source(ctx, dev, arginfo_src, "-cl-kernel-arg-info");
    cl_kernel k = create_kernel(p, "get_kernel_arg_info");
    struct {
        cl_kernel_arg_address_qualifier addr;
        cl_kernel_arg_type_qualifier tq;
        const char *type;
    } want[] = {
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT, "int*"},
        {CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_VOLATILE, "float4*"},
        {CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST, "char*"},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "int"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE, "uchar*"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE, "uint*"},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "int"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL,
         CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE | CL_KERNEL_ARG_TYPE_RESTRICT, "long*"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE, "void*"},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "float8"},
    };
    for (cl_uint i = 0; i < sizeof want / sizeof want[0]; i++) {
        cl_kernel_arg_address_qualifier a = 0;
        cl_kernel_arg_access_qualifier acc = 0;
        cl_kernel_arg_type_qualifier tq = 0;
        char type[64] = "", name[64] = "", expect_name[64];
        size_t name_len = 0;
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a, &a, NULL));
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, &name_len));
        /* A NULL param_value only asks for the size. */
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, 0, NULL, NULL));
        snprintf(expect_name, sizeof expect_name, "argument%u", i);
        printf("  arg %u: address %#x access %#x type qualifier %#llx type '%s' name '%s'\n", i,
               (unsigned)a, (unsigned)acc, (unsigned long long)tq, type, name);
        EXPECT(a == want[i].addr, "arg %u address %#x", i, (unsigned)a);
        EXPECT(acc == CL_KERNEL_ARG_ACCESS_NONE, "arg %u access %#x", i, (unsigned)acc);
        EXPECT(tq == want[i].tq, "arg %u type qualifier %#llx, expected %#llx", i,
               (unsigned long long)tq, (unsigned long long)want[i].tq);
        EXPECT(!strcmp(type, want[i].type), "arg %u type '%s', expected '%s'", i, type,
               want[i].type);
        EXPECT(!strcmp(name, expect_name) && name_len == strlen(expect_name) + 1,
               "arg %u name '%s' (%zu bytes)", i, name, name_len);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void null_buffer_arg(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("NULL buffer argument");
    cl_program p = from_source(
        ctx, dev,
        "kernel void test_kernel(global float *src, global long *dst)\n"
        "{ uint tid = get_global_id(0); dst[tid] = (long)(src != 0) + 2 * (long)(src == NULL); }\n",
        "");
    cl_kernel k = create_kernel(p, "test_kernel");
    enum { N = 256 };
    cl_mem src = create_buffer(ctx, CL_MEM_READ_ONLY, N * sizeof(float), NULL);
    cl_mem dst = create_buffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(cl_long), NULL);
    CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
    for (int pass = 0; pass < 2; pass++) {
        cl_mem arg = pass == 0 ? src : NULL;
        CHECK(clSetKernelArg(k, 0, sizeof arg, &arg));
        size_t g = N;
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        cl_long out[N];
        CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < N; i++)
            EXPECT(out[i] == (pass == 0 ? 1 : 2), "pass %d item %d: %lld", pass, i,
                   (long long)out[i]);
        printf("  %s buffer: src != 0 is %s in the kernel\n", pass == 0 ? "a" : "a NULL",
               pass == 0 ? "true" : "false");
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Copies `region` from (so, pitches sw, sw*sh) to (doff, pitches dw, dw*dh) on the host. */
static void host_rect(unsigned char *d, const unsigned char *s, const size_t so[3],
                      const size_t doff[3], const size_t r[3], size_t sw, size_t sh, size_t dw,
                      size_t dh)
{
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            memmove(d + (doff[2] + z) * dw * dh + (doff[1] + y) * dw + doff[0],
                    s + (so[2] + z) * sw * sh + (so[1] + y) * sw + so[0], r[0]);
}

static void rect_copies(cl_context ctx, cl_command_queue q)
{
    STEP("copy buffer rect");
    /* Two buffers: 13 x 7 x 5 and 9 x 11 x 4 bytes. */
    const size_t aw = 13, ah = 7, ad = 5, bw = 9, bh = 11, bd = 4;
    unsigned char ha[13 * 7 * 5], hb[9 * 11 * 4], back[13 * 7 * 5];
    for (size_t i = 0; i < sizeof ha; i++)
        ha[i] = (unsigned char)(i * 7 + 3);
    for (size_t i = 0; i < sizeof hb; i++)
        hb[i] = (unsigned char)(i * 13 + 1);
    cl_mem a = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ha, ha);
    cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hb, hb);
    /* a -> b, different pitches */
    size_t so[3] = {2, 1, 1}, dof[3] = {1, 3, 0}, r[3] = {6, 4, 3};
    CHECK(clEnqueueCopyBufferRect(q, a, b, so, dof, r, aw, aw * ah, bw, bw * bh, 0, NULL, NULL));
    host_rect(hb, ha, so, dof, r, aw, ah, bw, bh);
    /* inside a: rows 0..2 to rows 4..6 of slices 1..3 (interleaved in memory, disjoint) */
    size_t so2[3] = {1, 0, 1}, do2[3] = {3, 4, 1}, r2[3] = {9, 3, 3};
    CHECK(clEnqueueCopyBufferRect(q, a, a, so2, do2, r2, aw, aw * ah, aw, aw * ah, 0, NULL, NULL));
    host_rect(ha, ha, so2, do2, r2, aw, ah, aw, ah);
    /* 1 x 1 x n buffer (the suite passes a slice pitch of 0 when width * height is 1) */
    size_t so3[3] = {0, 0, 0}, do3[3] = {0, 0, 2}, r3[3] = {1, 1, 2};
    CHECK(clEnqueueCopyBufferRect(q, a, a, so3, do3, r3, 1, 0, 1, 0, 0, NULL, NULL));
    host_rect(ha, ha, so3, do3, r3, 1, 1, 1, 1);
    /* overlapping rectangles in one buffer */
    size_t so4[3] = {0, 0, 0}, do4[3] = {2, 1, 0}, r4[3] = {5, 3, 1};
    EXPECT_CODE(clEnqueueCopyBufferRect(q, a, a, so4, do4, r4, aw, 0, aw, 0, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    EXPECT(!memcmp(back, ha, sizeof ha), "buffer a differs after the rect copies");
    unsigned char backb[sizeof hb];
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof backb, backb, 0, NULL, NULL));
    EXPECT(!memcmp(backb, hb, sizeof hb), "buffer b differs after the rect copies");
    (void)ad;
    (void)bd;
    printf("  rect copies between and inside buffers match the host; overlap -> "
           "CL_MEM_COPY_OVERLAP\n");
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void local_alignment(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("local memory alignment");
    /* __local arguments, a __local array and a private array: each aligned to its type; a
     * long2 argument is also aligned for 4 elements (the suite checks it so). */
    cl_program p = from_source(
        ctx, dev,
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void align(local char *c, local long4 *l4, local long2 *s, local double16 *d16,\n"
        "                  local float3 *f3, global ulong *out)\n"
        "{ local long3 m3[3]; double3 p3[3];\n"
        "  if (get_local_id(0) == 0) { out[0] = (ulong)c; out[1] = (ulong)l4; out[2] = (ulong)s;\n"
        "  out[3] = (ulong)d16; out[4] = (ulong)f3; out[5] = (ulong)&m3[0]; out[6] = (ulong)&p3[0];\n"
        "  l4[0] = (long4)(1); d16[0] = (double16)(2.0); m3[1] = (long3)(3); p3[1] = (double3)(1.0); } }\n",
        "");
    cl_kernel k = create_kernel(p, "align");
    cl_mem out = create_buffer(ctx, CL_MEM_WRITE_ONLY, 7 * sizeof(cl_ulong), NULL);
    size_t sizes[5] = {3, 64, 32, 128, 48};
    size_t aligns[7] = {1, 32, 32, 128, 16, 32, 32};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(k, i, sizes[i], NULL));
    CHECK(clSetKernelArg(k, 5, sizeof out, &out));
    size_t g = 4;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
    cl_ulong ptrs[7];
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof ptrs, ptrs, 0, NULL, NULL));
    for (int i = 0; i < 7; i++) {
        printf("  local/private object %d at %#llx (align %zu)\n", i,
               (unsigned long long)ptrs[i], aligns[i]);
        EXPECT(ptrs[i] % aligns[i] == 0, "object %d at %#llx is not aligned to %zu", i,
               (unsigned long long)ptrs[i], aligns[i]);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static cl_program compile_unit(cl_context ctx, cl_device_id dev, const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    err = clCompileProgram(p, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("compile log:\n%s\n", log);
        FAILF("clCompileProgram returned %s", cl_err_name(err));
    }
    return p;
}

static void extern_variables(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("extern variables across units");
    /* Declarations alone compile (the objects live in other units). */
    clReleaseProgram(compile_unit(ctx, dev, "extern constant float foo;\n"));
    clReleaseProgram(compile_unit(ctx, dev, "extern constant struct bar bart;\n"));
    clReleaseProgram(compile_unit(ctx, dev, "extern int baz(int, int);\n"));
    cl_program a = compile_unit(
        ctx, dev,
        "constant float foo = 4.0f;\n"
        "constant struct bar { float x, y, z, r; int color; } sb = {1.f, 2.f, 3.f, 4.f, 5};\n"
        "float access_foo(void);\nint access_color(void);\n"
        "kernel void use(global float *o) { o[0] = access_foo(); o[1] = access_color(); }\n");
    cl_program b = compile_unit(
        ctx, dev,
        "extern constant float foo;\n"
        "extern constant struct bar { float x, y, z, r; int color; } sb;\n"
        "float access_foo(void) { return foo * 2.0f; }\n"
        "int access_color(void) { return sb.color; }\n");
    cl_program units[2] = {a, b};
    cl_int err;
    cl_program linked = clLinkProgram(ctx, 1, &dev, NULL, 2, units, NULL, NULL, &err);
    CHECK_ERR(err, "clLinkProgram of a definition and an extern use");
    cl_kernel k = create_kernel(linked, "use");
    cl_mem o = create_buffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(float), NULL);
    CHECK(clSetKernelArg(k, 0, sizeof o, &o));
    CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    float got[2];
    CHECK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    EXPECT(got[0] == 8.0f && got[1] == 5.0f, "extern values %g %g", got[0], (double)got[1]);
    printf("  extern constant float/struct from another unit: %g, %g\n", got[0], got[1]);
    /* The unit using foo alone does not link: foo is defined nowhere. */
    cl_program alone = clLinkProgram(ctx, 1, &dev, NULL, 1, &b, NULL, NULL, &err);
    EXPECT(err == CL_LINK_PROGRAM_FAILURE, "linking the extern use alone: %s",
           cl_err_name(err));
    if (alone) {
        char log[2048] = "";
        clGetProgramBuildInfo(alone, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        EXPECT(strstr(log, "foo"), "link log does not name foo: %s", log);
        clReleaseProgram(alone);
    }
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(linked);
    clReleaseProgram(a);
    clReleaseProgram(b);
}

static void macros_and_constants(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("extension macros");
    char ext[2048] = "";
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    char src[8192] = "";
    size_t n = 0;
    int count = 0;
    for (char *tok = strtok(ext, " "); tok; tok = strtok(NULL, " ")) {
        n += (size_t)snprintf(src + n, sizeof src - n,
                              "#ifndef %s\n#error %s is reported but not defined\n#endif\n", tok,
                              tok);
        count++;
    }
    n += (size_t)snprintf(src + n, sizeof src - n, "kernel void k(global int *o) { o[0] = 1; }\n");
    clReleaseProgram(from_source(ctx, dev, src, ""));
    printf("  %d extension macros defined\n", count);

    STEP("predefined macros and constants");
    cl_program p = from_source(
        ctx, dev,
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "#line 2 \"conformance_file.cl\"\n"
        "kernel void m(global int *r, global char *file, global double *d)\n"
        "{\n"
        "    r[0] = __OPENCL_VERSION__; r[1] = __OPENCL_C_VERSION__; r[2] = __ENDIAN_LITTLE__;\n"
        "    r[3] = __LINE__;\n"
        "#ifdef __kernel_exec\n    r[4] = 1;\n#endif\n"
        "#ifdef __IMAGE_SUPPORT__\n    r[5] = 1;\n#endif\n"
        "    r[6] = CL_VERSION_1_0 + CL_VERSION_1_1 + CL_VERSION_1_2;\n"
        "    r[7] = ilogb(0.0f) == FP_ILOGB0 && ilogb(NAN) == FP_ILOGBNAN;\n"
        "    r[8] = DBL_RADIX + FLT_RADIX + CHAR_BIT;\n"
        "    r[9] = INT_MIN == (-2147483647 - 1) && SCHAR_MIN == -128 && USHRT_MAX == 65535;\n"
        "    r[10] = 7 / r[11];\n"
        "    r[12] = r[10] + 1;\n"
        "    d[0] = DBL_MAX; d[1] = M_PI; d[2] = MAXFLOAT; d[3] = HUGE_VALF; d[4] = M_PI_F;\n"
        "    int i;\n"
        "    constant char *f = \"\" __FILE__;\n"
        "    for (i = 0; f[i] != 0 && i < 63; i++) file[i] = f[i];\n"
        "    file[i] = 0;\n"
        "}\n",
        "");
    cl_kernel k = create_kernel(p, "m");
    int zero[13] = {0};
    cl_mem r = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    cl_mem file = create_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
    cl_mem d = create_buffer(ctx, CL_MEM_READ_WRITE, 5 * sizeof(double), NULL);
    CHECK(clSetKernelArg(k, 0, sizeof r, &r));
    CHECK(clSetKernelArg(k, 1, sizeof file, &file));
    CHECK(clSetKernelArg(k, 2, sizeof d, &d));
    CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    int got[13];
    char fname[64];
    double dv[5];
    CHECK(clEnqueueReadBuffer(q, r, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, file, CL_TRUE, 0, sizeof fname, fname, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof dv, dv, 0, NULL, NULL));
    printf("  __OPENCL_VERSION__ %d __OPENCL_C_VERSION__ %d __LINE__ %d __FILE__ \"%s\"\n",
           got[0], got[1], got[3], fname);
    EXPECT(got[0] == 120 && got[1] == 120 && got[2] == 1, "versions %d %d %d", got[0], got[1],
           got[2]);
    EXPECT(got[3] == 5, "__LINE__ %d (expected 5: the line after `#line 2` is line 2)", got[3]);
    EXPECT(got[4] == 1 && got[5] == 0, "__kernel_exec %d, __IMAGE_SUPPORT__ %d", got[4], got[5]);
    EXPECT(got[6] == 330 && got[7] == 1 && got[8] == 12 && got[9] == 1,
           "CL_VERSION sum %d, FP_ILOGB %d, radix sum %d, limits %d", got[6], got[7], got[8],
           got[9]);
    EXPECT(got[12] == got[10] + 1, "the kernel stopped after 7 / 0");
    EXPECT(!strcmp(fname, "conformance_file.cl"), "__FILE__ is \"%s\"", fname);
    EXPECT(dv[0] == 1.7976931348623157e308 && dv[1] == 3.141592653589793 &&
               dv[2] == (double)3.40282347e38f && dv[3] > 1e308 && dv[4] == (double)3.14159265f,
           "DBL_MAX %g M_PI %.17g MAXFLOAT %g HUGE_VALF %g M_PI_F %.9g", dv[0], dv[1], dv[2],
           dv[3], dv[4]);
    clReleaseMemObject(r);
    clReleaseMemObject(file);
    clReleaseMemObject(d);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void vector_printf(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("vector printf");
    cl_program p = from_source(
        ctx, dev,
        "kernel void vp(void)\n"
        "{\n"
        "    printf(\"v4hd %v4hd\\n\", (short4)(1, -2, 3, -32768));\n"
        "    printf(\"v2hhd %v2hhd\\n\", (char2)(5, -6));\n"
        "    printf(\"v8hlf %v8hlf\\n\", (float8)(0.5f, 1.0f, 1.5f, 2.0f, -0.25f, 3.0f, 4.0f, 5.0f));\n"
        "    printf(\"v3hld %v3hld\\n\", (int3)(7, 8, 9));\n"
        "    printf(\"v2hlx %v2hlx\\n\", (uint2)(0xdead, 0xbeef));\n"
        "    printf(\"v4hhu %v4hhu\\n\", (uchar4)(250, 0, 1, 255));\n"
        "    float4 f4 = (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
        "    printf(\"flags %2.2v4hlf|%#v2hhx|%#v2hx|%#v2hlx|%v2ld\\n\", f4, (uchar2)(0xFA, 0xFB),\n"
        "           (ushort2)(0x1234, 0x8765), (uint2)(0x12345678, 0x87654321), (long2)(12345678, 98765432));\n"
        "    printf(\"sci %.2v3hle|%.1v4hla\\n\", (float3)(1234.25f, 987654.5f, 0.0005f), (float4)(0.25f, 0.5f, 1.f, 1.5f));\n"
        "}\n",
        "");
    cl_kernel k = create_kernel(p, "vp");
    CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    CHECK(clFinish(q));
    clReleaseKernel(k);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);

    kernel_attributes(ctx, dev);
    arg_info(ctx, dev);
    null_buffer_arg(ctx, dev, q);
    rect_copies(ctx, q);
    local_alignment(ctx, dev, q);
    extern_variables(ctx, dev, q);
    macros_and_constants(ctx, dev, q);
    vector_printf(ctx, dev, q);

    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("PASS: conformance_api\n");
    return 0;
}
