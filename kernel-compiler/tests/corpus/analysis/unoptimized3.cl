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
