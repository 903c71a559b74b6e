// A program-scope variable declared 'extern' and defined in no unit of the program (a build
// is one unit; clLinkProgram resolves it against the other units). Its uses are not reported
// again.
extern __constant int table[4];

__kernel void k(__global int *out)
{
    out[0] = table[1];
}
