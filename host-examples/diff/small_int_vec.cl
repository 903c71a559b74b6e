// char/uchar/short vectors: wrap-around, saturating conversions from int16,
// add_sat/sub_sat/abs on vectors, mixed-sign shifts.
__kernel void small_int_vec(__global const int *a, __global const char *c,
                            __global uchar *ou, __global char *oc, __global short *os)
{
    size_t i = get_global_id(0);
    int16 v = vload16(i, a);
    vstore16(convert_uchar16_sat(v), i, ou);
    vstore16(convert_uchar16(v), i + get_global_size(0), ou);
    char16 p = vload16(i, c), q = p.s89abcdef01234567;
    vstore16(add_sat(p, q), i, oc);
    vstore16(sub_sat(p, q) ^ (p * q), i + get_global_size(0), oc);
    vstore16(as_char16(abs(p)) + (p >> (char16)(3)) + (p << (char16)(9)), i + 2 * get_global_size(0), oc);
    short8 s = convert_short8_sat(v.lo * 1000);
    short8 t = convert_short8_sat_rte(convert_float8(v.hi) * 0.5f);
    vstore8(mad_sat(s, t, (short8)(7)), i, os);
    vstore8(hadd(s, t) + rhadd(s, t), i + get_global_size(0), os);
}
