// Pragmas stay in the token stream, normalised, at the line of the `#`.
#define N 4
#define UNROLL_ALL _Pragma("unroll")
#pragma OPENCL EXTENSION cl_intel_channels:enable
#pragma OPENCL EXTENSION cl_altera_channels : enable
kernel void k(global int *restrict A) {
#pragma unroll
  for (int i = 0; i < 4; i++) A[i] = 0;
  #  pragma   unroll   N * 2
  for (int i = 0; i < 8; i++) A[i] = 1;
#pragma ivdep
#pragma ivdep array(A)
#pragma ivdep array( A ) safelen( N + 1 )
#pragma loop_coalesce 2
#pragma ii N
#pragma max_concurrency 1
#pragma disable_loop_pipelining
#pragma speculated_iterations 0
  UNROLL_ALL for (;;) {}
#pragma some_vendor thing(x, y)
}
