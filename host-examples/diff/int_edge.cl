// Integer edge cases: wrap-around on overflow of unsigned and (OpenCL-defined
// two's complement) signed arithmetic, shifts by >= the width (the count is
// taken modulo the width), signed division and remainder rounding toward zero.
__kernel void int_edge(__global const int *a, __global const int *b, __global const uint *u,
                       __global int *o, __global uint *ou, __global char *oc,
                       __global long *ol)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = u[i];
    o[8 * i + 0] = x + y;
    o[8 * i + 1] = x - y;
    o[8 * i + 2] = x * y;
    o[8 * i + 3] = x << y;           // shift count y & 31
    o[8 * i + 4] = x >> (y + 32);    // arithmetic, count & 31
    o[8 * i + 5] = (y != 0 && !(x == INT_MIN && y == -1)) ? x / y : 12345;
    o[8 * i + 6] = (y != 0 && !(x == INT_MIN && y == -1)) ? x % y : 54321;
    o[8 * i + 7] = -x;
    ou[4 * i + 0] = ux + 0xFFFFFFF0u;
    ou[4 * i + 1] = ux >> (uint)y;   // logical, count & 31
    ou[4 * i + 2] = ux * 2654435761u;
    ou[4 * i + 3] = (y != 0) ? ux / (uint)y + ux % (uint)y : 7;
    char c = (char)x, d = (char)y;
    oc[4 * i + 0] = c + d;           // promoted to int, truncated back
    oc[4 * i + 1] = c * d;
    oc[4 * i + 2] = c << (d & 15);   // c is promoted to int first
    oc[4 * i + 3] = (uchar)c >> 1;
    long lx = x, ly = y;
    ol[2 * i] = (lx << 40) + (ly << (y & 63)) - (long)ux * lx;
    ol[2 * i + 1] = (lx * ly) / (ly != 0 ? ly : 3);
}
