__kernel void k(__global float *a, __global int *b) {
    a[0] = sqrt(a[1], a[2]);
    a[1] = dot((float4)(1.0f), (float2)(1.0f));
    b[0] = clz(a[0]);
    a[2] = get_global_id();
}
