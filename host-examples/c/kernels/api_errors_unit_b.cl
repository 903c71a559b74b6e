// api_errors_unit_b.cl: the helper unit of api_errors.c (a __constant table, two functions).
#include "api_errors_shared.h"
__constant float table[4] = {1.0f, 2.0f, 4.0f, 8.0f};
float helper_scale(float x) { return x * SCALE * table[3]; }
int helper_count(void) { return COUNT; }
