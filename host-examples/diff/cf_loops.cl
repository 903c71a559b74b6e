// for / while / do-while loops with break, continue, nested loops, early return.
__kernel void cf_loops(__global const int *a, __global int *o)
{
    size_t i = get_global_id(0);
    int n = a[i] & 63;
    if (n == 13) {
        o[2 * i] = -13;
        o[2 * i + 1] = -13;
        return;                          // early return
    }
    int s = 0;
    for (int k = 0; k < n; k++) {
        if (k % 3 == 0)
            continue;
        if (k > 40)
            break;
        for (int j = k; j > 0; j -= 4) {
            if ((j ^ k) == 5)
                break;
            s += j;
        }
    }
    int w = n, steps = 0;
    while (w > 1) {
        w = (w & 1) ? w * 3 + 1 : w / 2;   // Collatz: data-dependent trip count
        steps++;
        if (steps > 500)
            break;
    }
    int d = 0;
    do {
        d += n;
        n >>= 1;
    } while (n);
    o[2 * i] = s;
    o[2 * i + 1] = steps * 1000 + d;
}
