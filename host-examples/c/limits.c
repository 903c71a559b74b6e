/*
 * Device limits as Intel's FPGA runtime reports them: CL_DEVICE_MAX_WORK_GROUP_SIZE and
 * MAX_WORK_ITEM_SIZES far above 2048, local memory from the FPGA's RAM blocks (megabytes);
 * reqd_work_group_size(4096) and (32768) honoured, a 32768-item group without attributes, the
 * 256 default of a kernel with barriers, a single work-item kernel with 80,000 bytes of local
 * memory, a global size whose item count overflows, and build options that are not UTF-8
 * (CL_INVALID_BUILD_OPTIONS, not silently dropped).
 */
#include "common.h"

static cl_int run(cl_command_queue q, cl_kernel k, size_t g, size_t l)
{
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, l ? &l : NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    return err;
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    size_t wg = 0, items[3] = {0};
    cl_ulong local = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL));
    printf("  max work-group size %zu, item sizes %zu %zu %zu, local memory %llu bytes\n", wg,
           items[0], items[1], items[2], (unsigned long long)local);
    EXPECT(wg >= 32768 && items[0] >= 32768, "work-group limits %zu / %zu", wg, items[0]);
    EXPECT(local >= (1u << 20), "local memory %llu", (unsigned long long)local);

    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "limits.cl"), "");
    enum { N = 65536 };
    static int host[N];
    cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL);

    STEP("reqd_work_group_size");
    {
        cl_kernel k = create_kernel(prog, "reqd4096");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        size_t kwg = 0;
        CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
        EXPECT(kwg == 4096, "CL_KERNEL_WORK_GROUP_SIZE %zu", kwg);
        CHECK(run(q, k, 4096, 4096));
        CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4096 * sizeof(int), host, 0, NULL, NULL));
        EXPECT(host[0] == 4096 && host[4095] == 4096, "local size seen %d", host[0]);
        EXPECT_CODE(run(q, k, 4096, 2048), CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
        k = create_kernel(prog, "reqd32768");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        CHECK(run(q, k, N, 0));
        CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
        EXPECT(host[32767] == 32767 && host[32768] == 0, "ids %d %d", host[32767], host[32768]);
        clReleaseKernel(k);
    }
    STEP("no attribute");
    {
        cl_kernel k = create_kernel(prog, "free_size");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        CHECK(run(q, k, N, 32768));
        CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
        EXPECT(host[32767] == 0 && host[32768] == 1, "groups %d %d", host[32767], host[32768]);
        clReleaseKernel(k);
        k = create_kernel(prog, "with_barrier");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        size_t kwg = 0;
        CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
        EXPECT(kwg == 256, "a kernel with barriers: CL_KERNEL_WORK_GROUP_SIZE %zu", kwg);
        CHECK(run(q, k, 1024, 256));
        EXPECT_CODE(run(q, k, 1024, 512), CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
    }
    STEP("big local");
    {
        cl_kernel k = create_kernel(prog, "big_local");
        float out = 0;
        cl_mem bo = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL);
        CHECK(clSetKernelArg(k, 0, sizeof bo, &bo));
        CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL));
        EXPECT(out == 19999.0f, "buf[19999] = %g", out);
        clReleaseMemObject(bo);
        clReleaseKernel(k);
    }
    STEP("global size overflow");
    {
        cl_kernel k = create_kernel(prog, "free_size");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        size_t g[3] = {(size_t)1 << 32, (size_t)1 << 32, 2};
        EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 3, NULL, g, NULL, 0, NULL, NULL),
                    CL_INVALID_GLOBAL_WORK_SIZE);
        clReleaseKernel(k);
    }
    STEP("non-UTF-8 build options");
    {
        EXPECT_CODE(clBuildProgram(prog, 1, &dev, "-DX=\xff", NULL, NULL),
                    CL_INVALID_BUILD_OPTIONS);
    }
    clReleaseMemObject(b);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("limits");
}
