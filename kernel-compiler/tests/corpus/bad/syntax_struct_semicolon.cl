struct S { int a; }
__kernel void k(__global int *p) { p[0] = 1; }
