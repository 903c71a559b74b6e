// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 117/146/152, ND-Range kernel with unrolled loops.
__attribute((reqd_work_group_size(1024,1,1)))
kernel void t (global int * out, int N) {
    int i = get_global_id(0);
    int j = 1;
    for (int k = 0; k < 4; k++) {
        #pragma unroll
        for (int n = 0; n < 4; n++) {
            j += out[k+n];
        }
    }
    out[i] = j;

    int m = 0;
    #pragma unroll 1
    for (int k = 0; k < N; k++) {
        m += out[k/3];
    }
    #pragma unroll
    for (int k = 0; k < 6; k++) {
        m += out[k];
    }
    #pragma unroll 2
    for (int k = 0; k < 6; k++) {
        m += out[k];
    }
    out[2] = m;
}
