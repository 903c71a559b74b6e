/* Kernels that never end: the watchdog (FPGACL_KERNEL_TIMEOUT_S) must stop them. */
__kernel void spin(__global int *out, int start)
{
    int x = start;
    while (x != -1)
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
