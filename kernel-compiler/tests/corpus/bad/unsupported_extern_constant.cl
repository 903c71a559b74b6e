// A program-scope variable declared 'extern' (to be defined in another unit) is not supported:
// __constant data is defined in a header the units share. Its uses are not reported again.
extern __constant int table[4];

__kernel void k(__global int *out)
{
    out[0] = table[1];
}
