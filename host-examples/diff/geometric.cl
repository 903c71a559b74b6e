// Geometric functions on float2/3/4: dot, cross, length, distance, normalize.
#pragma OPENCL FP_CONTRACT OFF
__kernel void geometric(__global const float *x, __global const float *y, __global float *d4,
                        __global float *d2, __global float *cr, __global float *l4,
                        __global float *l3, __global float *ds, __global float *n4,
                        __global float *c4)
{
    size_t i = get_global_id(0);
    float4 a = vload4(i, x), b = vload4(i, y);
    float3 a3 = vload3(i, x), b3 = vload3(i, y);
    d4[i] = dot(a, b);
    d2[i] = dot(a.xy, b.zw);
    vstore3(cross(a3, b3), i, cr);
    l4[i] = length(a);
    l3[i] = length(a3);
    ds[i] = distance(a, b);
    vstore4(normalize(a), i, n4);
    vstore4(cross(a, b), i, c4);
}
