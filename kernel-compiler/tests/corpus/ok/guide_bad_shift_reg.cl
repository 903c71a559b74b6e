// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 1179, a shift register that bloats area.
#define SHIFT_REG_LEN 1024
__kernel void bad_shift_reg (__global int * restrict src,
                             __global int * restrict dst,
                             int K)
{
    float shift_reg[SHIFT_REG_LEN];
    int sum = 0;
    for (unsigned i = 0; i < K; i++) {
        sum += shift_reg[0];
        shift_reg[SHIFT_REG_LEN-1] = src[i];

        // This condition will cause sever area bloat.
        if (K > 5) {
            #pragma unroll
            for (int m = 0; m < SHIFT_REG_LEN-1 ; m++) {
                shift_reg[m] = shift_reg[m + 1];
            }
        }
        dst[i] = sum;
    }
}
