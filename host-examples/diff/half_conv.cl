// vload_half / vstore_half (default, _rte, _rtz, _rtp, _rtn) and the vector forms,
// vloada_half; the half buffers are 16-bit patterns.
#pragma OPENCL FP_CONTRACT OFF
__kernel void half_conv(__global const half *h, __global const float *x, __global float *of,
                        __global half *oh)
{
    size_t i = get_global_id(0);
    of[2 * i] = vload_half(i, h);                 // exact widening
    float4 w = vload_half4(i / 4, h);
    of[2 * i + 1] = w.x + w.y * 2.0f - w.w;
    float v = x[i];
    vstore_half(v, 6 * i, oh);
    vstore_half_rte(v, 6 * i + 1, oh);
    vstore_half_rtz(v, 6 * i + 2, oh);
    vstore_half_rtp(v, 6 * i + 3, oh);
    vstore_half_rtn(v, 6 * i + 4, oh);
    vstore_half(v * 1.0e5f, 6 * i + 5, oh);      // overflow -> inf (round to nearest)
    if (i < get_global_size(0) / 4) {
        float4 f = vload4(i, x);
        vstore_half4_rtz(f * 0.001f, i, oh + 6 * get_global_size(0));
        float2 g = vloada_half2(i, h);
        vstorea_half2_rtn(g * 3.0f, i, oh + 7 * get_global_size(0));
    }
}
