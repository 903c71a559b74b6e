/*
 * Private memory over the limit fails synchronously: clEnqueueNDRangeKernel of a work-group
 * whose work-items keep more private memory alive across a barrier than the emulator allows
 * returns CL_OUT_OF_RESOURCES (no event, nothing queued); the build log warns of it; the same
 * kernel with small work-groups runs and computes the right sums.
 */
#include "common.h"

int main(int argc, char **argv)
{
    install_watchdog(300);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "private_limit.cl"), "");

    STEP("build log");
    size_t log_len = 0;
    CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len));
    char *log = calloc(1, log_len + 1);
    CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL));
    printf("build log:\n%s\n", log);
    EXPECT(strstr(log, "warning") && strstr(log, "private memory of kernel 'big'") &&
               strstr(log, "CL_OUT_OF_RESOURCES"),
           "the build log warns of the private memory of a full work-group");
    free(log);

    cl_kernel k = create_kernel(prog, "big");
    enum { N = 1024 };
    cl_mem out = create_buffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    CHECK(clSetKernelArg(k, 0, sizeof out, &out));

    STEP("over the limit");
    size_t global = N, local = N;
    cl_event ev = NULL;
    double t0 = now_ms();
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
    printf("1024 work-items per group: %s after %.3f s\n", cl_err_name(err), (now_ms() - t0) / 1e3);
    EXPECT(err == CL_OUT_OF_RESOURCES, "expected CL_OUT_OF_RESOURCES at enqueue, got %s",
           cl_err_name(err));
    EXPECT(ev == NULL, "no event for a refused command");
    CHECK(clFinish(q));

    STEP("within the limit");
    global = 16;
    local = 8;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    EXPECT(event_status(ev) == CL_COMPLETE, "small groups run");
    clReleaseEvent(ev);
    int got[16];
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int g = 0; g < 16; g++) {
        int l = g % 8, want = 0;
        for (int i = 0; i < (1 << 18); i += 4096)
            want += l + i;
        EXPECT(got[g] == want, "out[%d] = %d, expected %d", g, got[g], want);
    }
    printf("16 work-items in groups of 8: sums correct\n");
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("private_limit");
}
