// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 760, writes to two channels in nested loops (the channels, N, data0 and
// data1 are elided in the guide; completed here).
#pragma OPENCL EXTENSION cl_intel_channels : enable
#define N 16
channel int c0 __attribute__((depth(64)));
channel int c1 __attribute__((depth(4)));

__kernel void proc (__global int * a) {
    int data0 = a[0];
    int data1 = a[1];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 1000; j++) {
            write_channel_intel (c0, data0);
        }
        for (int k = 0; k < 3; k++) {
            write_channel_intel (c1, data1);
        }
    }
}
