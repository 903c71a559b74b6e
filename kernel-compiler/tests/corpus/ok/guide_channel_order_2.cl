// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 508/516, the same with pipes (`iteration` completed to `iterations`).
__kernel void producer ( __global const uint * restrict src, const uint iterations,
                         write_only pipe uint __attribute__((blocking)) c0,
                         write_only pipe uint __attribute__((blocking)) c1) {
    for (int i = 0; i < iterations; i++) {
        write_pipe(c0, &src[2*i]);
        write_pipe(c1, &src[2*i+1]);
    }
}

__kernel void consumer ( __global uint * restrict dst, const uint iterations,
                         read_only pipe uint __attribute__((blocking)) c0,
                         read_only pipe uint __attribute__((blocking)) c1) {
    for (int i = 0; i < iterations; i++) {
        read_pipe(c0, &dst[2*i]);
        read_pipe(c1, &dst[2*i+1]);
    }
}

__kernel void consumer5 (__global uint*restrict dst,
                         read_only pipe uint __attribute__((blocking)) c0,
                         read_only pipe uint __attribute__((blocking)) c1) {
    for (int i = 0; i < 5; i++) {
        read_pipe (c0, &dst[2*i]);
        read_pipe (c1, &dst[2*i+2]);
    }
}
