/*
 * Situations that hung hosts (the conformance suite's events/api tests), each with a
 * watchdog:
 *  - chain: 100,000 user events whose callbacks each set the next one's status
 *    (CHAIN_LINKS); callbacks must not recurse on the stack;
 *  - waitlists: an out-of-order queue where event 1 waits for event 0 and event 2 for both,
 *    and the same across two queues gated by a user event;
 *  - release_before_done: 100 kernels whose events are released before they complete;
 *  - release_mem_set_as_arg: a buffer still set as a kernel argument is released: its
 *    destructor callback must run (setting an argument does not retain the buffer).
 */
#include "common.h"

static cl_event *g_chain;
static volatile int g_fired;
static int g_links;

static void CL_CALLBACK chain_cb(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    (void)status;
    int i = (int)(intptr_t)user;
    g_fired++;
    if (i + 1 < g_links)
        clSetUserEventStatus(g_chain[i + 1], CL_COMPLETE);
}

static volatile int g_destroyed;
static void CL_CALLBACK mem_destroyed(cl_mem m, void *user)
{
    (void)m;
    (void)user;
    g_destroyed = 1;
}

static cl_kernel g_kernel;
static cl_mem g_src, g_dst;

static cl_event launch(cl_command_queue q, cl_uint nw, const cl_event *w)
{
    size_t g = 256, l = 64;
    cl_event e;
    CHECK(clEnqueueNDRangeKernel(q, g_kernel, 1, NULL, &g, &l, nw, w, &e));
    return e;
}

static const char *st(cl_int s)
{
    switch (s) {
    case CL_QUEUED: return "CL_QUEUED";
    case CL_SUBMITTED: return "CL_SUBMITTED";
    case CL_RUNNING: return "CL_RUNNING";
    case CL_COMPLETE: return "CL_COMPLETE";
    default: return "error";
    }
}

int main(int argc, char **argv)
{
    install_watchdog(180);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_int err;

    STEP("chain");
    {
        g_links = (int)env_number("CHAIN_LINKS", 100000);
        g_chain = calloc((size_t)g_links, sizeof *g_chain);
        for (int i = 0; i < g_links; i++) {
            g_chain[i] = clCreateUserEvent(ctx, &err);
            CHECK_ERR(err, "clCreateUserEvent");
            CHECK(clSetEventCallback(g_chain[i], CL_COMPLETE, chain_cb, (void *)(intptr_t)i));
        }
        CHECK(clSetUserEventStatus(g_chain[0], CL_COMPLETE));
        /* Callbacks may run on another thread: wait for the whole chain. */
        double t0 = now_ms();
        while (g_fired < g_links && now_ms() - t0 < 60000)
            sleep_ms(1);
        printf("  chain: %d of %d callbacks ran, last event %s\n", g_fired, g_links,
               st(event_status(g_chain[g_links - 1])));
        EXPECT(g_fired == g_links, "only %d of %d callbacks ran", g_fired, g_links);
        EXPECT(event_status(g_chain[g_links - 1]) == CL_COMPLETE, "last link not complete");
        for (int i = 0; i < g_links; i++)
            clReleaseEvent(g_chain[i]);
        free(g_chain);
    }

    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "events_hangs.cl"), "");
    g_kernel = create_kernel(prog, "sample_test");
    g_src = create_buffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float), NULL);
    g_dst = create_buffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(int), NULL);
    int loops = (int)env_number("KERNEL_LOOPS", 2000);
    CHECK(clSetKernelArg(g_kernel, 0, sizeof g_src, &g_src));
    CHECK(clSetKernelArg(g_kernel, 1, sizeof g_dst, &g_dst));
    CHECK(clSetKernelArg(g_kernel, 2, sizeof loops, &loops));

    STEP("waitlists");
    {
        cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        CHECK_ERR(err, "clCreateCommandQueue(out of order)");
        static int host[256];
        for (int action = 0; action < 2; action++) {
            cl_event e[3];
            e[0] = launch(q, 0, NULL);
            e[1] = launch(q, 1, e);
            if (action == 0)
                e[2] = launch(q, 2, e);
            else
                CHECK(clEnqueueReadBuffer(q, g_dst, CL_FALSE, 0, sizeof host, host, 2, e, &e[2]));
            printf("  waitlists/%s: after enqueue: %s %s %s\n", action ? "read" : "kernel",
                   st(event_status(e[0])), st(event_status(e[1])), st(event_status(e[2])));
            CHECK(clWaitForEvents(1, &e[0]));
            cl_int s1 = event_status(e[1]), s2 = event_status(e[2]);
            printf("  after waiting for event 0: %s %s %s\n", st(event_status(e[0])), st(s1), st(s2));
            EXPECT(!(s1 != CL_COMPLETE && s2 <= CL_RUNNING), "event 2 ran before event 1 ended");
            CHECK(clWaitForEvents(1, &e[1]));
            CHECK(clWaitForEvents(1, &e[2]));
            EXPECT(event_status(e[2]) == CL_COMPLETE, "event 2: %d", event_status(e[2]));
            for (int i = 0; i < 3; i++)
                clReleaseEvent(e[i]);
        }
        /* Across queues, gated by a user event. */
        cl_command_queue q2 = create_queue(ctx, dev, 0);
        cl_event u = clCreateUserEvent(ctx, &err);
        CHECK_ERR(err, "clCreateUserEvent");
        cl_event e0 = launch(q, 0, NULL);
        cl_event w[2] = {u, e0};
        cl_event e2 = launch(q2, 2, w);
        cl_event e3 = launch(q2, 1, &e2);
        CHECK(clWaitForEvents(1, &e0));
        sleep_ms(20);
        printf("  across queues: event 0 %s, gated %s, behind it %s\n", st(event_status(e0)),
               st(event_status(e2)), st(event_status(e3)));
        EXPECT(event_status(e2) > CL_RUNNING, "the gated kernel started before its user event");
        CHECK(clSetUserEventStatus(u, CL_COMPLETE));
        CHECK(clWaitForEvents(1, &e3));
        EXPECT(event_status(e2) == CL_COMPLETE, "gated kernel %d", event_status(e2));
        clReleaseEvent(u);
        clReleaseEvent(e0);
        clReleaseEvent(e2);
        clReleaseEvent(e3);
        CHECK(clFinish(q));
        CHECK(clFinish(q2));
        clReleaseCommandQueue(q2);
        clReleaseCommandQueue(q);
    }

    STEP("release_before_done");
    {
        cl_command_queue q = create_queue(ctx, dev, 0);
        enum { RUNS = 100 };
        cl_event ev[RUNS];
        for (int i = 0; i < RUNS; i++)
            ev[i] = launch(q, 0, NULL);
        for (int i = 0; i < RUNS - 1; i++)
            CHECK(clReleaseEvent(ev[i]));
        cl_int last = event_status(ev[RUNS - 1]);
        CHECK(clReleaseEvent(ev[RUNS - 1]));
        double t0 = now_ms();
        CHECK(clFinish(q));
        printf("  release_before_done: last was %s when released; clFinish %.0f ms\n", st(last),
               now_ms() - t0);
        clReleaseCommandQueue(q);
    }

    STEP("release_mem_set_as_arg");
    {
        cl_mem b = create_buffer(ctx, CL_MEM_READ_ONLY, 32, NULL);
        CHECK(clSetMemObjectDestructorCallback(b, mem_destroyed, NULL));
        cl_kernel k = create_kernel(prog, "sample_test");
        CHECK(clSetKernelArg(k, 0, sizeof b, &b));
        CHECK(clReleaseMemObject(b));
        double t0 = now_ms();
        while (!g_destroyed && now_ms() - t0 < 5000)
            sleep_ms(1);
        printf("  release_mem_set_as_arg: destructor callback %s\n", g_destroyed ? "ran" : "did not run");
        EXPECT(g_destroyed, "releasing a buffer set as a kernel argument must destroy it");
        /* Launching with the released argument is refused, not a crash. */
        CHECK(clSetKernelArg(k, 1, sizeof g_dst, &g_dst));
        CHECK(clSetKernelArg(k, 2, sizeof loops, &loops));
        cl_command_queue q = create_queue(ctx, dev, 0);
        size_t g = 1;
        EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                    CL_INVALID_KERNEL_ARGS);
        clReleaseCommandQueue(q);
        clReleaseKernel(k);
    }

    clReleaseKernel(g_kernel);
    clReleaseMemObject(g_src);
    clReleaseMemObject(g_dst);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    return pass("events_hangs");
}
