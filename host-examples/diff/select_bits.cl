// select and bitselect (scalar, vector, int and float), any and all on vectors.
__kernel void select_bits(__global const int *a, __global const int *b, __global const float *f,
                          __global int *o, __global float *of, __global int *va)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    o[4 * i + 0] = select(x, y, x < y);
    o[4 * i + 1] = bitselect(x, y, 0x0F0F0F0F);
    o[4 * i + 2] = select(x, y, (uint)i & 1);
    o[4 * i + 3] = as_int(bitselect(f[i], -f[i], as_float(0x80000000)));
    of[2 * i] = select(f[i], 1.0f, x > 0);
    of[2 * i + 1] = bitselect(f[i], 2.0f, as_float(0x7F800000));
    if (i < get_global_size(0) / 4) {
        int4 p = vload4(i, a), q = vload4(i, b);
        int4 s = select(p, q, p > q);           // vector condition: MSB selects
        int4 t = select(p, q, (int4)(-1, 0, 1, 0x80000000));
        uint4 u = bitselect(as_uint4(p), as_uint4(q), (uint4)(0xFFFF0000u));
        vstore4(s, i, va);
        vstore4(t, i + 64, va);
        vstore4(as_int4(u), i + 128, va);
        int8 w = (int8)(p, q);
        va[768 + i] = any(p) | (all(p) << 1) | (any(w < 0) << 2) | (all(w > -100) << 3) |
                      (any((short2)(0, -1)) << 4) | (all((char16)(-1)) << 5);
    }
}
