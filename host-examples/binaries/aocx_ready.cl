// Kernel of aocx_ready.c: out[i] = in[i] * SCALE + OFFSET, with SCALE and OFFSET given by the
// build options recorded in the binary (-D), and the board macro aoc defines.
#ifndef SCALE
#error "SCALE must be defined with -D SCALE=<n>"
#endif
#ifndef OFFSET
#define OFFSET 1
#endif
__kernel void scale_offset(__global const int *restrict in, __global int *restrict out) {
    int i = get_global_id(0);
    out[i] = in[i] * SCALE + OFFSET;
}
