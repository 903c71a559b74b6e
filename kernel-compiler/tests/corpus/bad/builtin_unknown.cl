__kernel void k(__global float *a) {
    a[0] = sqrtf(a[1]);
    a[1] = my_helper(2);
}
