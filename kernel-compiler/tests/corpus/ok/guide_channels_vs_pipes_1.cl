// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 495, channel version of a producer/consumer pair.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0;

__kernel void producer (__global int * in_buf) {
    for (int i = 0; i < 10; i++) {
        write_channel_intel (c0, in_buf[i]);
    }
}

__kernel void consumer (__global int * ret_buf) {
    for (int i = 0; i < 10; i++) {
        ret_buf[i] = read_channel_intel(c0);
    }
}
