// Compute-bound kernels of the benchmark (scripts/bench.sh, compute_bench.c):
// a naive matrix multiply, the Mandelbrot set, an all-pairs n-body step and a tiled matrix
// multiply (16 x 16 tiles in local memory, two barriers per tile).

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

__kernel void tiled_matmul(__global const float *restrict a, __global const float *restrict b,
                           __global float *restrict c, int n)
{
    __local float ta[16][16];
    __local float tb[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float s = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            s += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = s;
}
