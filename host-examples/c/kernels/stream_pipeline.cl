// stream_pipeline.cl: a reader kernel sends records (a struct with a float4
// and a tag) to an autorun stage replicated over two compute units, a single
// work-item filter keeps a moving-average window in a shift register, and a
// writer drains the results, then polls a status channel with non-blocking
// reads. Two deliberately broken kernels follow (deadlock, out of bounds).
#pragma OPENCL EXTENSION cl_intel_channels : enable

#define WIN 8

typedef struct {
    float4 v;
    int tag;
} rec_t;

channel rec_t raw __attribute__((depth(16)));
channel rec_t to_cu[2] __attribute__((depth(4)));
channel rec_t from_cu[2] __attribute__((depth(4)));
channel float avg_out __attribute__((depth(32)));
channel int status __attribute__((depth(1)));

__kernel void reader(__global const float4 *restrict src, int n)
{
    for (int i = 0; i < n; i++) {
        rec_t r;
        r.v = src[i];
        r.tag = i;
        write_channel_intel(to_cu[i & 1], r);
    }
}

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__attribute__((num_compute_units(2)))
__kernel void scaler(void)
{
    int id = get_compute_id(0);
    rec_t r = read_channel_intel(to_cu[id]);
    r.v = r.v * (float4)(2.0f) + (float4)((float)id);
    write_channel_intel(from_cu[id], r);
}

__kernel void filter(int n)
{
    float window[WIN];
    #pragma unroll
    for (int j = 0; j < WIN; j++)
        window[j] = 0.0f;
    for (int i = 0; i < n; i++) {
        rec_t r = read_channel_intel(from_cu[i & 1]);
        #pragma unroll
        for (int j = WIN - 1; j > 0; j--)
            window[j] = window[j - 1];
        window[0] = r.v.x + r.v.y + r.v.z + r.v.w;
        float s = 0.0f;
        #pragma unroll
        for (int j = 0; j < WIN; j++)
            s += window[j];
        write_channel_intel(avg_out, s / WIN);
    }
    write_channel_intel(status, n);
}

__kernel void writer(__global float *restrict dst, __global int *restrict info, int n)
{
    int polls = 0;
    for (int i = 0; i < n; i++)
        dst[i] = read_channel_intel(avg_out);
    bool valid = false;
    int done = 0;
    while (!valid) {
        done = read_channel_nb_intel(status, &valid);
        polls++;
    }
    info[0] = done;
    info[1] = polls;
}

// Deliberately broken: reads more than anyone writes.
channel int lonely __attribute__((depth(4)));
__kernel void starved(__global int *restrict dst)
{
    dst[0] = read_channel_intel(lonely);
}

// Deliberately broken: out-of-bounds store.
__kernel void oob(__global int *restrict dst, int n)
{
    for (int i = 0; i <= n + 1000; i++)
        dst[i] = i;
}
