// A compilation unit of the clLinkProgram checks with its own static adjust (see
// program_build_link_static_a.cl); it also calls add_bias from program_build_link_helper.cl.
#include "link/common.h"

static int adjust(int x)
{
    return x * 3;
}

__kernel void static_b(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = adjust(add_bias(in[i]));
}
