// asin, acos, atan, atan2 and the *pi variants.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_inv_trig(__global const float *x, __global const float *y,
                            __global float *as, __global float *ac, __global float *at,
                            __global float *at2, __global float *asp, __global float *acp,
                            __global float *atp, __global float *at2p)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    as[i] = asin(a);
    ac[i] = acos(a);
    at[i] = atan(b);
    at2[i] = atan2(a, b);
    asp[i] = asinpi(a);
    acp[i] = acospi(a);
    atp[i] = atanpi(b);
    at2p[i] = atan2pi(b, a);
}
