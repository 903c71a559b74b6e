/* unrolled_helper.cl: issue 17's FFT-style shift register. The helper's loop bound is a
 * parameter that is constant at the call (n = 64), so aoc unrolls it fully after inlining,
 * buf becomes 64 registers and the main loop launches one iteration per cycle (II 1). */
void shift(float *buf, int n) {
  #pragma unroll
  for (int i = 0; i < n - 1; i++) buf[i] = buf[i + 1];
}

__attribute__((task)) kernel void unrolled_helper(global float *restrict out, int count) {
  float buf[64];
  #pragma unroll
  for (int i = 0; i < 64; i++) buf[i] = 0.0f;
  for (int i = 0; i < count; i++) {
    shift(buf, 64);
    buf[63] = i;
    out[i] = buf[0];
  }
}
