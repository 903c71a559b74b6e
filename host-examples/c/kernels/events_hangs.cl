/* A kernel that takes a while (the conformance suite's "long" kernel, with a settable loop). */
__kernel void sample_test(__global float *src, __global int *dst, int loops)
{
    int tid = get_global_id(0);
    for (int i = 0; i < loops; i++)
        dst[tid] = (int)src[tid] * 3 + i;
}
