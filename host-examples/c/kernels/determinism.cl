// Issue 16's determinism design, Intel style: a producer feeds an autorun scaler through a
// channel and a consumer drains it through another; beside them a single work-item kernel
// with a loop-carried sum and an NDRange kernel. The test runs it several times under load
// and compares the profiles byte for byte.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int to_scaler __attribute__((depth(16)));
channel int from_scaler __attribute__((depth(16)));

__kernel void producer(__global const int *restrict src, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_intel(to_scaler, src[i]);
}

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__kernel void scaler(void)
{
    int v = read_channel_intel(to_scaler);
    write_channel_intel(from_scaler, 3 * v + 1);
}

__kernel void consumer(__global int *restrict dst, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = read_channel_intel(from_scaler);
}

// Single work-item: a running sum (loop-carried dependency through an add).
__kernel void prefix(__global const int *restrict in, __global int *restrict out, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += in[i];
        out[i] = acc;
    }
}

// NDRange: a*x + y.
__kernel void saxpy(__global const float *restrict x, __global float *restrict y, float a)
{
    int i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
