/*
 * concurrent_bandwidth.c: kernels that run at the same time share the board's
 * global memory bandwidth (fpgacl timing rule B4).
 *
 * Loads kernels/concurrent_bandwidth.cl (or argv[1]) and times, with event
 * profiling (CL_PROFILING_COMMAND_START/END, emulated device time):
 *   1. a memory-bound copy of BW_N floats (default 2^20) alone, then again
 *      after it (no overlap: the same time);
 *   2. two copies at once on two queues, both released by the same transfer so
 *      they start at the same emulated time (each should take about twice as
 *      long, together at most the board's bandwidth);
 *   3. a compute-bound single work-item kernel (scale, BW_N/4 elements) alone,
 *      then together with a copy (the copy is slowed only by the bandwidth the
 *      scale kernel uses; the scale kernel is not slowed);
 *   4. a channel consumer (sink) launched first, then a copy that the host waits
 *      for before it launches the sink's producer: the copy must end (it does not
 *      wait for the blocked sink) and takes the time of a copy alone.
 * Every output is checked. Prints key=value lines that the tests read.
 */
#include "common.h"

#define GATE_BYTES ((size_t)16 << 20)

static cl_ulong duration(cl_event e)
{
    return profile_time(e, CL_PROFILING_COMMAND_END) - profile_time(e, CL_PROFILING_COMMAND_START);
}

static void check_copy(cl_command_queue q, cl_mem dst, const float *src, float *tmp, size_t n,
                       const char *what)
{
    CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, n * sizeof *tmp, tmp, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        if (tmp[i] != src[i])
            FAILF("%s: dst[%zu] = %f, expected %f", what, i, tmp[i], src[i]);
}

static void check_scale(cl_command_queue q, cl_mem dst, const float *src, float *tmp, size_t n,
                        const char *what)
{
    CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, n * sizeof *tmp, tmp, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        if (tmp[i] != src[i] * 2.0f + 1.0f)
            FAILF("%s: dst[%zu] = %f, expected %f", what, i, tmp[i], src[i] * 2.0f + 1.0f);
}

/* Fills the output buffers with -1 and waits, so each check sees fresh results. */
static void reset(cl_command_queue q, cl_mem *bufs, int count, size_t bytes)
{
    float minus_one = -1.0f;
    for (int i = 0; i < count; i++)
        CHECK(clEnqueueFillBuffer(q, bufs[i], &minus_one, sizeof minus_one, 0, bytes, 0, NULL,
                                  NULL));
    CHECK(clFinish(q));
}

static void set_args(cl_kernel k, cl_mem src, cl_mem dst)
{
    CHECK(clSetKernelArg(k, 0, sizeof src, &src));
    CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("BW_N", 1u << 20);
    EXPECT(n >= 1024 && n % 256 == 0, "BW_N must be a multiple of 256 (>= 1024)");
    cl_int ns = (cl_int)(n / 4);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q1 = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue q2 = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog =
        build_program(ctx, dev, kernel_path(argc, argv, "concurrent_bandwidth.cl"), "");
    cl_kernel ka = create_kernel(prog, "copy");
    cl_kernel kb = create_kernel(prog, "copy");
    cl_kernel kc = create_kernel(prog, "scale");

    STEP("inputs");
    float *src = malloc(n * sizeof *src), *tmp = malloc(n * sizeof *tmp);
    char *gate_host = calloc(1, GATE_BYTES);
    EXPECT(src && tmp && gate_host, "out of memory");
    for (size_t i = 0; i < n; i++)
        src[i] = (float)(i % 4099) * 0.25f - 300.0f;
    size_t bytes = n * sizeof *src;
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, src);
    cl_mem out[3];
    for (int i = 0; i < 3; i++)
        out[i] = create_buffer(ctx, CL_MEM_READ_WRITE, bytes, NULL);
    cl_mem gate = create_buffer(ctx, CL_MEM_READ_WRITE, GATE_BYTES, NULL);
    size_t wg = 256;
    /* Bytes a copy moves: one load and one store of 4 bytes per element. */
    unsigned long long copy_bytes = 2ull * bytes;
    printf("  copy_bytes=%llu\n", copy_bytes);

    STEP("copy alone, twice in a row");
    reset(q1, out, 3, bytes);
    set_args(ka, bsrc, out[0]);
    cl_event e1, e2;
    CHECK(clEnqueueNDRangeKernel(q1, ka, 1, NULL, &n, &wg, 0, NULL, &e1));
    CHECK(clWaitForEvents(1, &e1));
    check_copy(q1, out[0], src, tmp, n, "copy alone");
    set_args(kb, bsrc, out[1]);
    CHECK(clEnqueueNDRangeKernel(q1, kb, 1, NULL, &n, &wg, 0, NULL, &e2));
    CHECK(clWaitForEvents(1, &e2));
    check_copy(q1, out[1], src, tmp, n, "copy after copy");
    cl_ulong alone = duration(e1), after = duration(e2);
    EXPECT(profile_time(e2, CL_PROFILING_COMMAND_START) >=
               profile_time(e1, CL_PROFILING_COMMAND_END),
           "the second copy overlaps the first");
    printf("  copy_alone_ns=%llu\n  copy_after_ns=%llu\n", (unsigned long long)alone,
           (unsigned long long)after);
    printf("  copy_alone_mbps=%.1f\n", (double)copy_bytes / (double)alone * 1e3);
    CHECK(clReleaseEvent(e1));
    CHECK(clReleaseEvent(e2));

    STEP("two copies at once on two queues");
    reset(q1, out, 3, bytes);
    set_args(ka, bsrc, out[0]);
    set_args(kb, bsrc, out[1]);
    cl_event w, pair[2];
    /* Both copies wait for this transfer, so both start at its emulated end. */
    CHECK(clEnqueueWriteBuffer(q1, gate, CL_FALSE, 0, GATE_BYTES, gate_host, 0, NULL, &w));
    CHECK(clEnqueueNDRangeKernel(q1, ka, 1, NULL, &n, &wg, 0, NULL, &pair[0]));
    CHECK(clEnqueueNDRangeKernel(q2, kb, 1, NULL, &n, &wg, 1, &w, &pair[1]));
    CHECK(clWaitForEvents(2, pair));
    check_copy(q1, out[0], src, tmp, n, "concurrent copy A");
    check_copy(q2, out[1], src, tmp, n, "concurrent copy B");
    cl_ulong sa = profile_time(pair[0], CL_PROFILING_COMMAND_START);
    cl_ulong sb = profile_time(pair[1], CL_PROFILING_COMMAND_START);
    cl_ulong ea = profile_time(pair[0], CL_PROFILING_COMMAND_END);
    cl_ulong eb = profile_time(pair[1], CL_PROFILING_COMMAND_END);
    EXPECT(sa == sb, "the copies did not start together (%llu, %llu): host too slow?",
           (unsigned long long)sa, (unsigned long long)sb);
    cl_ulong span = (ea > eb ? ea : eb) - (sa < sb ? sa : sb);
    printf("  pair_a_ns=%llu\n  pair_b_ns=%llu\n  pair_span_ns=%llu\n",
           (unsigned long long)(ea - sa), (unsigned long long)(eb - sb),
           (unsigned long long)span);
    printf("  pair_mbps=%.1f\n", 2.0 * (double)copy_bytes / (double)span * 1e3);
    printf("  concurrent copies: %.3f and %.3f ms, alone %.3f ms (x%.2f)\n", (ea - sa) / 1e6,
           (eb - sb) / 1e6, alone / 1e6, (double)(ea - sa) / (double)alone);
    CHECK(clReleaseEvent(w));
    CHECK(clReleaseEvent(pair[0]));
    CHECK(clReleaseEvent(pair[1]));

    STEP("compute-bound kernel alone");
    reset(q1, out, 3, bytes);
    set_args(kc, bsrc, out[2]);
    CHECK(clSetKernelArg(kc, 2, sizeof ns, &ns));
    cl_event ec;
    CHECK(clEnqueueTask(q1, kc, 0, NULL, &ec));
    CHECK(clWaitForEvents(1, &ec));
    check_scale(q1, out[2], src, tmp, (size_t)ns, "scale alone");
    cl_ulong scale_alone = duration(ec);
    printf("  scale_alone_ns=%llu\n", (unsigned long long)scale_alone);
    CHECK(clReleaseEvent(ec));

    STEP("compute-bound kernel and a copy at once");
    reset(q1, out, 3, bytes);
    set_args(ka, bsrc, out[0]);
    cl_event mixed[2];
    CHECK(clEnqueueWriteBuffer(q1, gate, CL_FALSE, 0, GATE_BYTES, gate_host, 0, NULL, &w));
    CHECK(clEnqueueTask(q1, kc, 0, NULL, &mixed[0]));
    CHECK(clEnqueueNDRangeKernel(q2, ka, 1, NULL, &n, &wg, 1, &w, &mixed[1]));
    CHECK(clWaitForEvents(2, mixed));
    check_scale(q1, out[2], src, tmp, (size_t)ns, "scale with a copy");
    check_copy(q2, out[0], src, tmp, n, "copy with scale");
    EXPECT(profile_time(mixed[0], CL_PROFILING_COMMAND_START) ==
               profile_time(mixed[1], CL_PROFILING_COMMAND_START),
           "scale and copy did not start together: host too slow?");
    printf("  mixed_scale_ns=%llu\n  mixed_copy_ns=%llu\n", (unsigned long long)duration(mixed[0]),
           (unsigned long long)duration(mixed[1]));
    CHECK(clReleaseEvent(w));
    CHECK(clReleaseEvent(mixed[0]));
    CHECK(clReleaseEvent(mixed[1]));

    STEP("a copy while a consumer waits for a producer the host launches after the copy");
    reset(q1, out, 3, bytes);
    cl_kernel ksink = create_kernel(prog, "sink");
    cl_kernel ksource = create_kernel(prog, "source");
    cl_int nc = 4096;
    CHECK(clSetKernelArg(ksink, 0, sizeof out[2], &out[2]));
    CHECK(clSetKernelArg(ksink, 1, sizeof nc, &nc));
    CHECK(clSetKernelArg(ksource, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(ksource, 1, sizeof nc, &nc));
    set_args(ka, bsrc, out[0]);
    cl_event es, ex, ep;
    CHECK(clEnqueueTask(q2, ksink, 0, NULL, &es));
    CHECK(clFlush(q2));
    CHECK(clEnqueueNDRangeKernel(q1, ka, 1, NULL, &n, &wg, 0, NULL, &ex));
    CHECK(clWaitForEvents(1, &ex));
    EXPECT(event_status(es) > CL_COMPLETE, "the sink ended without its producer");
    check_copy(q1, out[0], src, tmp, n, "copy beside a blocked consumer");
    CHECK(clEnqueueTask(q1, ksource, 0, NULL, &ep));
    CHECK(clWaitForEvents(1, &es));
    check_copy(q2, out[2], src, tmp, (size_t)nc, "sink");
    printf("  waited_copy_ns=%llu\n", (unsigned long long)duration(ex));
    CHECK(clWaitForEvents(1, &ep));
    CHECK(clReleaseEvent(es));
    CHECK(clReleaseEvent(ex));
    CHECK(clReleaseEvent(ep));
    CHECK(clReleaseKernel(ksink));
    CHECK(clReleaseKernel(ksource));

    CHECK(clReleaseMemObject(gate));
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseMemObject(out[i]));
    CHECK(clReleaseMemObject(bsrc));
    CHECK(clReleaseKernel(ka));
    CHECK(clReleaseKernel(kb));
    CHECK(clReleaseKernel(kc));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q1));
    CHECK(clReleaseCommandQueue(q2));
    CHECK(clReleaseContext(ctx));
    free(src);
    free(tmp);
    free(gate_host);
    return pass("concurrent_bandwidth");
}
