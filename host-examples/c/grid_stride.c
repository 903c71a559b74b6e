/*
 * grid_stride.c: the GPU-ported grid-stride loop
 *     for (i = get_global_id(0); i < n; i += get_global_size(0)) b[i] = a[i];
 * against the plain one-work-item-per-element copy, and a grid-stride gather
 * b[i] = a[16 i], and a row copy (each work-item copies 16 consecutive ints through an
 * unrolled loop: one statically coalesced 64-byte access). GS_N ints (default 2^20),
 * work-groups of 256, GS_ITEMS
 * work-items (default 4096) for the grid-stride kernels. Checks every result
 * and prints each kernel's device time (event profiling). Run with
 * ACL_RUNTIME_PROFILING_ACTIVE=1 to get the LSUs' burst counters in profile.mon.
 */
#include "common.h"

static cl_ulong run(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    cl_event ev = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_ulong start = profile_time(ev, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile_time(ev, CL_PROFILING_COMMAND_END);
    EXPECT(end >= start, "kernel END before START");
    CHECK(clReleaseEvent(ev));
    return end - start;
}

static void check(cl_command_queue q, cl_mem bb, cl_int *b, size_t n, size_t step,
                  const char *what)
{
    memset(b, 0xff, n * sizeof *b);
    CHECK(clEnqueueReadBuffer(q, bb, CL_TRUE, 0, n * sizeof *b, b, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        EXPECT(b[i] == (cl_int)(i * step), "%s: b[%zu] = %d, expected %zu", what, i, b[i],
               i * step);
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("GS_N", 1u << 20);
    size_t items = env_number("GS_ITEMS", 4096);
    const size_t local = 256;
    EXPECT(n > 0 && n % local == 0 && n <= (1u << 26), "GS_N must be a multiple of 256");
    EXPECT(items > 0 && items % local == 0 && items <= n, "GS_ITEMS must be a multiple of 256");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "grid_stride.cl"), "");
    cl_kernel plain = create_kernel(prog, "copy_plain");
    cl_kernel stride = create_kernel(prog, "copy_stride");
    cl_kernel gather = create_kernel(prog, "gather_stride");
    cl_kernel rows = create_kernel(prog, "copy_rows");

    STEP("inputs");
    cl_int *a = malloc(16 * n * sizeof *a);
    cl_int *b = malloc(n * sizeof *b);
    EXPECT(a != NULL && b != NULL, "out of memory");
    for (size_t i = 0; i < 16 * n; i++)
        a[i] = (cl_int)i;
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              16 * n * sizeof *a, a);
    cl_mem bb = create_buffer(ctx, CL_MEM_READ_WRITE, n * sizeof *b, NULL);
    cl_int ni = (cl_int)n;
    CHECK(clSetKernelArg(plain, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(plain, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(stride, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(stride, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(stride, 2, sizeof ni, &ni));
    CHECK(clSetKernelArg(gather, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(gather, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(gather, 2, sizeof ni, &ni));
    CHECK(clSetKernelArg(rows, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(rows, 1, sizeof bb, &bb));

    STEP("plain copy");
    cl_ulong tp = run(q, plain, n, local);
    check(q, bb, b, n, 1, "copy_plain");
    STEP("grid-stride copy");
    cl_ulong ts = run(q, stride, items, local);
    check(q, bb, b, n, 1, "copy_stride");
    STEP("grid-stride gather");
    cl_ulong tg = run(q, gather, items, local);
    check(q, bb, b, n, 16, "gather_stride");
    STEP("row copy (16 unrolled copies per work-item)");
    cl_ulong tr = run(q, rows, n / 16, local);
    check(q, bb, b, n, 1, "copy_rows");
    printf("  %zu ints: copy_plain %.3f ms, copy_stride (%zu work-items) %.3f ms, "
           "gather_stride %.3f ms, copy_rows (%zu work-items) %.3f ms (device time)\n",
           n, tp / 1e6, items, ts / 1e6, tg / 1e6, n / 16, tr / 1e6);

    CHECK(clReleaseMemObject(ba));
    CHECK(clReleaseMemObject(bb));
    CHECK(clReleaseKernel(plain));
    CHECK(clReleaseKernel(stride));
    CHECK(clReleaseKernel(gather));
    CHECK(clReleaseKernel(rows));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(a);
    free(b);
    return pass("grid_stride");
}
