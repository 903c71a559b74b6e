// Reinterpretation with as_type: float <-> int, vector <-> wider/narrower vectors.
#pragma OPENCL FP_CONTRACT OFF
__kernel void as_type(__global const float *x, __global const int *a, __global int *oi,
                      __global float *of, __global uchar *ob)
{
    size_t i = get_global_id(0);
    float4 f = vload4(i, x);
    int4 bits = as_int4(f);
    vstore4(bits ^ (int4)(0x80000000), i, oi);
    vstore4(as_float4(vload4(i, a) & (int4)(0x807FFFFF)) * 2.0f, i, of);
    uchar16 bytes = as_uchar16(f);
    vstore16(bytes.sfedcba9876543210, i, ob);
    char4 c = as_char4(a[i]);
    oi[4 * get_global_size(0) + i] = as_int((char4)(c.w, c.z, c.y, c.x));
    short2 s = as_short2(x[i]);
    oi[5 * get_global_size(0) + i] = s.x * 3 + s.y;
    ulong2 ul = as_ulong2(f);
    oi[6 * get_global_size(0) + i] = (int)(ul.x >> 35) ^ (int)ul.y;
}
