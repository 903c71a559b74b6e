// dram_streams.cl: 1, 2 and 5 memory streams of float16 (64-byte) words, 4 SIMD lanes: memory
// bound on every board. Used by dram_streams.c (fpgacl timing rules D1-D7 and -clock).
__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))
kernel void read1(global const float16 *restrict a, global float *restrict out)
{
    int i = get_global_id(0);
    float16 v = a[i];
    // Never true for the host's data: a read stream with no write traffic.
    if (v.s0 == -1.0f)
        out[0] = v.s1;
}

__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))
kernel void copy(global const float16 *restrict a, global float16 *restrict c)
{
    int i = get_global_id(0);
    c[i] = a[i];
}

__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))
kernel void add4(global const float16 *restrict a, global const float16 *restrict b,
                 global const float16 *restrict c, global const float16 *restrict d,
                 global float16 *restrict e)
{
    int i = get_global_id(0);
    e[i] = a[i] + b[i] + c[i] + d[i];
}
