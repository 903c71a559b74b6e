/*
 * host_gaps.c: the host's own time between commands, and what a Ctrl-C leaves in the profile.
 *
 * HOSTGAP_MODE=sleep (default): runs the `scale` kernel, waits for it (clFinish), sleeps
 * HOSTGAP_SLEEP_MS (default 0) milliseconds, runs it again and checks both results. The
 * profile's HostGap record before the second run holds at least the sleep; the device times
 * (event START/END, printed as t_<n>_start / t_<n>_end) are the same with or without it.
 *
 * HOSTGAP_MODE=overlap: as sleep, but the second run goes to a second queue without waiting
 * for the first: the two overlap on the device timeline (both QUEUED at the host's position)
 * and share the bandwidth, however long the host sleeps between the two enqueues.
 *
 * HOSTGAP_MODE=sigint: two queues. Queue 1's kernel waits for a user event the host never
 * sets (it never ends: an earlier command whose record never comes); queue 2's kernel runs
 * twice and the host waits for them (clFinish), prints "completed", then sends itself SIGINT.
 * The profile must still hold queue 2's runs, in order (they were held back behind queue 1's).
 * HOSTGAP_MODE=exit: the same, but the host then exits normally (exit(3): the atexit flush).
 */
#include "common.h"

#include <signal.h>

#define N (1 << 18)

int main(int argc, char **argv)
{
    install_watchdog(120);
    const char *mode = getenv("HOSTGAP_MODE");
    int exit_mode = mode && strcmp(mode, "exit") == 0;
    int sigint_mode = exit_mode || (mode && strcmp(mode, "sigint") == 0);
    unsigned long gap_ms = env_number("HOSTGAP_SLEEP_MS", 0);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "profile_stream.cl"), "");
    cl_kernel k = create_kernel(prog, "scale");
    static float a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)(i % 200 - 100);
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem bb = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof b, NULL);
    float scale = 2.0f;
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof scale, &scale));
    size_t global = N;
    if (sigint_mode) {
        STEP("sigint");
        cl_command_queue q2 = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
        cl_int err;
        cl_event never = clCreateUserEvent(ctx, &err);
        CHECK(err);
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &never, NULL));
        CHECK(clEnqueueNDRangeKernel(q2, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(q2, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK(clFinish(q2));
        printf("completed\n");
        fflush(stdout);
        if (exit_mode) {
            /* exit(3) with the runs still held: the atexit flush writes them. */
            printf("PASS: host_gaps\n");
            exit(0);
        }
        raise(SIGINT);
        /* As after a Ctrl-C, the host goes on until the signal's action ends it. */
        sleep_ms(5000);
        printf("FAIL: still running 5 s after SIGINT\n");
        return 1;
    }
    int overlap = mode && strcmp(mode, "overlap") == 0;
    cl_command_queue q2 = overlap ? create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE) : q;
    if (overlap) {
        /* Memory bound copies (128 B/cycle wanted, the board has 87): overlapping, they share. */
        cl_program cp = build_program(ctx, dev,
                                      kernel_path_n(argc, argv, 2, "concurrent_bandwidth.cl"), "");
        CHECK(clReleaseKernel(k));
        k = create_kernel(cp, "copy");
        CHECK(clReleaseProgram(cp));
        CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
        CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    }
    cl_event ev[2];
    for (int r = 0; r < 2; r++) {
        STEP("run");
        if (r == 1 && gap_ms)
            sleep_ms((unsigned)gap_ms);
        CHECK(clEnqueueNDRangeKernel(r ? q2 : q, k, 1, NULL, &global, NULL, 0, NULL, &ev[r]));
        if (!overlap)
            CHECK(clFinish(q));
    }
    if (overlap) {
        CHECK(clFinish(q));
        CHECK(clFinish(q2));
    }
    CHECK(clEnqueueReadBuffer(q, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        float want = overlap ? a[i] : (a[i] < 0.0f ? 0.0f : a[i]) * scale;
        EXPECT(b[i] == want, "b[%d] = %g, expected %g", i, b[i], want);
    }
    for (int r = 0; r < 2; r++) {
        printf("t_%d_start=%llu\n", r, (unsigned long long)profile_time(ev[r], CL_PROFILING_COMMAND_START));
        printf("t_%d_end=%llu\n", r, (unsigned long long)profile_time(ev[r], CL_PROFILING_COMMAND_END));
        CHECK(clReleaseEvent(ev[r]));
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(ba));
    CHECK(clReleaseMemObject(bb));
    CHECK(clReleaseProgram(prog));
    if (overlap)
        CHECK(clReleaseCommandQueue(q2));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("host_gaps");
}
