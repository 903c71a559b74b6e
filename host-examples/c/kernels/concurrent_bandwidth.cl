// Kernels for concurrent_bandwidth.c (timing rule B4: kernels that overlap in emulated time
// share the board's global memory bandwidth).

// Memory bound: 16 work-items per cycle each load and store 4 bytes, 128 bytes per cycle,
// more than the default board's 87 bytes per cycle (25600 MB/s at 294 MHz).
__attribute__((num_simd_work_items(16)))
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void copy(__global const float *restrict src, __global float *restrict dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}

// Compute bound: a single work-item loop at II 1 moves 8 bytes per cycle, a tenth of the
// board's bandwidth.
__kernel void scale(__global const float *restrict src, __global float *restrict dst, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i] * 2.0f + 1.0f;
}

// A consumer that blocks on a channel until the host launches its producer: a run that ends
// meanwhile must not wait for it (the host waits for that run before launching the producer).
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float feed __attribute__((depth(64)));

__kernel void sink(__global float *restrict dst, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = read_channel_intel(feed);
}

__kernel void source(__global const float *restrict src, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_intel(feed, src[i]);
}
