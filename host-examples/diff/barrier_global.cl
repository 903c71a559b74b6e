// Work-items exchange data through global memory inside a work-group, ordered by
// barrier(CLK_GLOBAL_MEM_FENCE); several rounds (a 1-D stencil relaxed in place).
__kernel void barrier_global(__global int *buf, __global int *o)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    size_t base = g - l;
    for (int round = 0; round < 4; round++) {
        int left = buf[base + (l + n - 1) % n];
        int right = buf[base + (l + 1) % n];
        barrier(CLK_GLOBAL_MEM_FENCE);
        buf[g] = (left + right) / 2 + buf[g] % 7 - round;
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    o[g] = buf[g] ^ (int)l;
}
