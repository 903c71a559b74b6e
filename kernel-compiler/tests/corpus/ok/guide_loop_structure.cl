// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 374-409, loop structure examples.
__kernel void structure (__global unsigned* restrict output1,
                         __global unsigned* restrict output2,
                         int N) {
    for (unsigned i = 0; i < N; i++) {
        if ((i & 3) == 0) {
            for (unsigned j = 0; j < N; j++) {
                output1[i+j] = i * j;
            }
        } else {
            for (unsigned j = 0; j < N; j++) {
                output2[i+j] = i * j;
            }
        }
    }
}

// The guide's listing lacks the comma before `int N`; completed here.
__kernel void order( __global unsigned* restrict input,
                     __global unsigned* restrict output,
                     int N ) {
    unsigned sum = 0;
    for (unsigned i = 0; i < N; i++) {
        for (unsigned j = 0; j < i; j++) {
            sum += input[i+j];
        }
    }
    output[0] = sum;
}

kernel void serially_execute (global int * restrict A,
                              global int * restrict B,
                              global int * restrict result,
                              unsigned N) {
    int sum = 0;
    for (unsigned i = 0; i < N; i++) {
        int res;
        for (int j = 0; j < N; j++) {
            sum += A[i*N+j];
        }
        sum += B[i];
    }
    *result = sum;
}

kernel void simple_loop (unsigned N,
                         global unsigned* restrict b,
                         global unsigned* restrict c,
                         global unsigned* restrict out) {
    for (unsigned i = 1; i < N; i++) {
        c[i] = c[i-1] + b[i];
    }
    out[0] = c[N-1];
}

kernel void nd (global int *dst, int N) {
    int res = N;
    #pragma unroll 9
    for (int i = 0; i < N; i++) {
        res += 1;
        res ^= i;
    }
    dst[0] = res;
}

// An example that shows data dependency
// choose(n, k) = n! / (k! * (n-k)!)
kernel void choose( unsigned n, unsigned k,
                    global unsigned* restrict result ) {
    unsigned product = 1;
    unsigned j = 1;

    for( unsigned i = k; i <= n; i++ ) {
        product *= i;
        if( j <= n-k ) {
            product /= j;
        }
        j++;
    }

    *result = product;
}

kernel void mirror_content( unsigned max_i,
                            global int* restrict out) {
    for (int i = 1; i < max_i; i++) {
        out[max_i*2-i] = out[i];
    }
}
