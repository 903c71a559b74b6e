// Feature kernel: channel arrays, struct payloads, non-blocking writes, autorun kernels with
// compute units, __fpga_reg, the older _altera spellings, pipes with non-blocking access.
#pragma OPENCL EXTENSION cl_intel_channels : enable

typedef struct { int id; float value; } msg_t;

channel msg_t msgs[4] __attribute__((depth(16)));
channel int results __attribute__((depth(8)));
channel float io_in __attribute__((io("eth0_in"), depth(0)));

__kernel void producer(__global const float *restrict src, int n) {
    for (int i = 0; i < n; i++) {
        msg_t m;
        m.id = i;
        m.value = __fpga_reg(src[i]);
        write_channel_intel(msgs[i & 3], m);
    }
    bool ok = write_channel_nb_intel(results, -1);
    if (!ok)
        write_channel_altera(results, -2);
}

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__attribute__((num_compute_units(4)))
__kernel void worker() {
    int cu = get_compute_id(0);
    while (1) {
        msg_t m = read_channel_intel(msgs[cu]);
        m.value *= 2.0f;
        write_channel_intel(results, m.id);
    }
}

__kernel void drain(__global int *restrict dst, int n) {
    for (int i = 0; i < n; i++) {
        bool valid;
        int v = read_channel_nb_altera(results, &valid);
        dst[i] = valid ? v : read_channel_altera(results);
    }
    mem_fence(CLK_CHANNEL_MEM_FENCE);
}

__kernel void piped(__global int *restrict dst, read_only pipe int in_p,
                    write_only pipe float __attribute__((blocking)) out_p) {
    int x = 0;
    int status = read_pipe(in_p, &x);
    float y = (float)x;
    if (status == 0)
        write_pipe(out_p, &y);
    dst[0] = status;
}

__attribute__((task))
__kernel void single_task(__global float *restrict out) {
    out[0] = read_channel_intel(io_in);
}
