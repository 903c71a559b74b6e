// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 214-235, matrix square and its four optimisation steps.
// performs matrix square A*A
// A is a square len*len matrix
kernel void matrix_square (global float* restrict A, unsigned len, global float* restrict out) {
    for (unsigned oi = 0; oi < len*len; oi++) {
        float sum = 0;
        int row = oi % len;
        for (int col = 0; col < len; col++) {
            unsigned i = (row * len) + col; // 0, 1, 2, 3, 4,...
            unsigned j = (col * len) + row; // 0, 3, 6, 9, 1,...
            sum += A[i] * A[j];
        }
        out[oi] = sum;
    }
}

kernel void matrix_square_v1 (global float* restrict A, unsigned len, global float* restrict out) {
    // 1. preload the data into local memory
    //  - suppose we know the max size is 4X4
    local int cache_a[16];
    for (unsigned k = 0; k < len*len; k++) {
        cache_a[k] = A[k];
    }
    for (unsigned oi = 0; oi < len*len; oi++) {
        float sum = 0;
        int row = oi % len;
        for (int col = 0; col < len; col++) {
            unsigned i = (row * len) + col; // 0, 1, 2, 3, 4,...
            unsigned j = (col * len) + row; // 0, 3, 6, 9, 1,...
            sum += cache_a[i] * cache_a[j];
        }
        out[oi] = sum;
    }
}

kernel void matrix_square_v2 (global float* restrict A, unsigned len, global float* restrict out) {
    // 1. preload the data into local memory
    // 2. remove the modulus computation
    local int cache_a[16];
    for (unsigned k = 0; k < len*len; k++) {
        cache_a[k] = A[k];
    }
    unsigned row = 0;
    unsigned ci = 0;
    for (unsigned oi = 0; oi < len*len; oi++) {
        float sum = 0;
        // keep a column counter to know when to increment row
        if (ci == len) {
            ci = 0;
            row += 1;
        }
        ci += 1;
        for (int col = 0; col < len; col++) {
            unsigned i = (row * len) + col; // 0, 1, 2, 3, 4,...
            unsigned j = (col * len) + row; // 0, 3, 6, 9, 1,...
            sum += cache_a[i] * cache_a[j];
        }
        out[oi] = sum;
    }
}

kernel void matrix_square_v3 (global float* restrict A, unsigned len, global float* restrict out) {
    // 3. remove DSP and RAM blocks for index calculation helps reduce the latency
    local int cache_a[16];
    for (unsigned k = 0; k < len*len; k++) {
        cache_a[k] = A[k];
    }
    unsigned row_i = 0;
    unsigned row_j = 0;
    unsigned ci = 0;
    for (unsigned oi = 0; oi < len*len; oi++) {
        float sum = 0;
        unsigned i, j;
        // keep a column counter to know when to increment row
        if (ci == len) {
            ci = 0;
            row_i += len;
            row_j += 1;
        }
        ci += 1;
        i = row_i; // initialize i and j
        j = row_j;
        for (int col = 0; col < len; col++) {
            i += 1;   // 0, 1, 2, 3, 0,...
            j += len; // 0, 3, 6, 9, 1,...
            sum += cache_a[i] * cache_a[j];
        }
        out[oi] = sum;
    }
}

kernel void matrix_square_v4 (global float* restrict A, unsigned len, global float* restrict out) {
    // 4. remove loop-carried dependency 'sum' to improve throughput by trading off area
    local int cache_a[16];
    for (unsigned k = 0; k < len*len; k++) {
        cache_a[k] = A[k];
    }
    unsigned row_i = 0;
    unsigned row_j = 0;
    unsigned ci = 0;
    for (unsigned oi = 0; oi < len*len; oi++) {
        float sum = 0;
        unsigned i, j;
        float prod[4]; // make register
        #pragma unroll
        for (unsigned k = 0; k < 4; k++) {
            prod[k] = 0;
        }
        // keep a column counter to know when to increment row
        if (ci == len) {
            ci = 0;
            row_i += len;
            row_j += 1;
        }
        ci += 1;
        i = row_i; // initialize i and j
        j = row_j;
        for (int col = 0; col < len; col++) {
            i += 1;   // 0, 1, 2, 3, 0,...
            j += len; // 0, 3, 6, 9, 1,...
            prod[col] = cache_a[i] * cache_a[j];
        }
        sum = prod[0];
        #pragma unroll
        for (unsigned k = 1; k < 4; k++) {
            sum += prod[k];
        }
        out[oi] = sum;
    }
}
