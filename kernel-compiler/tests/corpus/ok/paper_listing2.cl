// Source: 004_9999862ce18ad148.txt (Eghbali Zarch & Becchi, CF'23) Listing 2, data loop-carried dependency.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0 __attribute__((depth(16)));

__kernel void baseline(__global const int * restrict input0, __global int * restrict output0, int max_iter) {
    int a, r;
    for (int tid = 5; tid < max_iter; tid++) {
        r = 0;
        for (int i = 0; i < 5; i++) {
            a = input0[tid-i];
            r += a;
        }
        output0[tid] = r;
    }
}

__kernel void memory(__global const int * restrict input0, int max_iter) {
    int a;
    for (int tid = 5; tid < max_iter; tid++) {
        for (int i = 0; i < 5; i++) {
            a = input0[tid-i];
            write_channel_intel(c0, a);
        }
    }
}

__kernel void compute(__global int * restrict output0, int max_iter) {
    int a, r;
    for (int tid = 5; tid < max_iter; tid++) {
        r = 0;
        for (int i = 0; i < 5; i++) {
            a = read_channel_intel(c0);
            r += a;
        }
        output0[tid] = r;
    }
}
