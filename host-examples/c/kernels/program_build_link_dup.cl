// A compilation unit of the clLinkProgram checks that defines add_bias a second time (it is
// also defined in program_build_link_helper.cl): linking both fails with a duplicate symbol.
#include "link/common.h"

int add_bias(int x)
{
    return x - LINK_BIAS;
}
