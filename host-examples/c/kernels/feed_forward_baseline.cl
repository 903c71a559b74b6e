// Baseline kernel of the feed-forward transformation example (CF'23 paper,
// Listing 4a style): a single work-item kernel whose inner loop bounds and
// conditions depend on loaded data (CSR-like segments).
__kernel void baseline(__global const int *restrict input0, __global const int *restrict input1,
                       __global const int *restrict input2, __global const int *restrict input3,
                       __global int *restrict output1, int max_iter, int max_end)
{
    for (int tid = 0; tid < max_iter; tid++) {
        if (input0[tid] == -1) {
            int start = input1[tid];
            int end;
            if (tid + 1 < max_iter)
                end = input1[tid + 1];
            else
                end = max_end;
            int r = 0;
            for (int j = start; j < end; j++) {
                if (input2[j] == -1)
                    r = r + input3[j];
            }
            output1[tid] = r;
        }
    }
}
