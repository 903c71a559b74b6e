// Nested ifs, chained and nested ternaries, short-circuit && / || with side effects.
__kernel void cf_ternary_if(__global const int *a, __global const int *b, __global int *o)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    int r;
    if (x > 0) {
        if (y > 0)
            r = x > y ? 1 : 2;
        else if (y < -50)
            r = 3;
        else
            r = (x & 1) ? (y & 1 ? 4 : 5) : 6;
    } else if (x == 0) {
        r = 7;
    } else {
        r = y == 0 ? 8 : y > 0 ? 9 : x < y ? 10 : 11;
    }
    int side = 0;
    int c1 = (x > 10 && ++side > 0) || (y < 0 && (side += 10) > 0);
    int c2 = (x < 0 || (side += 100) > 0) && (side += 1000) > 0;
    o[3 * i] = r;
    o[3 * i + 1] = side;
    o[3 * i + 2] = c1 * 2 + c2 + (x ? y : -y);
}
