// The Best Practices Guide's "optimized" shift-register kernel (macros N and M).
#define N 128
#define M 8

__kernel void optimized (__global float * restrict A,
                         __global float * restrict result)
{
  float mul = 1.0f;
  float mul_copies[M];
  for (unsigned i = 0; i < M; i++)
    mul_copies[i] = 1.0f;
  for (unsigned i = 0; i < N; i++) {
    float cur = mul_copies[M-1] * A[i];
    #pragma unroll
    for (unsigned j = M-1; j > 0; j--)
      mul_copies[j] = mul_copies[j-1];
    mul_copies[0] = cur;
  }
  #pragma unroll
  for (unsigned i = 0; i < M; i++)
    mul *= mul_copies[i];
  * result = mul;
}
