// OpenCL C 1.2, section 6.9: bit-fields are not supported (each one is reported, the rest of
// the struct still parses).
struct flags {
    int a : 3;
    uint b : 5;
    int c;
};

__kernel void k(__global int *out)
{
    out[0] = 1;
}
