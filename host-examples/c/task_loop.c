/*
 * task_loop.c: a single work-item loop of LOOP_N iterations (default 2^20),
 * launched with clEnqueueTask: the accumulator shape of the Best Practices
 * Guide at benchmark size. Checks the three loop-carried results against
 * the host and prints the kernel's host wall time.
 */
#include "common.h"

static uint32_t rotl(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

int main(int argc, char **argv)
{
    install_watchdog(1800);
    size_t n = env_number("LOOP_N", 1u << 20);
    EXPECT(n > 0 && n <= 0x7fffffff, "LOOP_N out of range");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "task_loop.cl"), "");
    cl_kernel k = create_kernel(prog, "task_loop");

    STEP("inputs");
    cl_int *a = malloc(n * sizeof *a);
    EXPECT(a != NULL, "out of memory");
    cl_int want_sum = 0;
    uint32_t want_sq = 0, want_hash = 0x811C9DC5u;
    for (size_t i = 0; i < n; i++) {
        a[i] = (cl_int)((i * 2654435761u) % 20001u) - 10000;
        want_sum = (cl_int)((uint32_t)want_sum + (uint32_t)a[i]);
        want_sq += (uint32_t)a[i] * (uint32_t)a[i];
        want_hash = rotl(want_hash ^ (uint32_t)a[i], 5) * 16777619u;
    }
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *a, a);
    cl_mem bo = create_buffer(ctx, CL_MEM_WRITE_ONLY, 3 * sizeof(cl_int), NULL);
    cl_int ni = (cl_int)n;
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK(clSetKernelArg(k, 2, sizeof ni, &ni));

    STEP("run kernel");
    cl_event ev = NULL;
    cl_int out[3] = {0, 0, 0};
    double t0 = now_ms();
    CHECK(clEnqueueTask(q, k, 0, NULL, &ev));
    CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 1, &ev, NULL));
    double wall = now_ms() - t0;
    cl_ulong start = profile_time(ev, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile_time(ev, CL_PROFILING_COMMAND_END);
    EXPECT(end >= start, "kernel END before START");
    printf("  task_loop of %zu iterations: kernel %.3f ms (device time), host wall %.1f ms\n", n,
           (double)(end - start) / 1e6, wall);

    STEP("check");
    EXPECT(out[0] == want_sum, "sum = %d, expected %d", out[0], want_sum);
    EXPECT((uint32_t)out[1] == want_sq, "squares = %u, expected %u", (uint32_t)out[1], want_sq);
    EXPECT((uint32_t)out[2] == want_hash, "hash = 0x%08x, expected 0x%08x", (uint32_t)out[2],
           want_hash);

    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseMemObject(ba));
    CHECK(clReleaseMemObject(bo));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(a);
    return pass("task_loop");
}
