// native_* (implementation-defined accuracy: compared only for being computed)
// and half_* (8192 ulp).
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_native_half(__global const float *x, __global const float *p,
                               __global float *ns, __global float *ne, __global float *nq,
                               __global float *nr, __global float *nd, __global float *hs,
                               __global float *hc, __global float *he, __global float *hl,
                               __global float *hq, __global float *hr, __global float *hd,
                               __global float *hrs, __global float *hp, __global float *ht,
                               __global float *he2, __global float *hl2)
{
    size_t i = get_global_id(0);
    float v = x[i], w = p[i];
    ns[i] = native_sin(v);
    ne[i] = native_exp(v);
    nq[i] = native_sqrt(w);
    nr[i] = native_recip(w);
    nd[i] = native_divide(v, w);
    hs[i] = half_sin(v);
    hc[i] = half_cos(v);
    he[i] = half_exp(v);
    hl[i] = half_log(w);
    hq[i] = half_sqrt(w);
    hr[i] = half_recip(w);
    hd[i] = half_divide(v, w);
    hrs[i] = half_rsqrt(w);
    hp[i] = half_powr(w, v * 0.25f);
    ht[i] = half_tan(v * 0.1f);
    he2[i] = half_exp2(v);
    hl2[i] = half_log2(w);
}
