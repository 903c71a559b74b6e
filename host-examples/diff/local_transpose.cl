// 2-D NDRange tile transpose through a __local tile (with padding) and a barrier.
#define TILE 8
__kernel void local_transpose(__global const float *in, __global float *out, int width,
                              int height)
{
    __local float tile[TILE][TILE + 1];
    int gx = get_global_id(0), gy = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * TILE + lx;
    int oy = get_group_id(0) * TILE + ly;
    out[oy * height + ox] = tile[lx][ly];
}
