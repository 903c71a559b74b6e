// Producer/consumer kernels joined by Intel FPGA channels (the Best
// Practices Guide's examples), with the current and the older names.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int c0;                                  // depth 0: producer and consumer meet
channel uint c1 __attribute__((depth(4)));
channel uint c2 __attribute__((depth(4)));
channel long c3 __attribute__((depth(16)));

__kernel void producer(__global const int *restrict in_buf, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_intel(c0, in_buf[i]);
}

__kernel void consumer(__global int *restrict ret_buf, int n)
{
    for (int i = 0; i < n; i++)
        ret_buf[i] = read_channel_intel(c0);
}

// Two channels carrying interleaved halves of the data.
__kernel void producer2(__global const uint *restrict src, const uint iterations)
{
    for (uint i = 0; i < iterations; i++) {
        write_channel_intel(c1, src[2 * i]);
        write_channel_intel(c2, src[2 * i + 1]);
    }
}

__kernel void consumer2(__global uint *restrict dst, const uint iterations)
{
    for (uint i = 0; i < iterations; i++) {
        dst[2 * i] = read_channel_intel(c1);
        dst[2 * i + 1] = read_channel_intel(c2);
    }
}

// Non-blocking reads: poll until every value has arrived; count the misses.
__kernel void consumer_nb(__global long *restrict dst, int n, __global int *restrict misses)
{
    int got = 0, miss = 0;
    while (got < n) {
        bool valid = false;
        long v = read_channel_nb_intel(c3, &valid);
        if (valid)
            dst[got++] = v;
        else
            miss++;
    }
    *misses = miss;
}

// The older Altera spelling of the same built-ins.
__kernel void producer_altera(__global const long *restrict src, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_altera(c3, src[i]);
}
