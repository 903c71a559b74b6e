// OpenCL C 1.2, section 6.9: function pointers are not supported (a pointer variable, a
// typedef of one, and a function used as a value).
int twice(int x)
{
    return 2 * x;
}

typedef int (*op_t)(int);

int apply(op_t f, int x)
{
    return f(x);
}

__kernel void k(__global int *out)
{
    int (*f)(int) = twice;
    out[0] = f(3);
    out[1] = twice + 1;
}
