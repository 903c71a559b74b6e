// Source: 003_eba5b79787f9dfdf.txt (Best Practices Guide Pro: local memory) lines 25-160.
#define BANK_SIZE 4

__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void bank_arb_consecutive_multidim (global int* restrict in,
                                           global int* restrict out) {
  local int lmem[1024][BANK_SIZE];
  int gi = get_global_id(0);
  int gs = get_global_size(0);
  int li = get_local_id(0);
  int ls = get_local_size(0);
  int res = in[gi];
  #pragma unroll
  for (int i = 0; i < BANK_SIZE; i++) {
    lmem[((li+i) & 0x7f)][i] = res + i;
    res = res >> 1;
  }
  int rdata = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  #pragma unroll
  for (int i = 0; i < BANK_SIZE; i++) {
    rdata ^= lmem[((li+i) & 0x7f)][i];
  }
  out[gi] = rdata;
  return;
}

kernel void bank_arb_consecutive_multidim_origin (global int* restrict in,
                                                  global int* restrict out) {
  local int a[BANK_SIZE][128] __attribute__((bank_bits(8,7),bankwidth(4)));
  int gi = get_global_id(0);
  int li = get_local_id(0);
  int res = in[gi];
  #pragma unroll
  for (int i = 0; i < BANK_SIZE; i++) {
    a[i][((li+i) & 0x7f)] = res + i;
    res = res >> 1;
  }
  int rdata = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  #pragma unroll
  for (int i = 0; i < BANK_SIZE; i++) {
    rdata ^= a[i][((li+i) & 0x7f)];
  }
  out[gi] = rdata;
  return;
}

kernel void bank_bits_low (global int* restrict in, global int* restrict out) {
  local int a[4][128] __attribute__((bank_bits(4,3),bankwidth(4)));
  int li = get_local_id(0);
  a[li & 3][li & 127] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[(li + 1) & 3][li & 127];
}

kernel void three_ports (global int* restrict in,
                         global int* restrict out) {
  local int a[BANK_SIZE][128] __attribute__((doublepump, max_replicates(3), private_copies(2)));
  int gi = get_global_id(0);
  int li = get_local_id(0);
  int res = in[gi];
  #pragma unroll 1
  for (int i = 0; i < BANK_SIZE; i++) {
    a[i][li+i] = res + i;
    a[gi][li+i] = res + i;
    a[gi+i][li] = res + i;
    res = res >> 1;
  }
  int rdata = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  #pragma unroll 1
  for (int i = 0; i < BANK_SIZE; i++) {
    rdata ^= a[i][li+i];
    rdata += a[gi+i][li+i];
    rdata += a[gi][li];
  }
  out[gi] = rdata;
}

kernel void memory_attrs (global int* restrict in, global int* restrict out) {
  local int banked[256] __attribute__((numbanks(4), bankwidth(8), singlepump));
  local int plain[64] __attribute__((memory("BLOCK_RAM")));
  int regs[8] __attribute__((register));
  int li = get_local_id(0);
  banked[li] = in[get_global_id(0)];
  plain[li & 63] = li;
  for (int i = 0; i < 8; i++)
    regs[i] = i * li;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = banked[255 - li] + plain[(li + 1) & 63] + regs[li & 7];
}
