/*
 * local_reduction.c: barrier + local-memory reductions.
 *
 * Sums each work-group's elements with a tree reduction in local memory,
 * once with a __local kernel argument (size set by clSetKernelArg(NULL)) and
 * several host-chosen group sizes, once with a fixed __local array under
 * reqd_work_group_size (also computing per-group maxima), and checks every
 * partial result against the host.
 */
#include "common.h"

#define N (64 * 256)
#define WG 64

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "local_reduction.cl"), "");

    static cl_int in[N], partial[N];
    for (int i = 0; i < N; i++)
        in[i] = ((i * 7919) % 2001) - 1000;
    cl_mem bin = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bpart = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof partial, NULL);
    cl_mem bmax = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof partial, NULL);

    STEP("reduce_arg with several work-group sizes");
    cl_kernel karg = create_kernel(prog, "reduce_arg");
    size_t max_wg = 0;
    CHECK(clGetKernelWorkGroupInfo(karg, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg,
                                   NULL));
    const size_t sizes[] = {1, 2, 16, 64, 128, 256};
    int ran = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t local = sizes[s], global = N;
        if (local > max_wg)
            continue;
        CHECK(clSetKernelArg(karg, 0, sizeof bin, &bin));
        CHECK(clSetKernelArg(karg, 1, sizeof bpart, &bpart));
        CHECK(clSetKernelArg(karg, 2, local * sizeof(cl_int), NULL));
        CHECK(clEnqueueNDRangeKernel(q, karg, 1, NULL, &global, &local, 0, NULL, NULL));
        size_t groups = N / local;
        CHECK(clEnqueueReadBuffer(q, bpart, CL_TRUE, 0, groups * sizeof(cl_int), partial, 0,
                                  NULL, NULL));
        for (size_t g = 0; g < groups; g++) {
            cl_int want = 0;
            for (size_t i = 0; i < local; i++)
                want += in[g * local + i];
            EXPECT(partial[g] == want, "group size %zu: partial[%zu] = %d, expected %d", local,
                   g, partial[g], want);
        }
        ran++;
    }
    EXPECT(ran >= 3, "CL_KERNEL_WORK_GROUP_SIZE %zu allowed only %d group sizes", max_wg, ran);

    STEP("reduce_fixed (reqd_work_group_size)");
    cl_kernel kfix = create_kernel(prog, "reduce_fixed");
    size_t reqd[3] = {0, 0, 0};
    CHECK(clGetKernelWorkGroupInfo(kfix, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd,
                                   reqd, NULL));
    EXPECT(reqd[0] == WG && reqd[1] == 1 && reqd[2] == 1, "compile work-group size %zu,%zu,%zu",
           reqd[0], reqd[1], reqd[2]);
    CHECK(clSetKernelArg(kfix, 0, sizeof bin, &bin));
    CHECK(clSetKernelArg(kfix, 1, sizeof bpart, &bpart));
    CHECK(clSetKernelArg(kfix, 2, sizeof bmax, &bmax));
    size_t global = N, local = WG;
    CHECK(clEnqueueNDRangeKernel(q, kfix, 1, NULL, &global, &local, 0, NULL, NULL));
    static cl_int maxes[N / WG];
    CHECK(clEnqueueReadBuffer(q, bpart, CL_TRUE, 0, (N / WG) * sizeof(cl_int), partial, 0, NULL,
                              NULL));
    CHECK(clEnqueueReadBuffer(q, bmax, CL_TRUE, 0, sizeof maxes, maxes, 0, NULL, NULL));
    for (size_t g = 0; g < N / WG; g++) {
        cl_int want = 0, want_max = in[g * WG];
        for (size_t i = 0; i < WG; i++) {
            want += in[g * WG + i];
            if (in[g * WG + i] > want_max)
                want_max = in[g * WG + i];
        }
        EXPECT(partial[g] == want && maxes[g] == want_max,
               "group %zu: sum %d max %d, expected %d %d", g, partial[g], maxes[g], want,
               want_max);
    }
    /* A local size that contradicts reqd_work_group_size is rejected. */
    size_t wrong_local = WG / 2;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, kfix, 1, NULL, &global, &wrong_local, 0, NULL, NULL),
                CL_INVALID_WORK_GROUP_SIZE);
    CHECK(clFinish(q));

    CHECK(clReleaseKernel(karg));
    CHECK(clReleaseKernel(kfix));
    CHECK(clReleaseMemObject(bin));
    CHECK(clReleaseMemObject(bpart));
    CHECK(clReleaseMemObject(bmax));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("local_reduction");
}
