// Saturating add/sub on char, short, int, uint and long, scalar and vector.
__kernel void int_sat(__global const char *c, __global const short *s, __global const int *a,
                      __global const uint *u, __global const long *l, __global char *oc,
                      __global short *os, __global int *oi, __global uint *ou,
                      __global long *ol, __global int *ov)
{
    size_t i = get_global_id(0);
    size_t j = (i * 7 + 3) % get_global_size(0);
    oc[2 * i] = add_sat(c[i], c[j]);
    oc[2 * i + 1] = sub_sat(c[i], c[j]);
    os[2 * i] = add_sat(s[i], s[j]);
    os[2 * i + 1] = sub_sat(s[i], s[j]);
    oi[2 * i] = add_sat(a[i], a[j]);
    oi[2 * i + 1] = sub_sat(a[i], a[j]);
    ou[2 * i] = add_sat(u[i], u[j]);
    ou[2 * i + 1] = sub_sat(u[i], u[j]);
    ol[2 * i] = add_sat(l[i], l[j]);
    ol[2 * i + 1] = sub_sat(l[i], l[j]);
    if (i < get_global_size(0) / 4) {
        int4 x = vload4(i, a), y = vload4(i, a + 4);
        vstore4(add_sat(x, y), i, ov);
    }
}
