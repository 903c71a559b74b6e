// api_errors.cl: kernels for api_errors.c (argument kinds, integer division traps,
// a large private array, a trivial NDRange kernel).
__kernel void args(__global int *restrict d, __local int *scratch, int k, float4 v)
{
    int l = get_local_id(0);
    scratch[l] = k + (int)v.x;
    barrier(CLK_LOCAL_MEM_FENCE);
    d[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)];
}
__kernel void divide(__global int *restrict d, int a, int b)
{
    d[0] = a / b;
    d[1] = a % b;
}
__kernel void nothing(__global int *restrict d) { if (get_global_id(0) == 0xFFFFFFFFu) d[0] = 1; }
__kernel void bigpriv(__global int *restrict d, int n)
{
    int big[1 << 20];
    for (int i = 0; i < n; i++) big[i] = i;
    int s = 0;
    for (int i = 0; i < n; i++) s += big[(i * 7) % n];
    d[0] = s;
}
