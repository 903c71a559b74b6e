// pow family, cbrt, hypot.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_pow(__global const float *x, __global const float *y, __global const int *n,
                       __global float *pw, __global float *pr, __global float *pn,
                       __global float *rn, __global float *cb, __global float *hy)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    int k = n[i];
    pw[i] = pow(a, b);
    pr[i] = powr(fabs(a), b);
    pn[i] = pown(a, k);
    rn[i] = rootn(fabs(a), k == 0 ? 3 : k);
    cb[i] = cbrt(a * b);
    hy[i] = hypot(a, b);
}
