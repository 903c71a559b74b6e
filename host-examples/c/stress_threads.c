/*
 * stress_threads.c: the API called from 8 host threads at once.
 *
 * All threads start together (pthread barrier) and:
 *   1. each create and release their own contexts, queues (in-order and
 *      out-of-order), buffers and events many times, enqueuing
 *      non-blocking writes, copies with wait lists, fills, blocking reads
 *      and maps, and check every byte;
 *   2. share one context and two queues: create buffers in the shared
 *      context, enqueue on the shared queues with events from both, and
 *      retain/release the shared objects concurrently;
 *   3. each own a region of one shared parent buffer through a sub-buffer,
 *      written concurrently; the main thread checks the whole parent.
 * At the end the shared objects' reference counts must be what they were.
 */
#include "common.h"

#include <pthread.h>

#define THREADS 8
#define ITERS 25
#define ELEMS 2048

static cl_platform_id g_platform;
static cl_device_id g_dev;
static cl_context g_shared_ctx;
static cl_command_queue g_shared_ooo, g_shared_inorder;
static cl_mem g_parent;
static size_t g_region_bytes;
static pthread_barrier_t g_start;
static volatile int g_iterations_done = 0;

static cl_uint value(int thread, int iter, int i, int salt)
{
    return (cl_uint)(thread * 0x01000193u) ^ (cl_uint)(iter * 0x9E3779B9u) ^
           (cl_uint)(i * 2654435761u) ^ (cl_uint)(salt * 0x85EBCA6Bu);
}

static void expect_data(const cl_uint *got, int thread, int iter, int salt, size_t n,
                        const char *what)
{
    for (size_t i = 0; i < n; i++) {
        cl_uint want = value(thread, iter, (int)i, salt);
        if (got[i] != want)
            FAILF("thread %d iteration %d: %s element %zu is 0x%08x, expected 0x%08x", thread,
                  iter, what, i, got[i], want);
    }
}

static void private_objects(int t)
{
    cl_uint *src = malloc(ELEMS * sizeof(cl_uint));
    cl_uint *dst = malloc(ELEMS * sizeof(cl_uint));
    EXPECT(src && dst, "out of memory");
    for (int it = 0; it < ITERS; it++) {
        cl_int err = CL_SUCCESS;
        size_t n = ELEMS - (size_t)((t * 37 + it * 101) % 512);
        size_t bytes = n * sizeof(cl_uint);
        cl_context ctx = create_context(g_platform, g_dev);
        cl_command_queue q = create_queue(
            ctx, g_dev, (it % 2) ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CHECK_ERR(err, "clCreateBuffer a");
        cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CHECK_ERR(err, "clCreateBuffer b");
        for (size_t i = 0; i < n; i++)
            src[i] = value(t, it, (int)i, 1);
        cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, src, &err);
        CHECK_ERR(err, "clCreateBuffer c");

        cl_event w = NULL, cp = NULL, f = NULL;
        CHECK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, bytes, src, 0, NULL, &w));
        CHECK(clEnqueueCopyBuffer(q, a, b, 0, 0, bytes, 1, &w, &cp));
        cl_uint pattern = value(t, it, 0, 2);
        CHECK(clEnqueueFillBuffer(q, a, &pattern, sizeof pattern, 0, bytes, 1, &cp, &f));
        memset(dst, 0, bytes);
        CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, dst, 1, &cp, NULL));
        expect_data(dst, t, it, 1, n, "copied buffer");
        CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
        expect_data(dst, t, it, 1, n, "COPY_HOST_PTR buffer");
        cl_uint *m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ, 0, bytes, 1, &f, NULL, &err);
        CHECK_ERR(err, "clEnqueueMapBuffer");
        for (size_t i = 0; i < n; i++)
            if (m[i] != pattern)
                FAILF("thread %d iteration %d: filled element %zu is 0x%08x, expected 0x%08x", t,
                      it, i, m[i], pattern);
        CHECK(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
        CHECK(clFinish(q));
        EXPECT(event_status(w) == CL_COMPLETE && event_status(cp) == CL_COMPLETE &&
                   event_status(f) == CL_COMPLETE,
               "thread %d: events not complete after clFinish", t);
        CHECK(clReleaseEvent(w));
        CHECK(clReleaseEvent(cp));
        CHECK(clReleaseEvent(f));
        CHECK(clReleaseMemObject(a));
        CHECK(clReleaseMemObject(b));
        CHECK(clReleaseMemObject(c));
        CHECK(clReleaseCommandQueue(q));
        CHECK(clReleaseContext(ctx));
        __atomic_add_fetch(&g_iterations_done, 1, __ATOMIC_SEQ_CST);
    }
    free(src);
    free(dst);
}

static void shared_objects(int t)
{
    cl_uint src[ELEMS / 4], dst[ELEMS / 4];
    const size_t n = ELEMS / 4;
    for (int it = 0; it < ITERS; it++) {
        cl_int err = CL_SUCCESS;
        CHECK(clRetainContext(g_shared_ctx));
        CHECK(clRetainCommandQueue(g_shared_ooo));
        cl_mem m = clCreateBuffer(g_shared_ctx, CL_MEM_READ_WRITE, sizeof src, NULL, &err);
        CHECK_ERR(err, "clCreateBuffer(shared context)");
        for (size_t i = 0; i < n; i++)
            src[i] = value(t, it, (int)i, 3);
        cl_event gate = clCreateUserEvent(g_shared_ctx, &err);
        CHECK_ERR(err, "clCreateUserEvent(shared context)");
        cl_event w = NULL;
        CHECK(clEnqueueWriteBuffer(g_shared_ooo, m, CL_FALSE, 0, sizeof src, src, 1, &gate, &w));
        CHECK(clFlush(g_shared_ooo));
        CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
        memset(dst, 0, sizeof dst);
        CHECK(clEnqueueReadBuffer(g_shared_inorder, m, CL_TRUE, 0, sizeof dst, dst, 1, &w, NULL));
        expect_data(dst, t, it, 3, n, "shared-queue round trip");
        CHECK(clReleaseEvent(w));
        CHECK(clReleaseEvent(gate));
        CHECK(clReleaseMemObject(m));
        CHECK(clReleaseCommandQueue(g_shared_ooo));
        CHECK(clReleaseContext(g_shared_ctx));
        __atomic_add_fetch(&g_iterations_done, 1, __ATOMIC_SEQ_CST);
    }
}

static void sub_buffer_region(int t)
{
    cl_int err = CL_SUCCESS;
    cl_buffer_region r = {(size_t)t * g_region_bytes, g_region_bytes};
    cl_mem sub = clCreateSubBuffer(g_parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(err, "clCreateSubBuffer");
    size_t n = g_region_bytes / sizeof(cl_uint);
    cl_uint *src = malloc(g_region_bytes);
    EXPECT(src != NULL, "out of memory");
    for (size_t i = 0; i < n; i++)
        src[i] = value(t, 99, (int)i, 4);
    cl_command_queue q = (t % 2) ? g_shared_ooo : g_shared_inorder;
    CHECK(clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, g_region_bytes, src, 0, NULL, NULL));
    CHECK(clReleaseMemObject(sub));
    free(src);
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    int rc = pthread_barrier_wait(&g_start);
    EXPECT(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD, "pthread_barrier_wait");
    private_objects(t);
    shared_objects(t);
    sub_buffer_region(t);
    return NULL;
}

int main(void)
{
    install_watchdog(300);
    g_platform = select_platform();
    g_dev = select_device(g_platform);
    print_selection(g_platform, g_dev);
    cl_command_queue_properties qp = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
    EXPECT(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "device lacks out-of-order queues");

    STEP("shared objects");
    g_shared_ctx = create_context(g_platform, g_dev);
    g_shared_ooo = create_queue(g_shared_ctx, g_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    g_shared_inorder = create_queue(g_shared_ctx, g_dev, 0);
    cl_uint align_bits = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                          NULL));
    size_t align = align_bits / 8;
    g_region_bytes = align;
    while (g_region_bytes < 4096)
        g_region_bytes += align;
    cl_int err = CL_SUCCESS;
    g_parent = clCreateBuffer(g_shared_ctx, CL_MEM_READ_WRITE, g_region_bytes * THREADS, NULL,
                              &err);
    CHECK_ERR(err, "clCreateBuffer(parent)");
    cl_uint ctx_rc0 = 0, q_rc0 = 0;
    CHECK(clGetContextInfo(g_shared_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof ctx_rc0, &ctx_rc0,
                           NULL));
    CHECK(clGetCommandQueueInfo(g_shared_ooo, CL_QUEUE_REFERENCE_COUNT, sizeof q_rc0, &q_rc0,
                                NULL));

    STEP("run threads");
    EXPECT(pthread_barrier_init(&g_start, NULL, THREADS) == 0, "pthread_barrier_init");
    pthread_t th[THREADS];
    double t0 = now_ms();
    for (int t = 0; t < THREADS; t++)
        EXPECT(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    printf("  %d threads x (%d private + %d shared iterations) in %.0f ms\n", THREADS, ITERS,
           ITERS, now_ms() - t0);
    EXPECT(g_iterations_done == THREADS * ITERS * 2, "%d of %d iterations completed",
           g_iterations_done, THREADS * ITERS * 2);

    STEP("check shared parent buffer");
    CHECK(clFinish(g_shared_ooo));
    CHECK(clFinish(g_shared_inorder));
    size_t n = g_region_bytes / sizeof(cl_uint);
    cl_uint *all = malloc(g_region_bytes * THREADS);
    EXPECT(all != NULL, "out of memory");
    CHECK(clEnqueueReadBuffer(g_shared_inorder, g_parent, CL_TRUE, 0, g_region_bytes * THREADS,
                              all, 0, NULL, NULL));
    for (int t = 0; t < THREADS; t++)
        expect_data(all + (size_t)t * n, t, 99, 4, n, "sub-buffer region of the shared parent");
    free(all);

    STEP("reference counts restored");
    cl_uint ctx_rc = 0, q_rc = 0;
    CHECK(clGetContextInfo(g_shared_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof ctx_rc, &ctx_rc,
                           NULL));
    CHECK(clGetCommandQueueInfo(g_shared_ooo, CL_QUEUE_REFERENCE_COUNT, sizeof q_rc, &q_rc,
                                NULL));
    if (!skip_check("refcount-after-threads"))
        EXPECT(ctx_rc == ctx_rc0 && q_rc == q_rc0,
               "reference counts after concurrent retain/release: context %u (was %u), queue "
               "%u (was %u)", ctx_rc, ctx_rc0, q_rc, q_rc0);
    CHECK(clReleaseMemObject(g_parent));
    CHECK(clReleaseCommandQueue(g_shared_ooo));
    CHECK(clReleaseCommandQueue(g_shared_inorder));
    CHECK(clReleaseContext(g_shared_ctx));
    pthread_barrier_destroy(&g_start);
    return pass("stress_threads");
}
