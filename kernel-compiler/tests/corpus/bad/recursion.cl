int fact(int n) {
    return n <= 1 ? 1 : n * fact(n - 1);
}
int ping(int n);
int pong(int n) { return n > 0 ? ping(n - 1) : 0; }
int ping(int n) { return pong(n); }
__kernel void k(__global int *a) {
    a[0] = fact(a[1]) + ping(3);
}
