// Hyperbolic functions and their inverses.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_hyper(__global const float *x, __global float *sh, __global float *ch,
                         __global float *th, __global float *ash, __global float *ach,
                         __global float *ath)
{
    size_t i = get_global_id(0);
    float v = x[i];
    sh[i] = sinh(v);
    ch[i] = cosh(v);
    th[i] = tanh(v);
    ash[i] = asinh(v * 10.0f);
    ach[i] = acosh(fabs(v) + 1.0f);
    ath[i] = atanh(v / 9.0f);
}
