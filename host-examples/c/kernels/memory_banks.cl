// Kernel for memory_banks.c (timing rule B5: global memory banks, burst-interleaved or
// partitioned by hand with -no-interleaving and the buffers' CL_CHANNEL_n_INTELFPGA flags).

// Memory bound: 16 work-items per cycle each load and store 4 bytes, 128 bytes per cycle,
// more than the default board's 87 bytes per cycle (two DDR4 banks of 12800 MB/s at 294 MHz,
// 43.5 bytes per cycle each). Reads buffer src, writes buffer dst.
__attribute__((num_simd_work_items(16)))
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void copy(__global const float *restrict src, __global float *restrict dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
