// options: -Werror
__kernel void k(__global int *p) {
    int a[3] = {1, 2, 3};
    p[0] = a[3];
}
