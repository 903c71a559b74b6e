// 64-bit integer arithmetic: wrap-around multiply, signed/unsigned division and
// remainder, shifts (count modulo 64), comparisons across signedness, mixing with int.
__kernel void int_long(__global const long *a, __global const long *b, __global const int *c,
                       __global long *o, __global ulong *ou)
{
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    ulong ux = (ulong)x, uy = (ulong)y;
    int k = c[i];
    o[6 * i + 0] = x * y;
    o[6 * i + 1] = (y != 0 && !(x == LONG_MIN && y == -1)) ? x / y : 1;
    o[6 * i + 2] = (y != 0 && !(x == LONG_MIN && y == -1)) ? x % y : 2;
    o[6 * i + 3] = x << k;                  // count & 63
    o[6 * i + 4] = x >> (k + 64);
    o[6 * i + 5] = (x < y) + 2 * (ux < uy) + 4 * (x + k > y) + 8 * ((long)k * k > x);
    ou[4 * i + 0] = ux >> k;
    ou[4 * i + 1] = uy != 0 ? ux / uy : 3;
    ou[4 * i + 2] = uy != 0 ? ux % uy : 4;
    ou[4 * i + 3] = ux * 0x9E3779B97F4A7C15ul + (ulong)k;
}
