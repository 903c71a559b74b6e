/*
 * customer_mix.c: the kernels a customer brings on day one, each checked
 * against a host reference: a FIR filter with a shift register (single
 * work-item, #pragma unroll), a local-memory histogram with local and global
 * atomics (NDRange, reqd_work_group_size, barriers), a tiled matrix multiply
 * (2-D NDRange, __local tiles, barriers), float4 in / int4 out with a struct
 * argument (convert_int4_sat_rte, clamp), a prefix sum into long, and printf
 * with a vector (%v4hld). Runs unchanged on any OpenCL 1.2 platform (PoCL
 * skips "struct-arg-size": it does not check struct argument sizes).
 */
#include "common.h"
#include <math.h>

#define TAPS 16
#define BS 8

typedef struct {
    cl_float gain;
    cl_int offset;
    cl_short2 clamp;
} params_t;

static cl_command_queue q;
static cl_context ctx;

static cl_mem buf(cl_mem_flags f, size_t size, void *host)
{
    return create_buffer(ctx, f | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host);
}

static cl_ulong run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_ulong t = profile_time(ev, CL_PROFILING_COMMAND_END) - profile_time(ev, CL_PROFILING_COMMAND_START);
    CHECK(clReleaseEvent(ev));
    return t;
}

int main(int argc, char **argv)
{
    install_watchdog(300);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    ctx = create_context(platform, dev);
    q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "customer_mix.cl"), "");

    /* ---------------- FIR ---------------- */
    STEP("fir");
    {
        int n = 4096;
        float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
        float coef[TAPS];
        for (int i = 0; i < TAPS; i++)
            coef[i] = (float)(i + 1) / 64.0f;
        for (int i = 0; i < n; i++)
            in[i] = (float)((i * 37) % 101) - 50.0f;
        cl_mem bi = buf(CL_MEM_READ_ONLY, n * sizeof(float), in);
        cl_mem bo = buf(CL_MEM_WRITE_ONLY, n * sizeof(float), NULL);
        cl_mem bc = buf(CL_MEM_READ_ONLY, sizeof coef, coef);
        cl_kernel k = create_kernel(prog, "fir");
        CHECK(clSetKernelArg(k, 0, sizeof bi, &bi));
        CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
        CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
        CHECK(clSetKernelArg(k, 3, sizeof n, &n));
        cl_event ev;
        CHECK(clEnqueueTask(q, k, 0, NULL, &ev));
        CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * sizeof(float), out, 1, &ev, NULL));
        printf("  fir: %d samples, %.3f us\n", n,
               (profile_time(ev, CL_PROFILING_COMMAND_END) - profile_time(ev, CL_PROFILING_COMMAND_START)) / 1e3);
        for (int i = 0; i < n; i++) {
            float acc = 0.0f;
            for (int j = 0; j < TAPS; j++)
                acc += (i - j >= 0 ? in[i - j] : 0.0f) * coef[j];
            if (fabsf(acc - out[i]) > 1e-3f * (1.0f + fabsf(acc)))
                FAILF("fir out[%d] = %f, expected %f", i, out[i], acc);
        }
        clReleaseEvent(ev);
        clReleaseKernel(k);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        clReleaseMemObject(bc);
        free(in);
        free(out);
    }

    /* ---------------- histogram ---------------- */
    STEP("histogram");
    {
        int n = 100000;
        unsigned char *data = malloc(n);
        cl_uint hist[256] = {0}, ref[256] = {0};
        for (int i = 0; i < n; i++) {
            data[i] = (unsigned char)((i * 2654435761u) >> 24);
            ref[data[i]]++;
        }
        cl_mem bd = buf(CL_MEM_READ_ONLY, n, data);
        cl_mem bh = buf(CL_MEM_READ_WRITE, sizeof hist, hist);
        cl_kernel k = create_kernel(prog, "histogram");
        CHECK(clSetKernelArg(k, 0, sizeof bd, &bd));
        CHECK(clSetKernelArg(k, 1, sizeof n, &n));
        CHECK(clSetKernelArg(k, 2, sizeof bh, &bh));
        size_t global = 64 * 32, local = 64;
        cl_ulong t = run(k, 1, &global, &local);
        CHECK(clEnqueueReadBuffer(q, bh, CL_TRUE, 0, sizeof hist, hist, 0, NULL, NULL));
        printf("  histogram: %d bytes, %.3f us\n", n, t / 1e3);
        for (int b = 0; b < 256; b++)
            if (hist[b] != ref[b])
                FAILF("hist[%d] = %u, expected %u", b, hist[b], ref[b]);
        /* wrong local size for reqd_work_group_size(64,1,1) */
        size_t bad_local = 32;
        EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &bad_local, 0, NULL, NULL),
                    CL_INVALID_WORK_GROUP_SIZE);
        clReleaseKernel(k);
        clReleaseMemObject(bd);
        clReleaseMemObject(bh);
        free(data);
    }

    /* ---------------- matmul ---------------- */
    STEP("matmul");
    {
        int N = 64;
        size_t sz = (size_t)N * N * sizeof(float);
        float *A = malloc(sz), *B = malloc(sz), *C = malloc(sz);
        for (int i = 0; i < N * N; i++) {
            A[i] = (float)(i % 7) - 3.0f;
            B[i] = (float)(i % 5) * 0.25f;
        }
        cl_mem bA = buf(CL_MEM_READ_ONLY, sz, A), bB = buf(CL_MEM_READ_ONLY, sz, B);
        cl_mem bC = buf(CL_MEM_WRITE_ONLY, sz, NULL);
        cl_kernel k = create_kernel(prog, "matmul");
        CHECK(clSetKernelArg(k, 0, sizeof bA, &bA));
        CHECK(clSetKernelArg(k, 1, sizeof bB, &bB));
        CHECK(clSetKernelArg(k, 2, sizeof bC, &bC));
        CHECK(clSetKernelArg(k, 3, sizeof N, &N));
        size_t global[2] = {N, N}, local[2] = {BS, BS};
        cl_ulong t = run(k, 2, global, local);
        CHECK(clEnqueueReadBuffer(q, bC, CL_TRUE, 0, sz, C, 0, NULL, NULL));
        printf("  matmul %dx%d: %.3f us\n", N, N, t / 1e3);
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++) {
                float acc = 0.0f;
                for (int kk = 0; kk < N; kk++)
                    acc += A[r * N + kk] * B[kk * N + c];
                if (fabsf(acc - C[r * N + c]) > 1e-3f)
                    FAILF("C[%d][%d] = %f, expected %f", r, c, C[r * N + c], acc);
            }
        clReleaseKernel(k);
        clReleaseMemObject(bA);
        clReleaseMemObject(bB);
        clReleaseMemObject(bC);
        free(A);
        free(B);
        free(C);
    }

    /* ---------------- scale4 (float4 + struct) ---------------- */
    STEP("scale4");
    {
        int n = 1024;
        cl_float4 *in = malloc(n * sizeof *in);
        cl_int4 *out = malloc(n * sizeof *out);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 4; c++)
                in[i].s[c] = (float)(i * 4 + c) * 0.37f - 700.0f;
        params_t p = {2.5f, 3, {{-1000, 1000}}};
        cl_mem bi = buf(CL_MEM_READ_ONLY, n * sizeof *in, in);
        cl_mem bo = buf(CL_MEM_WRITE_ONLY, n * sizeof *out, NULL);
        cl_kernel k = create_kernel(prog, "scale4");
        CHECK(clSetKernelArg(k, 0, sizeof bi, &bi));
        CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
        if (!skip_check("struct-arg-size"))
            EXPECT_CODE(clSetKernelArg(k, 2, sizeof p - 4, &p), CL_INVALID_ARG_SIZE);
        CHECK(clSetKernelArg(k, 2, sizeof p, &p));
        size_t global = n;
        run(k, 1, &global, NULL);
        CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 4; c++) {
                float v = in[i].s[c] * p.gain;
                int r = (int)rintf(v) + p.offset;
                if (r < p.clamp.s[0]) r = p.clamp.s[0];
                if (r > p.clamp.s[1]) r = p.clamp.s[1];
                if (out[i].s[c] != r)
                    FAILF("scale4 out[%d].s%d = %d, expected %d", i, c, out[i].s[c], r);
            }
        clReleaseKernel(k);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }

    /* ---------------- prefix (long accumulator) ---------------- */
    STEP("prefix");
    {
        int n = 5000;
        cl_int *in = malloc(n * sizeof *in);
        cl_long *out = malloc(n * sizeof *out);
        for (int i = 0; i < n; i++)
            in[i] = 2000000000 - i * 1000;
        cl_mem bi = buf(CL_MEM_READ_ONLY, n * sizeof *in, in);
        cl_mem bo = buf(CL_MEM_WRITE_ONLY, n * sizeof *out, NULL);
        cl_kernel k = create_kernel(prog, "prefix");
        CHECK(clSetKernelArg(k, 0, sizeof bi, &bi));
        CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
        CHECK(clSetKernelArg(k, 2, sizeof n, &n));
        CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        long long s = 0;
        for (int i = 0; i < n; i++) {
            s += in[i];
            if (out[i] != s)
                FAILF("prefix out[%d] = %lld, expected %lld", i, (long long)out[i], s);
        }
        clReleaseKernel(k);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }

    /* ---------------- printf ---------------- */
    STEP("printf");
    {
        cl_int x[8] = {10, 20, 30, 40, 50, 60, 70, 80};
        cl_mem bx = buf(CL_MEM_READ_ONLY, sizeof x, x);
        cl_kernel k = create_kernel(prog, "hello");
        CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
        size_t global = 8;
        fflush(stdout);
        run(k, 1, &global, NULL);
        CHECK(clFinish(q));
        fflush(stdout);
        clReleaseKernel(k);
        clReleaseMemObject(bx);
    }

    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return pass("customer_mix");
}
