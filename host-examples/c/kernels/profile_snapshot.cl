// A consumer that outlives its producer's first launch: the host snapshots its counters
// (clGetProfileInfoIntelFPGA) while it is still running, between two producer launches.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int values __attribute__((depth(4)));

__kernel void producer(__global const int *restrict src, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_intel(values, src[i]);
}

__kernel void consumer(__global int *restrict dst, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++) {
        sum += read_channel_intel(values);
        dst[i] = sum;
    }
}
