// A tiny kernel for the enqueue-scaling benchmark: each launch adds its
// argument to one counter, so the final value shows every launch ran once
// and in order (the in-order queue serialises them).
__kernel void tick(__global int *restrict counter, int step)
{
    counter[0] = counter[0] * 3 + step;
}
