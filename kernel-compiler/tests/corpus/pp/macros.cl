// Object- and function-like macros, rescanning, hide sets.
#define N 16
#define TWICE(x) ((x) * 2)
#define SQUARE(x) ((x) * (x))
#define APPLY(f, v) f(v)
#define EMPTY
#define NOARGS() 42
#define SELF SELF + 1
#define PING PONG
#define PONG PING
#define ID(x) x
int a = TWICE(N);
int b = APPLY(SQUARE, N + 1);
int c = NOARGS() EMPTY;
int d = SELF;
int e = PING;
int f = ID(ID(ID(7)));
int g = TWICE(
    N
);
int h = TWICE;
#undef N
int i = N;
