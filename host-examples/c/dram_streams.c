/*
 * dram_streams.c: several memory streams sharing the interleaved DRAM banks (fpgacl timing
 * rules D1-D7) and the kernel clock a program was built for (-clock=<MHz>).
 *
 * Loads kernels/dram_streams.cl (or argv[1]), built with the options in DS_OPTIONS (default
 * none), and times with event profiling (CL_PROFILING_COMMAND_START/END, emulated device
 * time) three memory-bound kernels over DS_N work-items (default 2^16) of one float16 each:
 *   read1: one read stream;
 *   copy:  one read + one write stream;
 *   add4:  four read streams + one write stream.
 * Then the same read1 from the program's binary (CL_PROGRAM_BINARIES ->
 * clCreateProgramWithBinary): the build options, -clock among them, travel in the .aocx.
 * Every output is checked. Prints key=value lines the tests read: <kernel>_ns, <kernel>_bytes
 * (bytes moved: arrays x DS_N x 64), bin_read1_ns.
 */
#include "common.h"

static cl_ulong timed(cl_command_queue q, cl_kernel k, size_t n, const char *what)
{
    size_t wg = 256;
    cl_event e;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &wg, 0, NULL, &e));
    CHECK(clWaitForEvents(1, &e));
    cl_ulong d = profile_time(e, CL_PROFILING_COMMAND_END) -
                 profile_time(e, CL_PROFILING_COMMAND_START);
    CHECK(clReleaseEvent(e));
    printf("  %s_ns=%llu\n", what, (unsigned long long)d);
    return d;
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("DS_N", 1u << 16);
    EXPECT(n >= 1024 && n % 256 == 0, "DS_N must be a multiple of 256 (>= 1024)");
    const char *options = getenv("DS_OPTIONS");
    if (!options)
        options = "";
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    const char *path = kernel_path(argc, argv, "dram_streams.cl");
    cl_program prog = build_program(ctx, dev, path, options);

    STEP("buffers");
    size_t floats = n * 16, bytes = floats * sizeof(float);
    float *h = malloc(bytes), *out = malloc(bytes);
    EXPECT(h && out, "out of memory");
    cl_mem arr[5];
    for (int j = 0; j < 5; j++) {
        for (size_t i = 0; i < floats; i++)
            h[i] = (float)((i + 7 * j) % 1021) * 0.25f + (float)j;
        arr[j] = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h);
    }
    cl_mem sink = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * 16, NULL);

    STEP("read1: one stream");
    cl_kernel kr = create_kernel(prog, "read1");
    CHECK(clSetKernelArg(kr, 0, sizeof arr[0], &arr[0]));
    CHECK(clSetKernelArg(kr, 1, sizeof sink, &sink));
    timed(q, kr, n, "read1");
    printf("  read1_bytes=%llu\n", (unsigned long long)bytes);

    STEP("copy: two streams");
    cl_kernel kc = create_kernel(prog, "copy");
    CHECK(clSetKernelArg(kc, 0, sizeof arr[0], &arr[0]));
    CHECK(clSetKernelArg(kc, 1, sizeof arr[4], &arr[4]));
    timed(q, kc, n, "copy");
    printf("  copy_bytes=%llu\n", 2ull * (unsigned long long)bytes);
    CHECK(clEnqueueReadBuffer(q, arr[4], CL_TRUE, 0, bytes, out, 0, NULL, NULL));
    for (size_t i = 0; i < floats; i++) {
        float want = (float)(i % 1021) * 0.25f;
        if (out[i] != want)
            FAILF("copy: out[%zu] = %f, expected %f", i, out[i], want);
    }

    STEP("add4: five streams");
    cl_kernel ka = create_kernel(prog, "add4");
    for (int j = 0; j < 5; j++)
        CHECK(clSetKernelArg(ka, j, sizeof arr[j], &arr[j]));
    timed(q, ka, n, "add4");
    printf("  add4_bytes=%llu\n", 5ull * (unsigned long long)bytes);
    CHECK(clEnqueueReadBuffer(q, arr[4], CL_TRUE, 0, bytes, out, 0, NULL, NULL));
    for (size_t i = 0; i < floats; i++) {
        float want = 0.0f;
        for (int j = 0; j < 4; j++)
            want += (float)((i + 7 * j) % 1021) * 0.25f + (float)j;
        float d = out[i] - want, tol = 1e-3f * (want < 0 ? -want : want) + 1e-3f;
        if (d > tol || d < -tol)
            FAILF("add4: out[%zu] = %f, expected %f", i, out[i], want);
    }

    STEP("read1 from the program's binary");
    {
        size_t bin_size = 0;
        CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
        unsigned char *bin = malloc(bin_size);
        EXPECT(bin, "out of memory");
        unsigned char *bins[] = {bin};
        CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
        const unsigned char *cbins[] = {bin};
        cl_int st = CL_SUCCESS, err = CL_SUCCESS;
        cl_program pbin = clCreateProgramWithBinary(ctx, 1, &dev, &bin_size, cbins, &st, &err);
        CHECK_ERR(err, "clCreateProgramWithBinary");
        CHECK(clBuildProgram(pbin, 1, &dev, "", NULL, NULL));
        cl_kernel kb = create_kernel(pbin, "read1");
        CHECK(clSetKernelArg(kb, 0, sizeof arr[0], &arr[0]));
        CHECK(clSetKernelArg(kb, 1, sizeof sink, &sink));
        timed(q, kb, n, "bin_read1");
        CHECK(clReleaseKernel(kb));
        CHECK(clReleaseProgram(pbin));
        free(bin);
    }

    for (int j = 0; j < 5; j++)
        CHECK(clReleaseMemObject(arr[j]));
    CHECK(clReleaseMemObject(sink));
    CHECK(clReleaseKernel(kr));
    CHECK(clReleaseKernel(kc));
    CHECK(clReleaseKernel(ka));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(h);
    free(out);
    return pass("dram_streams");
}
