/*
 * channel_pair.c: a producer and a consumer (single work-item kernels) on two
 * queues joined by `channel int ch __attribute__((depth(DEPTH)))`. Moves
 * CHPAIR_N values (default 2^20) CHPAIR_RUNS times (default 1) through a channel
 * of CHPAIR_DEPTH elements (default 16), checks the consumer's count, sum and
 * order hash against the host, and prints the throughput:
 *   channel_pair depth D: N values in X ms host wall = V values/s
 * Used by the load test (tests/tests/channel_load.rs: a correct pair must never
 * be diagnosed as a deadlock, however loaded the machine) and by the channel
 * throughput case of scripts/bench.sh.
 */
#include "common.h"

int main(int argc, char **argv)
{
    install_watchdog(600);
    unsigned long n = env_number("CHPAIR_N", 1ul << 20);
    unsigned long runs = env_number("CHPAIR_RUNS", 1);
    unsigned long depth = env_number("CHPAIR_DEPTH", 16);
    EXPECT(n > 0 && n <= 0x7fffffff, "CHPAIR_N out of range");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qp = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qc = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    char options[64];
    snprintf(options, sizeof options, "-DDEPTH=%lu", depth);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "channel_pair.cl"), options);
    cl_kernel prod = create_kernel(prog, "producer"), cons = create_kernel(prog, "consumer");
    cl_mem bo = create_buffer(ctx, CL_MEM_WRITE_ONLY, 3 * sizeof(cl_int), NULL);
    cl_int ni = (cl_int)n;
    CHECK(clSetKernelArg(prod, 0, sizeof ni, &ni));
    CHECK(clSetKernelArg(cons, 0, sizeof bo, &bo));
    CHECK(clSetKernelArg(cons, 1, sizeof ni, &ni));

    uint32_t want_sum = 0, want_hash = 0;
    for (unsigned long i = 0; i < n; i++) {
        uint32_t v = (uint32_t)i * 3u + 1u;
        want_sum += v;
        want_hash = want_hash * 31u + v;
    }
    double best = 0;
    cl_ulong device_ns = 0;
    for (unsigned long r = 0; r < runs; r++) {
        STEP("run pair");
        cl_event ep = NULL, ec = NULL;
        double t0 = now_ms();
        CHECK(clEnqueueTask(qc, cons, 0, NULL, &ec));
        CHECK(clFlush(qc));
        CHECK(clEnqueueTask(qp, prod, 0, NULL, &ep));
        CHECK(clFlush(qp));
        cl_int wp = clWaitForEvents(1, &ep);
        cl_int wc = clWaitForEvents(1, &ec);
        double wall = now_ms() - t0;
        EXPECT(wp == CL_SUCCESS && wc == CL_SUCCESS && event_status(ep) == CL_COMPLETE &&
                   event_status(ec) == CL_COMPLETE,
               "run %lu: the pair did not complete (producer %d, consumer %d)", r,
               event_status(ep), event_status(ec));
        cl_int out[3] = {0, 0, 0};
        CHECK(clEnqueueReadBuffer(qc, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        EXPECT(out[0] == ni && (uint32_t)out[1] == want_sum && (uint32_t)out[2] == want_hash,
               "run %lu: consumer got count %d sum %u hash %u, expected %d %u %u", r, out[0],
               (uint32_t)out[1], (uint32_t)out[2], ni, want_sum, want_hash);
        cl_ulong end = profile_time(ec, CL_PROFILING_COMMAND_END);
        cl_ulong start = profile_time(ep, CL_PROFILING_COMMAND_START);
        device_ns = end > start ? end - start : 0;
        double rate = wall > 0 ? (double)n / (wall / 1e3) : 0;
        if (rate > best)
            best = rate;
        printf("  channel_pair depth %lu: %lu values in %.1f ms host wall = %.0f values/s "
               "(device %.3f ms)\n",
               depth, n, wall, rate, (double)device_ns / 1e6);
        CHECK(clReleaseEvent(ep));
        CHECK(clReleaseEvent(ec));
    }
    printf("  channel_pair depth %lu: best %.0f values/s\n", depth, best);
    return pass("channel_pair");
}
