__constant int table[2] = {1, 2};
__kernel void k(__global const int *a, const int n) {
    a[0] = 1;
    n = 2;
    table[0] = 3;
}
