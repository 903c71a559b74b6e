/*
 * autorun.c: an autorun kernel fed and drained by enqueued kernels.
 *
 * The program holds an autorun kernel replicated over two compute units
 * (num_compute_units + get_compute_id) between two channel arrays. The host
 * never enqueues it: it starts when the program is built and restarts after
 * each value. The host enqueues a drain kernel (first, on its own queue) and
 * a feed kernel (on another queue), twice with different data, and checks
 * that element 2i was squared by compute unit 0 and element 2i+1 by compute
 * unit 1. Releasing the context must stop the autorun kernel and let the
 * process exit (the watchdog turns a hang into a failure).
 */
#include "common.h"

#define PAIRS 4096

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qf = create_queue(ctx, dev, 0);
    cl_command_queue qd = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "autorun.cl"), "");
    cl_kernel feed = create_kernel(prog, "feed");
    cl_kernel drain = create_kernel(prog, "drain");

    static cl_int src[2 * PAIRS], dst[2 * PAIRS];
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof src, NULL);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_int pairs = PAIRS;
    CHECK(clSetKernelArg(feed, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(feed, 1, sizeof pairs, &pairs));
    CHECK(clSetKernelArg(drain, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(drain, 1, sizeof pairs, &pairs));

    for (int round = 0; round < 2; round++) {
        STEP(round == 0 ? "round 1" : "round 2 (autorun kernel restarted)");
        for (int i = 0; i < 2 * PAIRS; i++) {
            src[i] = (i * 7 + round * 1000) % 20011 - 10000;
            dst[i] = 0;
        }
        CHECK(clEnqueueWriteBuffer(qf, bsrc, CL_TRUE, 0, sizeof src, src, 0, NULL, NULL));
        cl_event ev[2];
        CHECK(clEnqueueTask(qd, drain, 0, NULL, &ev[0]));
        CHECK(clFlush(qd));
        CHECK(clEnqueueTask(qf, feed, 0, NULL, &ev[1]));
        CHECK(clFlush(qf));
        CHECK(clWaitForEvents(2, ev));
        CHECK(clReleaseEvent(ev[0]));
        CHECK(clReleaseEvent(ev[1]));
        CHECK(clEnqueueReadBuffer(qd, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
        for (int i = 0; i < 2 * PAIRS; i++) {
            cl_int want = src[i] * src[i] + (i & 1);
            EXPECT(dst[i] == want, "round %d: dst[%d] = %d, expected %d (compute unit %d)",
                   round + 1, i, dst[i], want, i & 1);
        }
    }

    STEP("release everything (autorun kernels must stop)");
    CHECK(clReleaseKernel(feed));
    CHECK(clReleaseKernel(drain));
    CHECK(clReleaseMemObject(bsrc));
    CHECK(clReleaseMemObject(bdst));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qf));
    CHECK(clReleaseCommandQueue(qd));
    CHECK(clReleaseContext(ctx));
    return pass("autorun");
}
