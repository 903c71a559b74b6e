/* 1 MiB of private memory per work-item, kept alive across a barrier: a work-group of 1024
 * work-items would need 1 GiB, over the emulator's limit (fpgacl aoc warns). */
__attribute__((max_work_group_size(1024)))
__kernel void big(__global int *out)
{
    int priv[1 << 18];
    int l = get_local_id(0);
    for (int i = 0; i < (1 << 18); i += 4096)
        priv[i] = l + i;
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 0; i < (1 << 18); i += 4096)
        s += priv[i];
    out[get_global_id(0)] = s;
}
