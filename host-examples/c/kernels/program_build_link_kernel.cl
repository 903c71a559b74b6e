// A compilation unit of the clCompileProgram/clLinkProgram check: calls add_bias, which is
// only declared here (in the embedded header) and defined in program_build_link_helper.cl.
#include "link/common.h"

__kernel void linked(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = add_bias(in[i]);
}
