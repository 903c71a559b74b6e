// Accumulator kernels in the styles the Best Practices Guide compares:
// a single work-item kernel (launched with clEnqueueTask), the same
// computation as an NDRange kernel, and the nested-loop accumulation where
// an inner sum feeds an outer one.

#define MAX_ROWS 1024

// Single work-item: sums `k_size` rows of `size` elements of `a` into `c`.
__kernel void accum_swg(__global const int *restrict a, __global int *restrict c,
                        int size, int k_size)
{
    int sum[MAX_ROWS];
    for (int k = 0; k < k_size; ++k)
        sum[k] = 0;
    for (int k = 0; k < k_size; ++k) {
        for (int i = 0; i < size; ++i) {
            int j = k * size + i;
            sum[k] += a[j];
        }
    }
    for (int k = 0; k < k_size; ++k)
        c[k] = sum[k];
}

// NDRange: work-item k sums row k.
__kernel void accum_ndr(__global const int *restrict a, __global int *restrict c, int size)
{
    int k = get_global_id(0);
    int sum = 0;
    for (int i = 0; i < size; ++i)
        sum += a[k * size + i];
    c[k] = sum;
}

// Single work-item with a subloop: per outer iteration an inner sum over a
// row of A, then the row's B value.
__kernel void nested_sum(__global const int *restrict A, __global const int *restrict B,
                         __global int *restrict result, unsigned n)
{
    int sum = 0;
    for (unsigned i = 0; i < n; i++) {
        int sum2 = 0;
        for (unsigned j = 0; j < n; j++)
            sum2 += A[i * n + j];
        sum += sum2;
        sum += B[i];
    }
    *result = sum;
}

// Floating-point running sum (a loop-carried dependency through an adder).
__kernel void fp_accum(__global const float *restrict arr, __global float *restrict out, int n)
{
    float temp_sum = 0.0f;
    for (int i = 0; i < n; i++)
        temp_sum += arr[i];
    *out = temp_sum;
}
