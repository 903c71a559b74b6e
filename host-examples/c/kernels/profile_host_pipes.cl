// A kernel between two host pipes (Intel's cl_intel_fpga_host_pipe): the host writes values
// into `in` with clWritePipeIntelFPGA and reads their squares from `out` with
// clReadPipeIntelFPGA, while the kernel runs.
__kernel void square(read_only pipe int __attribute__((blocking)) in,
                     write_only pipe int __attribute__((blocking)) out, int n)
{
    for (int i = 0; i < n; i++) {
        int v;
        read_pipe(in, &v);
        v = v * v;
        write_pipe(out, &v);
    }
}
