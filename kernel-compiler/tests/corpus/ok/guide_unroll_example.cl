// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 526/533, a loop before and after #pragma unroll.
__kernel void example ( __global const int * restrict x, __global int * restrict sum ) {
    int accum = 0;
    for (size_t i = 0; i < 4; i++) {
        accum += x[i + get_global_id(0) * 4];
    }
    sum[get_global_id(0)] = accum;
}

__kernel void example_unrolled ( __global const int * restrict x, __global int * restrict sum ) {
    int accum = 0;
    #pragma unroll
    for (size_t i = 0; i < 4; i++) {
        accum += x[i + get_global_id(0) * 4];
    }
    sum[get_global_id(0)] = accum;
}
