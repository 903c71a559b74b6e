// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 908-918, ivdep pragmas (the surrounding kernels are elided; completed).
struct with_array { int A[64]; };

__kernel void ivdep_all (__global int * restrict A, __global int * restrict B,
                         __global const int * restrict X, __global const int * restrict Y, int N)
{
    // no loop-carried dependencies for A and B array accesses
    #pragma ivdep
    for (int i = 0; i < N; i++) {
        A[i] = A[i - X[i]];
        B[i] = B[i - Y[i]];
    }
}

__kernel void ivdep_array (__global int * restrict A, __global int * restrict B,
                           __global const int * restrict X, __global const int * restrict Y, int N)
{
    struct with_array S;
    for (int i = 0; i < 64; i++)
        S.A[i] = i;
    // No loop-carried dependencies for A array accesses
    // The offline compiler will insert hardware that reinforces dependency constraints for B
    #pragma ivdep array(A)
    for (int i = 0; i < N; i++) {
        A[i] = A[i - X[i]];
        B[i] = B[i - Y[i]];
    }
    // No loop-carried dependencies for array A inside struct
    #pragma ivdep array(S.A)
    for (int i = 0; i < 64; i++) {
        S.A[i] = S.A[i - X[i] & 63];
    }
    #pragma ivdep safelen(8)
    for (int i = 0; i < N; i++) {
        B[i] = S.A[i & 63];
    }
}
