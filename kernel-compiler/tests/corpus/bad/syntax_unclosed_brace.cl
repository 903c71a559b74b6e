__kernel void k(__global int *a) {
    if (a[0]) {
        a[1] = 2;
}
