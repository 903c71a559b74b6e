kernel void burst_coalesced (global int * restrict in, global int * restrict out) {
  int i = get_global_id(0);
  int value = in[i/2]; // Burst-coalesced LSU
  out[i] = value;
}

kernel void prefetching (global int * restrict in, global int * restrict out, int N) {
  int res = 1;
  for (int i = 0; i < N; i++) {
    int v = in[i]; // Prefetching LSU
    res ^= v;
  }
  out[0] = res;
}

kernel void streaming (global int * restrict in, global int * restrict out) {
  int i = get_global_id(0);
  int idx = out[i]; // Streaming LSU
  int cached_value = in[idx];
  out[i] = cached_value; // Streaming LSU
}

#define N 16
kernel void semi_streaming (global int * restrict in, global int * restrict out) {
  #pragma unroll 1
  for (int i = 0; i < N; i++) {
    int value = in[i]; // Semi-streaming LSU
    out[i] = value;
  }
}
#undef N

__attribute((reqd_work_group_size(1024,1,1)))
kernel void local_pipelined (global int* restrict in, global int* restrict out) {
  local int lmem[1024];
  int gi = get_global_id(0);
  int li = get_local_id(0);
  int res = in[gi];
  for (int i = 0; i < 4; i++) {
    lmem[li - i] = res; // Local-pipelined LSU
    res >>= 1;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  res = 0;
  for (int i = 0; i < 4; i++) {
    res ^= lmem[li - i]; // Local-pipelined LSU
  }
  out[gi] = res;
}

kernel void global_infrequent (global int * restrict in, global int * restrict out, int N) {
  int a = 0;
  if (get_global_id(0) == 0)
    a = in[0]; // Global Infrequent LSU
  for (int i = 0; i < N; i++) {
    out[i] = in[i] + a;
  }
}

kernel void constant_pipelined (constant int *src, global int *dst) {
  int i = get_global_id(0);
  dst[i] = src[i]; // Constant pipelined LSU
}

kernel void atomic_pipelined (global int* restrict out) {
  atomic_add(&out[0], 1); // Atomic LSU
}

kernel void cached (global int * restrict in, global int * restrict out) {
  int i = get_global_id(0);
  int idx = out[i];
  int cached_value = in[idx]; // Burst-coalesced cached LSU
  out[i] = cached_value;
}

kernel void write_ack (global int * restrict in, global int * restrict out, int N) {
  for (int i = 0; i < N; i++) {
    if (i < 2)
      out[i] = 0; // Burst-coalesced write-ack LSU
    out[i] = in[i];
  }
}

kernel void non_aligned (global int * restrict in, global int * restrict out) {
  int i = get_global_id(0);
  // three loads are statically coalesced into one, creating a Burst-coalesced non-aligned LSU
  int a1 = in[3*i+0];
  int a2 = in[3*i+1];
  int a3 = in[3*i+2];
  // three stores statically coalesced into one
  out[3*i+0] = a3;
  out[3*i+1] = a2;
  out[3*i+2] = a1;
}

__attribute((reqd_work_group_size(1024,1,1)))
kernel void never_stall (global int* restrict in, global int* restrict out, int N) {
  local int lmem[1024];
  int gi = get_global_id(0);
  int li = get_local_id(0);
  lmem[li] = in[gi]; // Local-pipelined never-stall LSU
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[gi] = lmem[li] ^ lmem[li + 1];
}
