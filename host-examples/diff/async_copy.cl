// async_work_group_copy global->local and local->global, async_work_group_strided_copy,
// wait_group_events, prefetch.
#pragma OPENCL FP_CONTRACT OFF
__kernel void async_copy(__global const float *in, __global float *out, __global float *strided)
{
    __local float tile[64];
    __local float col[16];
    size_t g = get_group_id(0);
    event_t e = async_work_group_copy(tile, in + g * 64, 64, 0);
    event_t e2 = async_work_group_strided_copy(col, in + g * 64 + 1, 16, 4, 0);
    wait_group_events(1, &e);
    wait_group_events(1, &e2);
    prefetch(in + g * 64, 64);
    size_t l = get_local_id(0);
    tile[l] = tile[l] * 2.0f + col[l & 15];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e3 = async_work_group_copy(out + g * 64, tile, 64, 0);
    event_t e4 = async_work_group_strided_copy(strided + g * 64, col, 16, 4, 0);
    wait_group_events(1, &e3);
    wait_group_events(1, &e4);
}
