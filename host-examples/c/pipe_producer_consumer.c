/*
 * pipe_producer_consumer.c: kernels that talk through clCreatePipe pipes.
 *
 * Pipe objects from clCreatePipe are bound as kernel arguments of a producer
 * and a consumer with blocking pipe accesses. The consumer is enqueued first
 * on its own queue, the producer on another; both must run concurrently to
 * finish. Checks one pipe of depth 16 and two interleaved pipes of depth 1;
 * every value and its order are compared with the input.
 */
#define CL_TARGET_OPENCL_VERSION 200
#include "common.h"

#define N 20000

static void run_pair(cl_command_queue qc, cl_command_queue qp, cl_kernel consumer,
                     cl_kernel producer)
{
    cl_event ev[2];
    CHECK(clEnqueueTask(qc, consumer, 0, NULL, &ev[0]));
    CHECK(clFlush(qc));
    CHECK(clEnqueueTask(qp, producer, 0, NULL, &ev[1]));
    CHECK(clFlush(qp));
    CHECK(clWaitForEvents(2, ev));
    EXPECT(event_status(ev[0]) == CL_COMPLETE && event_status(ev[1]) == CL_COMPLETE,
           "kernels did not complete");
    CHECK(clReleaseEvent(ev[0]));
    CHECK(clReleaseEvent(ev[1]));
}

static cl_mem make_pipe(cl_context ctx, cl_uint packet, cl_uint depth)
{
    cl_int err = CL_SUCCESS;
    cl_mem p = clCreatePipe(ctx, 0, packet, depth, NULL, &err);
    CHECK_ERR(err, "clCreatePipe");
    return p;
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qc = create_queue(ctx, dev, 0);
    cl_command_queue qp = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "pipes.cl"), "");

    STEP("one blocking pipe, consumer enqueued first");
    static cl_int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = 5 * i + 1;
    cl_int n = N;
    cl_mem bin = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bout = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem pipe0 = make_pipe(ctx, sizeof(cl_int), 16);
    cl_kernel prod = create_kernel(prog, "producer"), cons = create_kernel(prog, "consumer");
    CHECK(clSetKernelArg(prod, 0, sizeof bin, &bin));
    CHECK(clSetKernelArg(prod, 1, sizeof n, &n));
    CHECK(clSetKernelArg(prod, 2, sizeof pipe0, &pipe0));
    CHECK(clSetKernelArg(cons, 0, sizeof bout, &bout));
    CHECK(clSetKernelArg(cons, 1, sizeof n, &n));
    CHECK(clSetKernelArg(cons, 2, sizeof pipe0, &pipe0));
    run_pair(qc, qp, cons, prod);
    CHECK(clEnqueueReadBuffer(qc, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == in[i], "out[%d] = %d, expected %d", i, out[i], in[i]);

    STEP("two interleaved pipes of depth 1");
    static cl_uint src[2 * N], dst[2 * N];
    for (int i = 0; i < 2 * N; i++)
        src[i] = 2654435761u * (cl_uint)i + 3u;
    cl_uint iters = N;
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src, src);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_mem p1 = make_pipe(ctx, sizeof(cl_uint), 1), p2 = make_pipe(ctx, sizeof(cl_uint), 1);
    cl_kernel prod2 = create_kernel(prog, "producer2"), cons2 = create_kernel(prog, "consumer2");
    CHECK(clSetKernelArg(prod2, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(prod2, 1, sizeof iters, &iters));
    CHECK(clSetKernelArg(prod2, 2, sizeof p1, &p1));
    CHECK(clSetKernelArg(prod2, 3, sizeof p2, &p2));
    CHECK(clSetKernelArg(cons2, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(cons2, 1, sizeof iters, &iters));
    CHECK(clSetKernelArg(cons2, 2, sizeof p1, &p1));
    CHECK(clSetKernelArg(cons2, 3, sizeof p2, &p2));
    run_pair(qc, qp, cons2, prod2);
    CHECK(clEnqueueReadBuffer(qc, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
    for (int i = 0; i < 2 * N; i++)
        EXPECT(dst[i] == src[i], "dst[%d] = %u, expected %u", i, dst[i], src[i]);

    cl_kernel ks[4] = {prod, cons, prod2, cons2};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseKernel(ks[i]));
    cl_mem ms[7] = {bin, bout, pipe0, bsrc, bdst, p1, p2};
    for (int i = 0; i < 7; i++)
        CHECK(clReleaseMemObject(ms[i]));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qc));
    CHECK(clReleaseCommandQueue(qp));
    CHECK(clReleaseContext(ctx));
    return pass("pipe_producer_consumer");
}
