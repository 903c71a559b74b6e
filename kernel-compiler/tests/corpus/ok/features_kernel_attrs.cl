// Feature kernel: kernel attributes kept in the IR.
__attribute__((reqd_work_group_size(16, 4, 1)))
__attribute__((max_work_group_size(64)))
__attribute__((num_simd_work_items(4)))
__attribute__((uses_global_work_offset(0)))
__attribute__((vec_type_hint(float4)))
__kernel void attrs(__global float *out) {
    out[get_global_id(0) + get_global_id(1) * get_global_size(0)] = 1.0f;
}

__attribute__((max_global_work_dim(0)))
__kernel void swi(__global float *out, int n) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += out[i];
    out[0] = acc;
}

__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void one_item(__global float *out) {
    out[get_global_id(0)] = 2.0f;
}
