/*
 * enqueue_scaling.c: ENQ_N (default 100000) tiny single work-item kernels
 * enqueued back to back on one in-order queue before a single clFinish, with
 * and without CL_QUEUE_PROFILING_ENABLE (ENQ_PROFILING=0|1|both, default both).
 * Each launch computes counter = counter * 3 + step (step = its index mod 7),
 * so the final value checks that every launch ran exactly once and in order.
 * Prints the host wall time of the enqueue loop and of the whole batch
 * ("host wall X ms") and the time per command; the benchmark
 * (scripts/bench.sh) runs it at several sizes to show the cost per command
 * stays flat.
 */
#include "common.h"

static double run_batch(cl_context ctx, cl_device_id dev, cl_kernel k, cl_mem bc, size_t n,
                        int profiling)
{
    cl_command_queue q = create_queue(ctx, dev, profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
    cl_int zero = 0;
    CHECK(clEnqueueWriteBuffer(q, bc, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof bc, &bc));
    STEP("enqueue");
    double t0 = now_ms();
    for (size_t i = 0; i < n; i++) {
        cl_int step = (cl_int)(i % 7);
        CHECK(clSetKernelArg(k, 1, sizeof step, &step));
        CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    }
    double t_enq = now_ms() - t0;
    STEP("finish");
    CHECK(clFinish(q));
    double wall = now_ms() - t0;
    cl_int got = 0;
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    uint32_t want = 0;
    for (size_t i = 0; i < n; i++)
        want = want * 3u + (uint32_t)(i % 7);
    EXPECT((uint32_t)got == want, "counter = %u after %zu launches, expected %u", (uint32_t)got,
           n, want);
    printf("  %zu launches, profiling %s: enqueue %.1f ms, host wall %.1f ms (%.2f us per launch)\n",
           n, profiling ? "on" : "off", t_enq, wall, wall * 1e3 / (double)n);
    CHECK(clReleaseCommandQueue(q));
    return wall;
}

int main(int argc, char **argv)
{
    install_watchdog(1800);
    size_t n = env_number("ENQ_N", 100000);
    EXPECT(n > 0 && n <= 100000000, "ENQ_N out of range");
    const char *mode = getenv("ENQ_PROFILING");
    if (!mode || !*mode)
        mode = "both";
    EXPECT(!strcmp(mode, "0") || !strcmp(mode, "1") || !strcmp(mode, "both"),
           "ENQ_PROFILING must be 0, 1 or both");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "enqueue_scaling.cl"), "");
    cl_kernel k = create_kernel(prog, "tick");
    cl_mem bc = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL);
    if (strcmp(mode, "1"))
        run_batch(ctx, dev, k, bc, n, 0);
    if (strcmp(mode, "0"))
        run_batch(ctx, dev, k, bc, n, 1);
    CHECK(clReleaseMemObject(bc));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseContext(ctx));
    return pass("enqueue_scaling");
}
