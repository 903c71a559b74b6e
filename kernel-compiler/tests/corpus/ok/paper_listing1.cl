// Source: 004_9999862ce18ad148.txt (Eghbali Zarch & Becchi, CF'23) Listing 1, feed-forward design model. The
// listings show loop bodies only; kernel signatures, channels and variable declarations are
// completions.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float c0 __attribute__((depth(64)));
channel float c1 __attribute__((depth(64)));

// (a) Baseline kernel
__kernel void baseline(__global const float * restrict input0, __global const float * restrict input1,
                       __global float * restrict output0, int max_iter) {
    float a, b, c;
    for (int tid = 0; tid < max_iter; tid++) {
        a = input0[tid];
        b = input1[tid];
        c = a * a + b * b;
        output0[tid] = c;
    }
}

// (b) Memory kernel (feed-forward model)
__kernel void memory(__global const float * restrict input0, __global const float * restrict input1,
                     int max_iter) {
    float a, b;
    for (int tid = 0; tid < max_iter; tid++) {
        a = input0[tid];
        write_channel_intel(c0, a);
        b = input1[tid];
        write_channel_intel(c1, b);
    }
}

// (c) Compute kernel (feed-forward model)
__kernel void compute(__global float * restrict output0, int max_iter) {
    float a, b, c;
    for (int tid = 0; tid < max_iter; tid++) {
        a = read_channel_intel(c0);
        b = read_channel_intel(c1);
        c = a * a + b * b;
        output0[tid] = c;
    }
}
