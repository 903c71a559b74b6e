// Burst coalescing in the pipeline's issue order (device-model rule M0): a plain copy (one
// work-item per element), the GPU-style grid-stride copy (a few work-items loop over the
// range), and a grid-stride gather with a 64-byte stride across work-items.
__kernel void copy_plain(__global const int *restrict a, __global int *restrict b)
{
    int i = get_global_id(0);
    b[i] = a[i];
}

__kernel void copy_stride(__global const int *restrict a, __global int *restrict b, int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        b[i] = a[i];
}

__kernel void gather_stride(__global const int *restrict a, __global int *restrict b, int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        b[i] = a[i * 16];
}

// Static coalescing (device-model rule M0'): each work-item copies its own 16 consecutive
// ints through an unrolled loop; the 16 copies form one 64-byte access per work-item.
__kernel void copy_rows(__global const int *restrict a, __global int *restrict b)
{
    int r = get_global_id(0);
    #pragma unroll
    for (int j = 0; j < 16; j++)
        b[r * 16 + j] = a[r * 16 + j];
}
