// sqrt, rsqrt, division, reciprocal, fma, mad.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_sqrt_div(__global const float *x, __global const float *y,
                            __global const float *z, __global float *sq, __global float *rs,
                            __global float *dv, __global float *rc, __global float *fm,
                            __global float *md, __global float *mul, __global float *add)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i], c = z[i];
    sq[i] = sqrt(a);
    rs[i] = rsqrt(a);
    dv[i] = a / b;
    rc[i] = 1.0f / b;
    fm[i] = fma(a, b, c);
    md[i] = mad(fabs(a), fabs(b), fabs(c));
    mul[i] = a * b;
    add[i] = a + c - b;
}
