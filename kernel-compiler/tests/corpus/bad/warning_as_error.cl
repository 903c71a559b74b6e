// options: -Werror
__kernel void k(__global int *a) {
    int x = a[0] / 0;
    a[1] = x;
}
