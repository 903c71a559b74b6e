// printf from 8 work-groups of 8 work-items, two lines each: fpgacl prints in
// work-group/work-item order whatever its worker count (checked by the
// 1-vs-4-threads test); against PoCL, whose groups run concurrently, the lines
// are compared as a set.
__kernel void printf_groups(__global const int *a, __global int *o)
{
    size_t i = get_global_id(0);
    int v = a[i];
    printf("group %u item %u: %d\n", (uint)get_group_id(0), (uint)get_local_id(0), v);
    printf("  %u squared %d\n", (uint)i, v * v);
    o[i] = v + (int)get_group_id(0);
}
