// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 47, the same accumulate as an NDRange kernel.
kernel void accum_ndr (global int* a, global int* c, int size) {
    int k = get_global_id(0);
    int sum[1024];
    for (int i = 0; i < size; ++i) {
        int j = k * size + i;
        sum[k] += a[j];
    }
    c[k] = sum[k];
}
