/*
 * feed_forward.c: the feed-forward split of a kernel with data-dependent
 * loops (CF'23 paper, Listing 4 style).
 *
 * Runs the baseline single work-item kernel, then the split design: the
 * compute kernel enqueued first on its own queue, the memory kernel on a
 * second queue, joined by five channels, both released by the same transfer. Both outputs must equal the host
 * reference (including the untouched entries). Programs: argv[1] baseline,
 * argv[2] split (.cl or .aocx); defaults under kernels/.
 */
#include "common.h"

#define ITERS 3000
#define SENTINEL 0x7A7A7A7A
#define GATE_BYTES ((size_t)4 << 20)

int main(int argc, char **argv)
{
    install_watchdog(600);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue qm = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qc = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);

    STEP("inputs");
    /* Segments [input1[t], input1[t+1]) of varying length (0..40) over input2/input3. */
    static cl_int in0[ITERS], in1[ITERS], want[ITERS], out[ITERS];
    int total = 0;
    for (int t = 0; t < ITERS; t++) {
        in0[t] = (t % 3 == 0 || t % 7 == 1) ? -1 : t % 5;
        in1[t] = total;
        total += (t * 17) % 41;
    }
    int max_end = total;
    cl_int *in2 = malloc(sizeof(cl_int) * (size_t)(total + 1));
    cl_int *in3 = malloc(sizeof(cl_int) * (size_t)(total + 1));
    EXPECT(in2 && in3, "out of memory");
    for (int j = 0; j < total; j++) {
        in2[j] = (j % 4 == 1 || j % 9 == 0) ? -1 : j % 3;
        in3[j] = (j * 31) % 97 - 48;
    }
    for (int t = 0; t < ITERS; t++) {
        want[t] = SENTINEL;
        if (in0[t] == -1) {
            int end = t + 1 < ITERS ? in1[t + 1] : max_end, r = 0;
            for (int j = in1[t]; j < end; j++)
                if (in2[j] == -1)
                    r += in3[j];
            want[t] = r;
        }
    }
    size_t seg_bytes = sizeof(cl_int) * (size_t)(total + 1);
    cl_mem b0 = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in0, in0);
    cl_mem b1 = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in1, in1);
    cl_mem b2 = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, seg_bytes, in2);
    cl_mem b3 = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, seg_bytes, in3);
    cl_mem bo = create_buffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL);
    cl_int iters = ITERS, end_arg = max_end, sentinel = SENTINEL;

    STEP("baseline kernel");
    cl_program base = build_program(ctx, dev,
                                    kernel_path_n(argc, argv, 1, "feed_forward_baseline.cl"), "");
    cl_kernel kb = create_kernel(base, "baseline");
    cl_mem bargs[5] = {b0, b1, b2, b3, bo};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(kb, i, sizeof(cl_mem), &bargs[i]));
    CHECK(clSetKernelArg(kb, 5, sizeof iters, &iters));
    CHECK(clSetKernelArg(kb, 6, sizeof end_arg, &end_arg));
    CHECK(clEnqueueFillBuffer(qm, bo, &sentinel, sizeof sentinel, 0, sizeof out, 0, NULL, NULL));
    cl_event eb = NULL;
    CHECK(clEnqueueTask(qm, kb, 0, NULL, &eb));
    CHECK(clEnqueueReadBuffer(qm, bo, CL_TRUE, 0, sizeof out, out, 1, &eb, NULL));
    for (int t = 0; t < ITERS; t++)
        EXPECT(out[t] == want[t], "baseline output1[%d] = %d, expected %d", t, out[t], want[t]);
    cl_ulong base_ns =
        profile_time(eb, CL_PROFILING_COMMAND_END) - profile_time(eb, CL_PROFILING_COMMAND_START);
    printf("  baseline: %.3f ms\n", (double)base_ns / 1e6);
    CHECK(clReleaseEvent(eb));

    if (!skip_check("channels")) {
        STEP("feed-forward split: compute kernel first, memory kernel on another queue");
        cl_program split = build_program(
            ctx, dev, kernel_path_n(argc, argv, 2, "feed_forward_split.cl"), "");
        cl_kernel km = create_kernel(split, "memory_kernel");
        cl_kernel kc = create_kernel(split, "compute_kernel");
        for (cl_uint i = 0; i < 4; i++)
            CHECK(clSetKernelArg(km, i, sizeof(cl_mem), &bargs[i]));
        CHECK(clSetKernelArg(km, 4, sizeof iters, &iters));
        CHECK(clSetKernelArg(km, 5, sizeof end_arg, &end_arg));
        CHECK(clSetKernelArg(kc, 0, sizeof bo, &bo));
        CHECK(clSetKernelArg(kc, 1, sizeof iters, &iters));
        CHECK(clEnqueueFillBuffer(qc, bo, &sentinel, sizeof sentinel, 0, sizeof out, 0, NULL,
                                  NULL));
        CHECK(clFinish(qc));
        /* Both kernels wait for one transfer (GATE_BYTES, about a millisecond of emulated
         * time), so they start together at its end however long the host takes between the
         * two enqueues; otherwise the compute kernel would wait on its channels for that host
         * gap and the profile would depend on it. */
        cl_mem gate = create_buffer(ctx, CL_MEM_READ_WRITE, GATE_BYTES, NULL);
        char *gate_host = calloc(1, GATE_BYTES);
        EXPECT(gate_host, "out of memory");
        cl_event ev[2], w;
        CHECK(clEnqueueWriteBuffer(qc, gate, CL_FALSE, 0, GATE_BYTES, gate_host, 0, NULL, &w));
        CHECK(clEnqueueTask(qc, kc, 0, NULL, &ev[0]));
        CHECK(clEnqueueTask(qm, km, 1, &w, &ev[1]));
        CHECK(clFlush(qc));
        CHECK(clFlush(qm));
        CHECK(clWaitForEvents(2, ev));
        if (profile_time(ev[0], CL_PROFILING_COMMAND_START) !=
            profile_time(ev[1], CL_PROFILING_COMMAND_START))
            printf("  note: the split kernels did not start together (host too slow?)\n");
        CHECK(clEnqueueReadBuffer(qc, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int t = 0; t < ITERS; t++)
            EXPECT(out[t] == want[t], "split output1[%d] = %d, expected %d", t, out[t], want[t]);
        cl_ulong start = profile_time(ev[0], CL_PROFILING_COMMAND_START);
        cl_ulong start_m = profile_time(ev[1], CL_PROFILING_COMMAND_START);
        cl_ulong end = profile_time(ev[0], CL_PROFILING_COMMAND_END);
        cl_ulong end_m = profile_time(ev[1], CL_PROFILING_COMMAND_END);
        printf("  split: compute %.3f ms, memory %.3f ms\n", (double)(end - start) / 1e6,
               (double)(end_m - start_m) / 1e6);
        if (start_m < start)
            start = start_m;
        if (end_m > end)
            end = end_m;
        if (end > start)
            printf("  split speedup over the baseline: %.1fx\n",
                   (double)base_ns / (double)(end - start));
        CHECK(clReleaseEvent(ev[0]));
        CHECK(clReleaseEvent(ev[1]));
        CHECK(clReleaseEvent(w));
        CHECK(clReleaseMemObject(gate));
        free(gate_host);
        CHECK(clReleaseKernel(km));
        CHECK(clReleaseKernel(kc));
        CHECK(clReleaseProgram(split));
    }

    CHECK(clReleaseKernel(kb));
    CHECK(clReleaseProgram(base));
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(bargs[i]));
    CHECK(clReleaseCommandQueue(qm));
    CHECK(clReleaseCommandQueue(qc));
    CHECK(clReleaseContext(ctx));
    free(in2);
    free(in3);
    return pass("feed_forward");
}
