/*
 * channel_producer_consumer.c: kernels that talk through channels.
 *
 * The consumer is enqueued first, on its own queue; the producer follows on
 * another queue. Both must run at the same time for either to finish (the
 * channel holds at most a few values), so this only passes when kernels on
 * different queues run concurrently. Checks a rendezvous channel (depth 0),
 * two interleaved buffered channels, non-blocking reads and the older
 * *_altera built-in names; every value and its order are compared with the
 * input.
 */
#include "common.h"

#define N 20000

static void run_pair(cl_command_queue qc, cl_command_queue qp, cl_kernel consumer,
                     cl_kernel producer, const char *what)
{
    cl_event ec = NULL, ep = NULL;
    STEP(what);
    CHECK(clEnqueueTask(qc, consumer, 0, NULL, &ec));
    CHECK(clFlush(qc));
    CHECK(clEnqueueTask(qp, producer, 0, NULL, &ep));
    CHECK(clFlush(qp));
    CHECK(clWaitForEvents(1, &ep));
    CHECK(clWaitForEvents(1, &ec));
    EXPECT(event_status(ec) == CL_COMPLETE && event_status(ep) == CL_COMPLETE,
           "%s: kernels did not complete", what);
    CHECK(clReleaseEvent(ec));
    CHECK(clReleaseEvent(ep));
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qc = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qp = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "channels.cl"), "");

    static cl_int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 3 - 7;
        out[i] = 0;
    }
    cl_int n = N;
    cl_mem bin = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bout = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel prod = create_kernel(prog, "producer"), cons = create_kernel(prog, "consumer");
    CHECK(clSetKernelArg(prod, 0, sizeof bin, &bin));
    CHECK(clSetKernelArg(prod, 1, sizeof n, &n));
    CHECK(clSetKernelArg(cons, 0, sizeof bout, &bout));
    CHECK(clSetKernelArg(cons, 1, sizeof n, &n));
    run_pair(qc, qp, cons, prod, "depth-0 channel, consumer enqueued first");
    CHECK(clEnqueueReadBuffer(qc, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == in[i], "c0: out[%d] = %d, expected %d", i, out[i], in[i]);

    STEP("two interleaved channels");
    static cl_uint src[2 * N], dst[2 * N];
    for (int i = 0; i < 2 * N; i++)
        src[i] = 0x9E3779B9u * (cl_uint)i;
    cl_uint iters = N;
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src, src);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_kernel prod2 = create_kernel(prog, "producer2"), cons2 = create_kernel(prog, "consumer2");
    CHECK(clSetKernelArg(prod2, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(prod2, 1, sizeof iters, &iters));
    CHECK(clSetKernelArg(cons2, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(cons2, 1, sizeof iters, &iters));
    run_pair(qc, qp, cons2, prod2, "two channels, consumer enqueued first");
    CHECK(clEnqueueReadBuffer(qc, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
    for (int i = 0; i < 2 * N; i++)
        EXPECT(dst[i] == src[i], "c1/c2: dst[%d] = %u, expected %u", i, dst[i], src[i]);

    STEP("non-blocking reads and *_altera names");
    enum { M = 5000 };
    static cl_long lsrc[M], ldst[M];
    for (int i = 0; i < M; i++)
        lsrc[i] = (cl_long)i * 1000003LL - 99;
    cl_int m = M, misses = -1;
    cl_mem blsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof lsrc, lsrc);
    cl_mem bldst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof ldst, NULL);
    cl_mem bmiss = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof misses, NULL);
    cl_kernel prod3 = create_kernel(prog, "producer_altera");
    cl_kernel cons3 = create_kernel(prog, "consumer_nb");
    CHECK(clSetKernelArg(prod3, 0, sizeof blsrc, &blsrc));
    CHECK(clSetKernelArg(prod3, 1, sizeof m, &m));
    CHECK(clSetKernelArg(cons3, 0, sizeof bldst, &bldst));
    CHECK(clSetKernelArg(cons3, 1, sizeof m, &m));
    CHECK(clSetKernelArg(cons3, 2, sizeof bmiss, &bmiss));
    run_pair(qc, qp, cons3, prod3, "non-blocking consumer, consumer enqueued first");
    CHECK(clEnqueueReadBuffer(qc, bldst, CL_TRUE, 0, sizeof ldst, ldst, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qc, bmiss, CL_TRUE, 0, sizeof misses, &misses, 0, NULL, NULL));
    for (int i = 0; i < M; i++)
        EXPECT(ldst[i] == lsrc[i], "c3: dst[%d] = %lld, expected %lld", i, (long long)ldst[i],
               (long long)lsrc[i]);
    EXPECT(misses >= 0, "miss counter not written");
    printf("  non-blocking consumer: %d empty polls\n", misses);

    cl_kernel ks[6] = {prod, cons, prod2, cons2, prod3, cons3};
    for (int i = 0; i < 6; i++)
        CHECK(clReleaseKernel(ks[i]));
    cl_mem ms[7] = {bin, bout, bsrc, bdst, blsrc, bldst, bmiss};
    for (int i = 0; i < 7; i++)
        CHECK(clReleaseMemObject(ms[i]));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qc));
    CHECK(clReleaseCommandQueue(qp));
    CHECK(clReleaseContext(ctx));
    return pass("channel_producer_consumer");
}
