// Inclusive prefix sum (Hillis-Steele) in local memory with barriers inside a loop,
// and a 2-buffer ping-pong selected by the iteration parity.
__kernel void local_scan(__global const uint *a, __global uint *o, __local uint *buf)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    __local uint *src = buf, *dst = buf + n;
    src[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < n; off <<= 1) {
        dst[l] = l >= off ? src[l] + src[l - off] : src[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *t = src;
        src = dst;
        dst = t;
    }
    o[get_global_id(0)] = src[l];
}
