__attribute__((autorun)) __attribute__((max_global_work_dim(0)))
__kernel void k(__global int *p) { p[0] = 1; }

__attribute__((reqd_work_group_size(64, 4, 1))) __attribute__((max_work_group_size(128)))
__kernel void k2(__global int *p) { p[0] = 1; }
