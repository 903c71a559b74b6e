/*
 * cts_rect.c: a standalone, faithful re-creation (own code) of the Khronos OpenCL conformance
 * suite's `basic bufferreadwriterect` test, to reproduce its runs on any implementation.
 *
 * Same procedure as the suite, step for step, so that a seed gives the suite's very run:
 *   - the suite's random generator: MT19937 seeded with init_genrand(seed) (the harness seeds
 *     0 unless told "randomize"); a random size_t is two 32-bit draws (low word first) and
 *     get_random_size_t(lo, hi) is lo + ((r - lo) % (hi - lo)), or lo when hi == lo, so a
 *     value in [lo, hi);
 *   - the largest dimension is cbrt(min(CL_DEVICE_MAX_MEM_ALLOC_SIZE, host RAM / 2)) / 2;
 *   - 8 buffers of random width x height x depth bytes, each filled with draws % 0xff, created
 *     with CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE on a malloc'ed copy, a destructor callback
 *     freeing that copy;
 *   - 50 random operations: pick src, dst, a region that fits both, a source offset inside
 *     src and a destination offset inside dst, then one of
 *       0 copy: skipped when the suite's own overlap test says the two boxes overlap (with
 *         src's pitches, whatever the buffers), else clEnqueueCopyBufferRect (row pitch =
 *         width, slice pitch = width * height, or 0 when that is 1) and the host mirror;
 *       1 read: clEnqueueReadBufferRect (blocking) into a temporary laid out like dst (first
 *         set to 0xff), compared at once with the mirror of src;
 *       2 write: the temporary refilled with fresh draws, clEnqueueWriteBufferRect (blocking)
 *         from it, laid out like src, into dst, and the mirror updated;
 *   - at the end every buffer is mapped (CL_MAP_READ, blocking) and compared with its mirror.
 * As in the suite, a failing call is reported ("CL ERROR: ...") and the run goes on; a wrong
 * byte stops it.
 *
 * Environment (all optional; the defaults are the suite's run):
 *   RECT_SEED       the generator's seed (default 0, the harness' default)
 *   RECT_TRIES      number of operations (default 50)
 *   RECT_MAX_DIM    cap on the largest dimension (default: none, the suite's formula)
 *   RECT_FLAGS      use (default: USE_HOST_PTR | READ_WRITE), copy (COPY_HOST_PTR |
 *                   READ_WRITE), alloc (ALLOC_HOST_PTR | COPY_HOST_PTR | READ_WRITE)
 *   RECT_VERIFY_EACH=1  map and check src and dst after every operation (the suite's
 *                   disabled per-operation check): names the operation that went wrong
 *   RECT_NONBLOCKING=1  reads, writes and copies are non-blocking with events; the host
 *                   waits on the event (or a marker) before using the bytes
 *   RECT_PROBE_OVERLAP=1  a copy skipped inside one buffer whose boxes really share bytes
 *                   is also enqueued and must fail with CL_MEM_COPY_OVERLAP (no draws used)
 *   RECT_VERBOSE=1  print every operation as the suite logs it
 *   RECT_ZERO_PITCHES=1  a variant (own design, after the suite's newer versions, which pass
 *                   pitches of 0): after each operation's draw, 4 more draws choose which of
 *                   the row and slice pitches of the two sides are passed as 0 (meaning
 *                   region[0] and region[1] * row pitch); a nonzero slice pitch is then the
 *                   row pitch times the buffer's height. Origins then lie beyond a row or a
 *                   slice. Copies inside one buffer are always enqueued, with the same pitches
 *                   on both sides: CL_MEM_COPY_OVERLAP is required exactly when the two
 *                   rectangles share a byte (counted on a byte map), success otherwise.
 *   RECT_REPLAY=cts2765|pocl2326  instead of the random run, the one same-buffer copy reported
 *                   upstream for the suite's zero-pitch version: KhronosGroup/OpenCL-CTS#2765
 *                   (seed 0 with a 1 GiB allocation limit, fpgacl's: operation 1 copies inside a
 *                   438x353x408 buffer, origin (14,69,100) -> (176,181,171), region 224x5x226,
 *                   row pitch 438, slice pitch 0; the rectangles share bytes, so the answer
 *                   must be CL_MEM_COPY_OVERLAP) or pocl/pocl#2326 (origin (11,277,388) ->
 *                   (187,87,50), region 6x97x845, row pitch 0, slice pitch 7620: no shared
 *                   byte, so the copy must succeed and move the right bytes)
 * Prints "PASS: cts_rect" or FAIL lines; exit status 0 only on success.
 */
#include "common.h"

#include <math.h>
#include <sys/sysinfo.h>

/* ---------------- MT19937 (Matsumoto & Nishimura), 32-bit output ---------------- */

enum { MT_N = 624, MT_M = 397 };
static uint32_t mt_state[MT_N];
static int mt_index = MT_N + 1;

static void mt_seed(uint32_t s)
{
    mt_state[0] = s;
    for (int i = 1; i < MT_N; i++)
        mt_state[i] = 1812433253u * (mt_state[i - 1] ^ (mt_state[i - 1] >> 30)) + (uint32_t)i;
    mt_index = MT_N;
}

static uint32_t mt_next(void)
{
    if (mt_index >= MT_N) {
        for (int k = 0; k < MT_N; k++) {
            uint32_t y = (mt_state[k] & 0x80000000u) | (mt_state[(k + 1) % MT_N] & 0x7fffffffu);
            uint32_t v = mt_state[(k + MT_M) % MT_N] ^ (y >> 1);
            if (y & 1u)
                v ^= 0x9908b0dfu;
            mt_state[k] = v;
        }
        mt_index = 0;
    }
    uint32_t y = mt_state[mt_index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* A value in [lo, hi) (lo when hi == lo), drawn as the suite draws a size_t. */
static size_t rnd_size(size_t lo, size_t hi)
{
    uint64_t lo_word = mt_next();
    uint64_t hi_word = mt_next();
    size_t r = (size_t)(lo_word | (hi_word << 32));
    size_t range = hi - lo;
    return range ? lo + ((r - lo) % range) : lo;
}

static void fill_random(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(mt_next() % 0xff);
}

/* ---------------- state ---------------- */

enum { NBUF = 8 };
static size_t W[NBUF], H[NBUF], D[NBUF];
static cl_mem buf[NBUF];
static unsigned char *mirror[NBUF];
static unsigned char *tmp;
static size_t tmp_size;
static cl_command_queue q;
static int nonblocking, verbose;
static unsigned cl_errors;
static volatile int destructors_run;

static size_t slice_pitch_of(size_t b)
{
    return W[b] * H[b] != 1 ? W[b] * H[b] : 0;
}

static size_t index_in(size_t b, const size_t o[3], size_t x, size_t y, size_t z)
{
    return (o[2] + z) * W[b] * H[b] + (o[1] + y) * W[b] + o[0] + x;
}

static void cl_error(cl_int err, const char *what, size_t s, size_t d)
{
    cl_errors++;
    printf("CL ERROR: %s failed between %zu and %zu: %s (%d)\n", what, s, d, cl_err_name(err),
           (int)err);
}

/* The suite's overlap test for a copy inside one buffer (row pitch rp, slice pitch sp; 0
 * when the buffer is 1 x 1 x depth): boxes that share a point in all three dimensions, or,
 * when a row (or a slice) wraps past its pitch, linear byte ranges that meet. Own code. */
static int suite_says_overlap(const size_t so[3], const size_t dof[3], const size_t r[3],
                              size_t rp, size_t sp)
{
    int overlap = 1;
    for (int i = 0; i < 3; i++)
        overlap = overlap && so[i] < dof[i] + r[i] && so[i] + r[i] > dof[i];
    if (overlap)
        return 1;
    size_t d0 = dof[2] * sp + dof[1] * rp + dof[0];
    size_t d1 = d0 + r[2] * sp + r[1] * rp + r[0];
    size_t s0 = so[2] * sp + so[1] * rp + so[0];
    size_t s1 = s0 + r[2] * sp + r[1] * rp + r[0];
    int linear = (s0 <= d0 && d0 < s1) || (d0 <= s0 && s0 < d1);
    size_t sx = so[0] + r[0] > rp ? so[0] + r[0] - rp : 0;
    size_t dx = dof[0] + r[0] > rp ? dof[0] + r[0] - rp : 0;
    if (((sx > 0 && sx > dof[0]) || (dx > 0 && dx > so[0])) && linear)
        return 1;
    if (r[2] > 1) {
        size_t rows = sp / rp;
        size_t sy = so[1] + r[1] > rows ? so[1] + r[1] - rows : 0;
        size_t dy = dof[1] + r[1] > rows ? dof[1] + r[1] - rows : 0;
        if (((sy > 0 && sy > dof[1]) || (dy > 0 && dy > so[1])) && linear)
            return 1;
    }
    return 0;
}

/* Whether the two boxes of one buffer share a byte (exact: rows never wrap here). */
static int boxes_share_bytes(const size_t a[3], const size_t b[3], const size_t r[3])
{
    for (int i = 0; i < 3; i++)
        if (!(a[i] < b[i] + r[i] && b[i] < a[i] + r[i]))
            return 0;
    return 1;
}

/* Byte offset of (x, y, z) of a rectangle at origin o with (resolved) pitches rp, sp. */
static size_t lin(const size_t o[3], size_t rp, size_t sp, size_t x, size_t y, size_t z)
{
    return (o[2] + z) * sp + (o[1] + y) * rp + o[0] + x;
}

/* Bytes shared by two rectangles of one buffer of n bytes with the same resolved pitches,
 * counted on a byte map (independent of any overlap formula). */
static size_t shared_bytes(size_t n, const size_t a[3], const size_t b[3], const size_t r[3],
                           size_t rp, size_t sp)
{
    unsigned char *map = calloc(n, 1);
    EXPECT(map != NULL, "out of memory");
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            memset(map + lin(a, rp, sp, 0, y, z), 1, r[0]);
    size_t shared = 0;
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0]; x++)
                shared += map[lin(b, rp, sp, x, y, z)];
    free(map);
    return shared;
}

/* The pitches passed for one side of a zero-pitch operation on a buffer (or a host array
 * laid out like it) b: zero_row / zero_slice pass 0; *rp, *sp receive the resolved ones. */
static void zero_pitches(size_t b, const size_t r[3], int zero_row, int zero_slice,
                         size_t *row_arg, size_t *slice_arg, size_t *rp, size_t *sp)
{
    *row_arg = zero_row ? 0 : W[b];
    *rp = zero_row ? r[0] : W[b];
    *slice_arg = zero_slice ? 0 : *rp * H[b];
    *sp = zero_slice ? r[1] * *rp : *slice_arg;
}

static void wait_event(cl_event ev, const char *what, size_t s, size_t d)
{
    if (!ev)
        return;
    cl_int err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS)
        cl_error(err, what, s, d);
    cl_int st = CL_COMPLETE;
    err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (err != CL_SUCCESS || st != CL_COMPLETE)
        cl_error(err != CL_SUCCESS ? err : st, "event status", s, d);
    clReleaseEvent(ev);
}

/* Compare `region` of `device` (laid out like buffer d at offset dof) with the mirror of
 * buffer s at offset so. Returns 0 when equal. */
static int compare_region(const unsigned char *device, size_t s, const size_t so[3],
                          const size_t r[3], size_t d, const size_t dof[3], const char *what)
{
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0]; x++) {
                unsigned char got = device[index_in(d, dof, x, y, z)];
                unsigned char want = mirror[s][index_in(s, so, x, y, z)];
                if (got != want) {
                    printf("FAIL: %s: coordinate (%zu, %zu, %zu) of the region: 0x%02x != "
                           "0x%02x\n",
                           what, x, y, z, got, want);
                    return -1;
                }
            }
    return 0;
}

static int map_verify(size_t b, const char *when)
{
    size_t n = W[b] * H[b] * D[b];
    cl_int err = CL_SUCCESS;
    unsigned char *m = clEnqueueMapBuffer(q, buf[b], CL_TRUE, CL_MAP_READ, 0, n, 0, NULL, NULL,
                                          &err);
    if (err != CL_SUCCESS || !m) {
        cl_error(err, "clEnqueueMapBuffer", b, b);
        return -1;
    }
    size_t zero[3] = {0, 0, 0}, whole[3] = {W[b], H[b], D[b]};
    char what[96];
    snprintf(what, sizeof what, "%s: buffer %zu (%zux%zux%zu) mapped", when, b, W[b], H[b],
             D[b]);
    int ret = compare_region(m, b, zero, whole, b, zero, what);
    err = clEnqueueUnmapMemObject(q, buf[b], m, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        cl_error(err, "clEnqueueUnmapMemObject", b, b);
    return ret;
}

static void CL_CALLBACK free_backing(cl_mem m, void *p)
{
    (void)m;
    free(p);
    destructors_run++;
}

/* One operation of the zero-pitch variant (RECT_ZERO_PITCHES): 4 draws choose the zero
 * pitches. Returns -1 on a wrong answer or wrong bytes, 1 when a copy was refused for a real
 * overlap, 0 otherwise. */
static int zero_pitch_op(size_t it, size_t op, size_t s, size_t d, const size_t so[3],
                         const size_t dof[3], const size_t r[3])
{
    int c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (int)(mt_next() % 2);
    size_t a_row, a_slice, a_rp, a_sp, b_row, b_slice, b_rp, b_sp;
    cl_int err;
    cl_event ev = NULL;
    cl_bool blocking = nonblocking ? CL_FALSE : CL_TRUE;
    cl_event *evp = nonblocking ? &ev : NULL;
    if (op == 0) {
        /* Source side a (buffer s), destination side b (buffer d); inside one buffer both
         * sides take the same pitches, as the specification requires. */
        if (s == d)
            c[2] = c[0], c[3] = c[1];
        zero_pitches(s, r, c[0], c[1], &a_row, &a_slice, &a_rp, &a_sp);
        zero_pitches(d, r, c[2], c[3], &b_row, &b_slice, &b_rp, &b_sp);
        size_t shared = s == d ? shared_bytes(W[s] * H[s] * D[s], so, dof, r, a_rp, a_sp) : 0;
        err = clEnqueueCopyBufferRect(q, buf[s], buf[d], so, dof, r, a_row, a_slice, b_row,
                                      b_slice, 0, NULL, evp);
        cl_int want = shared ? CL_MEM_COPY_OVERLAP : CL_SUCCESS;
        if (err != want) {
            printf("FAIL: op %zu: copy %zu -> %zu, origin (%zu,%zu,%zu) -> (%zu,%zu,%zu), "
                   "region %zux%zux%zu, pitches %zu/%zu -> %zu/%zu, %zu shared bytes: returned "
                   "%s, not %s\n",
                   it, s, d, so[0], so[1], so[2], dof[0], dof[1], dof[2], r[0], r[1], r[2],
                   a_row, a_slice, b_row, b_slice, shared, cl_err_name(err), cl_err_name(want));
            return -1;
        }
        if (shared)
            return 1;
        wait_event(ev, "copy event", s, d);
        unsigned char *stage = malloc(r[0] * r[1] * r[2]);
        EXPECT(stage != NULL, "out of memory");
        size_t k = 0;
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    stage[k++] = mirror[s][lin(so, a_rp, a_sp, x, y, z)];
        k = 0;
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    mirror[d][lin(dof, b_rp, b_sp, x, y, z)] = stage[k++];
        free(stage);
    } else if (op == 1) {
        /* Buffer side a (buffer s), host side b (laid out like buffer d). */
        zero_pitches(s, r, c[0], c[1], &a_row, &a_slice, &a_rp, &a_sp);
        zero_pitches(d, r, c[2], c[3], &b_row, &b_slice, &b_rp, &b_sp);
        memset(tmp, 0xff, tmp_size);
        err = clEnqueueReadBufferRect(q, buf[s], blocking, so, dof, r, a_row, a_slice, b_row,
                                      b_slice, tmp, 0, NULL, evp);
        if (err != CL_SUCCESS) {
            cl_error(err, "clEnqueueReadBufferRect", s, d);
            return -1;
        }
        wait_event(ev, "read event", s, d);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    if (tmp[lin(dof, b_rp, b_sp, x, y, z)] !=
                        mirror[s][lin(so, a_rp, a_sp, x, y, z)]) {
                        printf("FAIL: op %zu: read rect of %zu (pitches %zu/%zu, host %zu/%zu) "
                               "differs at (%zu,%zu,%zu)\n",
                               it, s, a_row, a_slice, b_row, b_slice, x, y, z);
                        return -1;
                    }
    } else {
        /* Buffer side a (buffer d), host side b (laid out like buffer s). */
        fill_random(tmp, tmp_size);
        zero_pitches(d, r, c[0], c[1], &a_row, &a_slice, &a_rp, &a_sp);
        zero_pitches(s, r, c[2], c[3], &b_row, &b_slice, &b_rp, &b_sp);
        err = clEnqueueWriteBufferRect(q, buf[d], blocking, dof, so, r, a_row, a_slice, b_row,
                                       b_slice, tmp, 0, NULL, evp);
        if (err != CL_SUCCESS) {
            cl_error(err, "clEnqueueWriteBufferRect", s, d);
            return -1;
        }
        wait_event(ev, "write event", s, d);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    mirror[d][lin(dof, a_rp, a_sp, x, y, z)] = tmp[lin(so, b_rp, b_sp, x, y, z)];
    }
    return 0;
}

/* RECT_REPLAY: one upstream-reported copy inside one buffer (see the header). */
static int replay(cl_context ctx, const char *which)
{
    size_t so[3], dof[3], r[3], row_arg, slice_arg;
    if (!strcmp(which, "cts2765")) {
        size_t a[3] = {14, 69, 100}, b[3] = {176, 181, 171}, c[3] = {224, 5, 226};
        memcpy(so, a, sizeof so), memcpy(dof, b, sizeof dof), memcpy(r, c, sizeof r);
        row_arg = 438, slice_arg = 0;
        W[0] = 438, H[0] = 353, D[0] = 408;
    } else if (!strcmp(which, "pocl2326")) {
        size_t a[3] = {11, 277, 388}, b[3] = {187, 87, 50}, c[3] = {6, 97, 845};
        memcpy(so, a, sizeof so), memcpy(dof, b, sizeof dof), memcpy(r, c, sizeof r);
        row_arg = 0, slice_arg = 7620;
        W[0] = 0;
    } else
        FAILF("RECT_REPLAY must be cts2765 or pocl2326, not %s", which);
    size_t rp = row_arg ? row_arg : r[0];
    size_t sp = slice_arg ? slice_arg : r[1] * rp;
    if (!W[0]) {
        /* Just large enough for both rectangles, seen as one row. */
        size_t e1 = lin(so, rp, sp, r[0] - 1, r[1] - 1, r[2] - 1) + 1;
        size_t e2 = lin(dof, rp, sp, r[0] - 1, r[1] - 1, r[2] - 1) + 1;
        W[0] = e1 > e2 ? e1 : e2, H[0] = 1, D[0] = 1;
    }
    size_t n = W[0] * H[0] * D[0];
    mirror[0] = malloc(n);
    unsigned char *backing = malloc(n);
    EXPECT(mirror[0] && backing, "out of memory");
    for (size_t i = 0; i < n; i++)
        mirror[0][i] = backing[i] = (unsigned char)(i * 131 + (i >> 9) + 7);
    cl_int err = CL_SUCCESS;
    buf[0] = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, n, backing, &err);
    CHECK_ERR(err, "clCreateBuffer");
    size_t shared = shared_bytes(n, so, dof, r, rp, sp);
    STEP("replayed copy");
    err = clEnqueueCopyBufferRect(q, buf[0], buf[0], so, dof, r, row_arg, slice_arg, row_arg,
                                  slice_arg, 0, NULL, NULL);
    cl_int want = shared ? CL_MEM_COPY_OVERLAP : CL_SUCCESS;
    printf("replay %s: %zu-byte buffer, origin (%zu,%zu,%zu) -> (%zu,%zu,%zu), region "
           "%zux%zux%zu, row pitch %zu, slice pitch %zu (resolved %zu, %zu): %zu shared bytes; "
           "returned %s, the specification requires %s\n",
           which, n, so[0], so[1], so[2], dof[0], dof[1], dof[2], r[0], r[1], r[2], row_arg,
           slice_arg, rp, sp, shared, cl_err_name(err), cl_err_name(want));
    if (err == CL_SUCCESS) {
        unsigned char *stage = malloc(r[0] * r[1] * r[2]);
        EXPECT(stage != NULL, "out of memory");
        size_t k = 0;
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    stage[k++] = mirror[0][lin(so, rp, sp, x, y, z)];
        k = 0;
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    mirror[0][lin(dof, rp, sp, x, y, z)] = stage[k++];
        free(stage);
    }
    STEP("replay map check");
    if (map_verify(0, "after the replayed copy"))
        return 1;
    CHECK(clReleaseMemObject(buf[0]));
    free(backing);
    if (err != want) {
        printf("FAIL: replay %s returned %s, not %s\n", which, cl_err_name(err),
               cl_err_name(want));
        return 1;
    }
    return 0;
}

int main(void)
{
    install_watchdog(900);
    cl_uint seed = (cl_uint)env_number("RECT_SEED", 0);
    size_t tries = env_number("RECT_TRIES", 50);
    size_t dim_cap = env_number("RECT_MAX_DIM", 0);
    int verify_each = (int)env_number("RECT_VERIFY_EACH", 0);
    int probe_overlap = (int)env_number("RECT_PROBE_OVERLAP", 0);
    nonblocking = (int)env_number("RECT_NONBLOCKING", 0);
    verbose = (int)env_number("RECT_VERBOSE", 0);
    int zero_mode = (int)env_number("RECT_ZERO_PITCHES", 0);
    const char *replay_name = getenv("RECT_REPLAY");
    const char *flags_name = getenv("RECT_FLAGS");
    if (!flags_name || !*flags_name)
        flags_name = "use";
    cl_mem_flags flags;
    if (!strcmp(flags_name, "use"))
        flags = CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE;
    else if (!strcmp(flags_name, "copy"))
        flags = CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE;
    else if (!strcmp(flags_name, "alloc"))
        flags = CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE;
    else
        FAILF("RECT_FLAGS must be use, copy or alloc, not %s", flags_name);

    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    q = create_queue(ctx, dev, 0);
    if (replay_name && *replay_name) {
        if (replay(ctx, replay_name))
            return 1;
        CHECK(clReleaseCommandQueue(q));
        CHECK(clReleaseContext(ctx));
        return pass("cts_rect");
    }
    mt_seed(seed);

    STEP("shapes");
    cl_ulong max_alloc = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
    EXPECT(max_alloc > 0, "CL_DEVICE_MAX_MEM_ALLOC_SIZE is 0");
    struct sysinfo si;
    sysinfo(&si);
    cl_ulong host_mem = (cl_ulong)si.totalram;
    if (max_alloc > host_mem / 2)
        max_alloc = host_mem / 2;
    size_t max_dim = (size_t)cbrt((double)max_alloc) / 2;
    if (max_dim == 0)
        max_dim = (size_t)max_alloc;
    if (dim_cap && max_dim > dim_cap)
        max_dim = dim_cap;
    printf("seed %u, %zu operations, flags %s, max alloc %llu, largest dimension %zu%s\n", seed,
           tries, flags_name, (unsigned long long)max_alloc, max_dim,
           zero_mode ? ", zero-pitch variant" : "");

    size_t total = 0;
    for (size_t b = 0; b < NBUF; b++) {
        size_t n = 0, attempts = 0;
        do {
            W[b] = rnd_size(1, max_dim);
            H[b] = rnd_size(1, max_dim);
            D[b] = rnd_size(1, max_dim);
            attempts++;
        } while (attempts < 1048576 && (n = W[b] * H[b] * D[b]) > max_alloc);
        EXPECT(attempts < 1048576, "no buffer shape under %llu bytes",
               (unsigned long long)max_alloc);
        if (n > tmp_size)
            tmp_size = n;
        total += n;
        if (verbose)
            printf("buffer %zu is %zux%zux%zu\n", b, W[b], H[b], D[b]);
    }
    printf("buffers: %zu bytes in all, largest %zu\n", total, tmp_size);
    tmp = malloc(tmp_size);
    EXPECT(tmp != NULL, "out of memory");

    STEP("create buffers");
    for (size_t b = 0; b < NBUF; b++) {
        size_t n = W[b] * H[b] * D[b];
        mirror[b] = malloc(n);
        unsigned char *backing = malloc(n);
        EXPECT(mirror[b] && backing, "out of memory");
        fill_random(mirror[b], n);
        memcpy(backing, mirror[b], n);
        cl_int err = CL_SUCCESS;
        buf[b] = clCreateBuffer(ctx, flags, n, backing, &err);
        if (err != CL_SUCCESS || !buf[b])
            FAILF("clCreateBuffer(%zu bytes, %s) returned %s", n, flags_name, cl_err_name(err));
        CHECK(clSetMemObjectDestructorCallback(buf[b], free_backing, backing));
    }

    STEP("operations");
    size_t counts[3] = {0, 0, 0}, skipped = 0, probed = 0, refused = 0;
    for (size_t it = 0; it < tries; it++) {
        size_t s = rnd_size(0, NBUF), d = rnd_size(0, NBUF);
        size_t mw = W[s] < W[d] ? W[s] : W[d];
        size_t mh = H[s] < H[d] ? H[s] : H[d];
        size_t md = D[s] < D[d] ? D[s] : D[d];
        size_t mx = rnd_size(0, mw - 1), my = rnd_size(0, mh - 1), mz = rnd_size(0, md - 1);
        size_t r[3];
        r[0] = rnd_size(1, mw - mx);
        r[1] = rnd_size(1, mh - my);
        r[2] = rnd_size(1, md - mz);
        size_t so[3];
        so[0] = rnd_size(0, W[s] - r[0]);
        so[1] = rnd_size(0, H[s] - r[1]);
        so[2] = rnd_size(0, D[s] - r[2]);
        size_t dof[3];
        dof[0] = rnd_size(0, W[d] - r[0]);
        dof[1] = rnd_size(0, H[d] - r[1]);
        dof[2] = rnd_size(0, D[d] - r[2]);
        size_t op = rnd_size(0, 3);
        static const char *names[3] = {"Copy", "Read", "Write"};
        if (verbose)
            printf("%zu %s %zu offset (%zu,%zu,%zu) -> %zu offset (%zu,%zu,%zu) region "
                   "(%zux%zux%zu = %zu)\n",
                   it, names[op], s, so[0], so[1], so[2], d, dof[0], dof[1], dof[2], r[0], r[1],
                   r[2], r[0] * r[1] * r[2]);
        size_t sp = slice_pitch_of(s), dp = slice_pitch_of(d);
        cl_int err;
        cl_event ev = NULL;
        if (zero_mode) {
            int zr = zero_pitch_op(it, op, s, d, so, dof, r);
            if (zr < 0)
                return 1;
            refused += (size_t)zr;
        } else if (op == 0) {
            if (suite_says_overlap(so, dof, r, W[s], sp)) {
                skipped++;
                if (probe_overlap && s == d && boxes_share_bytes(so, dof, r)) {
                    probed++;
                    err = clEnqueueCopyBufferRect(q, buf[s], buf[d], so, dof, r, W[s], sp, W[d],
                                                  dp, 0, NULL, NULL);
                    if (err != CL_MEM_COPY_OVERLAP) {
                        printf("FAIL: op %zu: a copy inside buffer %zu whose boxes overlap "
                               "returned %s, not CL_MEM_COPY_OVERLAP\n",
                               it, s, cl_err_name(err));
                        return 1;
                    }
                }
                continue;
            }
            err = clEnqueueCopyBufferRect(q, buf[s], buf[d], so, dof, r, W[s], sp, W[d], dp, 0,
                                          NULL, nonblocking ? &ev : NULL);
            if (err != CL_SUCCESS) {
                printf("op %zu: copy %zu (%zux%zux%zu) (%zu,%zu,%zu) -> %zu (%zux%zux%zu) "
                       "(%zu,%zu,%zu) region %zux%zux%zu\n",
                       it, s, W[s], H[s], D[s], so[0], so[1], so[2], d, W[d], H[d], D[d],
                       dof[0], dof[1], dof[2], r[0], r[1], r[2]);
                cl_error(err, "clEnqueueCopyBufferRect", s, d);
            }
            else if (ev)
                wait_event(ev, "copy event", s, d);
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        mirror[d][index_in(d, dof, x, y, z)] =
                            mirror[s][index_in(s, so, x, y, z)];
        } else if (op == 1) {
            memset(tmp, 0xff, tmp_size);
            err = clEnqueueReadBufferRect(q, buf[s], nonblocking ? CL_FALSE : CL_TRUE, so, dof,
                                          r, W[s], sp, W[d], dp, tmp, 0, NULL,
                                          nonblocking ? &ev : NULL);
            if (err != CL_SUCCESS)
                cl_error(err, "clEnqueueReadBufferRect", s, d);
            else
                wait_event(ev, "read event", s, d);
            char what[64];
            snprintf(what, sizeof what, "op %zu: read rect of %zu", it, s);
            if (compare_region(tmp, s, so, r, d, dof, what))
                return 1;
        } else {
            fill_random(tmp, tmp_size);
            err = clEnqueueWriteBufferRect(q, buf[d], nonblocking ? CL_FALSE : CL_TRUE, dof, so,
                                           r, W[d], dp, W[s], sp, tmp, 0, NULL,
                                           nonblocking ? &ev : NULL);
            if (err != CL_SUCCESS)
                cl_error(err, "clEnqueueWriteBufferRect", s, d);
            else
                wait_event(ev, "write event", s, d);
            for (size_t z = 0; z < r[2]; z++)
                for (size_t y = 0; y < r[1]; y++)
                    for (size_t x = 0; x < r[0]; x++)
                        mirror[d][index_in(d, dof, x, y, z)] = tmp[index_in(s, so, x, y, z)];
        }
        counts[op]++;
        if (verify_each) {
            char when[32];
            snprintf(when, sizeof when, "after op %zu", it);
            if (map_verify(s, when) || map_verify(d, when))
                return 1;
        }
    }

    STEP("final map check");
    int bad = 0;
    for (size_t b = 0; b < NBUF && !bad; b++)
        bad = map_verify(b, "end");
    CHECK(clFinish(q));
    printf("copies=%zu reads=%zu writes=%zu skipped_copies=%zu probed_overlaps=%zu "
           "refused_overlaps=%zu cl_errors=%u\n",
           counts[0], counts[1], counts[2], skipped, probed, refused, cl_errors);

    STEP("release");
    for (size_t b = 0; b < NBUF; b++) {
        CHECK(clReleaseMemObject(buf[b]));
        free(mirror[b]);
    }
    free(tmp);
    CHECK(clReleaseCommandQueue(q));
    CHECK(clReleaseContext(ctx));
    printf("destructor callbacks run: %d of %d\n", destructors_run, NBUF);
    if (bad)
        return 1;
    if (cl_errors) {
        printf("FAIL: %u OpenCL calls failed\n", cl_errors);
        return 1;
    }
    return pass("cts_rect");
}
