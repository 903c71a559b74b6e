/*
 * vector_add.c: NDRange vector addition (the classic first FPGA example).
 *
 * Loads kernels/vector_add.cl (or the .cl/.aocx given as argv[1]), adds two
 * vectors of VECTOR_N elements (default 2^20), times the kernel with event
 * profiling and checks every element against the host computation.
 */
#include "common.h"

int main(int argc, char **argv)
{
    install_watchdog(600);
    size_t n = env_number("VECTOR_N", 1u << 20);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "vector_add.cl"), "");
    cl_kernel k = create_kernel(prog, "vector_add");

    STEP("inputs");
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    EXPECT(x && y && z, "out of memory");
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)((i * 7) % 333) - 100.0f;
        z[i] = -1.0f;
    }
    cl_mem bx = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x);
    cl_mem by = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *y, y);
    cl_mem bz = create_buffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof *z, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(k, 1, sizeof by, &by));
    CHECK(clSetKernelArg(k, 2, sizeof bz, &bz));

    STEP("run kernel");
    cl_event ev = NULL;
    size_t global = n;
    double t0 = now_ms();
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clEnqueueReadBuffer(q, bz, CL_TRUE, 0, n * sizeof *z, z, 1, &ev, NULL));
    double wall = now_ms() - t0;
    cl_ulong start = profile_time(ev, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile_time(ev, CL_PROFILING_COMMAND_END);
    EXPECT(end >= start, "kernel END before START");
    printf("  vector_add of %zu elements: kernel %.3f ms (device time), host wall %.1f ms\n", n,
           (double)(end - start) / 1e6, wall);

    STEP("check");
    for (size_t i = 0; i < n; i++)
        if (z[i] != x[i] + y[i])
            FAILF("z[%zu] = %f, expected %f", i, z[i], x[i] + y[i]);

    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseMemObject(bx));
    CHECK(clReleaseMemObject(by));
    CHECK(clReleaseMemObject(bz));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    free(x);
    free(y);
    free(z);
    return pass("vector_add");
}
