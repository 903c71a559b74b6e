// printf from a single work-item kernel (a task): integer, float, string, char,
// width/precision/flags, %%, long, vector formats.
__kernel void printf_task(__global const int *a, __global const float *x, int n)
{
    printf("start n=%d\n", n);
    for (int k = 0; k < n; k++) {
        int v = a[k];
        float f = x[k];
        printf("%d: %i %u %x %X %o|%5d|%-5d|%05d|%+d\n", k, v, (uint)v, v, v, v & 0777, v % 1000,
               v % 1000, v % 1000, v % 1000);
        printf("  f=%f e=%e g=%g %.3f %10.2f %-10.1e| %a\n", f, f, f, f, f, f, f);
        if (k % 4 == 0)
            printf("  %c%c %s %ld %lu %%\n", 'A' + (k % 26), 'z', "text", (long)v * 100000L,
                   (ulong)(uint)v);
    }
    int4 v4 = vload4(0, a);
    float2 f2 = vload2(0, x);
    printf("vec %v4hld %v4hx %v2hlf\n", v4, convert_short4(v4), f2);
    printf("end\n");
}
