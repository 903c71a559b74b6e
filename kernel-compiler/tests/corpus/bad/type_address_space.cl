void helper(__local int *p) { p[0] = 1; }
__kernel void k(__global int *a) {
    __local int *l = a;
    helper(a);
}
