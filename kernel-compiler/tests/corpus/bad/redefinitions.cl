// Names declared twice where C forbids it (found by qa: both compiled silently).
int twice(int x, float x) { return 2; }

__kernel void dup_param(__global int *a, __global int *a) { a[0] = 1; }

__kernel void dup_local(__global int *d, int n)
{
    int b = 1;
    { int b = 2; d[1] = b; }
    int b = 3;
    d[0] = b + twice(n, 1.0f);
}
