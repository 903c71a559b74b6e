// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) line 613, updating all lanes of a float4. `process` is elided in the guide
// (completed as a helper) and `out` is written, so it cannot be `const`.
float process(float x) {
    return x * 2.0f + 1.0f;
}

__kernel void update (__global const float4 * restrict in, __global float4 * restrict out) {
    size_t gid = get_global_id(0);
    out[gid].x = process(in[gid].x);
    out[gid].y = process(in[gid].y);
    out[gid].z = process(in[gid].z);
    out[gid].w = 0; //Update w even if that variable is not required.
}
