// The same computation split into a memory kernel (all global loads) and a
// compute kernel (all arithmetic and stores) joined by channels: the
// feed-forward design model (CF'23 paper, Listings 4b and 4c style).
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int c0 __attribute__((depth(64)));   // input0[tid]
channel int c1 __attribute__((depth(64)));   // start of the segment
channel int c2 __attribute__((depth(64)));   // end of the segment
channel int c3 __attribute__((depth(64)));   // input2[j]
channel int c4 __attribute__((depth(64)));   // input3[j], only where input2[j] == -1

__kernel void memory_kernel(__global const int *restrict input0,
                            __global const int *restrict input1,
                            __global const int *restrict input2,
                            __global const int *restrict input3, int max_iter, int max_end)
{
    for (int tid = 0; tid < max_iter; tid++) {
        int in0 = input0[tid];
        write_channel_intel(c0, in0);
        if (in0 == -1) {
            int start = input1[tid];
            write_channel_intel(c1, start);
            int end;
            if (tid + 1 < max_iter)
                end = input1[tid + 1];
            else
                end = max_end;
            write_channel_intel(c2, end);
            for (int j = start; j < end; j++) {
                int in2 = input2[j];
                write_channel_intel(c3, in2);
                if (in2 == -1) {
                    int in3 = input3[j];
                    write_channel_intel(c4, in3);
                }
            }
        }
    }
}

__kernel void compute_kernel(__global int *restrict output1, int max_iter)
{
    for (int tid = 0; tid < max_iter; tid++) {
        int in0 = read_channel_intel(c0);
        if (in0 == -1) {
            int start = read_channel_intel(c1);
            int end = read_channel_intel(c2);
            int r = 0;
            for (int j = start; j < end; j++) {
                int in2 = read_channel_intel(c3);
                if (in2 == -1)
                    r = r + read_channel_intel(c4);
            }
            output1[tid] = r;
        }
    }
}
