#define N 128

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
