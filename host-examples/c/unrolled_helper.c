/*
 * unrolled_helper.c: runs kernels/unrolled_helper.cl (a 64-deep shift register in a helper
 * function, unrolled after inlining) over UH_COUNT iterations (default 65536) with
 * clEnqueueTask, checks out[i] = i - 63 (0 for the first 63), and prints the device time and
 * the device cycles per iteration as `name=value` figures.
 */
#include "common.h"

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("UH_COUNT", 65536);
    EXPECT(n > 64 && n <= (1u << 24), "UH_COUNT out of range");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog =
        build_program(ctx, dev, kernel_path(argc, argv, "unrolled_helper.cl"), "");
    cl_kernel k = create_kernel(prog, "unrolled_helper");

    STEP("run kernel");
    cl_mem bo = create_buffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(cl_float), NULL);
    cl_int count = (cl_int)n;
    CHECK(clSetKernelArg(k, 0, sizeof bo, &bo));
    CHECK(clSetKernelArg(k, 1, sizeof count, &count));
    cl_event ev = NULL;
    CHECK(clEnqueueTask(q, k, 0, NULL, &ev));
    cl_float *out = malloc(n * sizeof *out);
    EXPECT(out != NULL, "out of memory");
    CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * sizeof *out, out, 1, &ev, NULL));
    cl_ulong start = profile_time(ev, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile_time(ev, CL_PROFILING_COMMAND_END);
    EXPECT(end > start, "kernel END not after START");
    cl_uint mhz = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL));
    double cycles = (double)(end - start) * 1e-9 * (double)mhz * 1e6;
    printf("kernel_ns=%llu\n", (unsigned long long)(end - start));
    printf("clock_mhz=%u\n", mhz);
    printf("cycles_per_iteration=%.4f\n", cycles / (double)n);

    STEP("check");
    for (size_t i = 0; i < n; i++) {
        float want = i < 63 ? 0.0f : (float)(i - 63);
        EXPECT(out[i] == want, "out[%zu] = %g, expected %g", i, out[i], want);
    }

    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseMemObject(bo));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(out);
    return pass("unrolled_helper");
}
