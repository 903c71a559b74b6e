/*
 * profile_stream.c: many small commands, for profiles with many records.
 *
 * PROFILE_ROUNDS rounds (default 20; 0 = until killed) of: write a buffer, run an NDRange
 * kernel that clamps and scales it, read the result back and check it. Each round prints
 * "round i" so a test can follow progress (and, for example, kill the host mid-run to check
 * that profile.mon stays readable). PROFILE_CONTEXTS (default 1) repeats everything with a
 * new context each time (the first context of a process starts profile.mon, later ones add
 * to it).
 */
#include "common.h"

#define N 4096

static void run_context(int argc, char **argv, cl_platform_id platform, cl_device_id dev,
                        unsigned long rounds)
{
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "profile_stream.cl"), "");
    cl_kernel k = create_kernel(prog, "scale");
    static float a[N], b[N];
    cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY, sizeof a, NULL);
    cl_mem bb = create_buffer(ctx, CL_MEM_WRITE_ONLY, sizeof b, NULL);
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    size_t global = N;
    for (unsigned long r = 0; rounds == 0 || r < rounds; r++) {
        STEP("round");
        float scale = (float)(r % 7 + 1);
        for (int i = 0; i < N; i++)
            a[i] = (float)((i * 31 + (int)r) % 200 - 100);
        CHECK(clSetKernelArg(k, 2, sizeof scale, &scale));
        CHECK(clEnqueueWriteBuffer(q, ba, CL_FALSE, 0, sizeof a, a, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            float want = (a[i] < 0.0f ? 0.0f : a[i]) * scale;
            EXPECT(b[i] == want, "round %lu: b[%d] = %g, expected %g", r, i, b[i], want);
        }
        printf("round %lu\n", r);
        fflush(stdout);
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(ba));
    CHECK(clReleaseMemObject(bb));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    unsigned long rounds = env_number("PROFILE_ROUNDS", 20);
    unsigned long contexts = env_number("PROFILE_CONTEXTS", 1);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    for (unsigned long c = 0; c < contexts; c++)
        run_context(argc, argv, platform, dev, rounds);
    return pass("profile_stream");
}
