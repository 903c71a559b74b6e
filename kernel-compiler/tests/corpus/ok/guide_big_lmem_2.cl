// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 130, local memory with 4 reads and 4 writes.
kernel void big_lmem_4r_4w_nosplit (global int* restrict in, global int* restrict out) {
    local int lmem[1024][4];
    int gi = get_global_id(0);
    int gs = get_global_size(0);
    int li = get_local_id(0);
    int ls = get_local_size(0);
    int res = in[gi];
    #pragma unroll
    for (int i = 0; i < 4; i++) {
        lmem[(li*i) % ls][i] = res;
        res >>= 1;
    }
    // Global memory barrier
    barrier(CLK_GLOBAL_MEM_FENCE);
    res = 0;
    #pragma unroll
    for (int i = 0; i < 4; i++) {
        res ^= lmem[((ls-li)*i) % ls][i];
    }
    out[gi] = res;
}
