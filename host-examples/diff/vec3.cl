// 3-component vectors: literals, vload3/vstore3, swizzles, arithmetic and sizeof.
#pragma OPENCL FP_CONTRACT OFF
__kernel void vec3(__global const float *x, __global const int *n, __global float *o,
                   __global int *oi)
{
    size_t i = get_global_id(0);
    float3 a = vload3(i, x);
    float3 b = (float3)(1.0f, a.z, -a.x);
    float3 c = a * b + (float3)(0.25f);
    c.yz = c.zy;
    vstore3(c, i, o);
    int3 k = vload3(i, n);
    int3 m = (int3)(k.z, k.x, 5) << (int3)(1, 2, 3);
    m.x = sizeof(int3) + (int)vec_step(int3) * 100;
    vstore3(m ^ k, i, oi);
}
