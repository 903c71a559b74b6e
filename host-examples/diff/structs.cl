// Structs: by-value kernel argument, nested structs with arrays in private
// memory, struct assignment, arrays of structs, a struct-typed global buffer,
// typedefs, and a helper function taking and returning structs.
typedef struct {
    int id;
    float scale;
    short offs[2];
} Params;

typedef struct {
    float pos[3];
    int tag;
} Particle;

struct Pair {
    Particle a, b;
    int count;
};

static Particle shift(Particle p, float d)
{
    for (int k = 0; k < 3; k++)
        p.pos[k] += d;
    p.tag ^= 0x100;
    return p;
}

__kernel void structs(Params prm, __global const Particle *in, __global Particle *out,
                      __global int *oi)
{
    size_t i = get_global_id(0);
    Particle p = in[i];
    struct Pair pair;
    pair.a = p;
    pair.b = shift(p, prm.scale);
    pair.count = prm.id + prm.offs[i & 1];
    Particle arr[4];
    for (int k = 0; k < 4; k++) {
        arr[k] = pair.b;
        arr[k].tag += k;
    }
    Particle q = arr[(i + pair.a.tag) & 3];
    q.pos[1] = pair.a.pos[2] * prm.scale;
    out[i] = q;
    oi[i] = pair.count + q.tag + (int)sizeof(Particle) * 1000 + (int)sizeof(struct Pair);
}
