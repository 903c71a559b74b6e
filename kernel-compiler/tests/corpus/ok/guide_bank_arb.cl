// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 338/340, local memory banking (BANK_SIZE elided in the first listing).
#define BANK_SIZE 4
kernel void bank_arb_consecutive_multidim (global int* restrict in, global int* restrict out) {
    local int lmem[1024][BANK_SIZE];
    int gi = get_global_id(0);
    int gs = get_global_size(0);
    int li = get_local_id(0);
    int ls = get_local_size(0);
    int res = in[gi];
    #pragma unroll
    for (int i = 0; i < BANK_SIZE; i++) {
        lmem[((li+i) & 0x7f)][i] = res + i;
        res >> 1;
    }
    int rdata = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    #pragma unroll
    for (int i = 0; i < BANK_SIZE; i++) {
        rdata ^= lmem[((li+i) & 0x7f)][i];
    }
    out[gi] = rdata;
    return;
}

kernel void bank_arb_consecutive_multidim_origin (global int* restrict in, global int* restrict out) {
    local int a[BANK_SIZE][128] __attribute__((bank_bits(8,7),bankwidth(4)));
    int gi = get_global_id(0);
    int li = get_local_id(0);
    int res = in[gi];
    #pragma unroll
    for (int i = 0; i < BANK_SIZE; i++) {
        a[i][((li+i) & 0x7f)] = res + i;
        res >> 1;
    }
    int rdata = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    #pragma unroll
    for (int i = 0; i < BANK_SIZE; i++) {
        rdata ^= a[i][((li+i) & 0x7f)];
    }
    out[gi] = rdata;
    return;
}
