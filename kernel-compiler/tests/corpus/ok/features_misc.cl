// Feature kernel: helpers taking local/private/constant pointers, struct array members, arrays of
// vectors, for(;;), enums in switch, chained and compound assignment on swizzles, run-time vector
// indexing, conversions of uchar4, pointer to uintptr_t casts.
typedef struct { float arr[4]; int n; } S;
float sum_local(__local float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
float sum_priv(float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
float c0(__constant float *c) { return c[0]; }
enum mode { A, B, C };
__kernel void k(__global float *out, __constant float *cc, __global uchar4 *pix, int n) {
    __local float lbuf[8];
    float parr[4] = {1, 2, 3, 4};
    S s;
    s.n = 2;
    for (int i = 0; i < 4; i++) s.arr[i] = i;
    float4 va[4];
    for (int i = 0; i < 4; i++) { va[i] = (float4)(i); va[i].x = s.arr[i]; }
    lbuf[get_local_id(0)] = parr[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    float t = sum_local(lbuf, 8) + sum_priv(parr, 4) + c0(cc) + sizeof(parr) / sizeof(parr[0]);
    for (;;) { if (t > 100) break; t *= 2; }
    int a = 3, b = 4;
    int mx = (a > b) ? a : b;
    uintptr_t addr = (uintptr_t)out;
    char ch = '\x41';
    bool flag = t > 3.0f;
    if (flag) t += 1;
    enum mode m = B;
    switch (m) { case A: t = 0; break; case B: t += 2; break; default: break; }
    int x, y;
    x = y = 3;
    float4 v = va[1];
    v.xy += 1.0f;
    v.zw *= (float2)(2.0f, 3.0f);
    #pragma unroll
    for (int k2 = 0; k2 < 4; k2++) t += v[k2];
    int4 ci = v > (float4)(1.0f);
    if (any(ci)) t += 1;
    float4 cf = convert_float4(pix[0]);
    for (unsigned j = 7; j > 0; j--) t += j;
    v[n & 3] = 5.0f;
    out[0] = t + mx + (float)addr + ch + x + y + cf.w + v.w + va[2][n & 3];
}
