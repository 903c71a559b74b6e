#include "does_not_exist.h"
__kernel void k(__global int *a) { a[0] = 1; }
