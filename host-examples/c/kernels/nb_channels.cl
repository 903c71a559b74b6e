// nb_channels.cl: non-blocking channel operations decided in simulated time (used by
// nb_channels.c). Each pair starts with a rendezvous handshake so that both kernels continue
// from the same simulated cycle whatever the host gap between their launches; after it, the
// counts of empty/full polls depend only on the kernels, never on host scheduling.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int go_a;
channel int data_a __attribute__((depth(8)));
channel int go_b;
channel int data_b __attribute__((depth(4)));

// Pair A: a producer slow in simulated time (the float product recurrence gives II > 1)
// and a consumer polling with read_channel_nb_intel.
__kernel void producer_a(__global const float *src, int n)
{
    int base = read_channel_intel(go_a);
    float p = 1.0f;
    for (int i = 0; i < n; i++) {
        p = p * src[i];
        write_channel_intel(data_a, base + i + (p > 1.0e30f ? 1 : 0));
    }
}

__kernel void poller_a(__global int *dst, __global int *stats, int n)
{
    write_channel_intel(go_a, 100);
    int got = 0, empty = 0;
    while (got < n) {
        bool valid = false;
        int v = read_channel_nb_intel(data_a, &valid);
        if (valid) {
            dst[got] = v;
            got++;
        } else {
            empty++;
        }
    }
    stats[0] = empty;
}

// Pair B: a writer using write_channel_nb_intel into a FIFO whose reader is slow in
// simulated time.
__kernel void nb_writer_b(__global int *stats, int n)
{
    int base = read_channel_intel(go_b);
    int sent = 0, full = 0;
    while (sent < n) {
        bool ok = write_channel_nb_intel(data_b, base + sent);
        if (ok)
            sent++;
        else
            full++;
    }
    stats[0] = full;
}

__kernel void slow_reader_b(__global const float *src, __global float *acc, __global int *dst,
                            int n)
{
    write_channel_intel(go_b, 7);
    float p = 1.0f;
    for (int i = 0; i < n; i++) {
        int v = read_channel_intel(data_b);
        dst[i] = v;
        p = p * src[i] + (float)(v & 1);
    }
    acc[0] = p;
}
