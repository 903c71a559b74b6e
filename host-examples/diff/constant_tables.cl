// Program-scope __constant tables (scalar, vector, struct), a __constant kernel
// argument, and constant indexing by data.
#pragma OPENCL FP_CONTRACT OFF
typedef struct {
    int mul;
    int add;
} Coef;

__constant int primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant float4 weights[2] = {(float4)(0.5f, 0.25f, 0.125f, 0.0625f),
                                (float4)(1.0f, -1.0f, 2.0f, -2.0f)};
__constant Coef coefs[3] = {{3, 1}, {5, -7}, {-2, 100}};
__constant char greeting[] = "fpgacl";

__kernel void constant_tables(__global const int *a, __constant int *ctab,
                              __global int *o, __global float *of)
{
    size_t i = get_global_id(0);
    int v = a[i];
    Coef c = coefs[i % 3];
    o[3 * i] = primes[v & 15] * c.mul + c.add;
    o[3 * i + 1] = ctab[(v >> 4) & 63] + greeting[i % 6];
    o[3 * i + 2] = (int)sizeof(greeting) + primes[15 - (i & 15)];
    float4 x = convert_float4((int4)(v, v >> 8, v >> 16, v >> 24));
    of[i] = dot(x * weights[i & 1], (float4)(1.0f)) ;
}
