// Integer -> float conversions (default rte and rtz/rtn/rtp) of values that are not
// exactly representable; int <-> char/short/long conversions with and without _sat.
#pragma OPENCL FP_CONTRACT OFF
__kernel void convert_to_float(__global const int *a, __global const long *l,
                               __global const uint *u, __global float *of, __global int *oi,
                               __global short *os)
{
    size_t i = get_global_id(0);
    int v = a[i];
    of[8 * i + 0] = convert_float(v);
    of[8 * i + 1] = convert_float_rtz(v);
    of[8 * i + 2] = convert_float_rtn(v);
    of[8 * i + 3] = convert_float_rtp(v);
    of[8 * i + 4] = convert_float(l[i]);
    of[8 * i + 5] = convert_float_rtz(l[i]);
    of[8 * i + 6] = convert_float(u[i]);
    of[8 * i + 7] = (float)u[i] + (float)v;
    oi[3 * i + 0] = convert_int_sat(l[i]);
    oi[3 * i + 1] = convert_int(l[i]);           // modulo
    oi[3 * i + 2] = convert_int_sat(u[i]);
    os[2 * i] = convert_short_sat(v);
    os[2 * i + 1] = convert_short(u[i]);
}
