// Baseline kernel of the feed-forward transformation example (CF'23 paper,
// Listing 4a): a single work-item kernel whose inner loop bounds and
// conditions depend on loaded data (CSR-like segments).
//
// As in the paper, the pointers are plain __global pointers (no restrict):
// the compiler cannot prove that the store to output1 never writes a word a
// later iteration loads from input0..input3, so this memory loop-carried
// dependency serialises the outer loop (large II, "Memory dependency" in the
// static report) and the inner loop runs one outer iteration at a time. The
// split design (feed_forward_split.cl) moves every load into a kernel without
// stores, which removes the dependency.
__kernel void baseline(__global const int *input0, __global const int *input1,
                       __global const int *input2, __global const int *input3,
                       __global int *output1, int max_iter, int max_end)
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
