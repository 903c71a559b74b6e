// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 863/879, non-blocking channel reads.
#pragma OPENCL EXTENSION cl_intel_channels : enable
#define N 128
#define NUM_CH 3

channel uchar CH_DATA_IN[NUM_CH];
channel uchar CH_DATA_OUT;

__kernel void unoptimized()
{
    unsigned storage = 0;
    unsigned num_bytes = 0;

    for (unsigned i = 0; i < N; i++) {

        #pragma unroll
        for (unsigned j = 0; j < NUM_CH; j++) {
            if (num_bytes < NUM_CH) {
                bool valid = false;
                uchar data_in = read_channel_nb_intel(CH_DATA_IN[j], &valid);
                if (valid) {
                    storage <<= 8;
                    storage |= data_in;
                    num_bytes++;
                }
            }
        }

        if (num_bytes >= 1) {
            num_bytes -= 1;
            uchar data_out = storage >> (num_bytes*8);
            write_channel_intel(CH_DATA_OUT, data_out);
        }
    }
}

__kernel void optimized()
{
    // Change storage to 64 bits
    ulong storage = 0;
    unsigned num_bytes = 0;

    for (unsigned i = 0; i < N; i++) {

        // Ensure that we have enough space if we read from ALL channels
        if (num_bytes <= (8-NUM_CH)) {
            #pragma unroll
            for (unsigned j = 0; j < NUM_CH; j++) {
                bool valid = false;
                uchar data_in = read_channel_nb_intel(CH_DATA_IN[j], &valid);
                if (valid) {
                    storage <<= 8;
                    storage |= data_in;
                    num_bytes++;
                }
            }
        }

        if (num_bytes >= 1) {
            num_bytes -= 1;
            uchar data_out = storage >> (num_bytes*8);
            write_channel_intel(CH_DATA_OUT, data_out);
        }
    }
}
