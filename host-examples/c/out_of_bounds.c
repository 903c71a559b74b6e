/*
 * Out-of-bounds accesses, as real FPGA designs make them: stencils that read a[i-1] and
 * a[i+1] (in local and in global memory) before testing the border, and a store past the end
 * of a buffer.
 *
 * Default (FPGACL_OOB unset or "report"): the kernels complete, the reads return a value the
 * border test discards (so the results are exact), the stores past the end change no other
 * memory; fpgacl reports each site on stderr. With FPGACL_OOB=fault each such kernel ends
 * with a negative event status instead, and the host goes on.
 */
#include "common.h"

#define N 1024
#define BLOCK 64

static cl_int run(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    cl_event e;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &e));
    cl_int werr = clWaitForEvents(1, &e);
    cl_int st = event_status(e);
    clReleaseEvent(e);
    return werr == CL_SUCCESS ? st : (st < 0 ? st : werr);
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    const char *mode = getenv("FPGACL_OOB");
    int strict = mode && strcmp(mode, "fault") == 0;
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "out_of_bounds.cl"), "");

    static float a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)(i % 97) + 0.25f;
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem bo = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL);

    for (int which = 0; which < 2; which++) {
        const char *name = which ? "stencil_global" : "stencil_local";
        STEP(name);
        cl_kernel k = create_kernel(prog, name);
        int n = N;
        CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
        CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
        if (which)
            CHECK(clSetKernelArg(k, 2, sizeof n, &n));
        cl_int st = run(q, k, N, BLOCK);
        printf("  %s: status %d\n", name, st);
        if (strict) {
            EXPECT(st < 0, "%s: with FPGACL_OOB=fault the kernel must fail", name);
        } else {
            EXPECT(st == CL_COMPLETE, "%s: out-of-bounds reads must not stop the kernel", name);
            CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
            int bad = 0;
            for (int i = 0; i < N; i++) {
                int l = which ? i : i % BLOCK, last = which ? N - 1 : BLOCK - 1;
                float want = a[i] + (l > 0 ? a[i - 1] : 0.0f) + (l < last ? a[i + 1] : 0.0f);
                if (out[i] != want && bad++ < 5)
                    printf("  %s: out[%d] = %g, expected %g\n", name, i, out[i], want);
            }
            EXPECT(bad == 0, "%s: %d wrong results", name, bad);
        }
        clReleaseKernel(k);
    }

    STEP("store_past_end");
    {
        int m = 16, dst[16], guard = 1000;
        cl_mem bd = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof dst, NULL);
        cl_mem bg = create_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof guard, &guard);
        cl_kernel k = create_kernel(prog, "store_past_end");
        CHECK(clSetKernelArg(k, 0, sizeof bd, &bd));
        CHECK(clSetKernelArg(k, 1, sizeof bg, &bg));
        CHECK(clSetKernelArg(k, 2, sizeof m, &m));
        cl_int st = run(q, k, 1, 1);
        printf("  store_past_end: status %d\n", st);
        CHECK(clEnqueueReadBuffer(q, bg, CL_TRUE, 0, sizeof guard, &guard, 0, NULL, NULL));
        if (strict) {
            EXPECT(st < 0, "store_past_end: with FPGACL_OOB=fault the kernel must fail");
            EXPECT(guard == 1000, "guard = %d: the failed kernel went on", guard);
        } else {
            EXPECT(st == CL_COMPLETE, "store_past_end must complete");
            CHECK(clEnqueueReadBuffer(q, bd, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
            for (int i = 0; i < m; i++)
                EXPECT(dst[i] == i, "dst[%d] = %d", i, dst[i]);
            EXPECT(guard == 1001, "guard = %d: the next buffer was overwritten", guard);
        }
        clReleaseKernel(k);
        clReleaseMemObject(bd);
        clReleaseMemObject(bg);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("out_of_bounds");
}
