// OpenCL C 1.2, section 6.9: variable-length arrays are not supported; the uses of the array
// are not reported again.
__kernel void k(__global int *out, int n)
{
    int buf[n];
    buf[0] = n;
    out[0] = buf[0];
}
