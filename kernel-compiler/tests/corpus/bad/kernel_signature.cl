__kernel int k(__global int *a) {
    return 1;
}
__kernel void k2(int *p, bool flag) {
}
