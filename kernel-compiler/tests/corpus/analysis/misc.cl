kernel void simple_loop (unsigned N, global unsigned* restrict b, global unsigned* restrict c, global unsigned* restrict out) {
  for (unsigned i = 1; i < N; i++) {
    c[i] = c[i-1] + b[i];
  }
  out[0] = c[N-1];
}

kernel void mirror_content( unsigned max_i,
                            global int* restrict out)
{
  for (int i = 1; i < max_i; i++) {
    out[max_i*2-i] = out[i];
  }
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

// ND-Range kernel with unrolled loops
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

kernel void unknown_bounds (global float * restrict a, int n) {
  float s = 0.0f;
  #pragma unroll
  for (int i = 0; i < n; i++) {
    s += a[i];
  }
  a[0] = s;
}

kernel void hist (global const int * restrict x, global int * restrict h, int n) {
  for (int i = 0; i < n; i++) {
    h[x[i]] += 1;
  }
}

kernel void hist_ivdep (global const int * restrict x, global int * restrict h, int n) {
  #pragma ivdep
  for (int i = 0; i < n; i++) {
    h[x[i]] += 1;
  }
}
