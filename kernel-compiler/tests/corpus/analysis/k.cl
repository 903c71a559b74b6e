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
