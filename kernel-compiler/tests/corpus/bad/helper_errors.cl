float unused_helper(float x) {
    return x + undefined_name;
}
int used_twice(int v) {
    float4 f = v;
    int4 i = f;
    return i.x;
}
__kernel void k(__global int *p) {
    p[0] = used_twice(1) + used_twice(2);
}
