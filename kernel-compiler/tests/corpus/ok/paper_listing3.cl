// Source: 004_9999862ce18ad148.txt (Eghbali Zarch & Becchi, CF'23) Listing 3, unsafe memory loop-carried dependency.
__kernel void unsafe_mlcd(__global float * restrict output, __global const float * restrict input, int max_iter) {
    float a, b;
    for (int tid = 1; tid < max_iter; tid++) {
        a = output[tid-1];
        b = input[tid];
        output[tid] = a * b;
    }
}
