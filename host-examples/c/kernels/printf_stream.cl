/* printf inside endless loops: the output must stream out line by line while the kernel runs
 * (the watchdog, FPGACL_KERNEL_TIMEOUT_S, stops them). */
__kernel void paced(__global int *out)
{
    for (int i = 0; ; i++) {
        printf("tick %d\n", i);
        int x = i;
        for (int j = 0; j < 3000; j++)
            x = x * 1103515245 + 12345;
        out[0] = x;
    }
}

__kernel void flood(__global int *out)
{
    for (int i = 0; ; i++) {
        printf("flood %d of an endless loop that prints as fast as it can\n", i);
        if (i < 0)
            break;
    }
    out[0] = 1;
}
