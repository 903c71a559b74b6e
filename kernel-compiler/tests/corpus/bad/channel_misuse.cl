#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int ch[4];
channel float single;
__kernel void k(__global int *a) {
    a[0] = read_channel_intel(ch);
    write_channel_intel(single, a);
    a[1] = read_channel_intel(ch[7]);
    int x = single;
}
