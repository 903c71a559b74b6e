// Compute-bound kernels of the benchmark (scripts/bench.sh, compute_bench.c):
// a naive matrix multiply, the Mandelbrot set and an all-pairs n-body step.

__kernel void matmul(__global const float *restrict a, __global const float *restrict b,
                     __global float *restrict c, int n)
{
    int col = get_global_id(0);
    int row = get_global_id(1);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
}

__kernel void mandelbrot(__global int *restrict out, int w, int maxit)
{
    int px = get_global_id(0);
    int py = get_global_id(1);
    float cx = -2.0f + 3.0f * (float)px / (float)w;
    float cy = -1.5f + 3.0f * (float)py / (float)w;
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < maxit && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        it++;
    }
    out[py * w + px] = it;
}

__kernel void nbody(__global const float4 *restrict pos, __global float4 *restrict acc, int n,
                    float eps)
{
    int i = get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;
        float inv = rsqrt(r2);
        float s = q.w * inv * inv * inv;
        a = mad((float3)(s, s, s), d, a);
    }
    acc[i] = (float4)(a, 0.0f);
}
