// Built by program_build.c (and `fpgacl aoc`) with `-D SCALE=<n> -I <kernels>/program_build_inc`.
// params.h exists only in that include folder, and SCALE comes only from -D, so a build
// without either fails (the host checks both build logs).
#include "params.h"

// out[i] = in[i] * SCALE + PARAM_OFFSET, one work-item per element.
__kernel void scale_offset(__global const int *restrict in,
                           __global int *restrict out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * SCALE + PARAM_OFFSET;
}

// Not launched: its arguments cover every address space and type qualifier for
// clGetKernelArgInfo (built with -cl-kernel-arg-info).
__kernel void arg_info(__global const float *restrict src,
                       __global volatile int *dst,
                       __local float4 *tile,
                       __constant const short *lut,
                       uint count)
{
    size_t i = get_global_id(0);
    size_t l = get_local_id(0);
    tile[l] = (float4)(src[i % count]);
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[i] = (int)tile[l].x + lut[i % 4];
}
