// Rounding and remainder functions: correctly rounded, so exact.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_round(__global const float *x, __global const float *y, __global float *fl,
                         __global float *ce, __global float *ro, __global float *tr,
                         __global float *ri, __global float *fr, __global float *fm,
                         __global float *rm, __global int *quo, __global float *mf_i)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    fl[i] = floor(a);
    ce[i] = ceil(a);
    ro[i] = round(a);
    tr[i] = trunc(a);
    ri[i] = rint(a);
    float whole;
    fr[i] = fract(a, &whole);
    fm[i] = fmod(a, b);
    int q;
    rm[i] = remquo(a, b, &q);
    // Only the sign and the low 3 bits of the quotient are specified, and
    // nothing when the result is NaN.
    quo[i] = isnan(rm[i]) ? 0 : (q < 0 ? -((-q) & 7) : (q & 7));
    float ip;
    float frac = modf(a, &ip);
    mf_i[i] = ip;
    fr[i] += frac * 0.0f == 0.0f ? 0.0f : whole; // keeps `whole` and `frac` used
}
