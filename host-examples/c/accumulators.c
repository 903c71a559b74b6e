/*
 * accumulators.c: the Best Practices Guide's accumulator kernels.
 *
 * Runs the single work-item accumulator with clEnqueueTask and with an
 * NDRange of (1,1,1), its NDRange counterpart, a nested-loop accumulation
 * and a float running sum, and checks each against a host reference
 * (the float sum in the same order, so bit-exact).
 */
#include "common.h"

#define SIZE 700
#define ROWS 96
#define NEST 128

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "accumulators.cl"), "");

    STEP("inputs");
    static cl_int a[SIZE * ROWS], c[ROWS], want[ROWS];
    for (int i = 0; i < SIZE * ROWS; i++)
        a[i] = (i * 37) % 201 - 100;
    for (int k = 0; k < ROWS; k++) {
        want[k] = 0;
        for (int i = 0; i < SIZE; i++)
            want[k] += a[k * SIZE + i];
    }
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem bc = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL);
    cl_int size = SIZE, rows = ROWS;

    STEP("accum_swg via clEnqueueTask");
    cl_kernel swg = create_kernel(prog, "accum_swg");
    CHECK(clSetKernelArg(swg, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(swg, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(swg, 2, sizeof size, &size));
    CHECK(clSetKernelArg(swg, 3, sizeof rows, &rows));
    cl_event ev = NULL;
    CHECK(clEnqueueTask(q, swg, 0, NULL, &ev));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 1, &ev, NULL));
    for (int k = 0; k < ROWS; k++)
        EXPECT(c[k] == want[k], "accum_swg (task) c[%d] = %d, expected %d", k, c[k], want[k]);
    cl_command_type ct = 0;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    if (!skip_check("task-command-type"))
        EXPECT(ct == CL_COMMAND_TASK, "clEnqueueTask event type 0x%x", ct);
    printf("  accum_swg (task): %.3f ms\n",
           (double)(profile_time(ev, CL_PROFILING_COMMAND_END) -
                    profile_time(ev, CL_PROFILING_COMMAND_START)) / 1e6);
    CHECK(clReleaseEvent(ev));

    STEP("accum_swg via NDRange (1,1,1)");
    cl_int zero = 0;
    CHECK(clEnqueueFillBuffer(q, bc, &zero, sizeof zero, 0, sizeof c, 0, NULL, NULL));
    size_t one[3] = {1, 1, 1};
    CHECK(clEnqueueNDRangeKernel(q, swg, 3, NULL, one, one, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    for (int k = 0; k < ROWS; k++)
        EXPECT(c[k] == want[k], "accum_swg (1,1,1) c[%d] = %d, expected %d", k, c[k], want[k]);

    STEP("accum_ndr");
    cl_kernel ndr = create_kernel(prog, "accum_ndr");
    CHECK(clEnqueueFillBuffer(q, bc, &zero, sizeof zero, 0, sizeof c, 0, NULL, NULL));
    CHECK(clSetKernelArg(ndr, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(ndr, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(ndr, 2, sizeof size, &size));
    size_t global = ROWS, local = 16;
    CHECK(clEnqueueNDRangeKernel(q, ndr, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    for (int k = 0; k < ROWS; k++)
        EXPECT(c[k] == want[k], "accum_ndr c[%d] = %d, expected %d", k, c[k], want[k]);

    STEP("nested_sum");
    static cl_int A[NEST * NEST], B[NEST];
    cl_int want_nested = 0, got_nested = 0;
    for (int i = 0; i < NEST * NEST; i++)
        A[i] = (i % 17) - 8;
    for (int i = 0; i < NEST; i++) {
        B[i] = i * 3 - 50;
        cl_int s2 = 0;
        for (int j = 0; j < NEST; j++)
            s2 += A[i * NEST + j];
        want_nested += s2 + B[i];
    }
    cl_mem bA = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof A, A);
    cl_mem bB = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof B, B);
    cl_mem bR = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof(cl_int), NULL);
    cl_kernel nested = create_kernel(prog, "nested_sum");
    cl_uint n = NEST;
    CHECK(clSetKernelArg(nested, 0, sizeof bA, &bA));
    CHECK(clSetKernelArg(nested, 1, sizeof bB, &bB));
    CHECK(clSetKernelArg(nested, 2, sizeof bR, &bR));
    CHECK(clSetKernelArg(nested, 3, sizeof n, &n));
    CHECK(clEnqueueTask(q, nested, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bR, CL_TRUE, 0, sizeof got_nested, &got_nested, 0, NULL, NULL));
    EXPECT(got_nested == want_nested, "nested_sum = %d, expected %d", got_nested, want_nested);

    STEP("fp_accum");
    enum { FN = 5000 };
    static float arr[FN];
    float want_f = 0.0f, got_f = 0.0f;
    for (int i = 0; i < FN; i++) {
        arr[i] = (float)((i * 13) % 101) * 0.03125f - 1.5f;
        want_f += arr[i];
    }
    cl_mem barr = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof arr, arr);
    cl_mem bout = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof(float), NULL);
    cl_kernel fp = create_kernel(prog, "fp_accum");
    cl_int fn = FN;
    CHECK(clSetKernelArg(fp, 0, sizeof barr, &barr));
    CHECK(clSetKernelArg(fp, 1, sizeof bout, &bout));
    CHECK(clSetKernelArg(fp, 2, sizeof fn, &fn));
    CHECK(clEnqueueTask(q, fp, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof got_f, &got_f, 0, NULL, NULL));
    EXPECT(got_f == want_f, "fp_accum = %.9g, expected %.9g (same order of additions)", got_f,
           want_f);

    cl_kernel ks[4] = {swg, ndr, nested, fp};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseKernel(ks[i]));
    cl_mem ms[7] = {ba, bc, bA, bB, bR, barr, bout};
    for (int i = 0; i < 7; i++)
        CHECK(clReleaseMemObject(ms[i]));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("accumulators");
}
