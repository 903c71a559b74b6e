// STREAM (McCalpin) operations as streaming single work-item loops over float16 words: one
// 64-byte word per array per iteration, II 1. Written for fpgacl's calibration suite
// (device-model/fidelity/README.md); the measured kernels are HPCC FPGA's STREAM kernels.
__kernel void stream_copy(__global const float16 *restrict a, __global float16 *restrict c,
                          uint n)
{
    for (uint i = 0; i < n; i++)
        c[i] = a[i];
}

__kernel void stream_scale(__global const float16 *restrict c, __global float16 *restrict b,
                           float q, uint n)
{
    for (uint i = 0; i < n; i++)
        b[i] = q * c[i];
}

__kernel void stream_add(__global const float16 *restrict a, __global const float16 *restrict b,
                         __global float16 *restrict c, uint n)
{
    for (uint i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

__kernel void stream_triad(__global const float16 *restrict b,
                           __global const float16 *restrict c, __global float16 *restrict a,
                           float q, uint n)
{
    for (uint i = 0; i < n; i++)
        a[i] = b[i] + q * c[i];
}
