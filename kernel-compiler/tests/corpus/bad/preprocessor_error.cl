#ifndef N
#error "N must be defined with -DN=..."
#endif
__kernel void k(__global int *a) { a[0] = N; }
