/*
 * Random rectangular transfers, as the conformance suite's `basic bufferreadwriterect` test
 * drives them (written from its description): 8 buffers of random width x height x depth bytes
 * created with CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, a host mirror of each; RECT_OPS random
 * operations, each a clEnqueueCopyBufferRect between two buffers (possibly the same one,
 * skipped when the boxes overlap), a clEnqueueReadBufferRect into a host array laid out like
 * another buffer (checked at once), or a clEnqueueWriteBufferRect of fresh random bytes; row
 * pitch = width, slice pitch = width * height (0 when that is 1). At the end every buffer is
 * mapped for reading and compared with its mirror. RECT_SEED, RECT_MAX_DIM set the run.
 */
#include "common.h"

enum { NBUF = 8 };
static size_t W[NBUF], H[NBUF], D[NBUF];
static unsigned char *mirror[NBUF];
static cl_mem buf[NBUF];
static unsigned long long rng_state;

static size_t rnd(size_t lo, size_t hi) /* inclusive */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    size_t span = hi - lo + 1;
    return lo + (size_t)((rng_state >> 33) % span);
}

static size_t idx(int b, const size_t o[3], size_t x, size_t y, size_t z)
{
    return (o[2] + z) * W[b] * H[b] + (o[1] + y) * W[b] + o[0] + x;
}

static size_t slice_of(int b)
{
    return W[b] * H[b] != 1 ? W[b] * H[b] : 0;
}

static int boxes_overlap(const size_t a[3], const size_t b[3], const size_t r[3])
{
    for (int i = 0; i < 3; i++)
        if (!(a[i] < b[i] + r[i] && b[i] < a[i] + r[i]))
            return 0;
    return 1;
}

int main(void)
{
    install_watchdog(300);
    rng_state = env_number("RECT_SEED", 1);
    size_t max_dim = env_number("RECT_MAX_DIM", 48);
    size_t ops = env_number("RECT_OPS", 200);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    size_t biggest = 0;
    for (int b = 0; b < NBUF; b++) {
        W[b] = rnd(1, max_dim);
        H[b] = rnd(1, max_dim);
        D[b] = rnd(1, max_dim);
        size_t n = W[b] * H[b] * D[b];
        if (n > biggest)
            biggest = n;
        mirror[b] = malloc(n);
        unsigned char *backing = malloc(n);
        for (size_t i = 0; i < n; i++)
            mirror[b][i] = backing[i] = (unsigned char)rnd(0, 254);
        buf[b] = create_buffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, n, backing);
    }
    unsigned char *tmp = malloc(biggest);
    size_t counts[4] = {0, 0, 0, 0};
    for (size_t it = 0; it < ops; it++) {
        int s = (int)rnd(0, NBUF - 1), d = (int)rnd(0, NBUF - 1);
        size_t mw = W[s] < W[d] ? W[s] : W[d], mh = H[s] < H[d] ? H[s] : H[d],
               md = D[s] < D[d] ? D[s] : D[d];
        size_t r[3] = {rnd(1, mw), rnd(1, mh), rnd(1, md)};
        size_t so[3] = {rnd(0, W[s] - r[0]), rnd(0, H[s] - r[1]), rnd(0, D[s] - r[2])};
        size_t dof[3] = {rnd(0, W[d] - r[0]), rnd(0, H[d] - r[1]), rnd(0, D[d] - r[2])};
        int op = (int)rnd(0, 2);
        cl_int err;
        if (op == 0) {
            if (s == d && boxes_overlap(so, dof, r)) {
                counts[3]++;
                continue;
            }
            err = clEnqueueCopyBufferRect(q, buf[s], buf[d], so, dof, r, W[s], slice_of(s), W[d],
                                          slice_of(d), 0, NULL, NULL);
            EXPECT(err == CL_SUCCESS,
                   "op %zu: copy %d (%zux%zux%zu) (%zu,%zu,%zu) -> %d (%zux%zux%zu) (%zu,%zu,%zu) "
                   "region %zux%zux%zu: %s",
                   it, s, W[s], H[s], D[s], so[0], so[1], so[2], d, W[d], H[d], D[d], dof[0],
                   dof[1], dof[2], r[0], r[1], r[2], cl_err_name(err));
            /* Through a staging copy: source and destination may be the same buffer. */
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        tmp[(z * r[1] + y) * r[0] + x] = mirror[s][idx(s, so, x, y, z)];
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        mirror[d][idx(d, dof, x, y, z)] = tmp[(z * r[1] + y) * r[0] + x];
        } else if (op == 1) {
            memset(tmp, 0xff, biggest);
            err = clEnqueueReadBufferRect(q, buf[s], CL_TRUE, so, dof, r, W[s], slice_of(s), W[d],
                                          slice_of(d), tmp, 0, NULL, NULL);
            EXPECT(err == CL_SUCCESS, "op %zu: read rect: %s", it, cl_err_name(err));
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        EXPECT(tmp[idx(d, dof, x, y, z)] == mirror[s][idx(s, so, x, y, z)],
                               "op %zu: read rect of %d differs at (%zu,%zu,%zu)", it, s, x, y, z);
        } else {
            for (size_t i = 0; i < biggest; i++)
                tmp[i] = (unsigned char)rnd(0, 254);
            /* Host side laid out like buffer s, buffer side is d. */
            err = clEnqueueWriteBufferRect(q, buf[d], CL_TRUE, dof, so, r, W[d], slice_of(d),
                                           W[s], slice_of(s), tmp, 0, NULL, NULL);
            EXPECT(err == CL_SUCCESS, "op %zu: write rect: %s", it, cl_err_name(err));
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        mirror[d][idx(d, dof, x, y, z)] = tmp[idx(s, so, x, y, z)];
        }
        counts[op]++;
    }
    for (int b = 0; b < NBUF; b++) {
        size_t n = W[b] * H[b] * D[b];
        cl_int err;
        unsigned char *m = clEnqueueMapBuffer(q, buf[b], CL_TRUE, CL_MAP_READ, 0, n, 0, NULL,
                                              NULL, &err);
        EXPECT(err == CL_SUCCESS && m, "map %d: %s", b, cl_err_name(err));
        for (size_t i = 0; i < n; i++)
            EXPECT(m[i] == mirror[b][i], "buffer %d (%zux%zux%zu) differs at byte %zu", b, W[b],
                   H[b], D[b], i);
        CHECK(clEnqueueUnmapMemObject(q, buf[b], m, 0, NULL, NULL));
    }
    CHECK(clFinish(q));
    printf("copies=%zu reads=%zu writes=%zu skipped_overlaps=%zu\n", counts[0], counts[1],
           counts[2], counts[3]);
    return pass("buffer_rect_random");
}
