/*
 * printf output of endless kernels streams while they run and memory stays bounded: run with
 * FPGACL_KERNEL_TIMEOUT_S set. The host prints "launch <name>" (flushed) before each kernel and
 * "stopped <name> status=..." after the watchdog stopped it; the test that runs it timestamps
 * the lines it reads. At the end it prints the peak resident set (vmhwm_kb=...).
 */
#include "common.h"

static long vmhwm_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

static void run_endless(cl_command_queue q, cl_program prog, cl_mem b, const char *name)
{
    STEP(name);
    cl_kernel k = create_kernel(prog, name);
    CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    printf("launch %s\n", name);
    fflush(stdout);
    double t0 = now_ms();
    cl_event e;
    CHECK(clEnqueueTask(q, k, 0, NULL, &e));
    clWaitForEvents(1, &e);
    cl_int st = event_status(e);
    clReleaseEvent(e);
    printf("stopped %s status=%d after=%.2f\n", name, st, (now_ms() - t0) / 1e3);
    fflush(stdout);
    EXPECT(st < 0, "the endless kernel must be stopped by the watchdog");
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    EXPECT(getenv("FPGACL_KERNEL_TIMEOUT_S") != NULL, "run with FPGACL_KERNEL_TIMEOUT_S set");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "printf_stream.cl"), "");
    cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL);
    long before = vmhwm_kb();
    run_endless(q, prog, b, "paced");
    run_endless(q, prog, b, "flood");
    printf("vmhwm_before_kb=%ld\nvmhwm_kb=%ld\n", before, vmhwm_kb());
    clReleaseMemObject(b);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("printf_stream");
}
