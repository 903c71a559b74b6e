// A single work-item kernel (launched with clEnqueueTask) whose one loop runs
// n iterations with loop-carried dependencies: an integer sum, a wrapping
// sum of squares and a running xor-rotate hash. Used by the benchmark
// (scripts/bench.sh) with n = 2^20.
__kernel void task_loop(__global const int *restrict a, __global int *restrict out, int n)
{
    int sum = 0;
    uint squares = 0, hash = 0x811C9DC5u;
    for (int i = 0; i < n; ++i) {
        int v = a[i];
        sum += v;
        squares += (uint)(v * v);
        hash = rotate(hash ^ (uint)v, 5u) * 16777619u;
    }
    out[0] = sum;
    out[1] = (int)squares;
    out[2] = (int)hash;
}
