// A compilation unit of the clCompileProgram/clLinkProgram check: defines add_bias (compiled
// without options; linked with program_build_link_kernel.cl and program_build_link_options.cl).
#include "link/common.h"

int add_bias(int x)
{
    return x + LINK_BIAS;
}
