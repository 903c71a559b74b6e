// Common functions: clamp, degrees, radians, mix, step, smoothstep, sign, min, max.
#pragma OPENCL FP_CONTRACT OFF
__kernel void common_fns(__global const float *x, __global const float *y, __global float *cl,
                         __global float *dg, __global float *rd, __global float *mx,
                         __global float *st, __global float *ss, __global float *sg,
                         __global float *mm, __global float *v4)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    cl[i] = clamp(a, -2.5f, 7.25f);
    dg[i] = degrees(a);
    rd[i] = radians(b);
    mx[i] = mix(a, b, 0.3f);
    st[i] = step(b, a);
    ss[i] = smoothstep(-5.0f, 5.0f, a);
    sg[i] = sign(a);
    mm[2 * i] = min(a, b);
    mm[2 * i + 1] = max(a, b);
    if (i < get_global_size(0) / 4) {
        float4 p = vload4(i, x), q = vload4(i, y);
        vstore4(clamp(p, q, q + 10.0f) + step(0.5f, p), i, v4);
    }
}
