// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 827/841, serialised inner loop and its optimisation.
#define N 128

__kernel void unoptimized (__global int * restrict A,
                           __global int * restrict B,
                           __global int* restrict result)
{
    int sum = 0;

    for (unsigned i = 0; i < N; i++) {
        for (unsigned j = 0; j < N; j++) {
            sum += A[i*N+j];
        }
        sum += B[i];
    }

    * result = sum;
}

__kernel void optimized (__global int * restrict A,
                         __global int * restrict B,
                         __global int * restrict result)
{
    int sum = 0;

    for (unsigned i = 0; i < N; i++) {
        // Step 1: Definition
        int sum2 = 0;

        // Step 2: Accumulation of array A values for one outer loop iteration
        for (unsigned j = 0; j < N; j++) {
            sum2 += A[i*N+j];
        }

        // Step 3: Addition of array B value for an outer loop iteration
        sum += sum2;
        sum += B[i];
    }

    * result = sum;
}
