// Feature kernel: local memory, barriers, atomics, async copies, printf, local pointer
// arguments and __constant pointer arguments.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void memory_ops(__global const float *restrict in, __global float *restrict out,
                         __local float *scratch, __constant float *coeff,
                         __global int *counter, __global uint *hist) {
    __local float tile[64];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    scratch[lid] = tile[lid] * coeff[lid & 7];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    float v = scratch[63 - lid];
    int old = atomic_add(counter, 1);
    atomic_inc(&counter[1]);
    atomic_max(&counter[2], gid);
    atomic_cmpxchg(&counter[3], 0, gid);
    atom_xchg(&counter[4], old);
    atomic_or(&hist[gid & 15], 1u << (lid & 31));
    if (gid == 0)
        printf("first value %f, old %d, vec %v4hlf\n", v, old, (float4)(v));
    event_t e2 = async_work_group_strided_copy(out, scratch, 64, 2, 0);
    wait_group_events(1, &e2);
    out[gid] += v;
}
