// Work-item functions in a 3-D NDRange with a global offset.
__kernel void work_item_fns(__global uint *o)
{
    size_t gx = get_global_id(0) - get_global_offset(0);
    size_t gy = get_global_id(1) - get_global_offset(1);
    size_t gz = get_global_id(2) - get_global_offset(2);
    size_t lin = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
    __global uint *p = o + 12 * lin;
    p[0] = get_work_dim();
    p[1] = get_global_id(0);
    p[2] = get_global_id(1);
    p[3] = get_global_id(2);
    p[4] = get_local_id(0) | (get_local_id(1) << 8) | (get_local_id(2) << 16);
    p[5] = get_group_id(0) | (get_group_id(1) << 8) | (get_group_id(2) << 16);
    p[6] = get_num_groups(0) | (get_num_groups(1) << 8) | (get_num_groups(2) << 16);
    p[7] = get_local_size(0) | (get_local_size(1) << 8) | (get_local_size(2) << 16);
    p[8] = get_global_size(0) | (get_global_size(1) << 8) | (get_global_size(2) << 16);
    p[9] = get_global_offset(0) | (get_global_offset(1) << 8) | (get_global_offset(2) << 16);
    p[10] = get_local_size(3) + get_global_size(5) * 2 + get_global_id(4) * 4;  // out of range dims
    p[11] = get_num_groups(3) + get_group_id(3) * 2 + get_local_id(7) * 4;
}
