// Feature kernel: control flow (if/else, for, while, do/while, switch with fallthrough,
// break/continue, ternary, short-circuit), pointers and pointer arithmetic.
__kernel void control(__global int *restrict data, __global int *restrict out, int n) {
    int sum = 0;
    int i = 0;
    while (i < n) {
        if (data[i] < 0) {
            i++;
            continue;
        }
        if (data[i] > 1000)
            break;
        sum += data[i];
        i++;
    }
    int j = n;
    do {
        j--;
        sum ^= j;
    } while (j > 0 && sum != 42);
    for (int k = 0, m = 10; k < m; k++, m--) {
        switch (k % 4) {
        case 0:
            sum += 1;
        case 1:
            sum += 2;
            break;
        case 2: {
            int t = k * 2;
            sum -= t;
            break;
        }
        default:
            sum = sum > 100 ? sum - 100 : sum + 1;
        }
    }
    __global int *p = data + 2;
    __global int *q = &data[n - 1];
    long dist = q - p;
    p += 1;
    *p = (int)dist;
    p[1] = *(q - 1);
    int flag = (sum > 0 && data[0] != 0) || !sum;
    #pragma unroll 4
    for (unsigned u = 0; u < 16; u += 2)
        sum += u;
    #pragma ii 2
    #pragma max_concurrency 1
    for (int z = n; z >= 0; z -= 3)
        sum += z;
    #pragma loop_coalesce 2
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            sum += a * b;
    #pragma disable_loop_pipelining
    while (sum > 1 << 20)
        sum >>= 1;
    out[0] = sum + flag;
}
