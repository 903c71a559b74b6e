// Feature kernel: structs, unions, enums, typedefs, arrays of any dimension, initializers,
// program-scope __constant data, helper functions (inlined) with pointer and struct arguments.
typedef struct point { float x; float y; } point_t;
typedef union { float f; uint u; } bits_t;
enum color { RED, GREEN = 5, BLUE };
typedef enum color color_t;

struct particle {
    point_t pos;
    point_t vel;
    int tag[3];
    char kind;
};

__constant float weights[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
__constant int table[2][3] = { {1, 2, 3}, {4, 5, 6} };
__constant point_t origin = { .x = 1.0f, .y = -1.0f };
__constant char name[] = "fpga";

static inline float dot2(point_t a, point_t b) {
    return a.x * b.x + a.y * b.y;
}

point_t scale(point_t p, float s) {
    point_t r;
    r.x = p.x * s;
    r.y = p.y * s;
    return r;
}

void accumulate(__global float *dst, const __private float *src, int n) {
    for (int i = 0; i < n; ++i)
        dst[i] += src[i];
}

int classify(color_t c) {
    switch (c) {
    case RED:
        return 1;
    case GREEN:
    case BLUE:
        return 2;
    default:
        break;
    }
    return 0;
}

__kernel void structs(__global struct particle *ps, __global float *out, __global uint *bits,
                      struct particle by_value, int n) {
    size_t i = get_global_id(0);
    struct particle p = ps[i];
    point_t moved = scale(p.vel, 0.5f);
    p.pos.x += moved.x + origin.x;
    p.pos.y += moved.y + origin.y;
    p.tag[2] = classify(BLUE) + classify((color_t)p.kind) + table[1][2];
    ps[i] = p;
    ps[i].vel = by_value.vel;
    float local_buf[4] = { 1.0f, 2.0f };
    int grid[2][2][2] = { { {1, 2}, {3, 4} }, { {5, 6}, {7, 8} } };
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k)
        acc += weights[k] * local_buf[k] + grid[k & 1][(k >> 1) & 1][1];
    accumulate(out + i * 4, local_buf, 4);
    bits_t b;
    b.f = acc + dot2(p.pos, origin);
    bits[i] = b.u + name[i & 3] + sizeof(struct particle) + sizeof(bits_t);
    point_t pts[2] = { {1.0f, 2.0f}, {3.0f, 4.0f} };
    point_t *pp = &pts[1];
    pp->x = (float)n;
    out[i] = pts[1].x + (*pp).y + ((point_t){ 5.0f, 6.0f }).x;
}
