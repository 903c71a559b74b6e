/* Stencils that read their neighbours before checking the border, as public FPGA
 * benchmarks do on purpose (on hardware the read returns some value and the border test
 * discards it), and a store past the end of a buffer. */

#define BLOCK 64

/* Local memory: prev[l - 1] is read for l == 0 too (offset -4 of 'prev'). */
__kernel void stencil_local(__global const float *restrict a, __global float *restrict out)
{
    __local float prev[BLOCK];
    int l = get_local_id(0);
    int i = get_global_id(0);
    prev[l] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    float left = prev[l - 1];
    float right = prev[l + 1];
    float v = prev[l];
    if (l > 0)
        v += left;
    if (l < BLOCK - 1)
        v += right;
    out[i] = v;
}

/* Global memory: a[i - 1] and a[i + 1] are read for the first and last item too. */
__kernel void stencil_global(__global const float *restrict a, __global float *restrict out,
                             int n)
{
    int i = get_global_id(0);
    float left = a[i - 1];
    float right = a[i + 1];
    float v = a[i];
    if (i > 0)
        v += left;
    if (i < n - 1)
        v += right;
    out[i] = v;
}

/* Stores 8 elements past the end of `dst`; `guard` is the next buffer. */
__kernel void store_past_end(__global int *restrict dst, __global int *restrict guard, int n)
{
    for (int i = 0; i < n + 8; i++)
        dst[i] = i;
    guard[0] = guard[0] + 1;
}
