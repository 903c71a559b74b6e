// Source: 002_7d93f370f87d4e6d.txt (relaxing loop-carried dependency) line 15; also the guide line 849.
#define N 128

__kernel void unoptimized (__global float * restrict A,
                           __global float * restrict result)
{
  float mul = 1.0f;

  for (unsigned i = 0; i < N; i++)
    mul *= A[i];

  * result = mul;
}
