__kernel void k(__global float4 *a, __global int4 *b) {
    float4 f = a[0];
    int4 i = f;
    float2 g = f + (float2)(1.0f, 2.0f);
}
