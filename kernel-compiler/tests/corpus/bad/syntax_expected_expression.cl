__kernel void k(__global int *a) {
    a[0] = * ;
    a[1] = 3 +;
}
