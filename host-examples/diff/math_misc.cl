// Exactly specified float functions: fmin/fmax/fdim/copysign/ldexp/frexp/ilogb/logb/
// nextafter/maxmag/minmag/nan/fabs.
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_misc(__global const float *x, __global const float *y, __global const int *k,
                        __global float *mn, __global float *mx, __global float *fd,
                        __global float *cs, __global float *ld, __global float *fx,
                        __global int *fe, __global int *il, __global float *lb,
                        __global float *na, __global float *xm, __global float *nm,
                        __global uint *nn, __global float *ab)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    mn[i] = fmin(a, b);
    mx[i] = fmax(a, b);
    fd[i] = fdim(a, b);
    cs[i] = copysign(a, b);
    ld[i] = ldexp(a, k[i]);
    int e;
    fx[i] = frexp(a, &e);
    fe[i] = (isinf(a) || isnan(a)) ? 0 : e;
    il[i] = (isnan(a) || a == 0.0f || isinf(a)) ? 7 : ilogb(a);
    lb[i] = logb(a);
    na[i] = nextafter(a, b);
    xm[i] = maxmag(a, b);
    nm[i] = minmag(a, b);
    nn[i] = isnan(nan((uint)i)) ? 1u : 0u;
    ab[i] = fabs(a);
}
