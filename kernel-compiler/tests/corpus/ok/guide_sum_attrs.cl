// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 969-1071, the sum kernel with work-group, SIMD and compute-unit
// attributes (matrixMult's body is elided in the guide; completed as an 8x8 tile product).
__kernel void sum (__global const float * restrict a,
                   __global const float * restrict b,
                   __global float * restrict answer)
{
    size_t gid = get_global_id(0);
    answer[gid] = a[gid] + b[gid];
}

__attribute__((reqd_work_group_size(64,1,1)))
__kernel void sum_wg (__global const float * restrict a,
                      __global const float * restrict b,
                      __global float * restrict answer)
{
    size_t gid = get_global_id(0);
    answer[gid] = a[gid] + b[gid];
}

__attribute__((num_simd_work_items(4)))
__attribute__((reqd_work_group_size(64,1,1)))
__kernel void sum_simd (__global const float * restrict a,
                        __global const float * restrict b,
                        __global float * restrict answer)
{
    size_t gid = get_global_id(0);
    answer[gid] = a[gid] + b[gid];
}

__kernel void sum_manual (__global const float * restrict a,
                          __global const float * restrict b,
                          __global float * restrict answer)
{
    size_t gid = get_global_id(0);
    answer[gid * 4 + 0] = a[gid * 4 + 0] + b[gid * 4 + 0];
    answer[gid * 4 + 1] = a[gid * 4 + 1] + b[gid * 4 + 1];
    answer[gid * 4 + 2] = a[gid * 4 + 2] + b[gid * 4 + 2];
    answer[gid * 4 + 3] = a[gid * 4 + 3] + b[gid * 4 + 3];
}

// The guide separates the last two parameters with ';'; completed with ','.
__kernel void test (__global float * restrict a,
                    __global float * restrict b,
                    __global float * restrict answer,
                    __global int * restrict offsets)
{
    size_t gid = get_global_id(0);
    answer[gid*4 + 0] = a[gid*4 + 0 + offsets[gid]] + b[gid*4 + 0];
    answer[gid*4 + 1] = a[gid*4 + 1 + offsets[gid]] + b[gid*4 + 1];
    answer[gid*4 + 2] = a[gid*4 + 2 + offsets[gid]] + b[gid*4 + 2];
    answer[gid*4 + 3] = a[gid*4 + 3 + offsets[gid]] + b[gid*4 + 3];
}

__attribute__((num_compute_units(2)))
__kernel void sum_cu (__global const float * restrict a,
                      __global const float * restrict b,
                      __global float * restrict answer)
{
    size_t gid = get_global_id(0);
    answer[gid] = a[gid] + b[gid];
}

#define TILE 8
__attribute__((num_simd_work_items(4)))
__attribute__((num_compute_units(3)))
__attribute__((reqd_work_group_size(8,8,1)))
__kernel void matrixMult(__global float * restrict C,
                         __global float * restrict A,
                         __global float * restrict B,
                         int widthA, int widthB)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < widthA; t += TILE) {
        As[ty][tx] = A[row * widthA + t + tx];
        Bs[ty][tx] = B[(t + ty) * widthB + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * widthB + col] = acc;
}
