// Producer/consumer over an Intel channel: the producer streams the input, the consumer
// scales it. The scale depends on the board the kernels were compiled for (-board=), through
// the AOCL_BOARD_<name> macro Intel's aoc defines.
#pragma OPENCL EXTENSION cl_intel_channels : enable

#if defined(AOCL_BOARD_fpgacl_a10)
#define SCALE 3.0f
#else
#error "compiled without -board=fpgacl_a10 (AOCL_BOARD_fpgacl_a10 is not defined)"
#endif

channel float stream __attribute__((depth(64)));

__kernel void producer(__global const float *restrict in, int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(stream, in[i]);
}

__kernel void consumer(__global float *restrict out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = read_channel_intel(stream) * SCALE;
}
