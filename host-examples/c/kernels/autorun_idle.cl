/* 200 autorun compute units polling their request channels with non-blocking reads; an
 * enqueued kernel asks compute unit 7. */
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int req[200] __attribute__((depth(4)));
channel int rsp[200] __attribute__((depth(4)));

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__attribute__((num_compute_units(200)))
__kernel void poller(void)
{
    int id = get_compute_id(0);
    bool ok = false;
    int v = read_channel_nb_intel(req[id], &ok);
    if (ok)
        write_channel_intel(rsp[id], v * 2 + id);
}

__kernel void ask(__global int *restrict out, int x)
{
    write_channel_intel(req[7], x);
    out[0] = read_channel_intel(rsp[7]);
}
