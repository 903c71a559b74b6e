__kernel void k(__global int *a) {
    int i = 0;
again:
    i++;
    if (i < 10)
        goto again;
    a[0] = i;
}
