// Image kernels in the style of Intel's course exercise: a kernel reads an image2d_t through
// a sampler_t and writes a buffer or another image.

const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// 3x3 box blur of the red channel (CL_R / CL_UNORM_INT8 source) into a float buffer.
__kernel void blur(__read_only image2d_t src, __global float *dst)
{
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_image_width(src);
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += read_imagef(src, edge, (int2)(x + dx, y + dy)).x;
    dst[y * w + x] = sum / 9.0f;
}

// Copies an image through a sampler given by the host, shifted by (sx, sy).
__kernel void copy_shift(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
                         int sx, int sy)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, s, p + (int2)(sx, sy)));
}

// Writes one float4 per pixel of a 1-row image of any float-read format (conversion table).
__kernel void write_f(write_only image2d_t img, __global const float4 *v)
{
    int x = get_global_id(0);
    write_imagef(img, (int2)(x, 0), v[x]);
}

// Reads back as float.
__kernel void read_f(read_only image2d_t img, __global float4 *out)
{
    int x = get_global_id(0);
    out[x] = read_imagef(img, (int2)(x, 0));
}

__kernel void write_i(write_only image2d_t img, __global const int4 *v)
{
    int x = get_global_id(0);
    write_imagei(img, (int2)(x, 0), v[x]);
}

__kernel void write_ui(write_only image2d_t img, __global const uint4 *v)
{
    int x = get_global_id(0);
    write_imageui(img, (int2)(x, 0), v[x]);
}

// Samples at given coordinates with a sampler argument (normalized / linear tests).
__kernel void sample(read_only image2d_t img, sampler_t s, __global const float2 *at,
                     __global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, at[i]);
}

// Image queries into a buffer.
__kernel void query(read_only image3d_t v, __global int *out)
{
    int4 d = get_image_dim(v);
    out[0] = get_image_width(v);
    out[1] = get_image_height(v);
    out[2] = get_image_depth(v);
    out[3] = d.x + d.y + d.z;
    out[4] = get_image_channel_order(v) == CLK_RGBA;
    out[5] = get_image_channel_data_type(v) == CLK_FLOAT;
    out[6] = (int)read_imagef(v, edge, (int4)(1, 2, 3, 0)).y;
}
