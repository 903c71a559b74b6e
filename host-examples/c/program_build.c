/*
 * program_build.c: building programs the ways FPGA hosts do, and reading why a
 * build failed.
 *
 *   1. source + options: kernels/program_build.cl includes "params.h", which
 *      exists only in kernels/program_build_inc/ (reached through -I), and uses
 *      SCALE, which comes only from -D. Builds without -I and without -D fail
 *      with the expected log; the same program object then builds with both
 *      (spelled "-D SCALE=3 -I dir" and "-DSCALE=11 -Idir"), through a build
 *      callback, and its kernel computes in*SCALE+7.
 *   2. -cl-kernel-arg-info: clGetKernelArgInfo gives every argument's name,
 *      type name, address, access and type qualifiers; without the option it
 *      returns CL_KERNEL_ARG_INFO_NOT_AVAILABLE.
 *   3. failing builds: kernels/program_build_bad.cl gives
 *      CL_BUILD_PROGRAM_FAILURE, CL_BUILD_ERROR and a log with
 *      "<file>:6:23: error:" for the bad line; an unknown option gives
 *      CL_INVALID_BUILD_OPTIONS and leaves the program buildable.
 *   4. binaries: the .aocx given as argv[1] (made by
 *      `fpgacl aoc kernels/program_build.cl -I kernels/program_build_inc -D SCALE=3`)
 *      loads with clCreateProgramWithBinary, builds and runs; the bytes from
 *      clGetProgramInfo(CL_PROGRAM_BINARIES) load again; garbage and truncated
 *      bytes give CL_INVALID_BINARY with binary_status set.
 *   5. separate compilation (embedded input header "link/common.h"):
 *      a. a unit calling add_bias, defined in another unit, compiles; the two
 *         link directly and through a -create-library library; alone it fails
 *         to link (CL_LINK_PROGRAM_FAILURE, the log names add_bias);
 *      b. -D given to clCompileProgram for one unit still holds after linking;
 *      c. linking by symbol: two units with their own static adjust() link and
 *         each kernel calls its own; add_bias defined in two units fails with
 *         CL_LINK_PROGRAM_FAILURE and a log naming it (and, on fpgacl, both
 *         definitions' file:line); link options; build callbacks of
 *         clCompileProgram and clLinkProgram;
 *      d. binaries of a compiled object, a library and a linked executable
 *         load with clCreateProgramWithBinary with their binary type and link
 *         (or build) and run again; clBuildProgram of a self-contained compiled
 *         object's binary links it into an executable;
 *      e. compile errors and invalid compiler/linker options.
 *
 * Without argv[1] the .aocx part of step 4 is skipped (a "skip:" line says
 * so); on a platform that is not an FPGA platform it is skipped too.
 *
 * Check ids for EXAMPLE_SKIP_CHECKS: arg-info-not-available, log-location-first
 * (the "<file>:<line>:<col>: error:" order), kernel-before-build (clCreateKernel
 * on an unbuilt binary program: fails off FPGA platforms, works on them), binary-truncated, kernel-from-object
 * (clCreateKernel on a compiled object or library), link-log-details (fpgacl's
 * wording of link errors, with file:line of both definitions of a duplicate),
 * link-math-options (the program linking options -cl-fast-relaxed-math and
 * -cl-denorms-are-zero of clLinkProgram), object-binary (5d), build-object-binary
 * (clBuildProgram of a compiled object's binary gives an executable with its kernel).
 */
#include "common.h"

/** Elements processed by every kernel run. */
#define N 4096
/** PARAM_OFFSET of kernels/program_build_inc/params.h. */
#define PARAM_OFFSET 7
/** SCALE the .aocx given as argv[1] was compiled with. */
#define AOCX_SCALE 3
/** LINK_BIAS of kernels/program_build_link.h, and the -D LINK_FACTOR given to clCompileProgram. */
#define LINK_BIAS 100
#define LINK_FACTOR 2

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/** `<FPGACL_KERNELS_DIR>/<name>` in a heap buffer. */
static char *kernels_file(const char *name)
{
    size_t len = strlen(FPGACL_KERNELS_DIR) + strlen(name) + 2;
    char *p = malloc(len);
    EXPECT(p != NULL, "out of memory");
    snprintf(p, len, "%s/%s", FPGACL_KERNELS_DIR, name);
    return p;
}

/** A program from one kernel source file (not built). */
static cl_program source_program(cl_context ctx, const char *file)
{
    char *path = kernels_file(file);
    size_t len = 0;
    char *text = read_file(path, &len);
    const char *src = text;
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, &len, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    EXPECT(p != NULL, "clCreateProgramWithSource returned NULL with CL_SUCCESS");
    free(text);
    free(path);
    return p;
}

/** The build log of `p` on `dev` (heap, NUL-terminated). */
static char *build_log(cl_program p, cl_device_id dev)
{
    size_t len = 0;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len));
    char *log = calloc(1, len + 1);
    EXPECT(log != NULL, "out of memory");
    if (len)
        CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL));
    EXPECT(len == 0 || log[len - 1] == '\0', "build log of %zu bytes is not NUL-terminated", len);
    return log;
}

/** CL_PROGRAM_BUILD_STATUS of `p` on `dev`. */
static cl_build_status build_status(cl_program p, cl_device_id dev)
{
    cl_build_status st = 0;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    return st;
}

/** CL_PROGRAM_BINARY_TYPE of `p` on `dev`. */
static cl_program_binary_type binary_type(cl_program p, cl_device_id dev)
{
    cl_program_binary_type t = 0;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
    return t;
}

static const char *build_status_name(cl_build_status st)
{
    switch (st) {
    case CL_BUILD_SUCCESS: return "CL_BUILD_SUCCESS";
    case CL_BUILD_NONE: return "CL_BUILD_NONE";
    case CL_BUILD_ERROR: return "CL_BUILD_ERROR";
    case CL_BUILD_IN_PROGRESS: return "CL_BUILD_IN_PROGRESS";
    default: return "<unknown build status>";
    }
}

/** Fail unless the build status of `p` is `want`. */
static void expect_status(cl_program p, cl_device_id dev, cl_build_status want)
{
    cl_build_status st = build_status(p, dev);
    EXPECT(st == want, "CL_PROGRAM_BUILD_STATUS is %s (%d), expected %s", build_status_name(st),
           (int)st, build_status_name(want));
}

/** Fail unless the build log of `p` contains `needle`; prints the log. */
static void expect_log_contains(cl_program p, cl_device_id dev, const char *needle)
{
    char *log = build_log(p, dev);
    if (!strstr(log, needle)) {
        printf("build log:\n%s\n", log);
        FAILF("build log does not contain \"%s\"", needle);
    }
    free(log);
}

/** clBuildProgram that must fail with `want`; returns the log (heap). */
static char *build_must_fail(cl_program p, cl_device_id dev, const char *options, cl_int want)
{
    cl_int err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != want) {
        char *log = build_log(p, dev);
        printf("build log:\n%s\n", log);
        FAILF("clBuildProgram(options \"%s\") returned %s (%d), expected %s", options,
              cl_err_name(err), (int)err, cl_err_name(want));
    }
    return build_log(p, dev);
}

/** clBuildProgram that must succeed (prints the log otherwise). */
static void build_ok(cl_program p, cl_device_id dev, const char *options)
{
    cl_int err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = build_log(p, dev);
        printf("build log:\n%s\n", log);
        FAILF("clBuildProgram(options \"%s\") returned %s (%d)", options, cl_err_name(err),
              (int)err);
    }
    expect_status(p, dev, CL_BUILD_SUCCESS);
}

/** A kernel that must not be creatable (program not executable). */
static void expect_no_kernel(cl_program p, const char *name)
{
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name, &err);
    EXPECT(err == CL_INVALID_PROGRAM_EXECUTABLE && k == NULL,
           "clCreateKernel(%s) on a program without executable returned %s (%d), kernel %p, "
           "expected CL_INVALID_PROGRAM_EXECUTABLE and NULL",
           name, cl_err_name(err), (int)err, (void *)k);
}

/**
 * Run kernel `name` of `prog` (arguments: __global const int *in, __global int *out) over N
 * elements and check out[i] == (in[i] + add) * mul + offset.
 */
static void run_and_check(cl_context ctx, cl_command_queue q, cl_program prog, const char *name,
                          int add, int mul, int offset, const char *what)
{
    static int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = (i * 37) % 1001 - 500;
        out[i] = 0x5a5a5a5a;
    }
    cl_kernel k = create_kernel(prog, name);
    cl_mem bin = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bout = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof bin, &bin));
    CHECK(clSetKernelArg(k, 1, sizeof bout, &bout));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        int want = (in[i] + add) * mul + offset;
        if (out[i] != want)
            FAILF("%s: %s out[%d] = %d, expected (%d + %d) * %d + %d = %d", what, name, i, out[i],
                  in[i], add, mul, offset, want);
    }
    CHECK(clReleaseMemObject(bin));
    CHECK(clReleaseMemObject(bout));
    CHECK(clReleaseKernel(k));
    printf("  %s: %s over %d elements correct\n", what, name, N);
}

/** The program's single device binary (heap) and its size. */
static unsigned char *program_binary(cl_program p, size_t *size_out)
{
    cl_uint ndev = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    EXPECT(ndev == 1, "CL_PROGRAM_NUM_DEVICES is %u, expected 1", ndev);
    size_t ret = 0, size = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, &ret));
    EXPECT(ret == sizeof(size_t), "CL_PROGRAM_BINARY_SIZES returned %zu bytes, expected %zu", ret,
           sizeof(size_t));
    EXPECT(size > 0, "CL_PROGRAM_BINARY_SIZES is 0 for a built program");
    unsigned char *bin = malloc(size);
    EXPECT(bin != NULL, "out of memory");
    unsigned char *ptrs[1] = {bin};
    CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, &ret));
    EXPECT(ret == sizeof ptrs, "CL_PROGRAM_BINARIES returned %zu bytes, expected %zu", ret,
           sizeof ptrs);
    *size_out = size;
    return bin;
}

/** A program from one binary that must load (binary_status CL_SUCCESS). */
static cl_program binary_program(cl_context ctx, cl_device_id dev, const unsigned char *bin,
                                 size_t len)
{
    cl_int err = CL_SUCCESS, status = -12345;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &status, &err);
    CHECK_ERR(err, "clCreateProgramWithBinary");
    EXPECT(p != NULL, "clCreateProgramWithBinary returned NULL with CL_SUCCESS");
    EXPECT(status == CL_SUCCESS, "binary_status is %s (%d), expected CL_SUCCESS",
           cl_err_name(status), (int)status);
    return p;
}

/** Set in main: the platform is an FPGA platform (Intel's rules for binaries apply). */
static int g_fpga_platform = 0;

/**
 * Before clBuildProgram: on an FPGA platform a program from an executable binary is already
 * executable (Intel's runtime: hosts create kernels without building), elsewhere it is not.
 */
static void expect_kernel_before_build(cl_program p, cl_device_id dev, const char *name)
{
    if (!g_fpga_platform) {
        expect_no_kernel(p, name);
        return;
    }
    cl_build_status st = CL_BUILD_ERROR;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_BUILD_SUCCESS, "program from an executable binary: build status %d before "
           "clBuildProgram, expected CL_BUILD_SUCCESS", (int)st);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name, &err);
    EXPECT(err == CL_SUCCESS && k != NULL, "clCreateKernel(%s) before clBuildProgram on a "
           "program from an executable binary returned %s (%d)", name, cl_err_name(err), (int)err);
    if (k)
        CHECK(clReleaseKernel(k));
}

/** A binary that must be rejected with CL_INVALID_BINARY and binary_status set. */
static void expect_invalid_binary(cl_context ctx, cl_device_id dev, const unsigned char *bin,
                                  size_t len, const char *what)
{
    cl_int err = CL_SUCCESS, status = -12345;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &status, &err);
    EXPECT(err == CL_INVALID_BINARY, "%s: clCreateProgramWithBinary returned %s (%d), expected "
           "CL_INVALID_BINARY", what, cl_err_name(err), (int)err);
    EXPECT(p == NULL, "%s: clCreateProgramWithBinary returned a program with CL_INVALID_BINARY",
           what);
    EXPECT(status == CL_INVALID_BINARY, "%s: binary_status is %s (%d), expected "
           "CL_INVALID_BINARY", what, cl_err_name(status), (int)status);
    printf("  %s rejected: CL_INVALID_BINARY, binary_status CL_INVALID_BINARY\n", what);
}

/** State shared with the build callback. */
struct build_notice {
    int calls;
    cl_program program;
};

static void CL_CALLBACK on_build_done(cl_program p, void *user)
{
    struct build_notice *n = user;
    n->program = p;
    __atomic_add_fetch(&n->calls, 1, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------ */
/* 1. Source with -D and -I                                             */
/* ------------------------------------------------------------------ */

/** Options with the include folder: `fmt` holds one %s for it. */
static char *with_inc(const char *fmt)
{
    char *inc = kernels_file("program_build_inc");
    size_t len = strlen(fmt) + strlen(inc) + 1;
    char *o = malloc(len);
    EXPECT(o != NULL, "out of memory");
    snprintf(o, len, fmt, inc);
    free(inc);
    return o;
}

static void step_source_options(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("1. build from source with -D and -I");
    printf("1. source with -D and -I\n");
    cl_program p = source_program(ctx, "program_build.cl");
    char *opts_no_d = with_inc("-I %s");
    char *opts = with_inc("-D SCALE=3 -I %s");
    char *opts_attached = with_inc("-DSCALE=11 -I%s");

    /* No -I: params.h cannot be found. */
    char *log = build_must_fail(p, dev, "-D SCALE=3", CL_BUILD_PROGRAM_FAILURE);
    EXPECT(strstr(log, "params.h") != NULL, "log of the build without -I does not mention "
           "params.h:\n%s", log);
    EXPECT(strstr(log, "error") != NULL, "log of the build without -I has no error:\n%s", log);
    free(log);
    expect_status(p, dev, CL_BUILD_ERROR);
    expect_no_kernel(p, "scale_offset");
    printf("  without -I: CL_BUILD_PROGRAM_FAILURE, log names params.h\n");

    /* -I but no -D: the header's #error fires. */
    log = build_must_fail(p, dev, opts_no_d, CL_BUILD_PROGRAM_FAILURE);
    EXPECT(strstr(log, "SCALE must be given with -D SCALE=<n>") != NULL,
           "log of the build without -D does not hold the #error text:\n%s", log);
    free(log);
    expect_status(p, dev, CL_BUILD_ERROR);
    printf("  without -D: CL_BUILD_PROGRAM_FAILURE, log holds the #error message\n");

    /* Both, through a build callback: the same program object now builds. */
    struct build_notice notice = {0, NULL};
    CHECK(clBuildProgram(p, 1, &dev, opts, on_build_done, &notice));
    EXPECT(wait_flag(&notice.calls, 1, 60000), "build callback not called within 60 s");
    EXPECT(notice.calls == 1, "build callback called %d times", notice.calls);
    EXPECT(notice.program == p, "build callback got program %p, expected %p",
           (void *)notice.program, (void *)p);
    expect_status(p, dev, CL_BUILD_SUCCESS);
    EXPECT(binary_type(p, dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
           "CL_PROGRAM_BINARY_TYPE is %lu, expected CL_PROGRAM_BINARY_TYPE_EXECUTABLE",
           (unsigned long)binary_type(p, dev));
    char got[4096];
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof got, got, NULL));
    EXPECT(strcmp(got, opts) == 0, "CL_PROGRAM_BUILD_OPTIONS is \"%s\", expected \"%s\"", got,
           opts);
    size_t nk = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    EXPECT(nk == 2, "CL_PROGRAM_NUM_KERNELS is %zu, expected 2", nk);
    CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof got, got, NULL));
    EXPECT(strstr(got, "scale_offset") != NULL,
           "CL_PROGRAM_KERNEL_NAMES \"%s\" lacks scale_offset", got);
    EXPECT(strstr(got, "arg_info") != NULL, "CL_PROGRAM_KERNEL_NAMES \"%s\" lacks arg_info", got);
    printf("  with \"-D SCALE=3 -I <dir>\": built (callback once, options \"%s\" kept)\n", opts);
    run_and_check(ctx, q, p, "scale_offset", 0, 3, PARAM_OFFSET, "SCALE=3");

    /* CL_PROGRAM_SOURCE is the text given; no rebuild while a kernel is attached. */
    char *path = kernels_file("program_build.cl");
    char *text = read_file(path, NULL);
    size_t src_len = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &src_len));
    char *src = calloc(1, src_len + 1);
    EXPECT(src != NULL, "out of memory");
    CHECK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, src_len, src, NULL));
    EXPECT(src_len == strlen(text) + 1 && strcmp(src, text) == 0,
           "CL_PROGRAM_SOURCE (%zu bytes) differs from program_build.cl (%zu bytes + NUL)",
           src_len, strlen(text));
    free(src);
    free(text);
    free(path);
    cl_kernel attached = create_kernel(p, "scale_offset");
    EXPECT_CODE(clBuildProgram(p, 1, &dev, opts, NULL, NULL), CL_INVALID_OPERATION);
    CHECK(clReleaseKernel(attached));
    printf("  CL_PROGRAM_SOURCE kept; rebuild with a kernel attached: CL_INVALID_OPERATION\n");
    CHECK(clReleaseProgram(p));

    /* Attached spellings, another value. */
    p = source_program(ctx, "program_build.cl");
    build_ok(p, dev, opts_attached);
    run_and_check(ctx, q, p, "scale_offset", 0, 11, PARAM_OFFSET, "\"-DSCALE=11 -I<dir>\"");
    CHECK(clReleaseProgram(p));

    free(opts_no_d);
    free(opts);
    free(opts_attached);
}

/* ------------------------------------------------------------------ */
/* 2. Kernel argument information                                       */
/* ------------------------------------------------------------------ */

/** What clGetKernelArgInfo must report for one argument of arg_info. */
struct arg_expect {
    const char *name;
    const char *type_name;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier type_qual;
};

static const struct arg_expect ARG_INFO[] = {
    {"src", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
    {"dst", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE},
    {"tile", "float4*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
    {"lut", "short*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
    {"count", "uint", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
};

static void check_arg_info(cl_kernel k)
{
    cl_uint nargs = 0;
    CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    EXPECT(nargs == 5, "CL_KERNEL_NUM_ARGS is %u, expected 5", nargs);
    for (cl_uint i = 0; i < nargs; i++) {
        const struct arg_expect *e = &ARG_INFO[i];
        char text[256];
        size_t ret = 0;
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof text, text, &ret));
        EXPECT(strcmp(text, e->name) == 0, "arg %u name \"%s\", expected \"%s\"", i, text,
               e->name);
        EXPECT(ret == strlen(e->name) + 1, "arg %u name size %zu, expected %zu", i, ret,
               strlen(e->name) + 1);
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, NULL));
        EXPECT(strcmp(text, e->type_name) == 0, "arg %u (%s) type name \"%s\", expected \"%s\"",
               i, e->name, text, e->type_name);
        cl_kernel_arg_address_qualifier aq = 0;
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
        EXPECT(aq == e->address, "arg %u (%s) address qualifier 0x%x, expected 0x%x", i, e->name,
               (unsigned)aq, (unsigned)e->address);
        cl_kernel_arg_access_qualifier acc = 0;
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
        EXPECT(acc == CL_KERNEL_ARG_ACCESS_NONE,
               "arg %u (%s) access qualifier 0x%x, expected CL_KERNEL_ARG_ACCESS_NONE", i,
               e->name, (unsigned)acc);
        cl_kernel_arg_type_qualifier tq = 0;
        CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
        EXPECT(tq == e->type_qual, "arg %u (%s) type qualifier 0x%lx, expected 0x%lx", i,
               e->name, (unsigned long)tq, (unsigned long)e->type_qual);
        printf("  arg %u: %-5s %-8s address 0x%x type qualifiers 0x%lx\n", i, e->name,
               e->type_name, (unsigned)aq, (unsigned long)tq);
    }
    char small[2];
    EXPECT_CODE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof small, small, NULL),
                CL_INVALID_VALUE);
    char text[64];
    EXPECT_CODE(clGetKernelArgInfo(k, nargs, CL_KERNEL_ARG_NAME, sizeof text, text, NULL),
                CL_INVALID_ARG_INDEX);
}

static void step_arg_info(cl_context ctx, cl_device_id dev)
{
    STEP("2. clGetKernelArgInfo");
    printf("2. kernel argument information\n");
    char *opts = with_inc("-cl-kernel-arg-info -D SCALE=3 -I %s");
    cl_program p = source_program(ctx, "program_build.cl");
    build_ok(p, dev, opts);
    cl_kernel k = create_kernel(p, "arg_info");
    check_arg_info(k);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(p));
    free(opts);

    STEP("2. clGetKernelArgInfo without -cl-kernel-arg-info");
    if (!skip_check("arg-info-not-available")) {
        opts = with_inc("-D SCALE=3 -I %s");
        p = source_program(ctx, "program_build.cl");
        build_ok(p, dev, opts);
        k = create_kernel(p, "arg_info");
        char text[64];
        EXPECT_CODE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof text, text, NULL),
                    CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        cl_kernel_arg_address_qualifier aq = 0;
        EXPECT_CODE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq,
                                       NULL),
                    CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        printf("  without -cl-kernel-arg-info: CL_KERNEL_ARG_INFO_NOT_AVAILABLE\n");
        CHECK(clReleaseKernel(k));
        CHECK(clReleaseProgram(p));
        free(opts);
    }
}

/* ------------------------------------------------------------------ */
/* 3. Failing builds                                                    */
/* ------------------------------------------------------------------ */

static void step_failing_build(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("3. failing build");
    printf("3. failing builds\n");
    cl_program p = source_program(ctx, "program_build_bad.cl");
    char *log = build_must_fail(p, dev, "", CL_BUILD_PROGRAM_FAILURE);
    printf("  build log of program_build_bad.cl:\n");
    for (char *line = log; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        printf("    | %.*s\n", (int)len, line);
        if (!end)
            break;
        line = end + 1;
    }
    /* The line that points at the bad name must say it is an error. */
    const char *at = strstr(log, ":6:23:");
    EXPECT(at != NULL, "build log has no \"<file>:6:23:\" location for the undeclared name on "
           "line 6:\n%s", log);
    const char *bol = at, *eol = strchr(at, '\n');
    while (bol > log && bol[-1] != '\n')
        bol--;
    size_t line_len = eol ? (size_t)(eol - bol) : strlen(bol);
    char *line = strndup(bol, line_len);
    EXPECT(line != NULL, "out of memory");
    EXPECT(strstr(line, "error") != NULL, "log line \"%s\" does not say error", line);
    /* The compiler-style "<file>:<line>:<col>: error: <message>" form. */
    if (!skip_check("log-location-first"))
        EXPECT(strstr(log, ":6:23: error:") != NULL,
               "build log has no \"<file>:6:23: error:\" for the undeclared name:\n%s", log);
    free(line);
    EXPECT(strstr(log, "undeclared_value") != NULL,
           "build log does not name undeclared_value:\n%s", log);
    free(log);
    expect_status(p, dev, CL_BUILD_ERROR);
    expect_no_kernel(p, "broken");
    size_t nk = 0;
    EXPECT_CODE(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK(clReleaseProgram(p));

    STEP("3. invalid build options");
    char *opts = with_inc("-D SCALE=3 -I %s");
    p = source_program(ctx, "program_build.cl");
    EXPECT_CODE(clBuildProgram(p, 1, &dev, "-cl-no-such-option", NULL, NULL),
                CL_INVALID_BUILD_OPTIONS);
    printf("  \"-cl-no-such-option\": CL_INVALID_BUILD_OPTIONS\n");
    build_ok(p, dev, opts);
    run_and_check(ctx, q, p, "scale_offset", 0, 3, PARAM_OFFSET, "rebuilt after bad options");
    CHECK(clReleaseProgram(p));
    free(opts);
}

/* ------------------------------------------------------------------ */
/* 4. Binaries                                                          */
/* ------------------------------------------------------------------ */

/** Check that the binary of built program `p` loads again and computes the same. */
static void round_trip(cl_context ctx, cl_device_id dev, cl_command_queue q, cl_program p,
                       int scale, const char *what)
{
    size_t size = 0;
    unsigned char *bin = program_binary(p, &size);
    cl_program again = binary_program(ctx, dev, bin, size);
    if (!skip_check("kernel-before-build"))
        expect_kernel_before_build(again, dev, "scale_offset");
    build_ok(again, dev, "");
    EXPECT(binary_type(again, dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
           "%s: reloaded program's CL_PROGRAM_BINARY_TYPE is %lu, expected EXECUTABLE", what,
           (unsigned long)binary_type(again, dev));
    printf("  %s: CL_PROGRAM_BINARIES gave %zu bytes that load again\n", what, size);
    run_and_check(ctx, q, again, "scale_offset", 0, scale, PARAM_OFFSET, what);
    CHECK(clReleaseProgram(again));
    free(bin);
}

static void step_binaries(cl_context ctx, cl_device_id dev, cl_command_queue q, int fpga,
                          const char *aocx_path)
{
    STEP("4. binaries");
    printf("4. binaries\n");
    if (!fpga) {
        printf("  skip: aocx (not an FPGA platform)\n");
    } else if (!aocx_path) {
        printf("  skip: aocx (no .aocx path given as argv[1])\n");
    } else {
        STEP("4. .aocx made by fpgacl aoc");
        size_t len = 0;
        unsigned char *bytes = (unsigned char *)read_file(aocx_path, &len);
        EXPECT(len > 0, "%s is empty", aocx_path);
        cl_program p = binary_program(ctx, dev, bytes, len);
        /* A program from an executable binary is executable before clBuildProgram on an FPGA
         * platform (Intel's rule); clBuildProgram is still accepted. */
        if (!skip_check("kernel-before-build"))
            expect_kernel_before_build(p, dev, "scale_offset");
        build_ok(p, dev, "");
        printf("  %s (%zu bytes): loaded and built\n", aocx_path, len);
        run_and_check(ctx, q, p, "scale_offset", 0, AOCX_SCALE, PARAM_OFFSET, ".aocx");
        round_trip(ctx, dev, q, p, AOCX_SCALE, "binary of the .aocx program");

        STEP("4. truncated .aocx");
        if (!skip_check("binary-truncated"))
            expect_invalid_binary(ctx, dev, bytes, len / 2, "first half of the .aocx");
        CHECK(clReleaseProgram(p));
        free(bytes);
    }

    STEP("4. binary of a source-built program");
    char *opts = with_inc("-D SCALE=5 -I %s");
    cl_program p = source_program(ctx, "program_build.cl");
    build_ok(p, dev, opts);
    round_trip(ctx, dev, q, p, 5, "binary of the source program");
    if (!skip_check("binary-truncated")) {
        size_t size = 0;
        unsigned char *bin = program_binary(p, &size);
        expect_invalid_binary(ctx, dev, bin, size / 2, "first half of the program binary");
        free(bin);
    }
    CHECK(clReleaseProgram(p));
    free(opts);

    STEP("4. garbage binary");
    unsigned char garbage[256];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (unsigned char)(i * 131u + 17u);
    memcpy(garbage, "this is not a program binary", 28);
    expect_invalid_binary(ctx, dev, garbage, sizeof garbage, "256 garbage bytes");
}

/* ------------------------------------------------------------------ */
/* 5. clCompileProgram + clLinkProgram                                  */
/* ------------------------------------------------------------------ */

/** clCompileProgram of `p` with the embedded header; returns the call's result. */
static cl_int compile_with_header(cl_program p, cl_device_id dev, const char *options,
                                  cl_program header)
{
    const char *names[1] = {"link/common.h"};
    return clCompileProgram(p, 1, &dev, options, 1, &header, names, NULL, NULL);
}

/** clCompileProgram that must succeed (prints the log otherwise). */
static void compile_ok(cl_program p, cl_device_id dev, const char *options, cl_program header,
                       const char *what)
{
    cl_int err = compile_with_header(p, dev, options, header);
    if (err != CL_SUCCESS) {
        char *log = build_log(p, dev);
        printf("compile log of %s:\n%s\n", what, log);
        FAILF("clCompileProgram(%s, options \"%s\", header link/common.h) returned %s (%d)", what,
              options, cl_err_name(err), (int)err);
    }
    expect_status(p, dev, CL_BUILD_SUCCESS);
    EXPECT(binary_type(p, dev) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
           "%s: CL_PROGRAM_BINARY_TYPE after clCompileProgram is %lu, expected COMPILED_OBJECT",
           what, (unsigned long)binary_type(p, dev));
}

/** clLinkProgram that must succeed; fails with the log otherwise. */
static cl_program link_ok(cl_context ctx, cl_device_id dev, const char *options, cl_uint n,
                          const cl_program *inputs, const char *what)
{
    cl_int err = CL_SUCCESS;
    cl_program p = clLinkProgram(ctx, 1, &dev, options, n, inputs, NULL, NULL, &err);
    if (err != CL_SUCCESS || p == NULL) {
        if (p) {
            char *log = build_log(p, dev);
            printf("link log of %s:\n%s\n", what, log);
        }
        FAILF("clLinkProgram(%s, options \"%s\") returned %s (%d), program %p", what, options,
              cl_err_name(err), (int)err, (void *)p);
    }
    expect_status(p, dev, CL_BUILD_SUCCESS);
    return p;
}

/** Print the first line of the build log of `p` containing `needle` ("  log: <line>"); fail if
 * there is none. */
static void print_log_line(cl_program p, cl_device_id dev, const char *needle)
{
    char *log = build_log(p, dev);
    char *hit = strstr(log, needle);
    if (!hit) {
        printf("build log:\n%s\n", log);
        FAILF("build log does not contain \"%s\"", needle);
    }
    char *start = hit;
    while (start > log && start[-1] != '\n')
        start--;
    char *end = strchr(hit, '\n');
    if (end)
        *end = '\0';
    printf("  log: %s\n", start);
    free(log);
}

/** 5a: a kernel unit calling a helper defined in another unit, linked directly and through a library. */
static void link_extern_function(cl_context ctx, cl_device_id dev, cl_command_queue q,
                                 cl_program header, cl_program unit_helper)
{
    STEP("5a. clCompileProgram of a unit calling an external function");
    cl_program unit_kernel = source_program(ctx, "program_build_link_kernel.cl");
    compile_ok(unit_kernel, dev, "", header, "the kernel unit (calls add_bias)");
    if (!skip_check("kernel-from-object"))
        expect_no_kernel(unit_kernel, "linked");

    STEP("5a. clLinkProgram of two objects");
    cl_program objects[2] = {unit_kernel, unit_helper};
    cl_program linked = link_ok(ctx, dev, "", 2, objects, "kernel unit + helper unit");
    EXPECT(binary_type(linked, dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
           "linked program's CL_PROGRAM_BINARY_TYPE is %lu, expected EXECUTABLE",
           (unsigned long)binary_type(linked, dev));
    run_and_check(ctx, q, linked, "linked", LINK_BIAS, 1, 0, "linked objects");
    CHECK(clReleaseProgram(linked));

    STEP("5a. -create-library");
    cl_program lib = link_ok(ctx, dev, "-create-library", 1, &unit_helper, "helper library");
    EXPECT(binary_type(lib, dev) == CL_PROGRAM_BINARY_TYPE_LIBRARY,
           "-create-library program's CL_PROGRAM_BINARY_TYPE is %lu, expected LIBRARY",
           (unsigned long)binary_type(lib, dev));
    if (!skip_check("kernel-from-object"))
        expect_no_kernel(lib, "linked");
    cl_program with_lib[2] = {unit_kernel, lib};
    linked = link_ok(ctx, dev, "", 2, with_lib, "kernel unit + helper library");
    run_and_check(ctx, q, linked, "linked", LINK_BIAS, 1, 0, "object + library");
    CHECK(clReleaseProgram(linked));
    CHECK(clReleaseProgram(lib));

    STEP("5a. unresolved function at link");
    cl_int err = CL_SUCCESS;
    cl_program bad = clLinkProgram(ctx, 1, &dev, "", 1, &unit_kernel, NULL, NULL, &err);
    EXPECT(err == CL_LINK_PROGRAM_FAILURE,
           "clLinkProgram of the kernel unit alone (add_bias undefined) returned %s (%d), "
           "expected CL_LINK_PROGRAM_FAILURE", cl_err_name(err), (int)err);
    if (bad) {
        expect_status(bad, dev, CL_BUILD_ERROR);
        expect_log_contains(bad, dev, "add_bias");
        if (!skip_check("link-log-details"))
            print_log_line(bad, dev, "undefined symbol: function 'add_bias'");
        CHECK(clReleaseProgram(bad));
    }
    printf("  kernel unit alone: CL_LINK_PROGRAM_FAILURE (add_bias undefined)\n");
    CHECK(clReleaseProgram(unit_kernel));
}

/** 5b: options given to clCompileProgram for one unit still hold after clLinkProgram. */
static void link_keeps_compile_options(cl_context ctx, cl_device_id dev, cl_command_queue q,
                                       cl_program header, cl_program unit_helper)
{
    STEP("5b. per-unit clCompileProgram options");
    cl_program unit = source_program(ctx, "program_build_link_options.cl");
    compile_ok(unit, dev, "-D LINK_FACTOR=2", header, "the -D LINK_FACTOR=2 unit");
    cl_program objects[2] = {unit, unit_helper};
    cl_program linked = link_ok(ctx, dev, "", 2, objects, "-D unit + helper unit");
    run_and_check(ctx, q, linked, "scaled", LINK_BIAS, LINK_FACTOR, 0,
                  "unit compiled with -D LINK_FACTOR=2, linked");
    CHECK(clReleaseProgram(linked));
    CHECK(clReleaseProgram(unit));
}

/** clCompileProgram of a kernel file that must succeed; returns the compiled object. */
static cl_program compiled_unit(cl_context ctx, cl_device_id dev, const char *file,
                                const char *options, cl_program header)
{
    cl_program p = source_program(ctx, file);
    compile_ok(p, dev, options, header, file);
    return p;
}

/** CL_PROGRAM_KERNEL_NAMES of `p` (heap). */
static char *kernel_names(cl_program p)
{
    size_t len = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &len));
    char *names = calloc(1, len + 1);
    EXPECT(names != NULL, "out of memory");
    CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, len, names, NULL));
    return names;
}

/** 5c: static functions stay in their unit, duplicate symbols, link options, callbacks. */
static void link_by_symbol(cl_context ctx, cl_device_id dev, cl_command_queue q,
                           cl_program header, cl_program unit_helper)
{
    STEP("5c. static functions with the same name in two units");
    cl_program a = compiled_unit(ctx, dev, "program_build_link_static_a.cl", "", header);
    cl_program b = compiled_unit(ctx, dev, "program_build_link_static_b.cl", "", header);
    cl_program three[3] = {a, b, unit_helper};
    cl_program linked = link_ok(ctx, dev, "", 3, three, "two units with a static adjust()");
    char *names = kernel_names(linked);
    EXPECT(strcmp(names, "static_a;static_b") == 0 || strcmp(names, "static_b;static_a") == 0,
           "CL_PROGRAM_KERNEL_NAMES of the linked program is \"%s\", expected static_a and "
           "static_b", names);
    free(names);
    run_and_check(ctx, q, linked, "static_a", 1, 1, 0, "static adjust() of unit a");
    run_and_check(ctx, q, linked, "static_b", LINK_BIAS, 3, 0, "static adjust() of unit b");
    CHECK(clReleaseProgram(linked));

    STEP("5c. duplicate symbol");
    cl_program dup = compiled_unit(ctx, dev, "program_build_link_dup.cl", "", header);
    cl_program twice[2] = {unit_helper, dup};
    cl_int err = CL_SUCCESS;
    cl_program bad = clLinkProgram(ctx, 1, &dev, "", 2, twice, NULL, NULL, &err);
    EXPECT(err == CL_LINK_PROGRAM_FAILURE,
           "clLinkProgram of two units defining add_bias returned %s (%d), expected "
           "CL_LINK_PROGRAM_FAILURE", cl_err_name(err), (int)err);
    if (bad) {
        expect_status(bad, dev, CL_BUILD_ERROR);
        expect_log_contains(bad, dev, "add_bias");
        if (!skip_check("link-log-details"))
            print_log_line(bad, dev, "duplicate symbol: function 'add_bias'");
        CHECK(clReleaseProgram(bad));
    }
    printf("  add_bias defined in two units: CL_LINK_PROGRAM_FAILURE\n");
    CHECK(clReleaseProgram(dup));

    STEP("5c. link options and callbacks");
    cl_program unit_kernel = compiled_unit(ctx, dev, "program_build_link_kernel.cl", "", header);
    cl_program objects[2] = {unit_kernel, unit_helper};
    struct build_notice notice = {0, NULL};
    err = CL_SUCCESS;
    const char *math = skip_check("link-math-options")
                           ? ""
                           : "-cl-fast-relaxed-math -cl-denorms-are-zero";
    linked = clLinkProgram(ctx, 1, &dev, math, 2, objects, on_build_done, &notice, &err);
    CHECK_ERR(err, "clLinkProgram(math options, callback)");
    for (int i = 0; i < 10000 && __atomic_load_n(&notice.calls, __ATOMIC_SEQ_CST) == 0; i++)
        sleep_ms(1);
    EXPECT(__atomic_load_n(&notice.calls, __ATOMIC_SEQ_CST) == 1 && notice.program == linked,
           "clLinkProgram's callback ran %d times with program %p, expected once with %p",
           notice.calls, (void *)notice.program, (void *)linked);
    run_and_check(ctx, q, linked, "linked", LINK_BIAS, 1, 0, "math link options, callback");
    CHECK(clReleaseProgram(linked));

    cl_program lib = link_ok(ctx, dev, "-create-library -enable-link-options", 1, &unit_helper,
                             "library with -enable-link-options");
    EXPECT(binary_type(lib, dev) == CL_PROGRAM_BINARY_TYPE_LIBRARY,
           "-create-library -enable-link-options gave binary type %lu, expected LIBRARY",
           (unsigned long)binary_type(lib, dev));
    CHECK(clReleaseProgram(lib));

    struct build_notice cnotice = {0, NULL};
    cl_program c = source_program(ctx, "program_build_link_helper.cl");
    const char *hnames[1] = {"link/common.h"};
    CHECK(clCompileProgram(c, 1, &dev, "", 1, &header, hnames, on_build_done, &cnotice));
    for (int i = 0; i < 10000 && __atomic_load_n(&cnotice.calls, __ATOMIC_SEQ_CST) == 0; i++)
        sleep_ms(1);
    EXPECT(__atomic_load_n(&cnotice.calls, __ATOMIC_SEQ_CST) == 1 && cnotice.program == c,
           "clCompileProgram's callback ran %d times with program %p, expected once with %p",
           cnotice.calls, (void *)cnotice.program, (void *)c);
    CHECK(clReleaseProgram(c));
    printf("  link options and callbacks of clCompileProgram/clLinkProgram correct\n");
    CHECK(clReleaseProgram(unit_kernel));
    CHECK(clReleaseProgram(a));
    CHECK(clReleaseProgram(b));
}

/** A program from the binary of `p`, which must have binary type `want`. */
static cl_program reload(cl_context ctx, cl_device_id dev, cl_program p,
                         cl_program_binary_type want, const char *what)
{
    size_t len = 0;
    unsigned char *bin = program_binary(p, &len);
    cl_program r = binary_program(ctx, dev, bin, len);
    free(bin);
    EXPECT(binary_type(r, dev) == want,
           "%s from its binary: CL_PROGRAM_BINARY_TYPE is %lu, expected %lu", what,
           (unsigned long)binary_type(r, dev), (unsigned long)want);
    return r;
}

/** 5d: compiled objects, libraries and linked executables through their binaries. */
static void link_binaries(cl_context ctx, cl_device_id dev, cl_command_queue q,
                          cl_program header, cl_program unit_helper)
{
    STEP("5d. binary of a compiled object");
    cl_program unit = compiled_unit(ctx, dev, "program_build_link_options.cl",
                                    "-D LINK_FACTOR=2", header);
    cl_program obj = reload(ctx, dev, unit, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                            "compiled object");
    cl_program objects[2] = {obj, unit_helper};
    cl_program linked = link_ok(ctx, dev, "", 2, objects, "object from its binary + helper");
    run_and_check(ctx, q, linked, "scaled", LINK_BIAS, LINK_FACTOR, 0,
                  "object from its binary (-D LINK_FACTOR=2 kept), linked");

    STEP("5d. binary of a linked executable");
    cl_program exe = reload(ctx, dev, linked, CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                            "linked executable");
    build_ok(exe, dev, "");
    run_and_check(ctx, q, exe, "scaled", LINK_BIAS, LINK_FACTOR, 0,
                  "linked executable from its binary");
    CHECK(clReleaseProgram(exe));
    CHECK(clReleaseProgram(linked));

    STEP("5d. binary of a library");
    cl_program lib = link_ok(ctx, dev, "-create-library", 1, &unit_helper, "helper library");
    cl_program lib2 = reload(ctx, dev, lib, CL_PROGRAM_BINARY_TYPE_LIBRARY, "library");
    cl_program with_lib[2] = {obj, lib2};
    linked = link_ok(ctx, dev, "", 2, with_lib, "object + library, both from binaries");
    run_and_check(ctx, q, linked, "scaled", LINK_BIAS, LINK_FACTOR, 0,
                  "object + library from their binaries, linked");
    CHECK(clReleaseProgram(linked));
    CHECK(clReleaseProgram(lib2));
    CHECK(clReleaseProgram(lib));
    CHECK(clReleaseProgram(obj));
    CHECK(clReleaseProgram(unit));

    if (skip_check("build-object-binary"))
        return;
    STEP("5d. clBuildProgram of a compiled object's binary");
    cl_program self_contained = compiled_unit(ctx, dev, "program_build_link_static_a.cl", "",
                                              header);
    cl_program sobj = reload(ctx, dev, self_contained, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                             "self-contained object");
    build_ok(sobj, dev, "");
    EXPECT(binary_type(sobj, dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
           "built object binary: CL_PROGRAM_BINARY_TYPE is %lu, expected EXECUTABLE",
           (unsigned long)binary_type(sobj, dev));
    run_and_check(ctx, q, sobj, "static_a", 1, 1, 0, "object binary built with clBuildProgram");
    CHECK(clReleaseProgram(sobj));
    CHECK(clReleaseProgram(self_contained));
}

static void step_compile_link(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    STEP("5. clCompileProgram");
    printf("5. clCompileProgram + clLinkProgram\n");
    cl_program header = source_program(ctx, "program_build_link.h");
    cl_program unit_helper = source_program(ctx, "program_build_link_helper.cl");
    compile_ok(unit_helper, dev, "", header, "the helper unit");
    printf("  helper unit compiled (embedded header \"link/common.h\")\n");

    link_extern_function(ctx, dev, q, header, unit_helper);
    link_keeps_compile_options(ctx, dev, q, header, unit_helper);
    link_by_symbol(ctx, dev, q, header, unit_helper);
    if (!skip_check("object-binary"))
        link_binaries(ctx, dev, q, header, unit_helper);

    STEP("5. compile error");
    const char *broken_src = "#include \"link/common.h\"\n"
                             "int twice(int x)\n"
                             "{\n"
                             "    return x * 2 +;\n"
                             "}\n";
    cl_int err = CL_SUCCESS;
    cl_program broken = clCreateProgramWithSource(ctx, 1, &broken_src, NULL, &err);
    CHECK_ERR(err, "clCreateProgramWithSource(broken unit)");
    EXPECT_CODE(compile_with_header(broken, dev, "", header), CL_COMPILE_PROGRAM_FAILURE);
    expect_status(broken, dev, CL_BUILD_ERROR);
    expect_log_contains(broken, dev, ":4:");
    expect_log_contains(broken, dev, "error");
    printf("  syntax error on line 4: CL_COMPILE_PROGRAM_FAILURE with a log for line 4\n");

    STEP("5. invalid compiler and linker options");
    EXPECT_CODE(compile_with_header(broken, dev, "-cl-no-such-option", header),
                CL_INVALID_COMPILER_OPTIONS);
    err = CL_SUCCESS;
    cl_program none = clLinkProgram(ctx, 1, &dev, "-cl-no-such-option", 1, &unit_helper, NULL,
                                    NULL, &err);
    EXPECT(err == CL_INVALID_LINKER_OPTIONS && none == NULL,
           "clLinkProgram with \"-cl-no-such-option\" returned %s (%d), program %p, expected "
           "CL_INVALID_LINKER_OPTIONS and NULL", cl_err_name(err), (int)err, (void *)none);
    printf("  \"-cl-no-such-option\": CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS\n");

    CHECK(clReleaseProgram(broken));
    CHECK(clReleaseProgram(unit_helper));
    CHECK(clReleaseProgram(header));
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    const char *aocx = (argc > 1 && argv[1][0]) ? argv[1] : NULL;
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    int fpga = is_fpga_platform(platform);
    g_fpga_platform = fpga;
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);

    step_source_options(ctx, dev, q);
    step_arg_info(ctx, dev);
    step_failing_build(ctx, dev, q);
    step_binaries(ctx, dev, q, fpga, aocx);
    step_compile_link(ctx, dev, q);

    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("program_build");
}
