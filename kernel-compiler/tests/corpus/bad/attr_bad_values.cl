__attribute__((reqd_work_group_size(64, 1)))
__kernel void k1(__global int *a) { a[0] = 1; }

__attribute__((num_simd_work_items(3)))
__kernel void k2(__global int *a) { a[0] = 1; }

__attribute__((max_global_work_dim(5)))
__kernel void k3(__global int *a) { a[0] = 1; }
