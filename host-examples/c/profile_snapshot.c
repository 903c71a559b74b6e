/*
 * profile_snapshot.c: clGetProfileInfoIntelFPGA on running and finished kernels.
 *
 * A consumer kernel reads 2N values from a channel; a producer kernel writes N per launch.
 * Between the two producer launches the consumer is still running: the host snapshots its
 * counters (CL_SUCCESS; with ACL_RUNTIME_PROFILING_ACTIVE=1 a Snapshot record lands in
 * profile.mon). Once the consumer has finished, the same call returns CL_INVALID_EVENT, as
 * it does for a kernel that has not started and for a command that is not a kernel.
 * clGetProfileDataDeviceIntelFPGA with read_enqueue_kernels snapshots the running consumer
 * as well (a second Snapshot record).
 */
#include "common.h"
#include "../../include/CL/fpgacl_intel_ext.h"

#define N 2000

int main(int argc, char **argv)
{
    install_watchdog(300);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qc = create_queue(ctx, dev, 0);
    cl_command_queue qp = create_queue(ctx, dev, 0);
    cl_program prog =
        build_program(ctx, dev, kernel_path(argc, argv, "profile_snapshot.cl"), "");
    cl_kernel producer = create_kernel(prog, "producer");
    cl_kernel consumer = create_kernel(prog, "consumer");

    STEP("look up clGetProfileInfoIntelFPGA");
    clGetProfileInfoIntelFPGA_fn get_info = (clGetProfileInfoIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetProfileInfoIntelFPGA");
    EXPECT(get_info != NULL, "the extension function is not available");
    EXPECT_CODE(get_info(NULL), CL_INVALID_EVENT);

    static cl_int src[2 * N], dst[2 * N];
    for (int i = 0; i < 2 * N; i++)
        src[i] = i % 97 - 40;
    cl_mem bsrc =
        create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int), src);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_mem bsrc2 =
        create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int), src + N);
    cl_int n = N, n2 = 2 * N;
    CHECK(clSetKernelArg(consumer, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(consumer, 1, sizeof n2, &n2));
    CHECK(clSetKernelArg(producer, 1, sizeof n, &n));

    STEP("a kernel that has not started");
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK_ERR(err, "clCreateUserEvent");
    cl_event ev_consumer;
    CHECK(clEnqueueTask(qc, consumer, 1, &gate, &ev_consumer));
    EXPECT(event_status(ev_consumer) == CL_QUEUED, "consumer started before its gate");
    EXPECT_CODE(get_info(ev_consumer), CL_INVALID_EVENT);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFlush(qc));

    STEP("first producer launch");
    cl_event ev_p1;
    CHECK(clSetKernelArg(producer, 0, sizeof bsrc, &bsrc));
    CHECK(clEnqueueTask(qp, producer, 0, NULL, &ev_p1));
    CHECK(clWaitForEvents(1, &ev_p1));

    STEP("snapshot of the running consumer");
    EXPECT(event_status(ev_consumer) == CL_RUNNING, "consumer status %d, expected running",
           (int)event_status(ev_consumer));
    CHECK(get_info(ev_consumer));
    printf("snapshot taken while the consumer runs\n");

    STEP("clGetProfileDataDeviceIntelFPGA reads the running enqueued kernel too");
    clGetProfileDataDeviceIntelFPGA_fn get_data = (clGetProfileDataDeviceIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetProfileDataDeviceIntelFPGA");
    EXPECT(get_data != NULL, "the extension function is not available");
    CHECK(get_data(dev, prog, CL_TRUE, CL_FALSE, CL_FALSE, 0, NULL, NULL, NULL));

    STEP("not a kernel command");
    cl_event ev_write;
    CHECK(clEnqueueWriteBuffer(qp, bdst, CL_FALSE, 0, sizeof(cl_int), src, 0, NULL, &ev_write));
    CHECK(clWaitForEvents(1, &ev_write));
    EXPECT_CODE(get_info(ev_write), CL_INVALID_EVENT);

    STEP("second producer launch");
    cl_event ev_p2;
    CHECK(clSetKernelArg(producer, 0, sizeof bsrc2, &bsrc2));
    CHECK(clEnqueueTask(qp, producer, 0, NULL, &ev_p2));
    CHECK(clWaitForEvents(1, &ev_p2));
    CHECK(clWaitForEvents(1, &ev_consumer));

    STEP("the finished consumer");
    EXPECT_CODE(get_info(ev_consumer), CL_INVALID_EVENT);
    EXPECT_CODE(get_info(ev_p1), CL_INVALID_EVENT);

    STEP("check the running sums");
    CHECK(clEnqueueReadBuffer(qc, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
    cl_int sum = 0;
    for (int i = 0; i < 2 * N; i++) {
        sum += src[i];
        EXPECT(dst[i] == sum, "dst[%d] = %d, expected %d", i, dst[i], sum);
    }

    STEP("release everything");
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseEvent(ev_consumer));
    CHECK(clReleaseEvent(ev_p1));
    CHECK(clReleaseEvent(ev_p2));
    CHECK(clReleaseEvent(ev_write));
    CHECK(clReleaseKernel(producer));
    CHECK(clReleaseKernel(consumer));
    CHECK(clReleaseMemObject(bsrc2));
    CHECK(clReleaseMemObject(bsrc));
    CHECK(clReleaseMemObject(bdst));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qc));
    CHECK(clReleaseCommandQueue(qp));
    CHECK(clReleaseContext(ctx));
    return pass("profile_snapshot");
}
