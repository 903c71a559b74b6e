/*
 * 200 polling autorun compute units cost no CPU while the host sleeps: after the program is
 * built and its pollers have gone idle (parked), the CPU time of the process over 1 s of sleep is
 * printed as idle_cpu_s=...; then an enqueued kernel asks one compute unit and checks the answer.
 */
#include "common.h"
#include <sys/resource.h>

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "autorun_idle.cl"), "");
    STEP("idle");
    /* The pollers park once each has polled its empty channel 32 times in a row; how long that
     * takes depends on the machine's load. Wait for the state (a 100 ms window with under 5 ms
     * of CPU), not for a fixed time; give up after 60 s (the check below then fails). */
    double s0 = now_ms();
    for (;;) {
        double w0 = cpu_seconds();
        sleep_ms(100);
        if (cpu_seconds() - w0 < 0.005 || now_ms() - s0 > 60000.0)
            break;
    }
    printf("settle_s=%.3f\n", (now_ms() - s0) / 1e3);
    double c0 = cpu_seconds(), t0 = now_ms();
    sleep_ms(1000);
    double cpu = cpu_seconds() - c0, wall = (now_ms() - t0) / 1e3;
    printf("idle_cpu_s=%.3f\nidle_wall_s=%.3f\n", cpu, wall);
    STEP("ask");
    cl_kernel k = create_kernel(prog, "ask");
    cl_mem out = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL);
    int x = 20, got = 0;
    CHECK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK(clSetKernelArg(k, 1, sizeof x, &x));
    double a0 = now_ms();
    CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    printf("answer=%d after %.3f s\n", got, (now_ms() - a0) / 1e3);
    EXPECT(got == x * 2 + 7, "compute unit 7 answers %d, got %d", x * 2 + 7, got);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("autorun_idle");
}
