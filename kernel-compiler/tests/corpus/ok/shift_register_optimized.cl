// Source: 002_7d93f370f87d4e6d.txt line 41; also the guide line 858.
#define N 128
#define M 8

__kernel void optimized (__global float * restrict A,
                         __global float * restrict result)
{
  float mul = 1.0f;

  // Step 1: Declare multiple copies of variable mul
  float mul_copies[M];

  // Step 2: Initialize all copies
  for (unsigned i = 0; i < M; i++)
    mul_copies[i] = 1.0f;

  for (unsigned i = 0; i < N; i++) {
    // Step 3: Perform multiplication on the last copy
    float cur = mul_copies[M-1] * A[i];

    // Step 4a: Shift copies
    #pragma unroll
    for (unsigned j = M-1; j > 0; j--)
      mul_copies[j] = mul_copies[j-1];

    // Step 4b: Insert updated copy at the beginning
    mul_copies[0] = cur;
  }

  // Step 5: Perform reduction on copies
  #pragma unroll
  for (unsigned i = 0; i < M; i++)
    mul *= mul_copies[i];

  * result = mul;
}
