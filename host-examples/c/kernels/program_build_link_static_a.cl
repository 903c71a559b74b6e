// A compilation unit of the clLinkProgram checks with a static helper named adjust;
// program_build_link_static_b.cl has its own static adjust (a different function): static
// functions are unit-local, so linking both is fine and each kernel calls its own.
static int adjust(int x)
{
    return x + 1;
}

__kernel void static_a(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = adjust(in[i]);
}
