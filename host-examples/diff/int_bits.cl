// clz, popcount, rotate, abs, abs_diff, hadd, rhadd on several widths.
__kernel void int_bits(__global const uint *u, __global const int *a, __global const uchar *b,
                       __global const ulong *l, __global uint *o, __global uchar *ob,
                       __global ulong *ol, __global ushort *os)
{
    size_t i = get_global_id(0);
    size_t j = (i + 11) % get_global_size(0);
    uint x = u[i], y = u[j];
    o[8 * i + 0] = clz(x);
    o[8 * i + 1] = popcount(x);
    o[8 * i + 2] = rotate(x, y);
    o[8 * i + 3] = abs(a[i]);
    o[8 * i + 4] = abs_diff(a[i], a[j]);
    o[8 * i + 5] = (uint)hadd(a[i], a[j]);
    o[8 * i + 6] = rhadd(x, y);
    o[8 * i + 7] = (uint)clz(a[i]) + ((uint)popcount(a[j]) << 8);
    ob[4 * i + 0] = clz(b[i]);
    ob[4 * i + 1] = rotate(b[i], b[j]);
    ob[4 * i + 2] = popcount(b[i]);
    ob[4 * i + 3] = rhadd(b[i], b[j]);
    ol[3 * i + 0] = clz(l[i]);
    ol[3 * i + 1] = rotate(l[i], l[j]);
    ol[3 * i + 2] = popcount(l[i]) + hadd(l[i], l[j]);
    short s = (short)a[i];
    os[2 * i] = clz(s);
    os[2 * i + 1] = rotate((ushort)s, (ushort)(a[j] & 0xffff));
}
