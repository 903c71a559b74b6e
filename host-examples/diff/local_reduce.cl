// Work-group tree reduction through a __local argument with barriers, plus a
// second phase through a __local array declared in the kernel.
__kernel void local_reduce(__global const int *a, __global int *sums, __global int *maxes,
                           __local int *scratch)
{
    __local int best[64];
    size_t l = get_local_id(0), n = get_local_size(0);
    int v = a[get_global_id(0)];
    scratch[l] = v;
    best[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) {
            scratch[l] += scratch[l + s];
            best[l] = max(best[l], best[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        sums[get_group_id(0)] = scratch[0];
        maxes[get_group_id(0)] = best[0];
    }
}
