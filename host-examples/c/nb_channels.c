/*
 * nb_channels.c: non-blocking channel reads and writes whose outcome is decided in
 * simulated device time, not by host thread scheduling.
 *
 * Pair A: a consumer polls a channel with read_channel_nb_intel while its producer is slower
 * in simulated time (II > 1); pair B: a writer uses write_channel_nb_intel into a FIFO whose
 * reader is slow. The first kernel of each pair is enqueued on its own queue, the second on
 * another one after a host pause (NB_PAUSE_MS, default 20 ms), so the partner lags behind in
 * host time. The program checks every value and prints the number of empty and full polls and
 * the emulated durations; the test harness runs it several times and requires identical
 * lines ("nb reads: ...", "nb writes: ...").
 */
#include "common.h"

#define NA 3000
#define NB 2000

static void run_pair(cl_command_queue q1, cl_command_queue q2, cl_kernel first,
                     cl_kernel second, unsigned pause, const char *what, cl_ulong *ns_second)
{
    cl_event e1 = NULL, e2 = NULL;
    STEP(what);
    CHECK(clEnqueueTask(q1, first, 0, NULL, &e1));
    CHECK(clFlush(q1));
    sleep_ms(pause);
    CHECK(clEnqueueTask(q2, second, 0, NULL, &e2));
    CHECK(clFlush(q2));
    CHECK(clWaitForEvents(1, &e2));
    CHECK(clWaitForEvents(1, &e1));
    EXPECT(event_status(e1) == CL_COMPLETE && event_status(e2) == CL_COMPLETE,
           "%s: kernels did not complete", what);
    *ns_second = profile_time(e2, CL_PROFILING_COMMAND_END) -
                 profile_time(e2, CL_PROFILING_COMMAND_START);
    CHECK(clReleaseEvent(e1));
    CHECK(clReleaseEvent(e2));
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    unsigned pause = (unsigned)env_number("NB_PAUSE_MS", 20);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q1 = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue q2 = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "nb_channels.cl"), "");

    /* Pair A: the poller first, the producer after the pause. */
    static cl_float src[NA > NB ? NA : NB];
    static cl_int dst[NA];
    for (int i = 0; i < NA; i++)
        src[i] = 1.0f + (float)(i % 5) * 0.001f;
    cl_int na = NA, nb = NB, empty = -1, full = -1;
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src, src);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_mem bstat = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL);
    cl_kernel prod = create_kernel(prog, "producer_a"), poll = create_kernel(prog, "poller_a");
    CHECK(clSetKernelArg(prod, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(prod, 1, sizeof na, &na));
    CHECK(clSetKernelArg(poll, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(poll, 1, sizeof bstat, &bstat));
    CHECK(clSetKernelArg(poll, 2, sizeof na, &na));
    cl_ulong ns_prod = 0;
    run_pair(q1, q2, poll, prod, pause, "pair A: non-blocking reads", &ns_prod);
    CHECK(clEnqueueReadBuffer(q1, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q1, bstat, CL_TRUE, 0, sizeof empty, &empty, 0, NULL, NULL));
    for (int i = 0; i < NA; i++)
        EXPECT(dst[i] == 100 + i, "pair A: dst[%d] = %d, expected %d", i, dst[i], 100 + i);
    EXPECT(empty > 0, "pair A: a producer with II > 1 leaves empty polls (got %d)", empty);
    printf("nb reads: %d values, %d empty polls; producer %llu ns\n", NA, empty,
           (unsigned long long)ns_prod);

    /* Pair B: the non-blocking writer first, the slow reader after the pause. */
    static cl_int got[NB];
    cl_float acc = 0.0f;
    cl_mem bgot = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    cl_mem bacc = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof acc, NULL);
    cl_kernel wr = create_kernel(prog, "nb_writer_b"), rd = create_kernel(prog, "slow_reader_b");
    CHECK(clSetKernelArg(wr, 0, sizeof bstat, &bstat));
    CHECK(clSetKernelArg(wr, 1, sizeof nb, &nb));
    CHECK(clSetKernelArg(rd, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(rd, 1, sizeof bacc, &bacc));
    CHECK(clSetKernelArg(rd, 2, sizeof bgot, &bgot));
    CHECK(clSetKernelArg(rd, 3, sizeof nb, &nb));
    cl_ulong ns_rd = 0;
    run_pair(q1, q2, wr, rd, pause, "pair B: non-blocking writes", &ns_rd);
    CHECK(clEnqueueReadBuffer(q1, bgot, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q1, bstat, CL_TRUE, 0, sizeof full, &full, 0, NULL, NULL));
    for (int i = 0; i < NB; i++)
        EXPECT(got[i] == 7 + i, "pair B: got[%d] = %d, expected %d", i, got[i], 7 + i);
    EXPECT(full > 0, "pair B: a slow reader leaves full polls (got %d)", full);
    printf("nb writes: %d values, %d full polls; reader %llu ns\n", NB, full,
           (unsigned long long)ns_rd);

    cl_kernel ks[4] = {prod, poll, wr, rd};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseKernel(ks[i]));
    cl_mem ms[5] = {bsrc, bdst, bstat, bgot, bacc};
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(ms[i]));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q1));
    CHECK(clReleaseCommandQueue(q2));
    CHECK(clReleaseContext(ctx));
    return pass("nb_channels");
}
