// A producer/consumer pair of single work-item kernels joined by one channel of DEPTH
// elements (build option -DDEPTH=N, default 16): the producer writes n values computed
// from the loop index, the consumer reads them and stores their count, wrapping sum and
// order hash. Used by the load test (no false deadlock under CPU load) and the channel
// throughput benchmark (channel_pair in scripts/bench.sh).
#pragma OPENCL EXTENSION cl_intel_channels : enable
#ifndef DEPTH
#define DEPTH 16
#endif
channel int ch __attribute__((depth(DEPTH)));

__kernel void producer(int n)
{
    for (int i = 0; i < n; ++i)
        write_channel_intel(ch, i * 3 + 1);
}

__kernel void consumer(__global int *restrict out, int n)
{
    int sum = 0;
    uint hash = 0;
    for (int i = 0; i < n; ++i) {
        int v = read_channel_intel(ch);
        sum += v;
        hash = hash * 31u + (uint)v;
    }
    out[0] = n;
    out[1] = sum;
    out[2] = (int)hash;
}
