// Producer/consumer kernels joined by OpenCL pipes with Intel's blocking
// attribute (the Best Practices Guide's pipe version of the channel example).

__kernel void producer(__global const int *restrict in_buf, int n,
                       write_only pipe int __attribute__((blocking)) c0)
{
    for (int i = 0; i < n; i++) {
        int v = in_buf[i];
        write_pipe(c0, &v);
    }
}

__kernel void consumer(__global int *restrict ret_buf, int n,
                       read_only pipe int __attribute__((blocking)) c0)
{
    for (int i = 0; i < n; i++) {
        int x;
        read_pipe(c0, &x);
        ret_buf[i] = x;
    }
}

// Two pipes carrying interleaved halves of the data.
__kernel void producer2(__global const uint *restrict src, const uint iterations,
                        write_only pipe uint __attribute__((blocking)) p1,
                        write_only pipe uint __attribute__((blocking)) p2)
{
    for (uint i = 0; i < iterations; i++) {
        uint a = src[2 * i], b = src[2 * i + 1];
        write_pipe(p1, &a);
        write_pipe(p2, &b);
    }
}

__kernel void consumer2(__global uint *restrict dst, const uint iterations,
                        read_only pipe uint __attribute__((blocking)) p1,
                        read_only pipe uint __attribute__((blocking)) p2)
{
    for (uint i = 0; i < iterations; i++) {
        uint a, b;
        read_pipe(p1, &a);
        read_pipe(p2, &b);
        dst[2 * i] = a;
        dst[2 * i + 1] = b;
    }
}
