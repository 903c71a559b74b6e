__kernel void k(__global int *a) {
    int x = a[0]
    a[1] = x;
}
