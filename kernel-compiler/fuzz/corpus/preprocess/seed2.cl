#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float c __attribute__((depth(8)));
#define f(a) a*g
#define g(a) f(a)
f(2)(9)
#ifdef __OPENCL_VERSION__
#pragma ivdep array(A) safelen(2+2)
#endif
__kernel void t() { float x = M_PI_F * INFINITY; write_channel_intel(c, x); }
