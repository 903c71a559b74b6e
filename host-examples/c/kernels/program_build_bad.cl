// Deliberately broken: line 6 uses an undeclared name (column 23). program_build.c
// checks that the build fails and that the log points at <file>:6:23.
__kernel void broken(__global int *out)
{
    size_t i = get_global_id(0);
    out[i] = (int)i + undeclared_value;
}
