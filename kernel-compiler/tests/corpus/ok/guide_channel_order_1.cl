// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 507/515, two channels read in order (channel declarations and the
// producer of line 507 elided in the guide; `iteration` completed to `iterations`).
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel uint c0 __attribute__((depth(8)));
channel uint c1 __attribute__((depth(8)));

__kernel void producer ( __global const uint * restrict src, const uint iterations) {
    for (int i = 0; i < iterations; i++) {
        write_channel_intel(c0, src[2*i]);
        write_channel_intel(c1, src[2*i+1]);
    }
}

__kernel void consumer ( __global uint * restrict dst, const uint iterations) {
    for (int i = 0; i < iterations; i++) {
        dst[2*i] = read_channel_intel(c0);
        dst[2*i+1] = read_channel_intel(c1);
    }
}

__kernel void consumer5 (__global uint*restrict dst) {
    for (int i = 0; i < 5; i++) {
        dst[2*i] = read_channel_intel(c0);
        dst[2*i+2] = read_channel_intel(c1);
    }
}
