// Feature kernel: builtins of every family with their overloads.
__kernel void builtins(__global float *f, __global int *n, __global float4 *v4,
                       __global uint *u, __global half *h, __global double *d) {
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0) + get_group_id(0) + get_global_size(0) + get_local_size(0)
               + get_num_groups(0) + get_global_offset(0) + get_work_dim();
    float x = f[gid];
    float y = sqrt(x) + native_sqrt(x) + half_exp(x) + rsqrt(x + 1.0f) + native_recip(x);
    y += sin(x) * cos(x) + tan(x) + atan2(x, y) + pow(x, 2.0f) + pown(x, 3) + exp2(x) + log2(x);
    y += fma(x, y, 1.0f) + mad(x, y, 2.0f) + fmin(x, y) + fmax(x, 0.0f) + fabs(-x) + floor(x) + ceil(x);
    y += copysign(x, -1.0f) + hypot(x, y) + ldexp(x, 2) + rootn(x, 3) + cbrt(x) + trunc(x) + round(x);
    y += clamp(x, 0.0f, 1.0f) + mix(x, y, 0.5f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, x) + sign(x);
    y += degrees(x) + radians(x) + min(x, y) + max(x, 1.0f) + native_divide(x, 3.0f) + half_powr(x, 2.0f);
    int ip;
    float fr = fract(x, &y) + frexp(x, &ip) + modf(x, &y);
    float sn, cs;
    sn = sincos(x, &cs);
    float4 a = v4[gid];
    float4 b = (float4)(x);
    float dt = dot(a, b) + length(a) + distance(a, b) + fast_length(a);
    float4 nv = normalize(a) + cross(a, b) + clamp(a, 0.0f, 1.0f) + mix(a, b, 0.25f) + fmin(a, 0.5f);
    int4 rel = isgreater(a, b) + isnan(a) + isequal(a, b) + signbit(a);
    int anyall = any(rel) + all(rel > 0) + isless(x, y) + isfinite(x);
    float4 selv = select(a, b, rel) + bitselect(a, b, a);
    int i = n[gid];
    uint ui = u[gid];
    int ii = abs(i) + abs_diff(i, 3) + add_sat(i, 5) + sub_sat(i, 1) + hadd(i, 2) + rhadd(i, 4)
           + clz(i) + popcount(i) + mul_hi(i, 3) + mad_hi(i, 2, 1) + mad_sat(i, 2, 3)
           + mul24(i, 2) + mad24(i, 3, 4) + rotate(i, 3) + min(i, 4) + max(i, 2) + clamp(i, 0, 10);
    long up = upsample(i, ui);
    uint ur = rotate(ui, 5u) + clz(ui) + max(ui, 3u);
    int4 cv = convert_int4(a) + convert_int4_sat_rte(a * 100.0f) + as_int4(a);
    float ff = as_float(i) + convert_float(ui) + convert_float_rtz(i);
    uchar sat = convert_uchar_sat(i);
    short2 s2 = convert_short2_sat((int2)(i, -i));
    float4 l = vload4(gid, f) + vload_half4(gid, h);
    vstore4(l, gid, f);
    vstore_half4_rte(l, gid, h);
    float hs = vload_half(gid, h);
    vstore_half(hs * 2.0f, gid + 1, h);
    double dd = d[gid] * 2.0 + sqrt(d[gid]) + (double)x;
    d[gid] = dd;
    int nn = ilogb(x);
    float nanv = nan(0u);
    f[gid] = y + fr + sn + cs + dt + nv.x + selv.y + ff + l.z + hs + nanv + (float)(nn + sat + s2.x);
    n[gid] = ii + (int)up + (int)ur + cv.w + anyall + rel.x + ip + (int)lid;
}
