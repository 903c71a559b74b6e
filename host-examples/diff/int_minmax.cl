// min, max, clamp on signed/unsigned widths, upsample, vector forms with scalar bounds.
__kernel void int_minmax(__global const int *a, __global const uint *u, __global const char *c,
                         __global const long *l, __global int *oi, __global uint *ou,
                         __global char *oc, __global long *ol, __global long *up)
{
    size_t i = get_global_id(0);
    size_t j = (i + 17) % get_global_size(0);
    oi[4 * i + 0] = min(a[i], a[j]);
    oi[4 * i + 1] = max(a[i], a[j]);
    oi[4 * i + 2] = clamp(a[i], -1000, 1000);
    oi[4 * i + 3] = clamp(a[i], min(a[j], 0), max(a[j], 0));
    ou[3 * i + 0] = min(u[i], u[j]);
    ou[3 * i + 1] = max(u[i], u[j]);
    ou[3 * i + 2] = clamp(u[i], 10u, 0x80000000u);
    oc[2 * i] = clamp(c[i], (char)-5, (char)100);
    oc[2 * i + 1] = max(c[i], c[j]);
    ol[2 * i] = min(l[i], l[j]);
    ol[2 * i + 1] = clamp(l[i], -(1L << 40), 1L << 40);
    up[i] = upsample(a[i], u[j]);
    if (i < 16) {
        int4 v = vload4(i, a);
        int4 r = clamp(v, -7, 7) + min(v, (int4)(1, 2, 3, 4)) + max(v, 0);
        oi[4 * get_global_size(0) + 4 * i + 0] = r.x;
        oi[4 * get_global_size(0) + 4 * i + 1] = r.y;
        oi[4 * get_global_size(0) + 4 * i + 2] = r.z;
        oi[4 * get_global_size(0) + 4 * i + 3] = r.w;
    }
}
