// Intel FPGA devices have no image support: image and sampler types and the image functions
// are rejected.
__constant sampler_t smp = 0;

__kernel void k(read_only image2d_t im, __global float4 *out, sampler_t s)
{
    out[0] = read_imagef(im, s, (int2)(0, 0));
}

__kernel void w(__global float4 *out)
{
    write_imagef(0, (int2)(0, 0), out[0]);
}
