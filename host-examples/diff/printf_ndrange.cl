// printf from an NDRange of one work-group of 8 work-items: each work-item's lines
// come out in order (work-items in order, as both PoCL and fpgacl run them).
__kernel void printf_ndrange(__global const int *a, __global int *o)
{
    size_t i = get_global_id(0);
    int v = a[i];
    printf("wi %u of %u: v=%d\n", (uint)i, (uint)get_global_size(0), v);
    o[i] = v * 2;
}
