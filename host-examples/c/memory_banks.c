/*
 * memory_banks.c: global memory banks, burst-interleaved (the default) or partitioned by hand
 * (fpgacl timing rule B5; Best Practices Guide "Manual Partitioning of Global Memory": compile
 * with -no-interleaving=default and separate the read and write buffers into different DDR
 * banks).
 *
 * Loads kernels/memory_banks.cl (or argv[1]) twice: built with -no-interleaving=default and
 * built without it. Buffers: A1 (CL_CHANNEL_1_INTELFPGA, the input), B1 (CL_CHANNEL_1),
 * B2 (CL_CHANNEL_2), AUTO (no bank flag, the input's copy). Times with event profiling
 * (CL_PROFILING_COMMAND_START/END, emulated device time) a memory-bound copy of BK_N floats
 * (default 2^20) reading one buffer and writing another:
 *   ni_same: -no-interleaving, A1 -> B1 (both in bank 1)
 *   ni_split: -no-interleaving, A1 -> B2 (read and write in different banks)
 *   ni_auto: -no-interleaving, AUTO -> B1 (AUTO is the first bank, as bank 1)
 *   ni_prop: -no-interleaving, A1 -> P2, P2 placed in bank 2 with
 *     clCreateBufferWithPropertiesINTEL { CL_MEM_CHANNEL_INTEL, 2, 0 } (as ni_split)
 *   kind_same: built with -no-interleaving=$BK_MEMTYPE (default DDR4, the default board's
 *     memory type, named instead of "default"), A1 -> B1
 *   bin_same: the -no-interleaving=default program's binary (CL_PROGRAM_BINARIES) loaded
 *     with clCreateProgramWithBinary: the option travels in the .aocx, A1 -> B1
 *   il_same, il_split: interleaved, the same buffers (the flags change nothing)
 * Every copy's output is checked; a malformed -no-interleaving value must be
 * CL_INVALID_BUILD_OPTIONS, and so must a memory type the board does not have. Prints key=value lines that the tests read.
 */
#include "common.h"
#include "../../include/CL/fpgacl_intel_ext.h"

static cl_ulong time_copy(cl_command_queue q, cl_kernel k, cl_mem src, cl_mem dst,
                          const float *want, float *tmp, size_t n, const char *what)
{
    float minus_one = -1.0f;
    size_t bytes = n * sizeof *tmp, wg = 256;
    CHECK(clEnqueueFillBuffer(q, dst, &minus_one, sizeof minus_one, 0, bytes, 0, NULL, NULL));
    CHECK(clFinish(q));
    CHECK(clSetKernelArg(k, 0, sizeof src, &src));
    CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
    cl_event e;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &wg, 0, NULL, &e));
    CHECK(clWaitForEvents(1, &e));
    CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        if (tmp[i] != want[i])
            FAILF("%s: dst[%zu] = %f, expected %f", what, i, tmp[i], want[i]);
    cl_ulong d = profile_time(e, CL_PROFILING_COMMAND_END) -
                 profile_time(e, CL_PROFILING_COMMAND_START);
    CHECK(clReleaseEvent(e));
    printf("  %s_ns=%llu\n", what, (unsigned long long)d);
    return d;
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("BK_N", 1u << 20);
    EXPECT(n >= 1024 && n % 256 == 0, "BK_N must be a multiple of 256 (>= 1024)");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    const char *path = kernel_path(argc, argv, "memory_banks.cl");
    cl_program pni = build_program(ctx, dev, path, "-no-interleaving=default");
    cl_program pil = build_program(ctx, dev, path, "");
    cl_kernel kni = create_kernel(pni, "copy");
    cl_kernel kil = create_kernel(pil, "copy");
    const char *memtype = getenv("BK_MEMTYPE");
    char kind_opt[128];
    snprintf(kind_opt, sizeof kind_opt, "-no-interleaving=%s",
             memtype && *memtype ? memtype : "DDR4");
    cl_program pkind = build_program(ctx, dev, path, kind_opt);
    cl_kernel kkind = create_kernel(pkind, "copy");

    STEP("a malformed -no-interleaving value is CL_INVALID_BUILD_OPTIONS");
    {
        size_t len = 0;
        char *src = read_file(path, &len);
        const char *srcs[] = {src};
        cl_int err;
        cl_program bad = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
        CHECK(err);
        cl_int b1 = clBuildProgram(bad, 1, &dev, "-no-interleaving=", NULL, NULL);
        cl_int b2 = clBuildProgram(bad, 1, &dev, "-no-interleaving=no/such", NULL, NULL);
        cl_int b3 = clBuildProgram(bad, 1, &dev, "-no-interleaving=NOSUCHMEM", NULL, NULL);
        EXPECT(b3 == CL_INVALID_BUILD_OPTIONS, "-no-interleaving=NOSUCHMEM gave %s",
               cl_err_name(b3));
        EXPECT(b1 == CL_INVALID_BUILD_OPTIONS, "-no-interleaving= gave %s", cl_err_name(b1));
        EXPECT(b2 == CL_INVALID_BUILD_OPTIONS, "-no-interleaving=no/such gave %s",
               cl_err_name(b2));
        CHECK(clReleaseProgram(bad));
        free(src);
    }

    STEP("inputs");
    float *in = malloc(n * sizeof *in), *tmp = malloc(n * sizeof *tmp);
    EXPECT(in && tmp, "out of memory");
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 4099) * 0.5f - 700.0f;
    size_t bytes = n * sizeof *in;
    cl_mem a1 = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_CHANNEL_1_INTELFPGA,
                              bytes, in);
    cl_mem aauto = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in);
    cl_mem b1 = create_buffer(ctx, CL_MEM_READ_WRITE | CL_CHANNEL_1_INTELFPGA, bytes, NULL);
    cl_mem b2 = create_buffer(ctx, CL_MEM_READ_WRITE | CL_CHANNEL_2_INTELFPGA, bytes, NULL);
    clCreateBufferWithPropertiesINTEL_fn create_buffer_props =
        (clCreateBufferWithPropertiesINTEL_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateBufferWithPropertiesINTEL");
    EXPECT(create_buffer_props, "clCreateBufferWithPropertiesINTEL is not available");
    cl_mem_properties props[] = {CL_MEM_CHANNEL_INTEL, 2, 0};
    cl_int perr = CL_SUCCESS;
    cl_mem p2 = create_buffer_props(ctx, props, CL_MEM_READ_WRITE, bytes, NULL, &perr);
    CHECK_ERR(perr, "clCreateBufferWithPropertiesINTEL(CL_MEM_CHANNEL_INTEL, 2)");
    printf("  copy_bytes=%llu\n", 2ull * (unsigned long long)bytes);

    STEP("-no-interleaving=default: same bank, separate banks, AUTO");
    cl_ulong ni_same = time_copy(q, kni, a1, b1, in, tmp, n, "ni_same");
    cl_ulong ni_split = time_copy(q, kni, a1, b2, in, tmp, n, "ni_split");
    cl_ulong ni_auto = time_copy(q, kni, aauto, b1, in, tmp, n, "ni_auto");
    cl_ulong ni_prop = time_copy(q, kni, a1, p2, in, tmp, n, "ni_prop");
    cl_ulong bin_same;
    {
        size_t bin_size = 0;
        CHECK(clGetProgramInfo(pni, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
        unsigned char *bin = malloc(bin_size);
        EXPECT(bin, "out of memory");
        unsigned char *bins[] = {bin};
        CHECK(clGetProgramInfo(pni, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
        const unsigned char *cbins[] = {bin};
        cl_int st = CL_SUCCESS, err = CL_SUCCESS;
        cl_program pbin = clCreateProgramWithBinary(ctx, 1, &dev, &bin_size, cbins, &st, &err);
        CHECK_ERR(err, "clCreateProgramWithBinary");
        CHECK(clBuildProgram(pbin, 1, &dev, "", NULL, NULL));
        cl_kernel kbin = create_kernel(pbin, "copy");
        bin_same = time_copy(q, kbin, a1, b1, in, tmp, n, "bin_same");
        CHECK(clReleaseKernel(kbin));
        CHECK(clReleaseProgram(pbin));
        free(bin);
    }
    cl_ulong kind_same = time_copy(q, kkind, a1, b1, in, tmp, n, "kind_same");

    STEP("interleaved: the flags change nothing");
    cl_ulong il_same = time_copy(q, kil, a1, b1, in, tmp, n, "il_same");
    cl_ulong il_split = time_copy(q, kil, a1, b2, in, tmp, n, "il_split");

    printf("  same bank / separate banks (no interleaving): x%.3f\n",
           (double)ni_same / (double)ni_split);
    printf("  interleaved / separate banks: x%.3f\n", (double)il_same / (double)ni_split);
    EXPECT(ni_same > ni_split, "one bank for both buffers was not slower (%llu vs %llu ns)",
           (unsigned long long)ni_same, (unsigned long long)ni_split);
    EXPECT(il_same == il_split, "interleaved: the bank flags changed the time (%llu vs %llu)",
           (unsigned long long)il_same, (unsigned long long)il_split);
    EXPECT(ni_prop == ni_split, "CL_MEM_CHANNEL_INTEL 2 is not bank 2 (%llu vs %llu ns)",
           (unsigned long long)ni_prop, (unsigned long long)ni_split);
    EXPECT(bin_same == ni_same, "the program from the binary lost -no-interleaving (%llu vs %llu)",
           (unsigned long long)bin_same, (unsigned long long)ni_same);
    EXPECT(kind_same == ni_same, "%s differs from -no-interleaving=default (%llu vs %llu ns)",
           kind_opt, (unsigned long long)kind_same, (unsigned long long)ni_same);
    EXPECT(ni_auto == ni_same, "AUTO is not the first bank (%llu vs %llu ns)",
           (unsigned long long)ni_auto, (unsigned long long)ni_same);

    CHECK(clReleaseMemObject(a1));
    CHECK(clReleaseMemObject(aauto));
    CHECK(clReleaseMemObject(b1));
    CHECK(clReleaseMemObject(b2));
    CHECK(clReleaseMemObject(p2));
    CHECK(clReleaseKernel(kni));
    CHECK(clReleaseKernel(kil));
    CHECK(clReleaseKernel(kkind));
    CHECK(clReleaseProgram(pkind));
    CHECK(clReleaseProgram(pni));
    CHECK(clReleaseProgram(pil));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(in);
    free(tmp);
    return pass("memory_banks");
}
