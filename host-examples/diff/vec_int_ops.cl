// Integer vector operators: comparisons give -1/0, vector ?:, shifts with vector counts,
// logical operators, mixed scalar/vector operands, division.
__kernel void vec_int_ops(__global const int *a, __global const int *b, __global int *o)
{
    size_t i = get_global_id(0);
    int4 p = vload4(i, a), q = vload4(i, b);
    int4 c = p > q;
    int4 e = p == q;
    int4 t = c ? p : q;                      // vector ternary selects per lane on MSB
    int4 sh = (p << q) ^ (p >> (q & 7)) ^ as_int4(as_uint4(p) >> as_uint4(q));
    int4 l = (p && q) + (p || (int4)(0)) * 2 + (!p) * 4;
    int4 d = (q != 0) ? p / (q | 1) : p;
    int4 m = p % ((q & 15) + 1) + 3 * p - q / 2;
    vstore4(c + e, 6 * i, o);
    vstore4(t, 6 * i + 1, o);
    vstore4(sh, 6 * i + 2, o);
    vstore4(l, 6 * i + 3, o);
    vstore4(d, 6 * i + 4, o);
    vstore4(m ^ ~p, 6 * i + 5, o);
}
