// Parameters of program_build.cl, reachable only through `-I <kernels>/program_build_inc`.
#ifndef PROGRAM_BUILD_PARAMS_H
#define PROGRAM_BUILD_PARAMS_H

#ifndef SCALE
#error "SCALE must be given with -D SCALE=<n>"
#endif

// Added after scaling (the host mirrors this value).
#define PARAM_OFFSET 7

#endif
