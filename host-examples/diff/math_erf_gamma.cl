// erf, erfc, tgamma, lgamma_r sign, sinpi/cospi/tanpi.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_erf_gamma(__global const float *x, __global const float *g,
                             __global float *ef, __global float *efc, __global float *tg,
                             __global float *sp, __global float *cp, __global float *tp,
                             __global int *lsign)
{
    size_t i = get_global_id(0);
    float v = x[i];
    ef[i] = erf(v);
    efc[i] = erfc(v);
    tg[i] = tgamma(g[i]);
    sp[i] = sinpi(v);
    cp[i] = cospi(v);
    tp[i] = tanpi(v * 0.37f);
    int s;
    float lg = lgamma_r(g[i], &s);
    lsign[i] = lg == lg ? s : 5;
}
