// Private arrays with dynamic indexing: an insertion sort of 16 elements per work-item,
// a 2-D private array, and a lookup table built at run time.
__kernel void private_arrays(__global const int *a, __global int *o)
{
    size_t i = get_global_id(0);
    int v[16];
    for (int k = 0; k < 16; k++)
        v[k] = a[16 * i + k];
    for (int k = 1; k < 16; k++) {
        int key = v[k], j = k - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
    }
    int m[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = v[r * 4 + c] - v[c * 4 + r];
    uchar lut[32];
    for (int k = 0; k < 32; k++)
        lut[k] = (uchar)(k * 37 + i);
    for (int k = 0; k < 16; k++)
        o[20 * i + k] = v[k];
    for (int r = 0; r < 4; r++)
        o[20 * i + 16 + r] = m[r][(r + i) & 3] + lut[(v[r] & 31)];
}
