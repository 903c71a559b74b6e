// Global atomics whose final values do not depend on execution order:
// add/sub/inc/dec/min/max/and/or/xor, a cmpxchg loop, and unique slots from inc.
__kernel void atomics_global(__global const int *a, __global int *acc, __global uint *uacc,
                             __global int *slots, __global int *hist)
{
    size_t i = get_global_id(0);
    int v = a[i];
    atomic_add(&acc[0], v);
    atomic_sub(&acc[1], v >> 3);
    atomic_inc(&acc[2]);
    atomic_dec(&acc[3]);
    atomic_min(&acc[4], v);
    atomic_max(&acc[5], v);
    atomic_and(&uacc[0], ~(1u << (i & 31)) | (uint)v);
    atomic_or(&uacc[1], 1u << (v & 31));
    atomic_xor(&uacc[2], (uint)v * 2654435761u);
    atomic_min(&uacc[3], (uint)v);
    atomic_max(&uacc[4], (uint)v);
    // cmpxchg-based maximum of |v|: order-independent final value.
    int old = acc[6], want;
    do {
        want = max(old, (int)abs(v));
        int seen = atomic_cmpxchg(&acc[6], old, want);
        if (seen == old)
            break;
        old = seen;
    } while (1);
    // Every returned ticket is unique, so each slot is written exactly once.
    int ticket = atom_inc(&acc[7]);
    slots[ticket] += 1;
    atomic_add(&hist[v & 15], 1);
    int prev = atomic_xchg(&acc[8], 1);   // the final value is 1 whatever the order
    (void)prev;
}
