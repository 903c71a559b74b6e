__kernel void k(__global float *a) {
    float x = a[0];
    int y = x % 2;
    int z = x << 1;
}
