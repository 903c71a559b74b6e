// An autorun kernel replicated over two compute units, fed and drained by
// enqueued kernels through channel arrays. Each compute unit squares the
// values it receives and adds its compute id; it restarts after every value,
// as autorun kernels do on the FPGA.
#pragma OPENCL EXTENSION cl_intel_channels : enable

#define CUS 2

channel int to_worker[CUS] __attribute__((depth(8)));
channel int from_worker[CUS] __attribute__((depth(8)));

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__attribute__((num_compute_units(CUS, 1, 1)))
__kernel void worker(void)
{
    int id = get_compute_id(0);
    int v = read_channel_intel(to_worker[id]);
    write_channel_intel(from_worker[id], v * v + id);
}

__kernel void feed(__global const int *restrict src, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        write_channel_intel(to_worker[0], src[2 * i]);
        write_channel_intel(to_worker[1], src[2 * i + 1]);
    }
}

__kernel void drain(__global int *restrict dst, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        dst[2 * i] = read_channel_intel(from_worker[0]);
        dst[2 * i + 1] = read_channel_intel(from_worker[1]);
    }
}
