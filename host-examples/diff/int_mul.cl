// mul_hi, mad_hi, mad_sat, mul24, mad24 on int/uint/long/ulong/short.
__kernel void int_mul(__global const int *a, __global const uint *u, __global const long *l,
                      __global const ulong *ul, __global const short *s, __global int *oi,
                      __global uint *ou, __global long *ol, __global ulong *oul,
                      __global short *os, __global int *o24)
{
    size_t i = get_global_id(0);
    size_t j = (i + 5) % get_global_size(0);
    size_t k = (i * 3 + 1) % get_global_size(0);
    oi[3 * i] = mul_hi(a[i], a[j]);
    oi[3 * i + 1] = mad_hi(a[i], a[j], a[k]);
    oi[3 * i + 2] = mad_sat(a[i], a[j], a[k]);
    ou[3 * i] = mul_hi(u[i], u[j]);
    ou[3 * i + 1] = mad_hi(u[i], u[j], u[k]);
    ou[3 * i + 2] = mad_sat(u[i], u[j], u[k]);
    ol[2 * i] = mul_hi(l[i], l[j]);
    ol[2 * i + 1] = mad_sat(l[i], l[j], l[k]);
    oul[2 * i] = mul_hi(ul[i], ul[j]);
    oul[2 * i + 1] = mad_sat(ul[i], ul[j], ul[k]);
    os[2 * i] = mul_hi(s[i], s[j]);
    os[2 * i + 1] = mad_sat(s[i], s[j], s[k]);
    // mul24/mad24 are defined only for operands in 24-bit range.
    int x = a[i] >> 8, y = a[j] >> 9, z = a[k];
    o24[2 * i] = mul24(x, y & 0x7fff);
    o24[2 * i + 1] = mad24(x, y >> 8, z);
}
