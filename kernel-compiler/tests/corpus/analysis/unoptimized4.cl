#define N 128

__kernel void unoptimized( __global int* restrict A )
{
  for (unsigned i = 0; i < N; i++)
    A[N-i] = A[i];
}
