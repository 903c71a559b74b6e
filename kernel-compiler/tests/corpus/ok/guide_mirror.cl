// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 884/891, memory dependency moved to a private array.
#define N 128

__kernel void unoptimized( __global int* restrict A )
{
    for (unsigned i = 0; i < N; i++)
        A[N-i] = A[i];
}

__kernel void optimized( __global int* restrict A )
{
    int B[N];

    for (unsigned i = 0; i < N; i++)
        B[i] = A[i];

    for (unsigned i = 0; i < N; i++)
        B[N-i] = B[i];

    for (unsigned i = 0; i < N; i++)
        A[i] = B[i];
}
