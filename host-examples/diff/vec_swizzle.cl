// Vector literals and swizzles as rvalues and lvalues (float4, int8, float2).
#pragma OPENCL FP_CONTRACT OFF
__kernel void vec_swizzle(__global const float *x, __global float *o, __global int *oi)
{
    size_t i = get_global_id(0);
    float4 a = vload4(i, x);
    float4 lit = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 mixed = (float4)(a.xy, lit.zw);
    float4 splat = (float4)(a.w);
    float2 p = (float2)(a.z, 0.5f);
    float4 b = a.wzyx + mixed.s1032 + splat;
    b.xz = p.yx;                 // swizzle lvalue
    b.s3 = a.s0 - lit.hi.x;      // .hi of float4 is a float2
    float4 c = (float4)(a.lo, a.hi.yx);
    c.odd = c.even * 2.0f;       // .odd/.even as lvalue
    float4 d = a;
    d.yw += (float2)(10.0f, 20.0f);
    d.x *= lit.w;
    vstore4(b, 3 * i, o);
    vstore4(c, 3 * i + 1, o);
    vstore4(d, 3 * i + 2, o);
    int8 v = (int8)((int)i, 1, 2, 3, (int4)(7));
    v.s7 = -v.s0;
    v.s45 = v.s23 * 3;
    int4 h = v.hi + v.lo;
    v.lo = v.odd;
    vstore8(v, 2 * i, oi);
    vstore4(h, 4 * i + 2, oi);
    oi[16 * i + 12] = v.s6 + h.w;
}
