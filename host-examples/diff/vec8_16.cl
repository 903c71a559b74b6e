// 8- and 16-lane vectors: uchar16 / short8 / float8 arithmetic, hi/lo/even/odd, .sA-.sF.
#pragma OPENCL FP_CONTRACT OFF
__kernel void vec8_16(__global const uchar *b, __global const short *s, __global const float *f,
                      __global uchar *ob, __global short *os, __global float *of)
{
    size_t i = get_global_id(0);
    uchar16 u = vload16(i, b);
    uchar16 w = u.sfedcba9876543210;
    uchar16 r = u + w;                       // wraps
    r.s9abc = (uchar4)(u.sA, u.sB, 200, 255) - u.lo.lo;
    r.hi = r.hi ^ (uchar8)(0x5A);
    vstore16(r, i, ob);
    short8 v = vload8(i, s);
    short8 t = v * (short8)(3) - v.s76543210;
    t.even = t.odd >> (short4)(1, 2, 3, 4);
    vstore8(t, i, os);
    float8 g = vload8(i, f);
    float8 h = g * 0.5f + g.s01234567.s76543210;
    h.s7 = g.s0 + g.s7;
    vstore8(h, i, of);
    float16 big = (float16)(g, h);
    of[get_global_size(0) * 8 + i] = big.sF + big.s8 - big.s3;
}
