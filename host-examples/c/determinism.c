/*
 * determinism.c: issue 16's reproducibility design (kernels/determinism.cl).
 *
 * A producer feeds an autorun scaler through a channel and a consumer drains it (two queues,
 * consumer enqueued first), then a single work-item kernel (prefix sums) and an NDRange
 * kernel (saxpy) run on a third queue, in order after the consumer's data is back. ROUNDS
 * rounds (env DET_ROUNDS, default 3), with host work between them (it checks the results).
 * After the last round the autorun kernel's counters are read once
 * (clGetProfileDataDeviceIntelFPGA). The host prints every event's profiling timestamps as
 * name=value figures (`t_<round>_<kernel>_<queued|submit|start|end>`), which must be the same
 * run after run whatever the load: the test compares them and the profiles.
 */
#include "common.h"
#include "../../include/CL/fpgacl_intel_ext.h"

#define N 2048

static cl_int src[N], dst[N], pin[N], pout[N];
static cl_float x[N], y[N];

static void print_times(int round, const char *name, cl_event ev)
{
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED,
                                              CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START,
                                              CL_PROFILING_COMMAND_END};
    static const char *label[4] = {"queued", "submit", "start", "end"};
    cl_ulong t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = profile_time(ev, what[i]);
        printf("t_%d_%s_%s=%llu\n", round, name, label[i], (unsigned long long)t[i]);
    }
    EXPECT(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3],
           "%s: QUEUED %llu SUBMIT %llu START %llu END %llu out of order", name,
           (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
           (unsigned long long)t[3]);
}

int main(int argc, char **argv)
{
    install_watchdog(300);
    int rounds = (int)env_number("DET_ROUNDS", 3);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qp = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qc = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qk = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "determinism.cl"), "");
    cl_kernel producer = create_kernel(prog, "producer");
    cl_kernel consumer = create_kernel(prog, "consumer");
    cl_kernel prefix = create_kernel(prog, "prefix");
    cl_kernel saxpy = create_kernel(prog, "saxpy");
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof src, NULL);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_mem bpin = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof pin, NULL);
    cl_mem bpout = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof pout, NULL);
    cl_mem bx = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof x, NULL);
    cl_mem by = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL);
    cl_int n = N;
    cl_float a = 2.5f;
    CHECK(clSetKernelArg(producer, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(producer, 1, sizeof n, &n));
    CHECK(clSetKernelArg(consumer, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(consumer, 1, sizeof n, &n));
    CHECK(clSetKernelArg(prefix, 0, sizeof bpin, &bpin));
    CHECK(clSetKernelArg(prefix, 1, sizeof bpout, &bpout));
    CHECK(clSetKernelArg(prefix, 2, sizeof n, &n));
    CHECK(clSetKernelArg(saxpy, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(saxpy, 1, sizeof by, &by));
    CHECK(clSetKernelArg(saxpy, 2, sizeof a, &a));

    for (int r = 1; r <= rounds; r++) {
        STEP("write inputs");
        for (int i = 0; i < N; i++) {
            src[i] = (i * 7 + r * 31) % 1001 - 500;
            pin[i] = (i * 5 + r) % 17 - 8;
            x[i] = (float)((i + r) % 64) * 0.25f;
            y[i] = (float)(i % 32) - 16.0f;
        }
        CHECK(clEnqueueWriteBuffer(qp, bsrc, CL_TRUE, 0, sizeof src, src, 0, NULL, NULL));
        CHECK(clEnqueueWriteBuffer(qk, bpin, CL_TRUE, 0, sizeof pin, pin, 0, NULL, NULL));
        CHECK(clEnqueueWriteBuffer(qk, bx, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL));
        CHECK(clEnqueueWriteBuffer(qk, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));

        STEP("producer -> autorun scaler -> consumer");
        cl_event ev[4];
        CHECK(clEnqueueTask(qc, consumer, 0, NULL, &ev[0]));
        CHECK(clFlush(qc));
        CHECK(clEnqueueTask(qp, producer, 0, NULL, &ev[1]));
        CHECK(clFlush(qp));
        STEP("single work-item and NDRange kernels");
        size_t global = N, local = 64;
        CHECK(clEnqueueTask(qk, prefix, 0, NULL, &ev[2]));
        CHECK(clEnqueueNDRangeKernel(qk, saxpy, 1, NULL, &global, &local, 0, NULL, &ev[3]));
        CHECK(clWaitForEvents(4, ev));
        CHECK(clEnqueueReadBuffer(qc, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(qk, bpout, CL_TRUE, 0, sizeof pout, pout, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(qk, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));

        STEP("check results (host work between rounds)");
        cl_int acc = 0;
        for (int i = 0; i < N; i++) {
            EXPECT(dst[i] == 3 * src[i] + 1, "round %d: dst[%d] = %d, expected %d", r, i,
                   dst[i], 3 * src[i] + 1);
            acc += pin[i];
            EXPECT(pout[i] == acc, "round %d: prefix[%d] = %d, expected %d", r, i, pout[i], acc);
            float want = a * (float)((i + r) % 64) * 0.25f + (float)(i % 32) - 16.0f;
            EXPECT(y[i] == want, "round %d: y[%d] = %g, expected %g", r, i, y[i], want);
        }
        print_times(r, "consumer", ev[0]);
        print_times(r, "producer", ev[1]);
        print_times(r, "prefix", ev[2]);
        print_times(r, "saxpy", ev[3]);
        for (int i = 0; i < 4; i++)
            CHECK(clReleaseEvent(ev[i]));
    }

    STEP("read the autorun counters");
    clGetProfileDataDeviceIntelFPGA_fn get_data = (clGetProfileDataDeviceIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetProfileDataDeviceIntelFPGA");
    EXPECT(get_data != NULL, "the extension function is not available");
    CHECK(get_data(dev, prog, CL_FALSE, CL_TRUE, CL_FALSE, 0, NULL, NULL, NULL));

    STEP("release everything");
    cl_mem mems[6] = {bsrc, bdst, bpin, bpout, bx, by};
    for (int i = 0; i < 6; i++)
        CHECK(clReleaseMemObject(mems[i]));
    CHECK(clReleaseKernel(producer));
    CHECK(clReleaseKernel(consumer));
    CHECK(clReleaseKernel(prefix));
    CHECK(clReleaseKernel(saxpy));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qp));
    CHECK(clReleaseCommandQueue(qc));
    CHECK(clReleaseCommandQueue(qk));
    CHECK(clReleaseContext(ctx));
    return pass("determinism");
}
