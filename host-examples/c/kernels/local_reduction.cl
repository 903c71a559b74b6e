// Work-group sum reductions through local memory and barriers.

#define WG 64

// Tree reduction in a __local kernel argument; the group size is chosen by the host.
__kernel void reduce_arg(__global const int *restrict in, __global int *restrict partial,
                         __local int *scratch)
{
    size_t lid = get_local_id(0);
    size_t lsize = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = lsize / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

// The same with a fixed-size __local array and a required work-group size;
// also writes each element's prefix rank within the group (lid-ordered).
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void reduce_fixed(__global const int *restrict in, __global int *restrict partial,
                           __global int *restrict group_max)
{
    __local int sums[WG];
    __local int maxes[WG];
    size_t lid = get_local_id(0);
    int v = in[get_global_id(0)];
    sums[lid] = v;
    maxes[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = WG / 2; stride > 0; stride >>= 1) {
        if (lid < stride) {
            sums[lid] += sums[lid + stride];
            maxes[lid] = max(maxes[lid], maxes[lid + stride]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = sums[0];
        group_max[get_group_id(0)] = maxes[0];
    }
}
