// Source: 004_9999862ce18ad148.txt (Eghbali Zarch & Becchi, CF'23) Listing 4, feed-forward transformation of a kernel with data-dependent
// control flow.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0 __attribute__((depth(32)));
channel int c1 __attribute__((depth(32)));
channel int c2 __attribute__((depth(32)));
channel int c3 __attribute__((depth(32)));
channel int c4 __attribute__((depth(32)));

// (a) Baseline
__kernel void baseline(__global const int * restrict input0, __global const int * restrict input1,
                       __global const int * restrict input2, __global const int * restrict input3,
                       __global int * restrict output1, int max_iter, int max_end) {
    int start, end, r;
    for (int tid = 0; tid < max_iter; tid++) {
        if (input0[tid] == -1) {
            start = input1[tid];
            if (tid + 1 < max_iter)
                end = input1[tid+1];
            else
                end = max_end;
            r = 0;
            for (int j = start; j < end; j++) {
                if (input2[j] == -1)
                    r = r + input3[j];
            }
            output1[tid] = r;
        }
    }
}

// (b) Feed-forward design memory kernel
__kernel void memory(__global const int * restrict input0, __global const int * restrict input1,
                     __global const int * restrict input2, __global const int * restrict input3,
                     int max_iter, int max_end) {
    int in0, in2, in3, start, end;
    for (int tid = 0; tid < max_iter; tid++) {
        in0 = input0[tid];
        write_channel_intel(c0, in0);
        if (in0 == -1) {
            start = input1[tid];
            write_channel_intel(c1, start);
            if (tid + 1 < max_iter)
                end = input1[tid+1];
            else
                end = max_end;
            write_channel_intel(c2, end);
            for (int j = start; j < end; j++) {
                in2 = input2[j];
                write_channel_intel(c3, in2);
                if (in2 == -1) {
                    in3 = input3[j];
                    write_channel_intel(c4, in3);
                }
            }
        }
    }
}

// (c) Feed-forward design compute kernel
__kernel void compute(__global int * restrict output1, int max_iter) {
    int in0, in2, start, end, r;
    for (int tid = 0; tid < max_iter; tid++) {
        in0 = read_channel_intel(c0);
        if (in0 == -1) {
            start = read_channel_intel(c1);
            end = read_channel_intel(c2);
            r = 0;
            for (int j = start; j < end; j++) {
                in2 = read_channel_intel(c3);
                if (in2 == -1)
                    r = r + read_channel_intel(c4);
            }
            output1[tid] = r;
        }
    }
}
