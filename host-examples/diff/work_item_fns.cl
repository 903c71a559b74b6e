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
    // (Out-of-range dimindx, which the spec defines as 1 for sizes and 0 for ids, is
    // not compared: PoCL and Oclgrind both return 0 for sizes.)
    p[10] = get_work_dim() * 1000 + get_global_offset(2) * get_num_groups(1);
    p[11] = (uint)(get_global_id(0) * get_global_id(1) * get_global_id(2));
}
