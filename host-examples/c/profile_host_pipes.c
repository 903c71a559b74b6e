/*
 * profile_host_pipes.c: Intel FPGA host pipes and buffer locations.
 *
 * A kernel reads values from a host-writable pipe (CL_MEM_HOST_WRITE_ONLY) and writes their
 * squares to a host-readable one (CL_MEM_HOST_READ_ONLY). While it runs, the host feeds and
 * drains it with clWritePipeIntelFPGA / clReadPipeIntelFPGA (looked up through
 * clGetExtensionFunctionAddressForPlatform), retrying on CL_PIPE_FULL / CL_PIPE_EMPTY, and
 * checks every value. It also checks the calls' errors (wrong direction, not a pipe, NULL
 * pointer) and places a buffer in a memory bank with clCreateBufferWithPropertiesINTEL and
 * CL_MEM_CHANNEL_INTEL.
 */
/* clCreatePipe is an OpenCL 2.0 entry point */
#define CL_TARGET_OPENCL_VERSION 200
#include "common.h"
#include "../../include/CL/fpgacl_intel_ext.h"

#define N 3000
#define DEPTH 8

int main(int argc, char **argv)
{
    install_watchdog(300);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog =
        build_program(ctx, dev, kernel_path(argc, argv, "profile_host_pipes.cl"), "");
    cl_kernel k = create_kernel(prog, "square");

    STEP("look up the extension functions");
    clReadPipeIntelFPGA_fn read_pipe_fn = (clReadPipeIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clReadPipeIntelFPGA");
    clWritePipeIntelFPGA_fn write_pipe_fn = (clWritePipeIntelFPGA_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clWritePipeIntelFPGA");
    clCreateBufferWithPropertiesINTEL_fn create_buffer_props =
        (clCreateBufferWithPropertiesINTEL_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateBufferWithPropertiesINTEL");
    EXPECT(read_pipe_fn && write_pipe_fn && create_buffer_props,
           "an extension function is not available");
    EXPECT(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionIntelFPGA") == NULL,
           "unknown names must give NULL");

    STEP("host pipes");
    cl_int err = CL_SUCCESS;
    cl_mem in = clCreatePipe(ctx, CL_MEM_HOST_WRITE_ONLY, sizeof(cl_int), DEPTH, NULL, &err);
    CHECK_ERR(err, "clCreatePipe(CL_MEM_HOST_WRITE_ONLY)");
    cl_mem out = clCreatePipe(ctx, CL_MEM_HOST_READ_ONLY, sizeof(cl_int), DEPTH, NULL, &err);
    CHECK_ERR(err, "clCreatePipe(CL_MEM_HOST_READ_ONLY)");
    cl_int v = 0;
    EXPECT_CODE(read_pipe_fn(out, &v), CL_PIPE_EMPTY);
    EXPECT_CODE(read_pipe_fn(in, &v), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(write_pipe_fn(out, &v), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(write_pipe_fn(in, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(read_pipe_fn(NULL, &v), CL_INVALID_MEM_OBJECT);

    cl_int n = N;
    CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK(clSetKernelArg(k, 1, sizeof out, &out));
    CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    cl_event ev;
    CHECK(clEnqueueTask(q, k, 0, NULL, &ev));
    CHECK(clFlush(q));

    STEP("feed and drain the running kernel");
    int written = 0, read = 0, full = 0;
    double deadline = now_ms() + 120000.0;
    while (read < N) {
        EXPECT(now_ms() < deadline, "stuck after %d written, %d read", written, read);
        if (written < N) {
            cl_int x = written - N / 2;
            cl_int st = write_pipe_fn(in, &x);
            if (st == CL_SUCCESS)
                written++;
            else if (st == CL_PIPE_FULL)
                full++;
            else
                FAILF("clWritePipeIntelFPGA returned %s", cl_err_name(st));
        }
        cl_int y = 0;
        cl_int st = read_pipe_fn(out, &y);
        if (st == CL_SUCCESS) {
            cl_int x = read - N / 2;
            EXPECT(y == x * x, "value %d: got %d, expected %d", read, y, x * x);
            read++;
        } else if (st != CL_PIPE_EMPTY) {
            FAILF("clReadPipeIntelFPGA returned %s", cl_err_name(st));
        }
    }
    CHECK(clWaitForEvents(1, &ev));
    EXPECT(event_status(ev) == CL_COMPLETE, "kernel status %d", (int)event_status(ev));
    EXPECT_CODE(read_pipe_fn(out, &v), CL_PIPE_EMPTY);
    printf("%d values through the kernel (%d writes found the pipe full)\n", read, full);

    STEP("buffer location (CL_MEM_CHANNEL_INTEL)");
    cl_mem_properties_intel props[] = {CL_MEM_CHANNEL_INTEL, 1, 0};
    static cl_int data[1024], back[1024];
    for (int i = 0; i < 1024; i++)
        data[i] = i * 3 + 1;
    cl_mem b = create_buffer_props(ctx, props, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
    CHECK_ERR(err, "clCreateBufferWithPropertiesINTEL");
    CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    EXPECT(memcmp(data, back, sizeof data) == 0, "buffer contents differ");
    cl_mem_properties_intel bad[] = {0x7777, 1, 0};
    cl_mem nb = create_buffer_props(ctx, bad, CL_MEM_READ_WRITE, 64, NULL, &err);
    EXPECT(nb == NULL && err == CL_INVALID_PROPERTY, "unknown property: err %d", (int)err);

    STEP("release everything");
    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(in));
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("profile_host_pipes");
}
