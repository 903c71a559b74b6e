/*
 * api_errors.c: program linking and API misuse as a careless customer does it.
 *  1. clCompileProgram of two units sharing a header (input_headers), clLinkProgram, run;
 *  2. bad build/compile/link options, a failing build's log, unknown kernel names;
 *  3. bad clSetKernelArg, bad buffers, bad NDRange shapes, released objects;
 *  4. kernel-side traps: integer division by zero and INT_MIN / -1 must not kill the host.
 * Each check prints a line; the program fails if any expectation is missed.
 * Regression: a clCompileProgram/clBuildProgram with an invalid option used to
 * discard the program's compiled object/executable (the later link failed with
 * CL_INVALID_OPERATION); the spec makes it an argument error only.
 */
#include "common.h"
#include <limits.h>

static int bad;
#define T(call, expected)                                                                     \
    do {                                                                                      \
        cl_int got_ = (call);                                                                 \
        if (got_ != (expected)) {                                                             \
            printf("  BAD  %-70.70s -> %s, expected %s\n", #call, cl_err_name(got_),          \
                   cl_err_name(expected));                                                    \
            bad++;                                                                            \
        } else                                                                                \
            printf("  ok   %-70.70s -> %s\n", #call, cl_err_name(got_));                     \
    } while (0)

static cl_program src_prog(cl_context ctx, const char *text)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    return p;
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
    cl_int err;

    /* ---------------- 1. compile + link ---------------- */
    STEP("compile and link");
    {
        char *a = read_file(FPGACL_KERNELS_DIR "/api_errors_unit_a.cl", NULL);
        char *b = read_file(FPGACL_KERNELS_DIR "/api_errors_unit_b.cl", NULL);
        const char *hdr_text = "#define SCALE 0.5f\n#ifndef COUNT\n#define COUNT 1\n#endif\n";
        cl_program pa = src_prog(ctx, a), pb = src_prog(ctx, b), hdr = src_prog(ctx, hdr_text);
        const char *hname = "api_errors_shared.h";
        T(clCompileProgram(pa, 1, &dev, "-DCOUNT=3", 1, &hdr, &hname, NULL, NULL), CL_SUCCESS);
        T(clCompileProgram(pb, 1, &dev, "-DCOUNT=3", 1, &hdr, &hname, NULL, NULL), CL_SUCCESS);
        /* compiling without the header must fail with a log naming it */
        cl_program pc = src_prog(ctx, a);
        T(clCompileProgram(pc, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
        char log[4096] = "";
        clGetProgramBuildInfo(pc, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("  log of the header-less compile: %.200s\n", log);
        if (!strstr(log, "api_errors_shared.h")) {
            printf("  BAD  log does not name the missing header\n");
            bad++;
        }
        T(clCompileProgram(pa, 1, &dev, "-cl-no-such-option", 1, &hdr, &hname, NULL, NULL),
          CL_INVALID_COMPILER_OPTIONS);
        cl_program units[2] = {pa, pb};
        cl_program linked = clLinkProgram(ctx, 1, &dev, "-cl-bogus-link", 2, units, NULL, NULL, &err);
        T(err, CL_INVALID_LINKER_OPTIONS);
        if (linked)
            clReleaseProgram(linked);
        /* linking unit a alone leaves helper_scale undefined */
        linked = clLinkProgram(ctx, 1, &dev, "", 1, &pa, NULL, NULL, &err);
        T(err, CL_LINK_PROGRAM_FAILURE);
        if (linked) {
            clGetProgramBuildInfo(linked, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            printf("  log of the one-unit link: %.200s\n", log);
            clReleaseProgram(linked);
        }
        /* pa's compiled object survived the bad-option compile above */
        linked = clLinkProgram(ctx, 1, &dev, "", 2, units, NULL, NULL, &err);
        T(err, CL_SUCCESS);
        EXPECT(linked != NULL, "clLinkProgram returned no program");
        cl_kernel k = create_kernel(linked, "apply");
        float d[8];
        for (int i = 0; i < 8; i++)
            d[i] = (float)i;
        cl_mem bd = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof d, d);
        int n = 8;
        CHECK(clSetKernelArg(k, 0, sizeof bd, &bd));
        CHECK(clSetKernelArg(k, 1, sizeof n, &n));
        CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bd, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL));
        for (int i = 0; i < 8; i++)
            EXPECT(d[i] == (float)i * 0.5f * 8.0f + 3.0f, "linked apply: d[%d] = %f", i, d[i]);
        printf("  linked program ran: d[7] = %.1f\n", d[7]);
        size_t nk = 0;
        T(clGetProgramInfo(linked, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
        EXPECT(nk == 1, "linked program has %zu kernels", nk);
        /* creating a kernel from a compiled (not linked) program */
        clCreateKernel(pa, "apply", &err);
        T(err, CL_INVALID_PROGRAM_EXECUTABLE);
        clReleaseKernel(k);
        clReleaseMemObject(bd);
        clReleaseProgram(linked);
        clReleaseProgram(pa);
        clReleaseProgram(pb);
        clReleaseProgram(pc);
        clReleaseProgram(hdr);
        free(a);
        free(b);
    }

    /* ---------------- 2. build options and failures ---------------- */
    STEP("build options");
    {
        char *misc = read_file(FPGACL_KERNELS_DIR "/api_errors.cl", NULL);
        cl_program p = src_prog(ctx, misc);
        T(clBuildProgram(p, 1, &dev, "-cl-fast-relaxed-mat", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
        T(clBuildProgram(p, 1, &dev, "-D", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
        T(clBuildProgram(p, 1, &dev, "-I", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
        T(clBuildProgram(p, 1, &dev, "-cl-std=CL9.9", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
        T(clBuildProgram(p, 1, &dev, "-cl-fast-relaxed-math -cl-mad-enable -DX=1 -w", NULL, NULL),
          CL_SUCCESS);
        clCreateKernel(p, "no_such_kernel", &err);
        T(err, CL_INVALID_KERNEL_NAME);
        clCreateKernel(p, NULL, &err);
        T(err, CL_INVALID_VALUE);
        cl_program broken = src_prog(ctx, "__kernel void k(__global int *d) {\n  d[0] = undefined_thing;\n}\n");
        T(clBuildProgram(broken, 1, &dev, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
        char log[2048] = "";
        clGetProgramBuildInfo(broken, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("  build log: %.300s\n", log);
        if (!strstr(log, ":2:")) {
            printf("  BAD  build log lacks line 2\n");
            bad++;
        }
        cl_build_status st;
        T(clGetProgramBuildInfo(broken, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
        EXPECT(st == CL_BUILD_ERROR, "build status %d", st);
        clCreateKernel(broken, "k", &err);
        T(err, CL_INVALID_PROGRAM_EXECUTABLE);
        clReleaseProgram(broken);
        cl_program empty = src_prog(ctx, "");
        T(clBuildProgram(empty, 1, &dev, "", NULL, NULL), CL_SUCCESS);
        cl_uint nk = 99;
        T(clCreateKernelsInProgram(empty, 0, NULL, &nk), CL_SUCCESS);
        EXPECT(nk == 0, "empty program has %u kernels", nk);
        clReleaseProgram(empty);
        const char *nul = NULL;
        clCreateProgramWithSource(ctx, 1, &nul, NULL, &err);
        T(err, CL_INVALID_VALUE);
        clCreateProgramWithSource(ctx, 0, NULL, NULL, &err);
        T(err, CL_INVALID_VALUE);
        unsigned char junk[64] = "this is not an aocx file at all";
        const unsigned char *jp = junk;
        size_t jl = sizeof junk;
        cl_int bst = 0;
        clCreateProgramWithBinary(ctx, 1, &dev, &jl, &jp, &bst, &err);
        T(err, CL_INVALID_BINARY);
        T(bst, CL_INVALID_BINARY);

        /* ---------------- 3. arguments ---------------- */
        STEP("arguments");
        cl_kernel k = create_kernel(p, "args");
        cl_mem m = create_buffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL);
        int kk = 5;
        cl_float4 v = {{2.0f, 0, 0, 0}};
        size_t g = 64, l = 16;
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
        T(clSetKernelArg(k, 4, sizeof kk, &kk), CL_INVALID_ARG_INDEX);
        T(clSetKernelArg(k, 0, sizeof(int), &m), CL_INVALID_ARG_SIZE);
        T(clSetKernelArg(k, 2, sizeof(char), &kk), CL_INVALID_ARG_SIZE);
        T(clSetKernelArg(k, 2, sizeof kk, NULL), CL_INVALID_ARG_VALUE);
        T(clSetKernelArg(k, 3, sizeof(cl_float2), &v), CL_INVALID_ARG_SIZE);
        T(clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE);
        T(clSetKernelArg(k, 1, 16 * sizeof(int), &kk), CL_INVALID_ARG_VALUE);
        cl_mem garbage = (cl_mem)&kk;
        T(clSetKernelArg(k, 0, sizeof garbage, &garbage), CL_INVALID_MEM_OBJECT);
        T(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        T(clSetKernelArg(k, 1, 16 * sizeof(int), NULL), CL_SUCCESS);
        T(clSetKernelArg(k, 2, sizeof kk, &kk), CL_SUCCESS);
        T(clSetKernelArg(k, 3, sizeof v, &v), CL_SUCCESS);
        size_t l7 = 7, g0 = 0, l_big = 1u << 20, g3[3] = {64, 1, 1};
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l7, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g0, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
        /* local size above the maximum: CL_INVALID_WORK_GROUP_SIZE or, per dimension,
           CL_INVALID_WORK_ITEM_SIZE (both apply in 1-D) */
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &l_big, &l_big, 0, NULL, NULL);
        T(err == CL_INVALID_WORK_ITEM_SIZE ? CL_INVALID_WORK_GROUP_SIZE : err, CL_INVALID_WORK_GROUP_SIZE);
        T(clEnqueueNDRangeKernel(q, k, 4, NULL, g3, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
        cl_event none = NULL;
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
        T(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
        int out[64];
        T(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        EXPECT(out[0] == 7 && out[63] == 7, "args kernel: out[0]=%d", out[0]);
        T(clEnqueueReadBuffer(q, m, CL_TRUE, 4, sizeof out, out, 0, NULL, NULL), CL_INVALID_VALUE);
        T(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
        T(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
        int pat3 = 0;
        T(clEnqueueFillBuffer(q, m, &pat3, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
        T(clEnqueueFillBuffer(q, m, &pat3, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
        char name[64];
        T(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);

        /* buffers */
        STEP("buffers");
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
        T(err, CL_INVALID_BUFFER_SIZE);
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1 << 62, NULL, &err);
        T(err, CL_INVALID_BUFFER_SIZE);
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 16, NULL, &err);
        T(err, CL_INVALID_HOST_PTR);
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, out, &err);
        T(err, CL_INVALID_HOST_PTR);
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
        T(err, CL_INVALID_VALUE);
        cl_ulong maxalloc = 0;
        clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)maxalloc + 1, NULL, &err);
        T(err, CL_INVALID_BUFFER_SIZE);
        cl_buffer_region reg = {8, 0};
        clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
        T(err, CL_INVALID_BUFFER_SIZE);

        /* released objects */
        STEP("released objects");
        cl_mem tmp = create_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
        T(clReleaseMemObject(tmp), CL_SUCCESS);
        T(clReleaseMemObject(tmp), CL_INVALID_MEM_OBJECT);
        T(clEnqueueReadBuffer(q, tmp, CL_TRUE, 0, 4, out, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
        T(clSetKernelArg(k, 0, sizeof tmp, &tmp), CL_INVALID_MEM_OBJECT);
        cl_kernel k2 = create_kernel(p, "args");
        T(clReleaseKernel(k2), CL_SUCCESS);
        T(clSetKernelArg(k2, 2, sizeof kk, &kk), CL_INVALID_KERNEL);
        T(clReleaseKernel(k2), CL_INVALID_KERNEL);
        /* buffer released while set as a kernel argument (legal: the kernel keeps it? no --
           the spec says the app must not; fpgacl must not crash) */
        cl_mem m2 = create_buffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL);
        T(clSetKernelArg(k, 0, sizeof m2, &m2), CL_SUCCESS);
        T(clReleaseMemObject(m2), CL_SUCCESS);
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
        printf("  info enqueue with a released buffer argument -> %s\n", cl_err_name(err));
        clFinish(q);

        /* ---------------- 4. kernel-side traps ---------------- */
        STEP("division traps");
        cl_kernel kd = create_kernel(p, "divide");
        int a = INT_MIN, b = -1, zero = 0;
        T(clSetKernelArg(kd, 0, sizeof m, &m), CL_SUCCESS);
        T(clSetKernelArg(kd, 1, sizeof a, &a), CL_SUCCESS);
        T(clSetKernelArg(kd, 2, sizeof b, &b), CL_SUCCESS);
        cl_event e;
        T(clEnqueueTask(q, kd, 0, NULL, &e), CL_SUCCESS);
        /* undefined in OpenCL C; must not kill the host (x86 traps on both) */
        err = clWaitForEvents(1, &e);
        printf("  INT_MIN / -1: wait -> %s\n", cl_err_name(err));
        EXPECT(err == CL_SUCCESS || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "INT_MIN / -1: %s", cl_err_name(err));
        clReleaseEvent(e);
        T(clSetKernelArg(kd, 2, sizeof zero, &zero), CL_SUCCESS);
        T(clEnqueueTask(q, kd, 0, NULL, &e), CL_SUCCESS);
        err = clWaitForEvents(1, &e);
        printf("  x / 0: wait -> %s\n", cl_err_name(err));
        EXPECT(err == CL_SUCCESS || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "x / 0: %s", cl_err_name(err));
        clReleaseEvent(e);
        clReleaseKernel(kd);

        STEP("big private array");
        cl_kernel kb = create_kernel(p, "bigpriv");
        int nb = 1 << 20;
        T(clSetKernelArg(kb, 0, sizeof m, &m), CL_SUCCESS);
        T(clSetKernelArg(kb, 1, sizeof nb, &nb), CL_SUCCESS);
        err = clEnqueueTask(q, kb, 0, NULL, &e);
        printf("  bigpriv enqueue -> %s\n", cl_err_name(err));
        if (err == CL_SUCCESS) {
            printf("  bigpriv wait -> %s\n", cl_err_name(clWaitForEvents(1, &e)));
            int s = 0;
            clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof s, &s, 0, NULL, NULL);
            long long ref = 0;
            for (int i = 0; i < nb; i++)
                ref += (i * 7) % nb;
            printf("  bigpriv sum %d (expected %d)\n", s, (int)ref);
            EXPECT(s == (int)ref, "bigpriv sum %d, expected %d", s, (int)ref);
            clReleaseEvent(e);
        }
        clReleaseKernel(kb);

        clReleaseKernel(k);
        clReleaseMemObject(m);
        clReleaseProgram(p);
        free(misc);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    if (bad)
        FAILF("%d expectation(s) missed", bad);
    return pass("api_errors");
}
