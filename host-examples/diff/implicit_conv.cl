// Implicit conversions and the usual arithmetic conversions: int -> float in
// expressions, float -> int on assignment (truncation), signed/unsigned mixing,
// char/short promotion, scalar widening to vectors.
#pragma OPENCL FP_CONTRACT OFF
__kernel void implicit_conv(__global const int *a, __global const float *x, __global int *oi,
                            __global float *of, __global uint *ou)
{
    size_t i = get_global_id(0);
    int v = a[i];
    float f = x[i];
    int t = f;                         // truncation toward zero
    float g = v;                       // int -> float rounding
    uint u = v;                        // modulo 2^32
    oi[4 * i + 0] = t;
    oi[4 * i + 1] = (v < 0u) + 2 * ((uint)v > 100u) + 4 * (-1 < (int)u);  // signed vs unsigned compare
    char c = v;
    short s = v;
    oi[4 * i + 2] = c * s + (uchar)c;  // promotion to int
    oi[4 * i + 3] = (v * 3) / 2.0f;    // computed in float, truncated
    of[2 * i] = g + f * 2;             // 2 -> 2.0f
    of[2 * i + 1] = (float)(ushort)v / 7;
    float4 w = f;                      // scalar widened
    w += 1;
    ou[i] = u + (uint)(fabs(w.y) * 4.0f) + (ulong)u * 3ul;
}
