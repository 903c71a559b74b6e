/*
 * stream_pipeline.c: a four-stage channel pipeline as customers build them
 * (reader -> autorun scaler over two compute units -> moving-average filter
 * with a shift register -> writer that polls a status channel with
 * read_channel_nb_intel), records are a struct holding a float4; each enqueued
 * kernel has its own in-order queue. Output checked against the host. Then two
 * deliberate faults: an out-of-bounds store and a channel read nobody feeds
 * (deadlock); both must end their event with a negative status, be reported on
 * stderr, and leave the context usable: the pipeline runs again, checked again.
 * STREAM_N records (default 2000).
 */
#include "common.h"
#include <math.h>

#define WIN 8

/* The host's version of scaler + filter; fails on the first mismatch. */
static void check_output(const cl_float4 *src, const float *dst, int n)
{
    float window[WIN] = {0};
    for (int i = 0; i < n; i++) {
        for (int j = WIN - 1; j > 0; j--)
            window[j] = window[j - 1];
        float v[4];
        for (int c = 0; c < 4; c++)
            v[c] = src[i].s[c] * 2.0f + (float)(i & 1);
        window[0] = v[0] + v[1] + v[2] + v[3];
        float s = 0;
        for (int j = 0; j < WIN; j++)
            s += window[j];
        s /= WIN;
        if (fabsf(s - dst[i]) > 1e-4f * (1 + fabsf(s)))
            FAILF("dst[%d] = %f, expected %f", i, dst[i], s);
    }
}

int main(int argc, char **argv)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q[3];
    for (int i = 0; i < 3; i++)
        q[i] = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "stream_pipeline.cl"), "");

    int n = (int)env_number("STREAM_N", 2000);
    STEP("pipeline");
    cl_float4 *src = malloc(n * sizeof *src);
    float *dst = malloc(n * sizeof *dst);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            src[i].s[c] = (float)((i * 13 + c * 7) % 97) * 0.125f;
    cl_mem bsrc = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *src, src);
    cl_mem bdst = create_buffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof *dst, NULL);
    cl_mem binfo = create_buffer(ctx, CL_MEM_WRITE_ONLY, 2 * sizeof(cl_int), NULL);
    cl_kernel reader = create_kernel(prog, "reader");
    cl_kernel filter = create_kernel(prog, "filter");
    cl_kernel writer = create_kernel(prog, "writer");
    CHECK(clSetKernelArg(reader, 0, sizeof bsrc, &bsrc));
    CHECK(clSetKernelArg(reader, 1, sizeof n, &n));
    CHECK(clSetKernelArg(filter, 0, sizeof n, &n));
    CHECK(clSetKernelArg(writer, 0, sizeof bdst, &bdst));
    CHECK(clSetKernelArg(writer, 1, sizeof binfo, &binfo));
    CHECK(clSetKernelArg(writer, 2, sizeof n, &n));
    /* autorun kernels cannot be created/enqueued by the host */

    cl_event ev[3];
    CHECK(clEnqueueTask(q[2], writer, 0, NULL, &ev[2]));
    CHECK(clEnqueueTask(q[1], filter, 0, NULL, &ev[1]));
    CHECK(clEnqueueTask(q[0], reader, 0, NULL, &ev[0]));
    for (int i = 0; i < 3; i++)
        CHECK(clFlush(q[i]));
    CHECK(clWaitForEvents(3, ev));
    cl_int info[2];
    CHECK(clEnqueueReadBuffer(q[2], bdst, CL_TRUE, 0, n * sizeof *dst, dst, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q[2], binfo, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL));
    const char *names[3] = {"reader", "filter", "writer"};
    for (int i = 0; i < 3; i++)
        printf("  %-7s %8.3f us .. %8.3f us\n", names[i],
               profile_time(ev[i], CL_PROFILING_COMMAND_START) / 1e3 - profile_time(ev[0], CL_PROFILING_COMMAND_START) / 1e3,
               profile_time(ev[i], CL_PROFILING_COMMAND_END) / 1e3 - profile_time(ev[0], CL_PROFILING_COMMAND_START) / 1e3);
    printf("  writer status: done=%d after %d polls\n", info[0], info[1]);
    EXPECT(info[0] == n, "status said %d, expected %d", info[0], n);
    EXPECT(info[1] >= 1, "polls %d", info[1]);
    check_output(src, dst, n);
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);

    /* ---- out-of-bounds store: reported on the event, host memory intact ---- */
    STEP("oob");
    {
        int m = 16;
        cl_mem small = create_buffer(ctx, CL_MEM_READ_WRITE, m * sizeof(int), NULL);
        cl_kernel k = create_kernel(prog, "oob");
        CHECK(clSetKernelArg(k, 0, sizeof small, &small));
        CHECK(clSetKernelArg(k, 1, sizeof m, &m));
        cl_event e;
        CHECK(clEnqueueTask(q[0], k, 0, NULL, &e));
        cl_int werr = clWaitForEvents(1, &e);
        printf("  oob: clWaitForEvents -> %s, status %d\n", cl_err_name(werr), event_status(e));
        const char *mode = getenv("FPGACL_OOB");
        if (mode && strcmp(mode, "fault") == 0) {
            EXPECT(werr == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && event_status(e) < 0,
                   "with FPGACL_OOB=fault an out-of-bounds kernel must end with a negative status");
        } else {
            /* Default: the stores past the end are reported and dropped, the kernel ends. */
            int got[16];
            EXPECT(werr == CL_SUCCESS && event_status(e) == CL_COMPLETE,
                   "out-of-bounds stores are reported, not fatal, by default");
            CHECK(clEnqueueReadBuffer(q[0], small, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
            for (int i = 0; i < m; i++)
                EXPECT(got[i] == i, "dst[%d] = %d", i, got[i]);
        }
        clReleaseEvent(e);
        clReleaseKernel(k);
        clReleaseMemObject(small);
    }
    /* ---- a starved channel read: must be diagnosed, not hang forever ---- */
    STEP("starved");
    {
        cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL);
        cl_kernel k = create_kernel(prog, "starved");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        cl_event e;
        CHECK(clEnqueueTask(q[1], k, 0, NULL, &e));
        double t0 = now_ms();
        cl_int werr = clWaitForEvents(1, &e);
        printf("  starved: clWaitForEvents -> %s after %.0f ms, status %d\n", cl_err_name(werr),
               now_ms() - t0, event_status(e));
        EXPECT(event_status(e) < 0, "a deadlocked kernel must end with a negative status");
        clReleaseEvent(e);
        clReleaseKernel(k);
        clReleaseMemObject(b);
    }
    /* the context still works afterwards */
    STEP("after faults");
    CHECK(clEnqueueTask(q[2], writer, 0, NULL, NULL));
    CHECK(clEnqueueTask(q[1], filter, 0, NULL, NULL));
    CHECK(clEnqueueTask(q[0], reader, 0, NULL, NULL));
    for (int i = 0; i < 3; i++)
        CHECK(clFinish(q[i]));
    CHECK(clEnqueueReadBuffer(q[2], bdst, CL_TRUE, 0, n * sizeof *dst, dst, 0, NULL, NULL));
    check_output(src, dst, n);

    clReleaseKernel(reader);
    clReleaseKernel(filter);
    clReleaseKernel(writer);
    clReleaseMemObject(bsrc);
    clReleaseMemObject(bdst);
    clReleaseMemObject(binfo);
    clReleaseProgram(prog);
    for (int i = 0; i < 3; i++)
        clReleaseCommandQueue(q[i]);
    clReleaseContext(ctx);
    free(src);
    free(dst);
    return pass("stream_pipeline");
}
