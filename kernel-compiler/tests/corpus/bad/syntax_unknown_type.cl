__kernel void k(__global flaot *a) {
}
__kernel void k2(__global int *a) {
    myint x = 3;
}
