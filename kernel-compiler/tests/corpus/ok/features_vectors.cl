// Feature kernel: vector types, literals, swizzles (rvalue and lvalue), component-wise operators.
__kernel void vectors(__global float4 *a, __global int4 *b, __global float *out, __global uint8 *w) {
    size_t i = get_global_id(0);
    float4 v = a[i];
    float4 lit = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float2 p = (float2)(v.x, 0.5f);
    float4 mixed = (float4)(p, v.zw);
    float4 splat = (float4)(2.0f);
    v = v * splat + lit - mixed / 2.0f;
    v.xy = v.yx;
    v.s3 = 7.0f;
    v.hi = v.lo * 3;
    float3 t = v.xyz;
    float8 wide = (float8)(v, t, 1.0f);
    float4 e = wide.even;
    float4 o = wide.odd;
    int4 m = b[i];
    int4 cmp = v > e;              // -1 / 0 lanes
    int4 sel = cmp & m;
    m.s01 = sel.s23 << 2;
    m = ~m ^ (m >> 1) | 3;
    int4 ln = !m;
    int4 both = (cmp && ln) || m;
    b[i] = m + sel + both;
    a[i] = v + o;
    a[i].w = t.z;
    out[i] = v.x + v.s1 + e.w + o.s3 + vec_step(float3) + vec_step(v);
    uint8 u = w[i];
    u.s7654 = u.s0123;
    w[i] = u + (uint8)(1, 2, 3, 4, 5, 6, 7, 8);
    float4 c = cmp.x ? v : e;
    float4 vs = (float4)(cmp != 0 ? 1.0f : 0.0f);
    a[i + 1] = c + vs;
}
