// Explicit conversions float -> integer with saturation and every rounding mode.
#pragma OPENCL FP_CONTRACT OFF
__kernel void convert_sat_round(__global const float *x, __global int *oi, __global char *oc,
                                __global uchar *ou, __global short *os, __global uint *oui,
                                __global long *ol)
{
    size_t i = get_global_id(0);
    float v = x[i];
    int fin = isfinite(v) && fabs(v) < 2.0e9f;
    oi[6 * i + 0] = fin ? convert_int(v) : 0;
    oi[6 * i + 1] = fin ? convert_int_rte(v) : 0;
    oi[6 * i + 2] = fin ? convert_int_rtn(v) : 0;
    oi[6 * i + 3] = fin ? convert_int_rtp(v) : 0;
    oi[6 * i + 4] = convert_int_sat(v);          // NaN -> 0, saturates at INT_MIN/MAX
    oi[6 * i + 5] = convert_int_sat_rte(v);
    oc[4 * i + 0] = convert_char_sat(v);
    oc[4 * i + 1] = convert_char_sat_rtp(v);
    oc[4 * i + 2] = convert_char_sat_rtn(v * 100.0f);
    oc[4 * i + 3] = convert_char_sat_rte(v * 0.5f);
    ou[2 * i] = convert_uchar_sat_rte(v);
    ou[2 * i + 1] = convert_uchar_sat(v * 3.0f);
    os[2 * i] = convert_short_sat_rtn(v * 1000.0f);
    os[2 * i + 1] = convert_short_sat_rtz(v);
    oui[2 * i] = convert_uint_sat(v);            // negative -> 0
    oui[2 * i + 1] = convert_uint_sat_rtp(v * 1e7f);
    ol[i] = convert_long_sat_rte(v * 1e9f);
    if (i < get_global_size(0) / 4) {
        float4 f = vload4(i, x);
        int4 r = convert_int4_sat_rtz(f) + convert_int4_sat_rte(f * 2.0f);
        oi[6 * get_global_size(0) + 4 * i + 0] = r.x;
        oi[6 * get_global_size(0) + 4 * i + 1] = r.y;
        oi[6 * get_global_size(0) + 4 * i + 2] = r.z;
        oi[6 * get_global_size(0) + 4 * i + 3] = r.w;
    }
}
