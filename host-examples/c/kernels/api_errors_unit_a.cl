// api_errors_unit_a.cl: the kernel unit of api_errors.c's clCompileProgram/clLinkProgram;
// helper_scale/helper_count come from unit b, SCALE/COUNT from the embedded header.
#include "api_errors_shared.h"
float helper_scale(float x);
int helper_count(void);
__kernel void apply(__global float *restrict d, int n)
{
    for (int i = 0; i < n; i++)
        d[i] = helper_scale(d[i]) + (float)helper_count();
}
