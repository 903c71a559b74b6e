/*
 * profile_autorun.c: reading autorun kernels' profile counters on demand.
 *
 * The program (kernels/autorun.cl) holds an autorun kernel over two compute units between
 * two channel arrays, fed and drained by enqueued kernels. The host moves PAIRS values per
 * compute unit through it per round and calls clGetProfileDataDeviceIntelFPGA (looked up
 * with clGetExtensionFunctionAddressForPlatform, as hosts do through the ICD loader):
 *
 *   round 1, capture 1 (keep counters)      each compute unit: PAIRS values so far
 *   round 2, capture 2 (clear after it)     2 x PAIRS, then the counters restart
 *            capture 3 (keep)               0: nothing moved since the clear
 *   round 3, capture 4 (keep)               PAIRS
 *
 * With ACL_RUNTIME_PROFILING_ACTIVE=1 each call writes one capture per compute unit into
 * profile.mon (the test checks the counts); without it the calls succeed and write nothing.
 * It also checks the function's argument errors and that the results are right.
 */
#include "common.h"
#include "../../include/CL/fpgacl_intel_ext.h"

#define PAIRS 512

static cl_command_queue qf, qd;
static cl_kernel feed, drain;
static cl_mem bsrc, bdst;
static cl_int src[2 * PAIRS], dst[2 * PAIRS];

static void round_trip(int round)
{
    for (int i = 0; i < 2 * PAIRS; i++) {
        src[i] = (i * 13 + round * 101) % 2003 - 1000;
        dst[i] = 0;
    }
    CHECK(clEnqueueWriteBuffer(qf, bsrc, CL_TRUE, 0, sizeof src, src, 0, NULL, NULL));
    cl_event ev[2];
    CHECK(clEnqueueTask(qd, drain, 0, NULL, &ev[0]));
    CHECK(clFlush(qd));
    CHECK(clEnqueueTask(qf, feed, 0, NULL, &ev[1]));
    CHECK(clFlush(qf));
    CHECK(clWaitForEvents(2, ev));
    CHECK(clReleaseEvent(ev[0]));
    CHECK(clReleaseEvent(ev[1]));
    CHECK(clEnqueueReadBuffer(qd, bdst, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
    for (int i = 0; i < 2 * PAIRS; i++) {
        cl_int want = src[i] * src[i] + (i & 1);
        EXPECT(dst[i] == want, "round %d: dst[%d] = %d, expected %d", round, i, dst[i], want);
    }
}

int main(int argc, char **argv)
{
    install_watchdog(300);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    qf = create_queue(ctx, dev, 0);
    qd = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "autorun.cl"), "");
    feed = create_kernel(prog, "feed");
    drain = create_kernel(prog, "drain");
    bsrc = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof src, NULL);
    bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof dst, NULL);
    cl_int pairs = PAIRS;
    CHECK(clSetKernelArg(feed, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(feed, 1, sizeof pairs, &pairs));
    CHECK(clSetKernelArg(drain, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(drain, 1, sizeof pairs, &pairs));

    STEP("look up clGetProfileDataDeviceIntelFPGA");
    clGetProfileDataDeviceIntelFPGA_fn get_data = (clGetProfileDataDeviceIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetProfileDataDeviceIntelFPGA");
    EXPECT(get_data != NULL, "the extension function is not available");

    STEP("argument errors");
    cl_int err = CL_SUCCESS;
    EXPECT_CODE(get_data(NULL, prog, CL_FALSE, CL_TRUE, CL_FALSE, 0, NULL, NULL, &err),
                CL_INVALID_DEVICE);
    EXPECT(err == CL_INVALID_DEVICE, "errcode_ret = %d", (int)err);
    EXPECT_CODE(get_data(dev, (cl_program)(void *)feed, CL_FALSE, CL_TRUE, CL_FALSE, 0, NULL,
                         NULL, NULL),
                CL_INVALID_PROGRAM);

    const cl_bool clear[4] = {CL_FALSE, CL_TRUE, CL_FALSE, CL_FALSE};
    const int rounds_before[4] = {1, 1, 0, 1};
    int round = 0;
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < rounds_before[c]; r++) {
            STEP("round trip through the autorun kernel");
            round_trip(++round);
        }
        STEP("capture autorun counters");
        size_t size_ret = 123;
        err = -1;
        CHECK(get_data(dev, prog, CL_FALSE, CL_TRUE, clear[c], 0, NULL, &size_ret, &err));
        EXPECT(err == CL_SUCCESS, "errcode_ret = %d", (int)err);
        EXPECT(size_ret == 0, "param_value_size_ret = %zu", size_ret);
        printf("capture %d after %d round(s)%s\n", c + 1, round,
               clear[c] ? ", counters cleared" : "");
        sleep_ms(2);
    }

    STEP("release everything");
    CHECK(clReleaseKernel(feed));
    CHECK(clReleaseKernel(drain));
    CHECK(clReleaseMemObject(bsrc));
    CHECK(clReleaseMemObject(bdst));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(qf));
    CHECK(clReleaseCommandQueue(qd));
    CHECK(clReleaseContext(ctx));
    return pass("profile_autorun");
}
