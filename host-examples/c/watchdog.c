/*
 * Endless kernels under the watchdog: with FPGACL_KERNEL_TIMEOUT_S set, an endless compute
 * loop and an endless printf loop each end with a negative event status (the runtime names
 * the kernel, line and work-item on stderr) and the host goes on to run a normal kernel.
 */
#include "common.h"

static cl_int run_task(cl_command_queue q, cl_kernel k)
{
    cl_event e;
    CHECK(clEnqueueTask(q, k, 0, NULL, &e));
    clWaitForEvents(1, &e);
    cl_int st = event_status(e);
    clReleaseEvent(e);
    return st;
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    EXPECT(getenv("FPGACL_KERNEL_TIMEOUT_S") != NULL, "run with FPGACL_KERNEL_TIMEOUT_S set");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "watchdog.cl"), "");
    cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL);
    int start = 2;

    STEP("spin");
    cl_kernel spin = create_kernel(prog, "spin");
    CHECK(clSetKernelArg(spin, 0, sizeof b, &b));
    CHECK(clSetKernelArg(spin, 1, sizeof start, &start));
    double t0 = now_ms();
    cl_int st = run_task(q, spin);
    printf("  spin: status %d after %.1f s\n", st, (now_ms() - t0) / 1e3);
    EXPECT(st < 0, "the endless kernel must be stopped with an error status");

    STEP("chatty");
    cl_kernel chatty = create_kernel(prog, "chatty");
    CHECK(clSetKernelArg(chatty, 0, sizeof b, &b));
    st = run_task(q, chatty);
    printf("  chatty: status %d\n", st);
    EXPECT(st < 0, "the endless printf kernel must be stopped with an error status");

    STEP("after");
    start = 0; /* x = 0 ends the loop at once */
    CHECK(clSetKernelArg(spin, 1, sizeof start, &start));
    int v = 7;
    CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    st = run_task(q, spin);
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    printf("  after: status %d, out %d\n", st, v);
    EXPECT(st == CL_COMPLETE && v == 0, "a normal kernel runs after the stopped ones");
    clReleaseKernel(spin);
    clReleaseKernel(chatty);
    clReleaseMemObject(b);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("watchdog");
}
