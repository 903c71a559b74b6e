// Source: 000_f3775ebd298996fa.txt (Best Practices Guide) lines 585-606, struct alignment examples. The guide's kernel `test` takes
// pointers without an address space; completed with __global (required for kernel pointers).
typedef struct { char r,g,b,alpha; } Pixel_s;
typedef union { Pixel_s p; int not_used; } Pixel;
typedef struct { char r,g,b,alpha; } __attribute__((aligned(4))) Pixel_aligned;

struct mystruct { char a; int b; int c; };
struct mystruct1 { char a; int b; };
struct mystruct2 { char a; int b; int c; };
struct __attribute__((packed)) mystruct3 { char a; int b; int c; };
struct __attribute__((packed)) __attribute__((aligned(16))) mystruct5 { char a; int b; int c; };

__kernel void test (__global struct mystruct* A, __global struct mystruct* B) {
    A[get_global_id(0)] = B[get_global_id(0)];
}

__kernel void pixels (__global Pixel* restrict img, __global struct mystruct3* restrict packed3,
                      __global struct mystruct5* restrict packed5, __global Pixel_aligned* restrict out) {
    size_t i = get_global_id(0);
    Pixel p = img[i];
    out[i].r = p.p.r;
    out[i].g = p.p.g;
    out[i].b = p.p.b;
    out[i].alpha = (char)(packed3[i].b + packed5[i].c);
}
