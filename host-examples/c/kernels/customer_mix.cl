// customer_mix.cl: FIR with a shift register (single work-item), local-memory
// histogram with atomics (NDRange), tiled matmul with barriers, vector + struct
// arguments, a long prefix sum and printf. Loaded by customer_mix.c.
#define TAPS 16
#define BS 8

typedef struct {
    float gain;
    int offset;
    short2 clamp;
} params_t;

__kernel void fir(__global const float *restrict in, __global float *restrict out,
                  __constant float *restrict coef, int n)
{
    float shift[TAPS];
    #pragma unroll
    for (int i = 0; i < TAPS; i++)
        shift[i] = 0.0f;
    for (int i = 0; i < n; i++) {
        #pragma unroll
        for (int j = TAPS - 1; j > 0; j--)
            shift[j] = shift[j - 1];
        shift[0] = in[i];
        float acc = 0.0f;
        #pragma unroll
        for (int j = 0; j < TAPS; j++)
            acc += shift[j] * coef[j];
        out[i] = acc;
    }
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void histogram(__global const uchar *restrict data, int n, __global uint *restrict hist)
{
    __local uint lh[256];
    int lid = get_local_id(0);
    for (int b = lid; b < 256; b += 64)
        lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lh[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < 256; b += 64)
        atomic_add(&hist[b], lh[b]);
}

__kernel __attribute__((reqd_work_group_size(BS, BS, 1)))
void matmul(__global const float *restrict A, __global const float *restrict B,
            __global float *restrict C, int N)
{
    __local float As[BS][BS];
    __local float Bs[BS][BS];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < N / BS; t++) {
        As[ty][tx] = A[row * N + t * BS + tx];
        Bs[ty][tx] = B[(t * BS + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (int k = 0; k < BS; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}

__kernel void scale4(__global const float4 *restrict in, __global int4 *restrict out, params_t p)
{
    int i = get_global_id(0);
    float4 v = in[i] * p.gain;
    int4 r = convert_int4_sat_rte(v) + p.offset;
    out[i] = clamp(r, (int4)(p.clamp.x), (int4)(p.clamp.y));
}

__kernel void prefix(__global const int *restrict in, __global long *restrict out, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += in[i];
        out[i] = sum;
    }
}

__kernel void hello(__global const int *restrict x)
{
    int i = get_global_id(0);
    if (i < 3)
        printf("wi %d val %d f=%.2f v=%v4hld\n", i, x[i], 1.5f * i, (int4)(i, i + 1, i + 2, i + 3));
}
