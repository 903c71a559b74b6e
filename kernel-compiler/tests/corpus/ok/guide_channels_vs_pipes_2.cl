// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 496, the same pair with OpenCL pipes.
__kernel void producer (__global int * in_buf, write_only pipe int __attribute__ ((blocking)) c0) {
    for (int i = 0; i < 10; i++) {
        write_pipe (c0, &in_buf[i]);
    }
}

__kernel void consumer (__global int * ret_buf, read_only pipe int __attribute__ ((blocking)) c0) {
    for (int i = 0; i < 10; i++) {
        int x;
        read_pipe (c0, &x);
        ret_buf[i] = x;
    }
}
