// sin, cos, tan and sincos on float and float4 over [-10, 10) with specials.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_trig(__global const float *x, __global float *s, __global float *c,
                        __global float *t, __global float *sc_s, __global float *sc_c,
                        __global float4 *s4)
{
    size_t i = get_global_id(0);
    float v = x[i];
    s[i] = sin(v);
    c[i] = cos(v);
    t[i] = tan(v);
    float cv;
    sc_s[i] = sincos(v, &cv);
    sc_c[i] = cv;
    if (i < 64)
        s4[i] = sin(vload4(i, x));
}
