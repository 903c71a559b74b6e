// Relational functions: scalar forms return 0/1, vector forms 0/-1; with NaN and inf inputs.
__kernel void relational(__global const float *x, __global const float *y, __global int *o,
                         __global int *v)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    o[12 * i + 0] = isequal(a, b);
    o[12 * i + 1] = isnotequal(a, b);
    o[12 * i + 2] = isgreater(a, b);
    o[12 * i + 3] = isgreaterequal(a, b);
    o[12 * i + 4] = isless(a, b);
    o[12 * i + 5] = islessequal(a, b) | (islessgreater(a, b) << 1);
    o[12 * i + 6] = isfinite(a) | (isinf(a) << 1) | (isnan(a) << 2) | (isnormal(a) << 3);
    o[12 * i + 7] = isordered(a, b) | (isunordered(a, b) << 1);
    o[12 * i + 8] = signbit(a);
    o[12 * i + 9] = (a < b) + 2 * (a == b) + 4 * (a != b) + 8 * (a >= b);
    o[12 * i + 10] = !a;
    o[12 * i + 11] = (a != 0.0f) ? 3 : 4;
    if (i % 4 == 0) {
        float4 p = vload4(i / 4, x), q = vload4(i / 4, y);
        int4 r = isgreater(p, q) + 2 * isnan(p) + 4 * signbit(q) + 8 * isequal(p, q);
        vstore4(r, i / 4, v);
        int4 c = (p < q) + (p == q) * 3;
        vstore4(c, i / 4 + get_global_size(0) / 4, v);
    }
}
