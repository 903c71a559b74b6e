// Math builtins on float2/3/8/16 vectors (per lane, same bounds as scalars).
#pragma OPENCL FP_CONTRACT OFF
__kernel void math_vector(__global const float *x, __global float *s, __global float *e,
                          __global float *q, __global float *m, __global float *l3)
{
    size_t i = get_global_id(0);
    float16 a = vload16(i, x);
    vstore16(sin(a), i, s);
    float8 b = vload8(2 * i, x);
    vstore8(exp(b * 0.125f), 2 * i, e);
    vstore8(exp(vload8(2 * i + 1, x) * 0.125f), 2 * i + 1, e);
    vstore16(sqrt(fabs(a)), i, q);
    float2 c = vload2(i, x);
    vstore16(fmax(a, (float16)(c.x)) + fmin(a, c.y) + floor(a), i, m);
    float3 d = vload3(i, x);
    vstore3(log(fabs(d) + 1.0f), i, l3);
}
