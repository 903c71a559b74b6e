/*
 * pipes_objects.c: OpenCL 2.0 entry points FPGA hosts use, and object
 * lifetimes.
 *
 * Checks clCreateCommandQueueWithProperties (properties honoured and
 * reported, queue usable, invalid properties rejected); clCreatePipe /
 * clGetPipeInfo (default and explicit flags, info values, pipe is not a
 * buffer for host commands, size and flag errors); retain/release counting
 * for contexts, queues, memory objects, pipes, events and programs; and
 * lifetimes: an object released by the host stays alive while a pending
 * command uses it (destructor callbacks run only afterwards, in reverse order
 * of registration), a released queue still completes its commands, a
 * released context stays usable through its queues and buffers, and an event
 * released before its command ran does not disturb the command.
 */
#define CL_TARGET_OPENCL_VERSION 200
#include "common.h"

static cl_platform_id g_platform;
static cl_device_id g_dev;
static cl_context g_ctx;

static cl_uint mem_refcount(cl_mem m)
{
    cl_uint rc = 0;
    CHECK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    return rc;
}

static cl_uint ctx_refcount(cl_context c)
{
    cl_uint rc = 0;
    CHECK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    return rc;
}

static cl_uint queue_refcount(cl_command_queue q)
{
    cl_uint rc = 0;
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    return rc;
}

static cl_event user_event(cl_context c)
{
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(c, &err);
    CHECK_ERR(err, "clCreateUserEvent");
    return u;
}

/* ------------------------------------------------------------------ */

static void test_queue_with_properties(void)
{
    STEP("clCreateCommandQueueWithProperties");
    cl_int err = CL_SUCCESS;
    cl_command_queue_properties dev_qp = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof dev_qp, &dev_qp, NULL));
    cl_command_queue_properties want = CL_QUEUE_PROFILING_ENABLE;
    if (dev_qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        want |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)want, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(g_ctx, g_dev, props, &err);
    CHECK_ERR(err, "clCreateCommandQueueWithProperties(profiling, out-of-order)");
    cl_command_queue_properties got = 0;
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL));
    EXPECT(got == want, "queue properties 0x%llx, expected 0x%llx", (unsigned long long)got,
           (unsigned long long)want);
    cl_context qc = NULL;
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    EXPECT(qc == g_ctx, "CL_QUEUE_CONTEXT differs");

    /* The queue works: write, read back, profiling info available. */
    cl_uint data[256], back[256];
    for (int i = 0; i < 256; i++)
        data[i] = (cl_uint)(i * i + 11);
    cl_mem buf = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer");
    cl_event w = NULL;
    CHECK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof data, data, 0, NULL, &w));
    CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 1, &w, NULL));
    for (int i = 0; i < 256; i++)
        EXPECT(back[i] == data[i], "element %d is %u", i, back[i]);
    cl_ulong s = profile_time(w, CL_PROFILING_COMMAND_START);
    cl_ulong e = profile_time(w, CL_PROFILING_COMMAND_END);
    EXPECT(s <= e, "profiling start %llu > end %llu", (unsigned long long)s,
           (unsigned long long)e);
    CHECK(clReleaseEvent(w));
    CHECK(clReleaseMemObject(buf));
    CHECK(clReleaseCommandQueue(q));

    /* NULL properties: a default in-order queue without profiling. */
    q = clCreateCommandQueueWithProperties(g_ctx, g_dev, NULL, &err);
    CHECK_ERR(err, "clCreateCommandQueueWithProperties(NULL)");
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL));
    EXPECT(got == 0, "default queue properties 0x%llx", (unsigned long long)got);
    CHECK(clFinish(q));
    CHECK(clReleaseCommandQueue(q));

    /* Invalid property bits and unknown property names. */
    cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
    q = clCreateCommandQueueWithProperties(g_ctx, g_dev, bad_bits, &err);
    EXPECT(err == CL_INVALID_VALUE && q == NULL, "invalid queue property bits: %s",
           cl_err_name(err));
    cl_queue_properties bad_name[] = {0x7FFF, 1, 0};
    q = clCreateCommandQueueWithProperties(g_ctx, g_dev, bad_name, &err);
    EXPECT(err == CL_INVALID_VALUE && q == NULL, "unknown queue property name: %s",
           cl_err_name(err));
    printf("  ok: queue with properties created, reported, usable; bad properties rejected\n");
}

/* ------------------------------------------------------------------ */

static void test_pipes(void)
{
    STEP("clCreatePipe / clGetPipeInfo");
    if (skip_check("pipes"))
        return;
    cl_int err = CL_SUCCESS;
    /* FPGA hosts create pipes with flags 0 (the default READ_WRITE | HOST_NO_ACCESS). */
    cl_mem p = clCreatePipe(g_ctx, 0, sizeof(cl_int), 64, NULL, &err);
    CHECK_ERR(err, "clCreatePipe(flags 0, 4-byte packets, 64 packets)");
    cl_uint psize = 0, pmax = 0;
    size_t ret = 0;
    CHECK(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof psize, &psize, &ret));
    EXPECT(psize == sizeof(cl_int) && ret == sizeof(cl_uint), "CL_PIPE_PACKET_SIZE %u (size %zu)",
           psize, ret);
    CHECK(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof pmax, &pmax, &ret));
    EXPECT(pmax == 64 && ret == sizeof(cl_uint), "CL_PIPE_MAX_PACKETS %u (size %zu)", pmax, ret);
    cl_mem_object_type t = 0;
    CHECK(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_MEM_OBJECT_PIPE, "pipe CL_MEM_TYPE 0x%x", t);
    cl_context c = NULL;
    CHECK(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == g_ctx, "pipe CL_MEM_CONTEXT differs");
    cl_mem_flags f = 0;
    CHECK(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof f, &f, NULL));
    EXPECT(f == 0 || f == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS),
           "pipe created with flags 0 reports flags 0x%llx", (unsigned long long)f);
    EXPECT_CODE(clGetPipeInfo(p, 0x7FFF, sizeof psize, &psize, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, 1, &psize, NULL), CL_INVALID_VALUE);

    /* Retain/release counts. */
    EXPECT(mem_refcount(p) == 1, "new pipe reference count %u", mem_refcount(p));
    CHECK(clRetainMemObject(p));
    EXPECT(mem_refcount(p) == 2, "retained pipe reference count %u", mem_refcount(p));
    CHECK(clReleaseMemObject(p));
    EXPECT(mem_refcount(p) == 1, "released pipe reference count %u", mem_refcount(p));

    /* A pipe is not a buffer: host buffer commands reject it. */
    cl_command_queue q = create_queue(g_ctx, g_dev, 0);
    cl_int tmp[4] = {0};
    EXPECT_CODE(clEnqueueReadBuffer(q, p, CL_TRUE, 0, sizeof tmp, tmp, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clEnqueueWriteBuffer(q, p, CL_TRUE, 0, sizeof tmp, tmp, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);
    void *mp = clEnqueueMapBuffer(q, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_MEM_OBJECT && mp == NULL, "map of a pipe: %s", cl_err_name(err));
    cl_buffer_region r = {0, 4};
    cl_mem sub = clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    EXPECT(err == CL_INVALID_MEM_OBJECT && sub == NULL, "sub-buffer of a pipe: %s",
           cl_err_name(err));
    CHECK(clReleaseCommandQueue(q));

    /* clGetPipeInfo on a buffer. */
    cl_mem buf = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer");
    EXPECT_CODE(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof psize, &psize, NULL),
                CL_INVALID_MEM_OBJECT);
    CHECK(clReleaseMemObject(buf));

    /* Explicit flags and struct-sized packets. */
    cl_mem p2 = clCreatePipe(g_ctx, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 16, 1, NULL, &err);
    CHECK_ERR(err, "clCreatePipe(READ_WRITE|HOST_NO_ACCESS, 16-byte packets, 1 packet)");
    CHECK(clGetPipeInfo(p2, CL_PIPE_PACKET_SIZE, sizeof psize, &psize, NULL));
    CHECK(clGetPipeInfo(p2, CL_PIPE_MAX_PACKETS, sizeof pmax, &pmax, NULL));
    EXPECT(psize == 16 && pmax == 1, "pipe info %u/%u", psize, pmax);
    CHECK(clReleaseMemObject(p2));

    STEP("clCreatePipe errors");
    cl_mem bad = clCreatePipe(g_ctx, 0, 0, 16, NULL, &err);
    EXPECT(err == CL_INVALID_PIPE_SIZE && bad == NULL, "packet size 0: %s", cl_err_name(err));
    bad = clCreatePipe(g_ctx, 0, 4, 0, NULL, &err);
    EXPECT(err == CL_INVALID_PIPE_SIZE && bad == NULL, "max packets 0: %s", cl_err_name(err));
    bad = clCreatePipe(g_ctx, CL_MEM_READ_ONLY, 4, 16, NULL, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "READ_ONLY pipe: %s", cl_err_name(err));
    bad = clCreatePipe(g_ctx, CL_MEM_USE_HOST_PTR, 4, 16, NULL, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "USE_HOST_PTR pipe: %s", cl_err_name(err));
    bad = clCreatePipe(NULL, 0, 4, 16, NULL, &err);
    EXPECT(err == CL_INVALID_CONTEXT && bad == NULL, "pipe in NULL context: %s",
           cl_err_name(err));
    CHECK(clReleaseMemObject(p));
    printf("  ok: pipes created with default/explicit flags, info, refcounts and errors\n");
}

/* ------------------------------------------------------------------ */

static volatile int g_destroyed = 0;
static volatile int g_order[4];
static volatile int g_order_n = 0;

static void CL_CALLBACK destructor(cl_mem m, void *user)
{
    (void)m;
    int id = (int)(intptr_t)user;
    int slot = __atomic_fetch_add(&g_order_n, 1, __ATOMIC_SEQ_CST);
    if (slot < 4)
        g_order[slot] = id;
    __atomic_add_fetch(&g_destroyed, 1, __ATOMIC_SEQ_CST);
}

static void test_refcounts(void)
{
    STEP("retain/release counts");
    cl_int err = CL_SUCCESS;
    cl_uint c0 = ctx_refcount(g_ctx);
    CHECK(clRetainContext(g_ctx));
    CHECK(clRetainContext(g_ctx));
    EXPECT(ctx_refcount(g_ctx) == c0 + 2, "context count %u after two retains (was %u)",
           ctx_refcount(g_ctx), c0);
    CHECK(clReleaseContext(g_ctx));
    CHECK(clReleaseContext(g_ctx));
    EXPECT(ctx_refcount(g_ctx) == c0, "context count %u after releases (was %u)",
           ctx_refcount(g_ctx), c0);

    cl_command_queue q = create_queue(g_ctx, g_dev, 0);
    EXPECT(queue_refcount(q) == 1, "new queue count %u", queue_refcount(q));
    CHECK(clRetainCommandQueue(q));
    EXPECT(queue_refcount(q) == 2, "retained queue count %u", queue_refcount(q));
    CHECK(clReleaseCommandQueue(q));
    EXPECT(queue_refcount(q) == 1, "released queue count %u", queue_refcount(q));

    cl_event u = user_event(g_ctx);
    EXPECT(event_refcount(u) == 1, "new user event count %u", event_refcount(u));
    CHECK(clRetainEvent(u));
    EXPECT(event_refcount(u) == 2, "retained event count %u", event_refcount(u));
    CHECK(clReleaseEvent(u));
    EXPECT(event_refcount(u) == 1, "released event count %u", event_refcount(u));
    CHECK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(clReleaseEvent(u));

    /* Programs from source (no build needed): counts and source round trip. */
    const char *parts[] = {"__kernel void k(__global int *p)", " { p[0] = 1; }\n/* tail */"};
    size_t lens[] = {strlen(parts[0]), 14};
    cl_program prog = clCreateProgramWithSource(g_ctx, 2, parts, lens, &err);
    CHECK_ERR(err, "clCreateProgramWithSource");
    cl_uint prc = 0;
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_REFERENCE_COUNT, sizeof prc, &prc, NULL));
    EXPECT(prc == 1, "new program count %u", prc);
    CHECK(clRetainProgram(prog));
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_REFERENCE_COUNT, sizeof prc, &prc, NULL));
    EXPECT(prc == 2, "retained program count %u", prc);
    CHECK(clReleaseProgram(prog));
    char src[256];
    size_t src_len = 0;
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_SOURCE, sizeof src, src, &src_len));
    const char *want_src = "__kernel void k(__global int *p) { p[0] = 1; }";
    EXPECT(strcmp(src, want_src) == 0 && src_len == strlen(want_src) + 1,
           "CL_PROGRAM_SOURCE '%s' (size %zu), expected '%s'", src, src_len, want_src);
    cl_context pc = NULL;
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_CONTEXT, sizeof pc, &pc, NULL));
    EXPECT(pc == g_ctx, "CL_PROGRAM_CONTEXT differs");
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    printf("  ok: retain adds and release removes exactly one reference on each object type\n");
}

static void test_lifetimes(void)
{
    cl_int err = CL_SUCCESS;
    STEP("released buffer lives while a pending command uses it");
    cl_command_queue q = create_queue(g_ctx, g_dev, 0);
    cl_uint init[512], back[512];
    for (int i = 0; i < 512; i++) {
        init[i] = 0xA5A50000u + (cl_uint)i;
        back[i] = 0;
    }
    cl_mem buf = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init,
                                init, &err);
    CHECK_ERR(err, "clCreateBuffer");
    g_destroyed = 0;
    g_order_n = 0;
    CHECK(clSetMemObjectDestructorCallback(buf, destructor, (void *)(intptr_t)1));
    CHECK(clSetMemObjectDestructorCallback(buf, destructor, (void *)(intptr_t)2));
    CHECK(clSetMemObjectDestructorCallback(buf, destructor, (void *)(intptr_t)3));
    cl_event u = user_event(g_ctx), rd = NULL;
    CHECK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof back, back, 1, &u, &rd));
    CHECK(clFlush(q));
    CHECK(clReleaseMemObject(buf)); /* the host's last reference */
    sleep_ms(50);
    EXPECT(g_destroyed == 0, "buffer destroyed while a pending command still uses it");
    CHECK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &rd));
    for (int i = 0; i < 512; i++)
        EXPECT(back[i] == init[i], "read from a released buffer: element %d is 0x%08x", i,
               back[i]);
    EXPECT(wait_flag(&g_destroyed, 3, 5000), "destructor callbacks not called after the "
           "pending command finished (%d of 3)", g_destroyed);
    EXPECT(g_order[0] == 3 && g_order[1] == 2 && g_order[2] == 1,
           "destructor callbacks ran in order %d,%d,%d; expected reverse registration 3,2,1",
           g_order[0], g_order[1], g_order[2]);
    CHECK(clReleaseEvent(rd));
    CHECK(clReleaseEvent(u));

    STEP("released queue completes its commands");
    cl_uint data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (cl_uint)(1000 + i);
    cl_mem b2 = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer");
    cl_command_queue q2 = create_queue(g_ctx, g_dev, 0);
    cl_event u2 = user_event(g_ctx), w2 = NULL;
    CHECK(clEnqueueWriteBuffer(q2, b2, CL_FALSE, 0, sizeof data, data, 1, &u2, &w2));
    CHECK(clReleaseCommandQueue(q2));
    CHECK(clSetUserEventStatus(u2, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &w2));
    EXPECT(event_status(w2) == CL_COMPLETE, "command of a released queue has status %d",
           event_status(w2));
    cl_uint back2[64];
    CHECK(clEnqueueReadBuffer(q, b2, CL_TRUE, 0, sizeof back2, back2, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
        EXPECT(back2[i] == data[i], "write through a released queue: element %d is %u", i,
               back2[i]);
    CHECK(clReleaseEvent(w2));
    CHECK(clReleaseEvent(u2));

    STEP("event released before its command runs");
    cl_event u3 = user_event(g_ctx), w3 = NULL;
    for (int i = 0; i < 64; i++)
        data[i] = (cl_uint)(7000 + i);
    CHECK(clEnqueueWriteBuffer(q, b2, CL_FALSE, 0, sizeof data, data, 1, &u3, &w3));
    CHECK(clReleaseEvent(w3));
    CHECK(clSetUserEventStatus(u3, CL_COMPLETE));
    CHECK(clFinish(q));
    CHECK(clEnqueueReadBuffer(q, b2, CL_TRUE, 0, sizeof back2, back2, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
        EXPECT(back2[i] == data[i], "write whose event was released: element %d is %u", i,
               back2[i]);
    CHECK(clReleaseEvent(u3));
    CHECK(clReleaseMemObject(b2));
    CHECK(clReleaseCommandQueue(q));

    STEP("released context stays alive through its queue and buffer");
    cl_context c2 = create_context(g_platform, g_dev);
    cl_command_queue q3 = create_queue(c2, g_dev, 0);
    cl_mem b3 = clCreateBuffer(c2, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
    CHECK_ERR(err, "clCreateBuffer");
    CHECK(clReleaseContext(c2));
    cl_context qc = NULL, mc = NULL;
    CHECK(clGetCommandQueueInfo(q3, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    CHECK(clGetMemObjectInfo(b3, CL_MEM_CONTEXT, sizeof mc, &mc, NULL));
    EXPECT(qc == c2 && mc == c2, "queue/buffer lost their context");
    CHECK(clEnqueueWriteBuffer(q3, b3, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q3, b3, CL_TRUE, 0, sizeof back2, back2, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
        EXPECT(back2[i] == data[i], "buffer of a released context: element %d is %u", i,
               back2[i]);
    CHECK(clReleaseMemObject(b3));
    CHECK(clReleaseCommandQueue(q3));
    printf("  ok: objects outlive host releases while still in use; callbacks afterwards\n");
}

int main(void)
{
    install_watchdog(120);
    g_platform = select_platform();
    g_dev = select_device(g_platform);
    print_selection(g_platform, g_dev);
    g_ctx = create_context(g_platform, g_dev);

    test_queue_with_properties();
    test_pipes();
    test_refcounts();
    test_lifetimes();

    CHECK(clReleaseContext(g_ctx));
    return pass("pipes_objects");
}
