/*
 * diff_driver.c: run one kernel of the differential-test corpus and dump
 * every output buffer, so that two OpenCL implementations can be compared.
 *
 *   diff_driver <kernel.cl> <kernel.spec> <result-file>
 *
 * The platform is chosen by HOST_PLATFORM (substring of CL_PLATFORM_NAME,
 * see common.h). The spec file (format below and in host-examples/diff/
 * README.md) names the kernel, the NDRange and every argument; input
 * buffers are filled by a deterministic generator (splitmix64 seeded by the
 * spec's `seed` and the argument index), so every implementation sees the
 * same bytes. After clFinish, every `out`/`inout` buffer is written to the
 * result file as hexadecimal bit patterns, tagged with its element type and
 * the comparison rule (`check=`), which the Rust comparison reads.
 *
 * The driver itself writes nothing to stdout except "FAIL: ..." lines (on a
 * failure, exit status 1), so stdout carries exactly the kernel's printf
 * output and can be compared between implementations.
 *
 * Spec format: one directive per line, '#' starts a comment.
 *   kernel NAME                    kernel to run (required)
 *   global X [Y [Z]]               global size (work_dim = count); required unless `task`
 *   local X [Y [Z]]                local size (default: NULL, implementation's choice)
 *   offset X [Y [Z]]               global offset
 *   task                           launch with clEnqueueTask
 *   options TEXT...                clBuildProgram options (rest of the line)
 *   seed N                         generator seed (default 1)
 *   arg buffer TYPE COUNT DIR [gen=G] [check=C]
 *                                  a __global/__constant buffer of COUNT elements of
 *                                  scalar TYPE; DIR is in, out or inout. out buffers
 *                                  start as 0xA5 bytes unless gen= is given.
 *   arg value TYPE:V [TYPE:V...]   a by-value argument: the fields packed in order
 *                                  (a vector is its lanes; a struct its fields with
 *                                  explicit padding fields)
 *   arg local BYTES                a __local pointer argument
 * TYPE: char uchar short ushort int uint long ulong float half (half = 16-bit
 * bit patterns, generated from float values with round-to-nearest-even).
 * Generators G:
 *   bits                 uniformly random bit patterns (default for integers)
 *   range:LO:HI          uniform in [LO, HI] (integers) / [LO, HI) (floats; default -100:100)
 *   iota[:START[:STEP]]  START + i*STEP
 *   const:V              every element V
 *   fspecial:LO:HI       floats: every 8th element a special value (+-0, +-inf, NaN,
 *                        +-FLT_MAX, FLT_MIN, 1, -1, 0.5, ...), others uniform in [LO, HI)
 *   edge                 integers: every other element an edge value (0, 1, -1,
 *                        MIN, MAX, MIN+1, MAX-1, ...), others random bits
 * With DIFF_DUMP_INPUTS=1 the input buffers are written too (check=skip).
 * C is passed through to the result file untouched (see tests/src/diff/ for the
 * rules: exact, ulp:N, abs:E, a builtin name from the ULP table, or skip).
 */
#include "common.h"

#include <errno.h>
#include <math.h>

#define MAX_ARGS 32
#define MAX_LINE 4096

enum dir { DIR_IN, DIR_OUT, DIR_INOUT };
enum arg_kind { ARG_BUFFER, ARG_VALUE, ARG_LOCAL };

struct type_info {
    const char *name;
    size_t size;
    int is_float; /* 1 float, 2 half, 0 integer */
    int is_signed;
};

static const struct type_info TYPES[] = {
    {"char", 1, 0, 1},  {"uchar", 1, 0, 0}, {"short", 2, 0, 1}, {"ushort", 2, 0, 0},
    {"int", 4, 0, 1},   {"uint", 4, 0, 0},  {"long", 8, 0, 1},  {"ulong", 8, 0, 0},
    {"float", 4, 1, 1}, {"half", 2, 2, 1},
};

struct arg {
    enum arg_kind kind;
    const struct type_info *type; /* buffers */
    size_t count;                 /* buffers: elements */
    enum dir dir;
    char gen[128];
    char check[64];
    unsigned char *bytes; /* buffer contents or value bytes */
    size_t size;          /* bytes */
    int line;             /* spec line, for generator errors */
    cl_mem mem;
};

struct spec {
    char kernel[256];
    cl_uint dims;
    size_t global[3], local[3], offset[3];
    int have_local, have_offset, task;
    char options[1024];
    uint64_t seed;
    struct arg args[MAX_ARGS];
    int nargs;
};

static const char *g_spec_path = "";
static int g_spec_line = 0;

#define SPEC_FAIL(...)                                                        \
    do {                                                                      \
        printf("FAIL: %s:%d: ", g_spec_path, g_spec_line);                    \
        printf(__VA_ARGS__);                                                  \
        printf("\n");                                                         \
        exit(1);                                                              \
    } while (0)

static const struct type_info *find_type(const char *name)
{
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
        if (strcmp(TYPES[i].name, name) == 0)
            return &TYPES[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Deterministic generator                                              */
/* ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/** Uniform double in [0, 1). */
static double unit(uint64_t *state)
{
    return (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/** float -> IEEE half bits, round to nearest even (handles inf/NaN/subnormals). */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t mant = x & 0x7FFFFFu;
    if (exp == 0xFF)
        return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t half_mant = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_mant & 1)))
            half_mant++;
        return (uint16_t)(sign | half_mant);
    }
    uint32_t h = sign | ((uint32_t)e << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent: correct (rounds up to inf) */
    return (uint16_t)h;
}

static void store_int(unsigned char *p, size_t size, int64_t v)
{
    /* little-endian truncation (the host and all devices here are little-endian) */
    uint64_t u = (uint64_t)v;
    for (size_t i = 0; i < size; i++)
        p[i] = (unsigned char)(u >> (8 * i));
}

static void store_float(unsigned char *p, const struct type_info *t, double v)
{
    float f = (float)v;
    if (t->is_float == 1) {
        memcpy(p, &f, 4);
    } else {
        uint16_t h = float_to_half(f);
        memcpy(p, &h, 2);
    }
}

static double parse_double(const char *s, const char *what)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE)
        SPEC_FAIL("bad number \"%s\" in %s", s, what);
    return v;
}

static int64_t parse_int(const char *s, const char *what)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (end == s || *end) {
        /* allow large unsigned values (e.g. 0xFFFFFFFFFFFFFFFF) */
        errno = 0;
        unsigned long long u = strtoull(s, &end, 0);
        if (end == s || *end || errno)
            SPEC_FAIL("bad integer \"%s\" in %s", s, what);
        return (int64_t)u;
    }
    if (errno == ERANGE) {
        errno = 0;
        unsigned long long u = strtoull(s, &end, 0);
        if (errno)
            SPEC_FAIL("integer \"%s\" out of range in %s", s, what);
        return (int64_t)u;
    }
    return (int64_t)v;
}

/** Split `s` at ':' into at most `max` fields (modifies s). */
static int split_colon(char *s, char **fields, int max)
{
    int n = 0;
    fields[n++] = s;
    for (char *p = s; *p && n < max; p++)
        if (*p == ':') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    return n;
}

static int64_t int_edge(const struct type_info *t, uint64_t k)
{
    int bits = (int)t->size * 8;
    int64_t min = t->is_signed ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    int64_t max = t->is_signed ? (bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1)
                               : (bits == 64 ? -1 : ((int64_t)1 << bits) - 1);
    const int64_t edges[] = {0, 1, -1, min, max, min + 1, max - 1, 2, -2, bits, bits - 1, bits + 1};
    return edges[k % (sizeof edges / sizeof edges[0])];
}

static double float_special(uint64_t k)
{
    const double specials[] = {0.0,       -0.0,      INFINITY, -INFINITY,     NAN,
                               3.4028234663852886e38, -3.4028234663852886e38,
                               1.1754943508222875e-38, 1.0, -1.0, 0.5, -0.5, 2.0, 1e10, -1e-10};
    return specials[k % (sizeof specials / sizeof specials[0])];
}

/** Fill a buffer argument from its generator. */
static void generate(struct arg *a, uint64_t seed, int index)
{
    uint64_t state = seed * 0x100000001B3ull + (uint64_t)index * 0x9E3779B97F4A7C15ull + 1;
    const struct type_info *t = a->type;
    char gen[128];
    snprintf(gen, sizeof gen, "%s", a->gen);
    char *f[5] = {0};
    int nf = split_colon(gen, f, 5);
    const char *kind = f[0];
    if (strcmp(kind, "") == 0) {
        if (a->dir == DIR_OUT) {
            memset(a->bytes, 0xA5, a->size);
            return;
        }
        kind = t->is_float ? "range" : "bits";
        if (t->is_float) {
            f[1] = "-100";
            f[2] = "100";
            nf = 3;
        }
    }
    for (size_t i = 0; i < a->count; i++) {
        unsigned char *p = a->bytes + i * t->size;
        if (strcmp(kind, "bits") == 0) {
            store_int(p, t->size, (int64_t)splitmix64(&state));
        } else if (strcmp(kind, "range") == 0) {
            if (nf != 3)
                SPEC_FAIL("range needs range:LO:HI");
            if (t->is_float) {
                double lo = parse_double(f[1], "range"), hi = parse_double(f[2], "range");
                store_float(p, t, lo + (hi - lo) * unit(&state));
            } else {
                int64_t lo = parse_int(f[1], "range"), hi = parse_int(f[2], "range");
                if (hi < lo)
                    SPEC_FAIL("range with HI < LO");
                uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
                uint64_t r = splitmix64(&state);
                store_int(p, t->size, lo + (int64_t)(span ? r % span : r));
            }
        } else if (strcmp(kind, "iota") == 0) {
            double start = nf > 1 ? parse_double(f[1], "iota") : 0.0;
            double step = nf > 2 ? parse_double(f[2], "iota") : 1.0;
            if (t->is_float)
                store_float(p, t, start + step * (double)i);
            else
                store_int(p, t->size, (int64_t)start + (int64_t)step * (int64_t)i);
        } else if (strcmp(kind, "const") == 0) {
            if (nf != 2)
                SPEC_FAIL("const needs const:V");
            if (t->is_float)
                store_float(p, t, parse_double(f[1], "const"));
            else
                store_int(p, t->size, parse_int(f[1], "const"));
        } else if (strcmp(kind, "fspecial") == 0) {
            if (!t->is_float || nf != 3)
                SPEC_FAIL("fspecial:LO:HI is for float/half buffers");
            double lo = parse_double(f[1], "fspecial"), hi = parse_double(f[2], "fspecial");
            uint64_t r = splitmix64(&state);
            if (i % 8 == 7)
                store_float(p, t, float_special(r >> 8));
            else
                store_float(p, t, lo + (hi - lo) * unit(&state));
        } else if (strcmp(kind, "edge") == 0) {
            if (t->is_float)
                SPEC_FAIL("edge is for integer buffers");
            uint64_t r = splitmix64(&state);
            if (i % 2 == 0)
                store_int(p, t->size, int_edge(t, r >> 8));
            else
                store_int(p, t->size, (int64_t)r);
        } else {
            SPEC_FAIL("unknown generator \"%s\"", a->gen);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Spec parsing                                                         */
/* ------------------------------------------------------------------ */

static int tokenize(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < max;
         t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    return n;
}

static void parse_sizes(char **tok, int n, size_t *out, cl_uint *dims, const char *what)
{
    if (n < 2 || n > 4)
        SPEC_FAIL("%s needs 1 to 3 sizes", what);
    for (int i = 1; i < n; i++) {
        int64_t v = parse_int(tok[i], what);
        if (v < 0)
            SPEC_FAIL("negative %s", what);
        out[i - 1] = (size_t)v;
    }
    if (dims)
        *dims = (cl_uint)(n - 1);
}

static void parse_value_arg(struct arg *a, char **tok, int n)
{
    size_t cap = 256, used = 0;
    a->bytes = calloc(1, cap);
    EXPECT(a->bytes, "out of memory");
    for (int i = 2; i < n; i++) {
        char field[128];
        snprintf(field, sizeof field, "%s", tok[i]);
        char *colon = strchr(field, ':');
        if (!colon)
            SPEC_FAIL("value field \"%s\" is not TYPE:V", tok[i]);
        *colon = '\0';
        const struct type_info *t = find_type(field);
        if (!t)
            SPEC_FAIL("unknown type \"%s\"", field);
        if (used + t->size > cap)
            SPEC_FAIL("value argument larger than %zu bytes", cap);
        if (t->is_float)
            store_float(a->bytes + used, t, parse_double(colon + 1, "value"));
        else
            store_int(a->bytes + used, t->size, parse_int(colon + 1, "value"));
        used += t->size;
    }
    if (used == 0)
        SPEC_FAIL("value argument without fields");
    a->size = used;
}

static void parse_spec(const char *path, struct spec *s)
{
    g_spec_path = path;
    FILE *f = fopen(path, "r");
    if (!f)
        SPEC_FAIL("cannot open spec: %s", strerror(errno));
    memset(s, 0, sizeof *s);
    s->seed = 1;
    char line[MAX_LINE];
    while (fgets(line, sizeof line, f)) {
        g_spec_line++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char copy[MAX_LINE];
        snprintf(copy, sizeof copy, "%s", line);
        char *tok[64];
        int n = tokenize(line, tok, 64);
        if (n == 0)
            continue;
        if (strcmp(tok[0], "kernel") == 0 && n == 2) {
            snprintf(s->kernel, sizeof s->kernel, "%s", tok[1]);
        } else if (strcmp(tok[0], "global") == 0) {
            parse_sizes(tok, n, s->global, &s->dims, "global");
        } else if (strcmp(tok[0], "local") == 0) {
            cl_uint d = 0;
            parse_sizes(tok, n, s->local, &d, "local");
            s->have_local = 1;
        } else if (strcmp(tok[0], "offset") == 0) {
            parse_sizes(tok, n, s->offset, NULL, "offset");
            s->have_offset = 1;
        } else if (strcmp(tok[0], "task") == 0 && n == 1) {
            s->task = 1;
        } else if (strcmp(tok[0], "seed") == 0 && n == 2) {
            s->seed = (uint64_t)parse_int(tok[1], "seed");
        } else if (strcmp(tok[0], "options") == 0) {
            char *rest = strstr(copy, "options") + strlen("options");
            while (*rest == ' ' || *rest == '\t')
                rest++;
            rest[strcspn(rest, "#\r\n")] = '\0';
            snprintf(s->options, sizeof s->options, "%s", rest);
        } else if (strcmp(tok[0], "arg") == 0 && n >= 2) {
            if (s->nargs == MAX_ARGS)
                SPEC_FAIL("more than %d arguments", MAX_ARGS);
            struct arg *a = &s->args[s->nargs++];
            a->line = g_spec_line;
            if (strcmp(tok[1], "buffer") == 0) {
                if (n < 5)
                    SPEC_FAIL("arg buffer TYPE COUNT DIR [gen=G] [check=C]");
                a->kind = ARG_BUFFER;
                a->type = find_type(tok[2]);
                if (!a->type)
                    SPEC_FAIL("unknown type \"%s\"", tok[2]);
                int64_t count = parse_int(tok[3], "count");
                if (count <= 0 || count > (1 << 26))
                    SPEC_FAIL("buffer count %lld out of range", (long long)count);
                a->count = (size_t)count;
                if (strcmp(tok[4], "in") == 0)
                    a->dir = DIR_IN;
                else if (strcmp(tok[4], "out") == 0)
                    a->dir = DIR_OUT;
                else if (strcmp(tok[4], "inout") == 0)
                    a->dir = DIR_INOUT;
                else
                    SPEC_FAIL("direction must be in, out or inout, not \"%s\"", tok[4]);
                snprintf(a->check, sizeof a->check, "exact");
                for (int i = 5; i < n; i++) {
                    if (strncmp(tok[i], "gen=", 4) == 0)
                        snprintf(a->gen, sizeof a->gen, "%s", tok[i] + 4);
                    else if (strncmp(tok[i], "check=", 6) == 0)
                        snprintf(a->check, sizeof a->check, "%s", tok[i] + 6);
                    else
                        SPEC_FAIL("unknown buffer option \"%s\"", tok[i]);
                }
                a->size = a->count * a->type->size;
                a->bytes = malloc(a->size);
                EXPECT(a->bytes, "out of memory");
            } else if (strcmp(tok[1], "value") == 0) {
                a->kind = ARG_VALUE;
                parse_value_arg(a, tok, n);
            } else if (strcmp(tok[1], "local") == 0 && n == 3) {
                a->kind = ARG_LOCAL;
                int64_t bytes = parse_int(tok[2], "local bytes");
                if (bytes <= 0)
                    SPEC_FAIL("local size must be positive");
                a->size = (size_t)bytes;
            } else {
                SPEC_FAIL("unknown argument kind \"%s\"", tok[1]);
            }
        } else {
            SPEC_FAIL("unknown directive \"%s\"", tok[0]);
        }
    }
    fclose(f);
    g_spec_line = 0;
    if (!s->kernel[0])
        SPEC_FAIL("no `kernel NAME` line");
    if (!s->task && s->dims == 0)
        SPEC_FAIL("no `global` line (and not a `task`)");
    if (s->have_local && !s->task) {
        for (cl_uint d = 0; d < s->dims; d++)
            if (s->local[d] == 0)
                SPEC_FAIL("local size 0");
    }
    for (int i = 0; i < s->nargs; i++)
        if (s->args[i].kind == ARG_BUFFER) {
            g_spec_line = s->args[i].line;
            generate(&s->args[i], s->seed, i);
        }
    g_spec_line = 0;
}

/* ------------------------------------------------------------------ */
/* Result file                                                          */
/* ------------------------------------------------------------------ */

static void write_results(const char *path, const struct spec *s)
{
    FILE *f = fopen(path, "w");
    EXPECT(f != NULL, "cannot create %s: %s", path, strerror(errno));
    fprintf(f, "fpgacl-diff-output 1\nkernel %s\n", s->kernel);
    /* DIFF_DUMP_INPUTS=1 (for debugging a difference): also write the input
     * buffers, with check=skip so comparisons ignore them. */
    const char *dump = getenv("DIFF_DUMP_INPUTS");
    int dump_inputs = dump && *dump && strcmp(dump, "0") != 0;
    for (int i = 0; i < s->nargs; i++) {
        const struct arg *a = &s->args[i];
        if (a->kind != ARG_BUFFER || (a->dir == DIR_IN && !dump_inputs))
            continue;
        fprintf(f, "buffer %d %s %zu %s\n", i, a->type->name, a->count,
                a->dir == DIR_IN ? "skip" : a->check);
        for (size_t e = 0; e < a->count; e++) {
            uint64_t u = 0;
            for (size_t b = 0; b < a->type->size; b++)
                u |= (uint64_t)a->bytes[e * a->type->size + b] << (8 * b);
            fprintf(f, "%0*llx%c", (int)(a->type->size * 2), (unsigned long long)u,
                    (e % 16 == 15 || e + 1 == a->count) ? '\n' : ' ');
        }
    }
    fprintf(f, "end\n");
    EXPECT(fclose(f) == 0, "cannot write %s", path);
}

int main(int argc, char **argv)
{
    install_watchdog(300);
    if (argc != 4) {
        printf("FAIL: usage: %s <kernel.cl> <kernel.spec> <result-file>\n", argv[0]);
        return 1;
    }
    static struct spec s;
    parse_spec(argv[2], &s);

    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_program prog = build_program(ctx, dev, argv[1], s.options);
    cl_kernel k = create_kernel(prog, s.kernel);

    STEP("set arguments");
    cl_uint nargs = 0;
    CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    EXPECT(nargs == (cl_uint)s.nargs, "kernel %s has %u arguments, the spec gives %d", s.kernel,
           nargs, s.nargs);
    for (int i = 0; i < s.nargs; i++) {
        struct arg *a = &s.args[i];
        switch (a->kind) {
        case ARG_BUFFER: {
            cl_mem_flags flags = CL_MEM_COPY_HOST_PTR |
                                 (a->dir == DIR_IN ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE);
            a->mem = create_buffer(ctx, flags, a->size, a->bytes);
            CHECK(clSetKernelArg(k, (cl_uint)i, sizeof a->mem, &a->mem));
            break;
        }
        case ARG_VALUE:
            CHECK(clSetKernelArg(k, (cl_uint)i, a->size, a->bytes));
            break;
        case ARG_LOCAL:
            CHECK(clSetKernelArg(k, (cl_uint)i, a->size, NULL));
            break;
        }
    }

    STEP("run kernel");
    if (s.task)
        CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    else
        CHECK(clEnqueueNDRangeKernel(q, k, s.dims, s.have_offset ? s.offset : NULL, s.global,
                                     s.have_local ? s.local : NULL, 0, NULL, NULL));
    CHECK(clFinish(q));

    STEP("read results");
    for (int i = 0; i < s.nargs; i++) {
        struct arg *a = &s.args[i];
        if (a->kind == ARG_BUFFER && a->dir != DIR_IN)
            CHECK(clEnqueueReadBuffer(q, a->mem, CL_TRUE, 0, a->size, a->bytes, 0, NULL, NULL));
    }
    write_results(argv[3], &s);

    for (int i = 0; i < s.nargs; i++) {
        if (s.args[i].mem)
            CHECK(clReleaseMemObject(s.args[i].mem));
        free(s.args[i].bytes);
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(prog));
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    fflush(stdout);
    return 0;
}
