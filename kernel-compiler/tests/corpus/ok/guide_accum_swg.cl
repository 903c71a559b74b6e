// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 32, single work-item accumulate.
kernel void accum_swg (global int* a, global int* c, int size, int k_size) {
    int sum[1024];
    for (int k = 0; k < k_size; ++k) {
        for (int i = 0; i < size; ++i) {
            int j = k * size + i;
            sum[k] += a[j];
        }
    }
    for (int k = 0; k < k_size; ++k) {
        c[k] = sum[k];
    }
}
