__kernel void k(__global float4 *a) {
    float2 v = a[0].xy;
    float f = v.z;
    float4 w = a[0];
    w.xx = (float2)(1.0f, 2.0f);
    float g = w.q;
}
