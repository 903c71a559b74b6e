__kernel void k(__global int *a) {
    a[0] = undefined_var + 1;
}
