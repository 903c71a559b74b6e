// vloadN / vstoreN for N = 2, 3, 4, 8, 16 at unaligned element offsets, on
// global, local and private memory.
#pragma OPENCL FP_CONTRACT OFF
__kernel void vload_vstore(__global const int *a, __global int *o, __global float *of,
                           __global const float *x)
{
    __local int lbuf[64];
    size_t i = get_global_id(0), l = get_local_id(0);
    const __global int *p = a + i;             // unaligned base for vloadN
    int2 v2 = vload2(1, p);
    int3 v3 = vload3(0, p + 1);
    int4 v4 = vload4(2, p);
    int8 v8 = vload8(0, p + 3);
    int16 v16 = vload16(1, p);
    vstore2(v2 + 1, 0, o + 40 * i);
    vstore3(v3 * 2, 0, o + 40 * i + 2);
    vstore4(v4 - 3, 0, o + 40 * i + 5);
    vstore8(v8 ^ 0xFF, 0, o + 40 * i + 9);
    vstore16(v16.sfedcba9876543210, 0, o + 40 * i + 17);
    vstore4(v4, l, lbuf);                      // local vstore (l < 16)
    barrier(CLK_LOCAL_MEM_FENCE);
    int4 back = vload4(0, lbuf + ((l * 4 + 5) & 60) + 1 - ((l * 4 + 5) & 60 ? 1 : 0));
    int priv[12];
    for (int k = 0; k < 12; k++)
        priv[k] = k * (int)i;
    vstore3(vload3(1, priv) + back.xyz, 2, priv);   // private vload/vstore
    o[40 * i + 33] = priv[6] + priv[7] + priv[8];
    o[40 * i + 34] = back.w;
    float4 f = vload4(0, x + 3 * i);
    vstore4(f * 2.0f, 0, of + 4 * i);
}
