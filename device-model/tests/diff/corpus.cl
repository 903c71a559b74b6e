// Differential corpus: every kernel maps in[] (64 uint words) to out[] (64 uint words).
// Run on fpgacl and compared with Oclgrind (tests/differential.rs). Float results are compared
// through their bits with a per-kernel ULP tolerance.
// FP_CONTRACT OFF: clang (inside Oclgrind) would otherwise fuse a*b+c into fma, which OpenCL
// allows; fpgacl evaluates a*b+c with two roundings like a C reference.
#pragma OPENCL FP_CONTRACT OFF

#define IDX int i = get_global_id(0); uint a = in[i]; uint b = in[(i + 1) % 64]; uint c = in[(i + 7) % 64];
#define FX float x = (float)((int)a) * 0.0001f; float y = (float)((int)b) * 0.00003f + 0.5f;

__kernel void int_arith(__global const uint *in, __global uint *out) {
    IDX
    int sa = (int)a, sb = (int)b;
    out[i] = (uint)(sa * 3 + sb - (sa ^ sb) + (sa | 5) - (sb & 0x0ff0));
}
__kernel void int_divrem(__global const uint *in, __global uint *out) {
    IDX
    int sa = (int)a;
    int sb = (int)((b >> 3) | 1u);
    if (i & 1) sb = -sb;
    out[i] = (uint)(sa / sb + sa % sb * 7);
}
__kernel void uint_divrem(__global const uint *in, __global uint *out) {
    IDX
    uint d = (b >> (i % 20)) | 1u;
    out[i] = a / d * 3u + a % d;
}
__kernel void shifts(__global const uint *in, __global uint *out) {
    IDX
    int sa = (int)a;
    out[i] = (a << (b & 31u)) ^ (uint)(sa >> (int)(c % 31u)) ^ (a >> (c & 31u)) ^ (a << 40);
}
__kernel void narrow_types(__global const uint *in, __global uint *out) {
    IDX
    char ch = (char)a; short sh = (short)b; uchar uc = (uchar)c; ushort us = (ushort)(a >> 9);
    char sum = ch + (char)sh;
    short prod = sh * (short)ch;
    out[i] = (uint)((int)sum * 1000003 + (int)prod + (int)uc * 7 + (int)us);
}
__kernel void long_arith(__global const uint *in, __global uint *out) {
    IDX
    long x = (long)((int)a) * (long)((int)b) + (long)c * 977L;
    ulong y = (ulong)a * (ulong)b;
    out[i] = (uint)(x >> 13) ^ (uint)x ^ (uint)(y >> 32) ^ (uint)(x / 1234567L);
}
__kernel void mul_hi_mad(__global const uint *in, __global uint *out) {
    IDX
    out[i] = mul_hi(a, b) ^ (uint)mul_hi((int)a, (int)c) ^ mad_hi(a, c, b) ^ (uint)mul24((int)(a & 0x7fffff), (int)(b & 0x7fff)) ^ mad24(a & 0xffffff, c & 0xfff, b);
}
__kernel void saturating(__global const uint *in, __global uint *out) {
    IDX
    char x = add_sat((char)a, (char)b);
    short y = sub_sat((short)b, (short)c);
    int z = add_sat((int)a, (int)c);
    uint w = sub_sat(a, c);
    uchar v = add_sat((uchar)a, (uchar)c);
    out[i] = (uint)((int)x + (int)y * 256) ^ (uint)z ^ w ^ ((uint)v << 24);
}
__kernel void hadd_abs(__global const uint *in, __global uint *out) {
    IDX
    out[i] = hadd(a, b) ^ rhadd(b, c) ^ (uint)hadd((int)a, (int)c) ^ abs((int)b) ^ abs_diff((int)a, (int)b) ^ (uint)abs((char)c);
}
__kernel void bit_ops(__global const uint *in, __global uint *out) {
    IDX
    out[i] = clz(a) + popcount(b) * 64u + (rotate(c, a) ^ (uint)rotate((short)c, (short)b)) + (uint)clz((uchar)b) * 11u;
}
__kernel void int_minmax(__global const uint *in, __global uint *out) {
    IDX
    int sa = (int)a, sb = (int)b, sc = (int)c;
    out[i] = (uint)(min(sa, sb) ^ max(sb, sc)) + clamp(a, 1000u, 4000000000u) + (uint)clamp(sc, -5000, 5000);
}
__kernel void upsample_select(__global const uint *in, __global uint *out) {
    IDX
    short hi = (short)a; ushort lo = (ushort)b;
    int up = upsample(hi, lo);
    uint s = select(a, b, (int)c < 0 ? 1u : 0u);
    out[i] = (uint)up ^ s ^ bitselect(a, b, c);
}
__kernel void float_basic(__global const uint *in, __global uint *out) {
    IDX FX
    float z = x * y + x / (y + 3.0f) - y * y;
    out[i] = as_uint(z);
}
__kernel void float_to_int(__global const uint *in, __global uint *out) {
    IDX FX
    float big = x * 1e6f;
    out[i] = (uint)convert_int(x * 10.0f) ^ ((uint)convert_int_rte(x * 3.5f) << 8) ^ (uint)convert_int_sat(big * 1e6f)
           ^ ((uint)convert_uchar_sat(y * 200.0f) << 24) ^ (uint)convert_short_sat_rtp(x * 70.0f) ^ (uint)((int)(x * -7.3f));
}
__kernel void int_to_float(__global const uint *in, __global uint *out) {
    IDX
    float f1 = convert_float((int)a);
    float f2 = convert_float_rtz(a);
    float f3 = (float)b;
    out[i] = as_uint(f1) ^ (as_uint(f2) >> 1) ^ (as_uint(f3) << 1);
}
__kernel void float_sqrt(__global const uint *in, __global uint *out) {
    IDX FX
    out[i] = as_uint(sqrt(fabs(x)) + 1.0f / (fabs(y) + 1.0f));
}
__kernel void float_exp_log(__global const uint *in, __global uint *out) {
    IDX FX
    float r = (i % 3 == 0) ? exp(x * 0.01f) : (i % 3 == 1) ? log(fabs(y) + 1e-3f) : exp2(y);
    out[i] = as_uint(r);
}
__kernel void float_pow(__global const uint *in, __global uint *out) {
    IDX FX
    out[i] = as_uint(pow(fabs(y) + 0.1f, 1.7f));
}
__kernel void float_trig(__global const uint *in, __global uint *out) {
    IDX FX
    float r = (i % 3 == 0) ? sin(x) : (i % 3 == 1) ? cos(y * 4.0f) : tan(y);
    out[i] = as_uint(r);
}
__kernel void float_rounding(__global const uint *in, __global uint *out) {
    IDX FX
    float v = x * 3.3f;
    float r;
    switch (i % 6) {
        case 0: r = floor(v); break;
        case 1: r = ceil(v); break;
        case 2: r = round(v); break;
        case 3: r = rint(v); break;
        case 4: r = trunc(v); break;
        default: r = copysign(fabs(v), y - 0.5f); break;
    }
    out[i] = as_uint(r);
}
__kernel void float_minmax_mod(__global const uint *in, __global uint *out) {
    IDX FX
    out[i] = as_uint(fmin(x, y)) ^ as_uint(fmax(x, y)) ^ as_uint(fmod(x, y + 0.25f)) ^ as_uint(fdim(x, y)) ^ as_uint(remainder(x, 0.75f));
}
__kernel void float_fma(__global const uint *in, __global uint *out) {
    IDX FX
    out[i] = as_uint(fma(x, y, -x * y)) ^ as_uint(fma(x, x, y));
}
__kernel void float4_ops(__global const uint *in, __global uint *out) {
    IDX FX
    float4 v = (float4)(x, y, x + y, x - y);
    float4 w = v.wzyx * 2.0f + v.xxyy;
    w.s02 = w.s13 * 0.5f;
    out[i] = as_uint(w.x) ^ as_uint(w.y) ^ as_uint(w.z + w.w);
}
__kernel void int4_compare(__global const uint *in, __global uint *out) {
    IDX
    int4 p = (int4)((int)a, (int)b, (int)c, (int)(a ^ b));
    int4 q = (int4)((int)c, (int)a, (int)b, 0);
    int4 m = p < q;
    int4 s = select(p, q, m);
    int4 t = p > q ? p : q;
    out[i] = (uint)(m.x + 2 * m.y + 4 * m.z + 8 * m.w) ^ (uint)s.x ^ (uint)s.y ^ (uint)s.z ^ (uint)s.w ^ (uint)t.x ^ (uint)any(m) ^ ((uint)all(p >= 0) << 4);
}
__kernel void geometric(__global const uint *in, __global uint *out) {
    IDX FX
    float4 v = (float4)(x, y, 1.0f, -0.5f);
    float3 p = (float3)(x, y, 2.0f), q = (float3)(y, 1.0f, x);
    float3 cr = cross(p, q);
    out[i] = as_uint(dot(v, v.wzyx)) ^ as_uint(length(v)) ^ as_uint(cr.x + cr.y + cr.z) ^ as_uint(normalize(v).y) ^ as_uint(distance(p, q));
}
__kernel void specials(__global const uint *in, __global uint *out) {
    IDX FX
    float z = (i % 4 == 0) ? x / 0.0f : (i % 4 == 1) ? 0.0f / (y - y) : (i % 4 == 2) ? -0.0f : x;
    out[i] = (uint)isnan(z) | ((uint)isinf(z) << 1) | ((uint)signbit(z) << 2) | ((uint)isfinite(z) << 3) | ((uint)isnormal(z) << 4) | ((uint)(z == z) << 5) | ((uint)(z != z) << 6) | ((uint)isless(z, 1.0f) << 7);
}
__kernel void control_flow(__global const uint *in, __global uint *out) {
    IDX
    uint acc = 0;
    for (uint k = 0; k < (a & 63u); k++) {
        if (k % 7 == 3) continue;
        if (acc > 100000u) break;
        acc = acc * 3u + k;
    }
    int j = 0;
    while (j < 10) { acc ^= (b >> j); j += 3; }
    do { acc += 17; } while (acc % 5 != 0);
    // (Oclgrind 21.10 mis-executes `switch (c % 4u)` for large c; shifting keeps the
    // comparison meaningful for both.)
    switch ((int)(c >> 30)) {
        case 0: acc += 1; break;
        case 1: acc += 10;
        case 2: acc += 100; break;
        default: acc = ~acc;
    }
    out[i] = acc;
}
__kernel void private_array(__global const uint *in, __global uint *out) {
    IDX
    uint t[8];
    for (int k = 0; k < 8; k++) t[k] = in[(i + k) % 64] ^ (uint)k;
    for (int k = 1; k < 8; k++) t[k] += t[k - 1] >> 1;
    uint r = 0;
    for (int k = 0; k < 8; k++) r ^= t[(k * 3) % 8];
    out[i] = r;
}
__kernel void local_reduce(__global const uint *in, __global uint *out) {
    __local uint tmp[16];
    int i = get_global_id(0);
    int l = get_local_id(0);
    tmp[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 8; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[i] = tmp[0] + (uint)l * tmp[(l + 1) % 16];
}
__kernel void atomics(__global const uint *in, __global uint *out) {
    int i = get_global_id(0);
    atomic_add(&out[in[i] % 8u], 1u);
    atomic_max(&out[8 + in[i] % 4u], in[i] >> 4);
    atomic_xor(&out[16], in[i]);
    atomic_inc(&out[17]);
}
__kernel void logic_ternary(__global const uint *in, __global uint *out) {
    IDX
    bool p = (a > b) && (b != 0u || c > 5u);
    bool q = !(a & 1u) || (c < b);
    out[i] = (p ? 3u : 5u) + (q ? 100u : 200u) + ((a < b) ^ (b < c) ? 1000u : 0u);
}
typedef struct { int x; float y; short z; } rec;
__kernel void structs(__global const uint *in, __global uint *out) {
    IDX
    rec r1 = { (int)a, (float)((int)b) * 0.5f, (short)c };
    rec r2 = r1;
    r2.x += 5; r2.z = (short)(r2.z * 3);
    out[i] = (uint)r2.x ^ as_uint(r2.y) ^ (uint)((int)r2.z) ^ (uint)r1.x;
}
__kernel void frexp_ldexp(__global const uint *in, __global uint *out) {
    IDX FX
    int e;
    float m = frexp(x * 1000.0f + 0.1f, &e);
    out[i] = as_uint(m) ^ (uint)e ^ as_uint(ldexp(y, (int)(c % 20u) - 10)) ^ (uint)ilogb(x + 2.0f);
}
__kernel void hypot_atan2_cbrt(__global const uint *in, __global uint *out) {
    IDX FX
    float r = (i % 3 == 0) ? hypot(x, y) : (i % 3 == 1) ? atan2(y, x) : cbrt(x);
    out[i] = as_uint(r);
}
__kernel void vector_convert(__global const uint *in, __global uint *out) {
    IDX FX
    float4 f = (float4)(x, -x, y * 100.0f, -y * 1000.0f);
    int4 k = convert_int4_sat_rte(f);
    uchar4 u = convert_uchar4_sat(f);
    short2 s = convert_short2(k.xy);
    out[i] = (uint)(k.x ^ k.y ^ k.z ^ k.w) ^ (uint)u.x ^ ((uint)u.z << 8) ^ (uint)s.y;
}
__kernel void as_type_casts(__global const uint *in, __global uint *out) {
    IDX
    uchar4 b4 = as_uchar4(a);
    ushort2 s2 = as_ushort2(b);
    b4 = b4.wzyx;
    out[i] = as_uint(b4) ^ as_uint(s2.yx) ^ (uint)as_int(as_float(c & 0x3fffffffu) * 0.5f);
}
