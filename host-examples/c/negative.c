/*
 * negative.c: invalid arguments get the error code the OpenCL 1.2
 * specification names, and never a crash.
 *
 * Feeds NULL handles, handles of the wrong object type, handles that were
 * already released, bad sizes, offsets, flags, NULL pointers and bad wait
 * lists to the entry points, and checks each returned code (and, for create
 * calls, that NULL is returned). Every check prints one line; all checks run
 * even after a failure, and the program exits 1 if any failed. A crash is
 * reported with the check that caused it.
 */
#include "common.h"

static int g_checks = 0, g_failed = 0;

static void report(const char *what, cl_int got, cl_int expected)
{
    g_checks++;
    if (got == expected) {
        printf("  ok   %-78s -> %s\n", what, cl_err_name(expected));
    } else {
        g_failed++;
        printf("FAIL: %s returned %s (%d), expected %s (%d)\n", what, cl_err_name(got), (int)got,
               cl_err_name(expected), (int)expected);
    }
}

/* Check a call returning cl_int. */
#define NEG(call, expected)                                                   \
    do {                                                                      \
        STEP(#call);                                                          \
        report(#call, (call), (expected));                                    \
    } while (0)

/* A check some other implementations are known to get wrong: skippable by id
 * through EXAMPLE_SKIP_CHECKS (see common.h), but run by default. */
#define NEG_ID(id, call, expected)                                            \
    do {                                                                      \
        if (!skip_check(id))                                                  \
            NEG(call, expected);                                              \
    } while (0)
#define NEG_CREATE_ID(id, expr, expected)                                     \
    do {                                                                      \
        if (!skip_check(id))                                                  \
            NEG_CREATE(expr, expected);                                       \
    } while (0)

/* Check a create call: `expr` uses `&e` as its errcode_ret and must return NULL. */
#define NEG_CREATE(expr, expected)                                            \
    do {                                                                      \
        STEP(#expr);                                                          \
        cl_int e = 12345;                                                     \
        const void *h = (const void *)(expr);                                 \
        report(#expr, e, (expected));                                         \
        if (h != NULL) {                                                      \
            g_failed++;                                                       \
            printf("FAIL: %s returned a non-NULL object on error\n", #expr);  \
        }                                                                     \
    } while (0)

static void CL_CALLBACK dummy_event_cb(cl_event e, cl_int s, void *u)
{
    (void)e; (void)s; (void)u;
}
static void CL_CALLBACK dummy_mem_cb(cl_mem m, void *u)
{
    (void)m; (void)u;
}
static void CL_CALLBACK dummy_native(void *args)
{
    (void)args;
}

/* A device type this device is not (for CL_DEVICE_NOT_FOUND). */
static cl_device_type other_type(cl_device_type mine)
{
    if (!(mine & CL_DEVICE_TYPE_GPU))
        return CL_DEVICE_TYPE_GPU;
    if (!(mine & CL_DEVICE_TYPE_ACCELERATOR))
        return CL_DEVICE_TYPE_ACCELERATOR;
    return CL_DEVICE_TYPE_CPU;
}

int main(void)
{
    install_watchdog(120);
    cl_int err = CL_SUCCESS;
    cl_platform_id p = select_platform();
    cl_device_id d = select_device(p);
    print_selection(p, d);
    STEP("set-up");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
    cl_context ctx = create_context(p, d);
    cl_context ctx2 = create_context(p, d);
    cl_command_queue q = create_queue(ctx, d, 0);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer");
    cl_mem buf2 = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, 1024, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer(ctx2)");
    cl_event uev = clCreateUserEvent(ctx, &err);
    CHECK_ERR(err, "clCreateUserEvent");
    cl_event cmd_ev = NULL;
    CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &cmd_ev));
    CHECK(clWaitForEvents(1, &cmd_ev));
    const char *src = "__kernel void k(__global int *p) { p[0] = 1; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    cl_device_type dtype = 0;
    CHECK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof dtype, &dtype, NULL));
    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    cl_device_exec_capabilities caps = 0;
    CHECK(clGetDeviceInfo(d, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL));

    /* Wrong-type handles: a live object of another type. */
    cl_platform_id wt_platform = (cl_platform_id)ctx;
    cl_device_id wt_device = (cl_device_id)q;
    cl_context wt_context = (cl_context)q;
    cl_command_queue wt_queue = (cl_command_queue)buf;
    cl_mem wt_mem = (cl_mem)q;
    cl_event wt_event = (cl_event)buf;
    cl_program wt_program = (cl_program)ctx;
    cl_kernel wt_kernel = (cl_kernel)prog;
    cl_sampler wt_sampler = (cl_sampler)buf;

    char sbuf[256];
    cl_uint host[256] = {0};
    size_t sz = 0;
    cl_uint u32 = 0;
    cl_platform_id pid = NULL;
    cl_device_id did = NULL;
    cl_event null_ev = NULL;
    cl_event bad_list[1] = {NULL};

    printf("-- platform and device\n");
    NEG(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clGetPlatformIDs(0, &pid, NULL), CL_INVALID_VALUE);
    NEG(clGetPlatformInfo(p, 0x7FFF, sizeof sbuf, sbuf, NULL), CL_INVALID_VALUE);
    NEG(clGetPlatformInfo(p, CL_PLATFORM_NAME, 1, sbuf, NULL), CL_INVALID_VALUE);
    NEG_ID("devtype-zero", clGetDeviceIDs(p, 0, 1, &did, NULL), CL_INVALID_DEVICE_TYPE);
    NEG(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &did, NULL), CL_INVALID_VALUE);
    NEG(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
    NEG(clGetDeviceIDs(p, other_type(dtype), 1, &did, NULL), CL_DEVICE_NOT_FOUND);
    NEG(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof sbuf, sbuf, NULL), CL_INVALID_DEVICE);
    NEG(clGetDeviceInfo(d, 0x7FFF, sizeof sbuf, sbuf, NULL), CL_INVALID_VALUE);
    NEG(clGetDeviceInfo(d, CL_DEVICE_NAME, 1, sbuf, NULL), CL_INVALID_VALUE);
    NEG(clRetainDevice(NULL), CL_INVALID_DEVICE);
    NEG(clReleaseDevice(NULL), CL_INVALID_DEVICE);
    {
        cl_uint max_sub = 0;
        CHECK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof max_sub, &max_sub,
                              NULL));
        cl_device_partition_property pp[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
        cl_device_id subs[4];
        cl_uint nsub = 0;
        if (max_sub == 0)
            NEG(clCreateSubDevices(d, pp, 4, subs, &nsub), CL_INVALID_VALUE);
        NEG(clCreateSubDevices(NULL, pp, 4, subs, &nsub), CL_INVALID_DEVICE);
    }

    printf("-- contexts\n");
    NEG_CREATE(clCreateContext(props, 0, &d, NULL, NULL, &e), CL_INVALID_VALUE);
    NEG_CREATE(clCreateContext(props, 1, NULL, NULL, NULL, &e), CL_INVALID_VALUE);
    NEG_CREATE(clCreateContext(props, 1, &d, NULL, (void *)host, &e), CL_INVALID_VALUE);
    {
        cl_context_properties bad_name[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p,
                                            0x7FFF, 1, 0};
        cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p,
                                         CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
        cl_device_id null_dev = NULL;
        NEG_CREATE(clCreateContext(bad_name, 1, &d, NULL, NULL, &e), CL_INVALID_PROPERTY);
        NEG_CREATE(clCreateContext(twice, 1, &d, NULL, NULL, &e), CL_INVALID_PROPERTY);
        NEG_CREATE(clCreateContext(props, 1, &null_dev, NULL, NULL, &e), CL_INVALID_DEVICE);
    }
    NEG_CREATE_ID("ctx-fromtype-errors",
                  clCreateContextFromType(props, 0, NULL, NULL, &e), CL_INVALID_DEVICE_TYPE);
    NEG_CREATE_ID("ctx-fromtype-errors",
                  clCreateContextFromType(props, other_type(dtype), NULL, NULL, &e),
                  CL_DEVICE_NOT_FOUND);
    NEG_CREATE(clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, (void *)host, &e),
               CL_INVALID_VALUE);
    NEG(clGetContextInfo(NULL, CL_CONTEXT_REFERENCE_COUNT, sizeof u32, &u32, NULL),
        CL_INVALID_CONTEXT);
    NEG(clGetContextInfo(ctx, 0x7FFF, sizeof u32, &u32, NULL), CL_INVALID_VALUE);
    NEG(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, 1, &u32, NULL), CL_INVALID_VALUE);
    NEG(clRetainContext(NULL), CL_INVALID_CONTEXT);
    NEG(clReleaseContext(NULL), CL_INVALID_CONTEXT);

    printf("-- command queues\n");
    NEG_CREATE(clCreateCommandQueue(NULL, d, 0, &e), CL_INVALID_CONTEXT);
    NEG_CREATE(clCreateCommandQueue(ctx, NULL, 0, &e), CL_INVALID_DEVICE);
    NEG_CREATE_ID("queue-bad-props",
                  clCreateCommandQueue(ctx, d, (cl_command_queue_properties)1 << 10, &e),
                  CL_INVALID_VALUE);
    NEG(clGetCommandQueueInfo(NULL, CL_QUEUE_REFERENCE_COUNT, sizeof u32, &u32, NULL),
        CL_INVALID_COMMAND_QUEUE);
    NEG(clGetCommandQueueInfo(q, 0x7FFF, sizeof u32, &u32, NULL), CL_INVALID_VALUE);
    NEG(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
    NEG(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
    NEG(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    NEG(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);

    printf("-- buffers\n");
    NEG_CREATE(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &e), CL_INVALID_CONTEXT);
    NEG_CREATE(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &e), CL_INVALID_BUFFER_SIZE);
    NEG_CREATE(clCreateBuffer(ctx, (cl_mem_flags)1 << 28, 64, NULL, &e), CL_INVALID_VALUE);
    NEG_CREATE(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &e),
               CL_INVALID_VALUE);
    NEG_CREATE(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &e), CL_INVALID_HOST_PTR);
    NEG_CREATE(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, host, &e), CL_INVALID_HOST_PTR);
    NEG(clEnqueueReadBuffer(NULL, buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
        CL_INVALID_COMMAND_QUEUE);
    NEG(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG_ID("rw-size-zero", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 0, host, 0, NULL, NULL),
           CL_INVALID_VALUE);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 1021, 4, host, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, (size_t)-4, 8, host, 0, NULL, NULL),
        CL_INVALID_VALUE);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, host, 1, NULL, NULL),
        CL_INVALID_EVENT_WAIT_LIST);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, host, 0, &cmd_ev, NULL),
        CL_INVALID_EVENT_WAIT_LIST);
    NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, host, 1, bad_list, NULL),
        CL_INVALID_EVENT_WAIT_LIST);
    NEG(clEnqueueReadBuffer(q, buf2, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
    NEG(clEnqueueWriteBuffer(q, NULL, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clEnqueueWriteBuffer(q, buf, CL_TRUE, 1024, 1, host, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueWriteBuffer(q, buf2, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
    {
        size_t o[3] = {0, 0, 0}, r[3] = {4, 1, 1}, r0[3] = {4, 0, 1};
        NEG(clEnqueueReadBufferRect(q, NULL, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueReadBufferRect(q, buf, CL_TRUE, NULL, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
        NEG(clEnqueueReadBufferRect(q, buf, CL_TRUE, o, o, r0, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
        NEG(clEnqueueWriteBufferRect(q, buf, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL),
            CL_INVALID_VALUE);
        NEG(clEnqueueCopyBufferRect(q, buf, buf2, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
    }
    NEG(clEnqueueCopyBuffer(q, NULL, buf, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clEnqueueCopyBuffer(q, buf, NULL, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clEnqueueCopyBuffer(q, buf, buf, 0, 2, 4, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    NEG(clEnqueueCopyBuffer(q, buf, buf, 0, 1000, 100, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueCopyBuffer(q, buf, buf2, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
    {
        cl_uint pat = 0;
        NEG(clEnqueueFillBuffer(q, NULL, &pat, 4, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueFillBuffer(q, buf, NULL, 4, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueFillBuffer(q, buf, &pat, 0, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueFillBuffer(q, buf, &pat, 3, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueFillBuffer(q, buf, &pat, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueFillBuffer(q, buf, &pat, 4, 1, 4, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueFillBuffer(q, buf, &pat, 4, 1024, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    }
    NEG_CREATE(clEnqueueMapBuffer(q, NULL, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e),
               CL_INVALID_MEM_OBJECT);
    NEG_CREATE_ID("map-bad-flags",
                  clEnqueueMapBuffer(q, buf, CL_TRUE, (cl_map_flags)1 << 5, 0, 4, 0, NULL, NULL,
                                     &e),
                  CL_INVALID_VALUE);
    NEG_CREATE(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 1020, 8, 0, NULL, NULL, &e),
               CL_INVALID_VALUE);
    NEG_CREATE(clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &e),
               CL_INVALID_VALUE);
    NEG_CREATE(clEnqueueMapBuffer(NULL, buf, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e),
               CL_INVALID_COMMAND_QUEUE);
    NEG(clEnqueueUnmapMemObject(q, buf, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueUnmapMemObject(q, buf, host, 0, NULL, NULL), CL_INVALID_VALUE);
    NEG(clEnqueueUnmapMemObject(q, NULL, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    {
        cl_buffer_region r = {0, 64};
        NEG_CREATE(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e),
                   CL_INVALID_MEM_OBJECT);
        NEG_CREATE(clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &e),
                   CL_INVALID_VALUE);
        cl_buffer_region big = {0, 2048};
        NEG_CREATE(clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &big, &e),
                   CL_INVALID_VALUE);
    }
    NEG(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clGetMemObjectInfo(buf, 0x7FFF, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
    NEG(clGetMemObjectInfo(buf, CL_MEM_SIZE, 1, &sz, NULL), CL_INVALID_VALUE);
    NEG(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
    NEG(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
    NEG(clSetMemObjectDestructorCallback(NULL, dummy_mem_cb, NULL), CL_INVALID_MEM_OBJECT);
    NEG(clSetMemObjectDestructorCallback(buf, NULL, NULL), CL_INVALID_VALUE);
    {
        cl_mem null_mem = NULL;
        NEG(clEnqueueMigrateMemObjects(q, 1, &null_mem, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueMigrateMemObjects(q, 0, &buf, 0, 0, NULL, NULL), CL_INVALID_VALUE);
        NEG(clEnqueueMigrateMemObjects(q, 1, &buf2, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
    }

    printf("-- events\n");
    NEG_CREATE(clCreateUserEvent(NULL, &e), CL_INVALID_CONTEXT);
    NEG(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
    NEG(clSetUserEventStatus(cmd_ev, CL_COMPLETE), CL_INVALID_EVENT);
    NEG(clSetUserEventStatus(uev, CL_SUBMITTED), CL_INVALID_VALUE);
    NEG(clWaitForEvents(0, &uev), CL_INVALID_VALUE);
    NEG(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    NEG(clWaitForEvents(1, &null_ev), CL_INVALID_EVENT);
    NEG(clGetEventInfo(NULL, CL_EVENT_REFERENCE_COUNT, sizeof u32, &u32, NULL), CL_INVALID_EVENT);
    NEG(clGetEventInfo(uev, 0x7FFF, sizeof u32, &u32, NULL), CL_INVALID_VALUE);
    NEG(clGetEventInfo(uev, CL_EVENT_REFERENCE_COUNT, 1, &u32, NULL), CL_INVALID_VALUE);
    NEG(clSetEventCallback(NULL, CL_COMPLETE, dummy_event_cb, NULL), CL_INVALID_EVENT);
    NEG(clSetEventCallback(uev, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    NEG(clSetEventCallback(uev, CL_QUEUED, dummy_event_cb, NULL), CL_INVALID_VALUE);
    NEG(clRetainEvent(NULL), CL_INVALID_EVENT);
    NEG(clReleaseEvent(NULL), CL_INVALID_EVENT);
    {
        cl_ulong t = 0;
        NEG(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL),
            CL_INVALID_EVENT);
        NEG(clGetEventProfilingInfo(uev, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
        NEG(clGetEventProfilingInfo(cmd_ev, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    NEG(clEnqueueMarkerWithWaitList(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    NEG(clEnqueueMarkerWithWaitList(q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    NEG(clEnqueueBarrierWithWaitList(q, 1, bad_list, NULL), CL_INVALID_EVENT_WAIT_LIST);
    NEG(clEnqueueBarrierWithWaitList(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    {
        cl_event other_ctx_ev = clCreateUserEvent(ctx2, &err);
        CHECK_ERR(err, "clCreateUserEvent(ctx2)");
        cl_event mixed[2] = {uev, other_ctx_ev};
        NEG(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
        NEG(clEnqueueMarkerWithWaitList(q, 1, &other_ctx_ev, NULL), CL_INVALID_CONTEXT);
        CHECK(clSetUserEventStatus(other_ctx_ev, CL_COMPLETE));
        CHECK(clReleaseEvent(other_ctx_ev));
    }

    printf("-- programs and kernels\n");
    {
        const char *null_src = NULL;
        size_t zero_len = 0;
        const unsigned char *bin = (const unsigned char *)"not a binary";
        size_t bin_len = 12;
        cl_int bin_status = 0;
        NEG_CREATE(clCreateProgramWithSource(NULL, 1, &src, NULL, &e), CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateProgramWithSource(ctx, 0, &src, NULL, &e), CL_INVALID_VALUE);
        NEG_CREATE_ID("program-null-strings", clCreateProgramWithSource(ctx, 1, NULL, NULL, &e),
                      CL_INVALID_VALUE);
        NEG_CREATE_ID("program-null-strings",
                      clCreateProgramWithSource(ctx, 1, &null_src, NULL, &e), CL_INVALID_VALUE);
        NEG_CREATE(clCreateProgramWithBinary(ctx, 0, &d, &bin_len, &bin, &bin_status, &e),
                   CL_INVALID_VALUE);
        NEG_CREATE(clCreateProgramWithBinary(ctx, 1, NULL, &bin_len, &bin, &bin_status, &e),
                   CL_INVALID_VALUE);
        NEG_CREATE(clCreateProgramWithBinary(ctx, 1, &d, NULL, &bin, &bin_status, &e),
                   CL_INVALID_VALUE);
        NEG_CREATE(clCreateProgramWithBinary(ctx, 1, &d, &zero_len, &bin, &bin_status, &e),
                   CL_INVALID_VALUE);
        NEG_CREATE_ID("program-null-binaries",
                      clCreateProgramWithBinary(ctx, 1, &d, &bin_len, NULL, &bin_status, &e),
                      CL_INVALID_VALUE);
        NEG_CREATE(clCreateProgramWithBinary(NULL, 1, &d, &bin_len, &bin, &bin_status, &e),
                   CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateProgramWithBuiltInKernels(ctx, 1, &d, "no_such_builtin_kernel", &e),
                   CL_INVALID_VALUE);
    }
    NEG(clBuildProgram(NULL, 1, &d, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    NEG(clBuildProgram(prog, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    NEG(clBuildProgram(prog, 0, &d, NULL, NULL, NULL), CL_INVALID_VALUE);
    NEG(clBuildProgram(prog, 1, &d, NULL, NULL, (void *)host), CL_INVALID_VALUE);
    NEG(clCompileProgram(NULL, 1, &d, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    NEG_CREATE(clLinkProgram(ctx, 1, &d, NULL, 0, NULL, NULL, NULL, &e), CL_INVALID_VALUE);
    NEG_CREATE(clLinkProgram(NULL, 1, &d, NULL, 1, &prog, NULL, NULL, &e), CL_INVALID_CONTEXT);
    NEG(clGetProgramInfo(NULL, CL_PROGRAM_REFERENCE_COUNT, sizeof u32, &u32, NULL),
        CL_INVALID_PROGRAM);
    NEG(clGetProgramInfo(prog, 0x7FFF, sizeof u32, &u32, NULL), CL_INVALID_VALUE);
    NEG(clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof sz, &sz, NULL),
        CL_INVALID_PROGRAM_EXECUTABLE);
    NEG(clGetProgramBuildInfo(prog, NULL, CL_PROGRAM_BUILD_STATUS, sizeof u32, &u32, NULL),
        CL_INVALID_DEVICE);
    NEG(clGetProgramBuildInfo(prog, d, 0x7FFF, sizeof u32, &u32, NULL), CL_INVALID_VALUE);
    NEG(clRetainProgram(NULL), CL_INVALID_PROGRAM);
    NEG(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
    NEG_CREATE(clCreateKernel(NULL, "k", &e), CL_INVALID_PROGRAM);
    NEG_CREATE(clCreateKernel(prog, "k", &e), CL_INVALID_PROGRAM_EXECUTABLE);
    {
        cl_kernel ks[4];
        cl_uint nk = 0;
        NEG(clCreateKernelsInProgram(NULL, 4, ks, &nk), CL_INVALID_PROGRAM);
        NEG(clCreateKernelsInProgram(prog, 4, ks, &nk), CL_INVALID_PROGRAM_EXECUTABLE);
    }
    NEG(clSetKernelArg(NULL, 0, sizeof(cl_mem), &buf), CL_INVALID_KERNEL);
    NEG(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof u32, &u32, NULL), CL_INVALID_KERNEL);
    NEG(clGetKernelWorkGroupInfo(NULL, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof sz, &sz, NULL),
        CL_INVALID_KERNEL);
    NEG(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof sbuf, sbuf, NULL),
        CL_INVALID_KERNEL);
    NEG(clRetainKernel(NULL), CL_INVALID_KERNEL);
    NEG(clReleaseKernel(NULL), CL_INVALID_KERNEL);
    {
        size_t gws = 1;
        NEG_ID("enqueue-null-kernel",
               clEnqueueNDRangeKernel(q, NULL, 1, NULL, &gws, NULL, 0, NULL, NULL),
               CL_INVALID_KERNEL);
        NEG(clEnqueueNDRangeKernel(NULL, NULL, 1, NULL, &gws, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
        NEG_ID("enqueue-null-kernel", clEnqueueTask(q, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    }
    if (!(caps & CL_EXEC_NATIVE_KERNEL))
        NEG(clEnqueueNativeKernel(q, dummy_native, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
            CL_INVALID_OPERATION);

    printf("-- images and samplers\n");
    {
        cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 4;
        desc.image_height = 4;
        size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
        if (!images) {
            cl_uint nfmt = 99;
            NEG(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                           NULL, &nfmt),
                CL_SUCCESS);
            g_checks++;
            if (nfmt != 0) {
                g_failed++;
                printf("FAIL: device without image support lists %u image formats\n", nfmt);
            }
            NEG_CREATE(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &e),
                       CL_INVALID_OPERATION);
            NEG_CREATE(clCreateImage2D(ctx, CL_MEM_READ_WRITE, &fmt, 4, 4, 0, NULL, &e),
                       CL_INVALID_OPERATION);
            NEG_CREATE(clCreateImage3D(ctx, CL_MEM_READ_WRITE, &fmt, 4, 4, 4, 0, 0, NULL, &e),
                       CL_INVALID_OPERATION);
            NEG_CREATE(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e),
                       CL_INVALID_OPERATION);
        }
        NEG_CREATE(clCreateImage(NULL, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &e),
                   CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateSampler(NULL, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e),
                   CL_INVALID_CONTEXT);
        NEG(clEnqueueReadImage(q, buf, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueWriteImage(q, buf, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueCopyBufferToImage(q, buf, buf, 0, o, r, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueCopyImageToBuffer(q, buf, buf, o, r, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG_ID("image-info-buffer", clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof sz, &sz, NULL),
               CL_INVALID_MEM_OBJECT);
        NEG(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clRetainSampler(NULL), CL_INVALID_SAMPLER);
        NEG(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
        NEG(clGetSamplerInfo(NULL, CL_SAMPLER_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_SAMPLER);
    }

    printf("-- extension lookup\n");
    STEP("clGetExtensionFunctionAddressForPlatform(unknown)");
    g_checks++;
    if (clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionFPGACL") != NULL) {
        g_failed++;
        printf("FAIL: unknown extension function name resolved to non-NULL\n");
    } else {
        printf("  ok   clGetExtensionFunctionAddressForPlatform(p, unknown) -> NULL\n");
    }

    if (!skip_check("wrong-type-handles")) {
        printf("-- handles of the wrong object type\n");
        NEG(clGetPlatformInfo(wt_platform, CL_PLATFORM_NAME, sizeof sbuf, sbuf, NULL),
            CL_INVALID_PLATFORM);
        NEG(clGetDeviceIDs(wt_platform, CL_DEVICE_TYPE_ALL, 1, &did, NULL), CL_INVALID_PLATFORM);
        NEG(clGetDeviceInfo(wt_device, CL_DEVICE_NAME, sizeof sbuf, sbuf, NULL),
            CL_INVALID_DEVICE);
        NEG(clRetainDevice(wt_device), CL_INVALID_DEVICE);
        {
            cl_context_properties wt_props[] = {CL_CONTEXT_PLATFORM,
                                                (cl_context_properties)wt_platform, 0};
            NEG_CREATE(clCreateContext(wt_props, 1, &d, NULL, NULL, &e), CL_INVALID_PLATFORM);
            NEG_CREATE(clCreateContext(props, 1, &wt_device, NULL, NULL, &e), CL_INVALID_DEVICE);
        }
        NEG(clGetContextInfo(wt_context, CL_CONTEXT_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_CONTEXT);
        NEG(clRetainContext(wt_context), CL_INVALID_CONTEXT);
        NEG(clReleaseContext(wt_context), CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateCommandQueue(wt_context, d, 0, &e), CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateCommandQueue(ctx, wt_device, 0, &e), CL_INVALID_DEVICE);
        NEG_CREATE(clCreateBuffer(wt_context, CL_MEM_READ_WRITE, 64, NULL, &e),
                   CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateUserEvent(wt_context, &e), CL_INVALID_CONTEXT);
        NEG(clFinish(wt_queue), CL_INVALID_COMMAND_QUEUE);
        NEG(clFlush(wt_queue), CL_INVALID_COMMAND_QUEUE);
        NEG(clRetainCommandQueue(wt_queue), CL_INVALID_COMMAND_QUEUE);
        NEG(clGetCommandQueueInfo(wt_queue, CL_QUEUE_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_COMMAND_QUEUE);
        NEG(clEnqueueWriteBuffer(wt_queue, buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
        NEG(clEnqueueReadBuffer(q, wt_mem, CL_TRUE, 0, 4, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clEnqueueCopyBuffer(q, buf, wt_mem, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clGetMemObjectInfo(wt_mem, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clRetainMemObject(wt_mem), CL_INVALID_MEM_OBJECT);
        NEG(clReleaseMemObject(wt_mem), CL_INVALID_MEM_OBJECT);
        NEG(clWaitForEvents(1, &wt_event), CL_INVALID_EVENT);
        NEG(clGetEventInfo(wt_event, CL_EVENT_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_EVENT);
        NEG(clSetUserEventStatus(wt_event, CL_COMPLETE), CL_INVALID_EVENT);
        NEG(clRetainEvent(wt_event), CL_INVALID_EVENT);
        NEG(clReleaseEvent(wt_event), CL_INVALID_EVENT);
        NEG(clEnqueueMarkerWithWaitList(q, 1, &wt_event, NULL), CL_INVALID_EVENT_WAIT_LIST);
        NEG(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, host, 1, &wt_event, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
        NEG(clBuildProgram(wt_program, 1, &d, NULL, NULL, NULL), CL_INVALID_PROGRAM);
        NEG(clGetProgramInfo(wt_program, CL_PROGRAM_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_PROGRAM);
        NEG(clReleaseProgram(wt_program), CL_INVALID_PROGRAM);
        NEG_CREATE(clCreateKernel(wt_program, "k", &e), CL_INVALID_PROGRAM);
        NEG(clSetKernelArg(wt_kernel, 0, sizeof(cl_mem), &buf), CL_INVALID_KERNEL);
        NEG(clGetKernelInfo(wt_kernel, CL_KERNEL_NUM_ARGS, sizeof u32, &u32, NULL),
            CL_INVALID_KERNEL);
        NEG(clReleaseKernel(wt_kernel), CL_INVALID_KERNEL);
        {
            size_t gws = 1;
            NEG(clEnqueueNDRangeKernel(q, wt_kernel, 1, NULL, &gws, NULL, 0, NULL, NULL),
                CL_INVALID_KERNEL);
            NEG(clEnqueueTask(q, wt_kernel, 0, NULL, NULL), CL_INVALID_KERNEL);
        }
        NEG(clReleaseSampler(wt_sampler), CL_INVALID_SAMPLER);
        NEG(clGetSamplerInfo(wt_sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_SAMPLER);
        NEG(clUnloadPlatformCompiler(wt_platform), CL_INVALID_PLATFORM);
    }

    if (!skip_check("freed-handles")) {
        /* Each object is released and then used at once, before anything else is
         * allocated, so a freed handle cannot alias a newer object. */
        printf("-- released (freed) handles\n");
        STEP("create objects to free");
        cl_context f_ctx = create_context(p, d);
        CHECK(clReleaseContext(f_ctx));
        NEG(clGetContextInfo(f_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_CONTEXT);
        NEG(clRetainContext(f_ctx), CL_INVALID_CONTEXT);
        NEG(clReleaseContext(f_ctx), CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateBuffer(f_ctx, CL_MEM_READ_WRITE, 64, NULL, &e), CL_INVALID_CONTEXT);
        NEG_CREATE(clCreateCommandQueue(f_ctx, d, 0, &e), CL_INVALID_CONTEXT);

        cl_command_queue f_q = create_queue(ctx, d, 0);
        CHECK(clReleaseCommandQueue(f_q));
        NEG(clFinish(f_q), CL_INVALID_COMMAND_QUEUE);
        NEG(clFlush(f_q), CL_INVALID_COMMAND_QUEUE);
        NEG(clEnqueueWriteBuffer(f_q, buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
        NEG(clReleaseCommandQueue(f_q), CL_INVALID_COMMAND_QUEUE);

        cl_mem f_buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
        CHECK_ERR(err, "clCreateBuffer");
        CHECK(clReleaseMemObject(f_buf));
        NEG(clEnqueueReadBuffer(q, f_buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
        NEG(clGetMemObjectInfo(f_buf, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
        NEG(clRetainMemObject(f_buf), CL_INVALID_MEM_OBJECT);
        NEG(clReleaseMemObject(f_buf), CL_INVALID_MEM_OBJECT);

        cl_event f_ev = clCreateUserEvent(ctx, &err);
        CHECK_ERR(err, "clCreateUserEvent");
        CHECK(clSetUserEventStatus(f_ev, CL_COMPLETE));
        CHECK(clReleaseEvent(f_ev));
        NEG(clWaitForEvents(1, &f_ev), CL_INVALID_EVENT);
        NEG(clGetEventInfo(f_ev, CL_EVENT_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_EVENT);
        NEG(clEnqueueMarkerWithWaitList(q, 1, &f_ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
        NEG(clReleaseEvent(f_ev), CL_INVALID_EVENT);

        cl_program f_prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        CHECK_ERR(err, "clCreateProgramWithSource");
        CHECK(clReleaseProgram(f_prog));
        NEG(clBuildProgram(f_prog, 1, &d, NULL, NULL, NULL), CL_INVALID_PROGRAM);
        NEG(clGetProgramInfo(f_prog, CL_PROGRAM_REFERENCE_COUNT, sizeof u32, &u32, NULL),
            CL_INVALID_PROGRAM);
        NEG(clReleaseProgram(f_prog), CL_INVALID_PROGRAM);
    }

    /* The live objects were not harmed by any of the above. */
    STEP("live objects still work");
    {
        cl_uint data[16], back[16];
        for (int i = 0; i < 16; i++)
            data[i] = (cl_uint)(i * 31 + 5);
        CHECK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
        EXPECT(memcmp(data, back, sizeof data) == 0, "buffer contents wrong after bad calls");
        EXPECT(event_refcount(uev) == 1, "user event reference count changed to %u",
               event_refcount(uev));
    }
    CHECK(clSetUserEventStatus(uev, CL_COMPLETE));
    CHECK(clReleaseEvent(uev));
    CHECK(clReleaseEvent(cmd_ev));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseMemObject(buf));
    CHECK(clReleaseMemObject(buf2));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    CHECK(clReleaseContext(ctx2));

    printf("negative: %d checks, %d failed\n", g_checks, g_failed);
    if (g_failed) {
        printf("FAIL: %d of %d negative checks returned the wrong code\n", g_failed, g_checks);
        return 1;
    }
    return pass("negative");
}
