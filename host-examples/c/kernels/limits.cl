/* Work-group sizes and local memory beyond the old 2048 / 64 KiB caps. */
__attribute__((reqd_work_group_size(4096, 1, 1)))
__kernel void reqd4096(__global int *p) { p[get_global_id(0)] = (int)get_local_size(0); }

__attribute__((reqd_work_group_size(32768, 1, 1)))
__kernel void reqd32768(__global int *p) { p[get_global_id(0)] = (int)get_local_id(0); }

/* No attribute, no barrier: no limit. */
__kernel void free_size(__global int *p) { p[get_global_id(0)] = (int)get_group_id(0); }

/* No attribute, a barrier: the compiler's default limit of 256. */
__kernel void with_barrier(__global int *p)
{
    __local int t[256];
    t[get_local_id(0) % 256] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    p[get_global_id(0)] = t[0];
}

/* 20000 floats (80,000 bytes) of local memory in a single work-item kernel. */
__attribute__((max_global_work_dim(0)))
__kernel void big_local(__global float *out)
{
    __local float buf[20000];
    for (int i = 0; i < 20000; i++)
        buf[i] = i;
    out[0] = buf[19999];
}
