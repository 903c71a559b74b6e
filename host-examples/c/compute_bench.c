/*
 * compute_bench.c: one compute-bound NDRange kernel at benchmark size, checked
 * against the host (scripts/bench.sh runs it on fpgacl, PoCL and Oclgrind).
 *   BENCH_KERNEL=matmul      naive float matrix multiply, BENCH_N x BENCH_N (default 256);
 *                            small integer inputs, so every sum is exact
 *   BENCH_KERNEL=mandelbrot  iteration counts of a BENCH_N x BENCH_N image (default 512,
 *                            256 iterations at most); at most 1% of the pixels may differ
 *                            by rounding near the set's boundary
 *   BENCH_KERNEL=nbody       accelerations of BENCH_N bodies (default 2048), all pairs;
 *                            relative error at most 1e-3 per component
 *   BENCH_KERNEL=tiled_matmul  matmul's product with 16 x 16 tiles in local memory and two
 *                            barriers per tile (same inputs and exact check as matmul)
 * Prints the kernel's host wall time ("host wall X ms", enqueue to blocking read).
 */
#include "common.h"
#include <math.h>

static int cmp_mode(const char *want, const char *got)
{
    return strcmp(want, got) == 0;
}

int main(int argc, char **argv)
{
    install_watchdog(3600);
    const char *which = getenv("BENCH_KERNEL");
    if (!which || !*which)
        which = "matmul";
    int tiled = cmp_mode(which, "tiled_matmul");
    EXPECT(cmp_mode(which, "matmul") || cmp_mode(which, "mandelbrot") || cmp_mode(which, "nbody") ||
               tiled,
           "BENCH_KERNEL must be matmul, mandelbrot, nbody or tiled_matmul, not %s", which);
    size_t dflt = cmp_mode(which, "matmul") || tiled ? 256 : cmp_mode(which, "mandelbrot") ? 512 : 2048;
    size_t n = env_number("BENCH_N", dflt);
    EXPECT(n >= 16 && n % 16 == 0 && n <= 16384, "BENCH_N must be a multiple of 16 in 16..16384");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "compute_bench.cl"), "");
    cl_kernel k = create_kernel(prog, which);
    double wall = 0;
    STEP("run");
    if (cmp_mode(which, "matmul") || tiled) {
        size_t nn = n * n;
        float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
        EXPECT(a && b && c, "out of memory");
        for (size_t i = 0; i < nn; i++) {
            a[i] = (float)((int)((i * 7) % 13) - 6);
            b[i] = (float)((i * 5) % 11) * 0.25f;
        }
        cl_mem ba = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, a);
        cl_mem bb = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, b);
        cl_mem bc = create_buffer(ctx, CL_MEM_WRITE_ONLY, nn * 4, NULL);
        cl_int ni = (cl_int)n;
        CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
        CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
        CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
        CHECK(clSetKernelArg(k, 3, sizeof ni, &ni));
        size_t g[2] = {n, n}, l[2] = {16, 16};
        double t0 = now_ms();
        CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, nn * 4, c, 0, NULL, NULL));
        wall = now_ms() - t0;
        STEP("check");
        for (size_t r = 0; r < n; r++)
            for (size_t col = 0; col < n; col++) {
                double s = 0;
                for (size_t i = 0; i < n; i++)
                    s += (double)a[r * n + i] * b[i * n + col];
                EXPECT(c[r * n + col] == (float)s, "c[%zu][%zu] = %g, expected %g", r, col,
                       c[r * n + col], s);
            }
        clReleaseMemObject(ba);
        clReleaseMemObject(bb);
        clReleaseMemObject(bc);
        free(a);
        free(b);
        free(c);
    } else if (cmp_mode(which, "mandelbrot")) {
        size_t nn = n * n;
        cl_int maxit = 256, wi = (cl_int)n;
        cl_int *out = malloc(nn * sizeof *out);
        EXPECT(out != NULL, "out of memory");
        cl_mem bo = create_buffer(ctx, CL_MEM_WRITE_ONLY, nn * 4, NULL);
        CHECK(clSetKernelArg(k, 0, sizeof bo, &bo));
        CHECK(clSetKernelArg(k, 1, sizeof wi, &wi));
        CHECK(clSetKernelArg(k, 2, sizeof maxit, &maxit));
        size_t g[2] = {n, n}, l[2] = {16, 16};
        double t0 = now_ms();
        CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, nn * 4, out, 0, NULL, NULL));
        wall = now_ms() - t0;
        STEP("check");
        size_t differ = 0;
        for (size_t py = 0; py < n; py++)
            for (size_t px = 0; px < n; px++) {
                float cx = -2.0f + 3.0f * (float)px / (float)n;
                float cy = -1.5f + 3.0f * (float)py / (float)n;
                float x = 0.0f, y = 0.0f;
                int it = 0;
                while (it < maxit && x * x + y * y <= 4.0f) {
                    float t = x * x - y * y + cx;
                    y = 2.0f * x * y + cy;
                    x = t;
                    it++;
                }
                cl_int got = out[py * n + px];
                EXPECT(got >= 0 && got <= maxit, "pixel (%zu,%zu) = %d out of range", px, py, got);
                differ += got != it;
            }
        EXPECT(differ * 100 <= nn, "%zu of %zu pixels differ from the host", differ, nn);
        clReleaseMemObject(bo);
        free(out);
    } else {
        float *pos = malloc(n * 16), *acc = malloc(n * 16);
        EXPECT(pos && acc, "out of memory");
        for (size_t i = 0; i < n * 4; i++)
            pos[i] = (float)((i * 37) % 101) * 0.1f + (i % 4 == 3 ? 1.0f : 0.0f);
        cl_mem bp = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 16, pos);
        cl_mem ba = create_buffer(ctx, CL_MEM_WRITE_ONLY, n * 16, NULL);
        cl_int ni = (cl_int)n;
        cl_float eps = 0.01f;
        CHECK(clSetKernelArg(k, 0, sizeof bp, &bp));
        CHECK(clSetKernelArg(k, 1, sizeof ba, &ba));
        CHECK(clSetKernelArg(k, 2, sizeof ni, &ni));
        CHECK(clSetKernelArg(k, 3, sizeof eps, &eps));
        size_t g = n, l = 16;
        double t0 = now_ms();
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, ba, CL_TRUE, 0, n * 16, acc, 0, NULL, NULL));
        wall = now_ms() - t0;
        STEP("check");
        for (size_t i = 0; i < n; i++) {
            double a[3] = {0, 0, 0};
            for (size_t j = 0; j < n; j++) {
                double d[3], r2 = eps;
                for (int c = 0; c < 3; c++) {
                    d[c] = (double)pos[j * 4 + c] - pos[i * 4 + c];
                    r2 += d[c] * d[c];
                }
                double inv = 1.0 / sqrt(r2), s = pos[j * 4 + 3] * inv * inv * inv;
                for (int c = 0; c < 3; c++)
                    a[c] += s * d[c];
            }
            for (int c = 0; c < 3; c++) {
                double got = acc[i * 4 + c], tol = 1e-3 * (fabs(a[c]) + 1.0);
                EXPECT(fabs(got - a[c]) <= tol, "acc[%zu].%c = %g, expected %g", i, "xyz"[c], got,
                       a[c]);
            }
        }
        clReleaseMemObject(bp);
        clReleaseMemObject(ba);
        free(pos);
        free(acc);
    }
    printf("  %s n=%zu: host wall %.1f ms\n", which, n, wall);
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    return pass("compute_bench");
}
