// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 616-642, small NDRange kernels (myKernel's body at line 616 is elided;
// completed as a copy).
__kernel void myKernel (__global int * restrict A, __global int * restrict B) {
    size_t gid = get_global_id(0);
    B[gid] = A[gid];
}

__kernel void myKernel_div (__global const float * restrict a,
                            __global float * restrict b,
                            const float c, const float d) {
    size_t gid = get_global_id(0);
    //inefficient since each work-item must calculate c divided by d
    b[gid] = a[gid] * (c / d);
}

__kernel void myKernel_host_div (__global const float * restrict a,
                                 __global float * restrict b,
                                 const float c_divided_by_d) {
    size_t gid = get_global_id(0);
    /*host calculates c divided by d once and passes it into kernel to avoid redundant expensive calculations*/
    b[gid] = a[gid] * c_divided_by_d;
}

__kernel void add (__global int * a, __global int * b, __global int * c) {
    int gid = get_global_id(0);
    c[gid] = a[gid]+b[gid];
}
