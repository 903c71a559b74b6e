// A single work-item kernel (task) with loop-carried dependencies: a float running
// sum in source order, an integer histogram in a private array, a running maximum.
#pragma OPENCL FP_CONTRACT OFF
__kernel void task_accumulate(__global const float *x, __global const int *a, int n,
                              __global float *fsum, __global int *hist, __global int *stats)
{
    float s = 0.0f, s2 = 0.0f;
    int h[16];
    for (int k = 0; k < 16; k++)
        h[k] = 0;
    int best = INT_MIN, best_at = -1;
    for (int k = 0; k < n; k++) {
        s += x[k];
        s2 += x[k] * x[k];
        h[a[k] & 15]++;
        if (a[k] > best) {
            best = a[k];
            best_at = k;
        }
        if ((k & 1023) == 1023)
            fsum[k >> 10] = s;
    }
    fsum[n >> 10] = s2;
    for (int k = 0; k < 16; k++)
        hist[k] = h[k];
    stats[0] = best;
    stats[1] = best_at;
}
