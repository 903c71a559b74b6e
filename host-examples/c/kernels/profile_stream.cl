// Clamp negative values to zero and scale: one load, a predicated branch and one store per
// work-item. Launched many times by profile_stream.c to fill a profile with kernel runs.
__kernel void scale(__global const float *restrict a, __global float *restrict b, float k)
{
    int i = get_global_id(0);
    float v = a[i];
    if (v < 0.0f)
        v = 0.0f;
    b[i] = v * k;
}
