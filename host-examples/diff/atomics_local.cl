// Local-memory atomics: a per-group histogram built with atomic_inc on __local
// counters, then merged into the global histogram with global atomic_add.
__kernel void atomics_local(__global const uchar *data, __global uint *hist,
                            __global uint *group_max)
{
    __local uint bins[32];
    __local uint lmax;
    size_t l = get_local_id(0);
    if (l < 32)
        bins[l] = 0;
    if (l == 0)
        lmax = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar v = data[get_global_id(0)];
    atomic_inc(&bins[v & 31]);
    atomic_max(&lmax, (uint)v);
    atomic_add(&bins[(v >> 5) & 31], 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 32)
        atomic_add(&hist[l], bins[l]);
    if (l == 0)
        group_max[get_group_id(0)] = lmax;
}
