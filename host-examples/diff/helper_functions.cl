// Non-kernel helper functions taking pointers to global, local and private memory,
// static inline helpers, out-parameters, and a kernel-scope loop calling them.
static inline int clamp_add(int a, int b, int lo, int hi)
{
    return clamp(a + b, lo, hi);
}

static void minmax(__global const int *p, int n, int *lo, int *hi)
{
    *lo = p[0];
    *hi = p[0];
    for (int k = 1; k < n; k++) {
        *lo = min(*lo, p[k]);
        *hi = max(*hi, p[k]);
    }
}

static int sum_local(__local const int *p, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k];
    return s;
}

static void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

__kernel void helper_functions(__global const int *a, __global int *o)
{
    __local int shared[32];
    size_t i = get_global_id(0), l = get_local_id(0);
    shared[l] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int lo, hi;
    minmax(a + (i & ~7u), 8, &lo, &hi);
    int x = lo, y = hi;
    if (i & 1)
        swap(&x, &y);
    o[4 * i + 0] = x;
    o[4 * i + 1] = y;
    o[4 * i + 2] = sum_local(shared, (int)l + 1);
    o[4 * i + 3] = clamp_add(x, y, -500, 500);
}
