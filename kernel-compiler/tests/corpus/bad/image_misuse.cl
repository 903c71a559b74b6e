// Images are checked like the OpenCL C 1.2 image functions: the image's access qualifier,
// coordinate types, sampler arguments and half-precision reads.
__constant sampler_t smp = 0;
__constant sampler_t bad = 1000;

__kernel void k(read_only image2d_t im, __global float4 *out, sampler_t s)
{
    out[0] = read_imagef(im, (float2)(0.5f, 0.5f));
    write_imagef(im, (int2)(0, 0), out[0]);
    out[1] = read_imagef(im, 3, (int2)(0, 0));
    out[2] = read_imagef(im, s, (int4)(0, 0, 0, 0));
    out[3] = read_imageh(im, s, (int2)(0, 0));
}

__kernel void w(__global float4 *out, write_only image3d_t v)
{
    write_imagef(0, (int2)(0, 0), out[0]);
    out[0] = read_imagef(v, smp, (int4)(0, 0, 0, 0));
    write_imagei(v, (int4)(0, 0, 0, 0), out[0]);
}

__kernel void rw(read_write image2d_t im) { }
