/* Kernels that never end: the watchdog (FPGACL_KERNEL_TIMEOUT_S) must stop them. */
__kernel void spin(__global int *out, int start)
{
    /* Every step leaves x odd, so a start other than 0 never reaches 0 (an LCG step alone,
       with `x != -1`, reaches -1 after about 2^28 steps: seconds on the compiled backend). */
    int x = start;
    while (x != 0)
        x = (x * 1103515245 + 12345) | 1;
    out[0] = x;
}

__kernel void chatty(__global int *out)
{
    for (int i = 0; ; i++) {
        printf("tick %d\n", i);
        if (i < 0)
            break;
    }
    out[0] = 1;
}
