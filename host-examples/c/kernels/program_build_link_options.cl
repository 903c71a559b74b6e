// A compilation unit of the clCompileProgram/clLinkProgram check whose LINK_FACTOR comes only
// from its own clCompileProgram options (-D LINK_FACTOR=2); it must still hold after linking
// with program_build_link_helper.cl (compiled without options).
#include "link/common.h"

#ifndef LINK_FACTOR
#error "LINK_FACTOR must be given to clCompileProgram with -D"
#endif

__kernel void scaled(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = (in[i] + LINK_BIAS) * LINK_FACTOR;
}
