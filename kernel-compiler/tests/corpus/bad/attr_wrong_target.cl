__kernel void k(__global int *a) {
    __local int buf[16] __attribute__((numbanks(3)));
    __local int buf2[16] __attribute__((reqd_work_group_size(1, 1, 1)));
    buf[0] = a[0];
    buf2[0] = a[1];
}
__attribute__((autorun))
__kernel void k2() { }
