// Exponentials and logarithms.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_exp_log(__global const float *x, __global const float *p,
                           __global float *e, __global float *e2, __global float *e10,
                           __global float *em1, __global float *l, __global float *l2,
                           __global float *l10, __global float *l1p)
{
    size_t i = get_global_id(0);
    float v = x[i], w = p[i];
    e[i] = exp(v);
    e2[i] = exp2(v);
    e10[i] = exp10(v * 0.25f);
    em1[i] = expm1(v);
    l[i] = log(w);
    l2[i] = log2(w);
    l10[i] = log10(w);
    l1p[i] = log1p(w);
}
