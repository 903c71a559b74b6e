/*
 * buffers.c: buffer objects and every host-side buffer command.
 *
 * Covers each CL_MEM_* flag with its host-pointer semantics (USE_HOST_PTR,
 * COPY_HOST_PTR, ALLOC_HOST_PTR, READ_ONLY / WRITE_ONLY / READ_WRITE and the
 * HOST_* access flags, including the errors of invalid combinations and of
 * commands the HOST_* flags forbid), memory-object queries, sub-buffers,
 * read / write / copy / fill, the Rect variants, map / unmap, migration,
 * destructor callbacks and, on an FPGA platform, the Intel bank-select bits.
 * Every result is compared with a reference computed on the host.
 */
#include "common.h"

#define N 4096 /* elements of the main test buffers */

static cl_context g_ctx;
static cl_command_queue g_q;
static cl_device_id g_dev;

static cl_mem make_buffer(cl_mem_flags flags, size_t size, void *host)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(g_ctx, flags, size, host, &err);
    if (err != CL_SUCCESS || m == NULL)
        FAILF("clCreateBuffer(flags 0x%llx, size %zu, host %p) returned %s",
              (unsigned long long)flags, size, host, cl_err_name(err));
    return m;
}

/* clCreateBuffer must fail with `expected` and return NULL. */
static void expect_create_error(cl_mem_flags flags, size_t size, void *host, cl_int expected,
                                const char *what)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(g_ctx, flags, size, host, &err);
    if (err != expected)
        FAILF("clCreateBuffer(%s) returned %s, expected %s", what, cl_err_name(err),
              cl_err_name(expected));
    EXPECT(m == NULL, "failed clCreateBuffer(%s) returned a non-NULL object", what);
    printf("  ok: clCreateBuffer(%s) -> %s\n", what, cl_err_name(expected));
}

static void read_all(cl_mem m, size_t offset, size_t size, void *dst)
{
    CHECK(clEnqueueReadBuffer(g_q, m, CL_TRUE, offset, size, dst, 0, NULL, NULL));
}

static void write_all(cl_mem m, size_t offset, size_t size, const void *src)
{
    CHECK(clEnqueueWriteBuffer(g_q, m, CL_TRUE, offset, size, src, 0, NULL, NULL));
}

static void fill_pattern(cl_uint *p, size_t n, cl_uint seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = seed * 2654435761u + (cl_uint)i * 40503u + 7u;
}

static void expect_equal_u32(const cl_uint *got, const cl_uint *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            FAILF("%s: element %zu is 0x%08x, expected 0x%08x", what, i, got[i], want[i]);
}

static void expect_equal_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                               const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            FAILF("%s: byte %zu is 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
}

static cl_mem_flags mem_flags(cl_mem m)
{
    cl_mem_flags f = 0;
    CHECK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL));
    return f;
}

/* ------------------------------------------------------------------ */

static void test_copy_host_ptr(void)
{
    STEP("CL_MEM_COPY_HOST_PTR");
    static cl_uint host[N], back[N], orig[N];
    fill_pattern(host, N, 1);
    memcpy(orig, host, sizeof host);
    cl_mem m = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host);
    /* The buffer holds a copy made at creation: later host changes do not show. */
    memset(host, 0xAB, sizeof host);
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, orig, N, "COPY_HOST_PTR contents");
    void *hp = (void *)1;
    CHECK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    EXPECT(hp == NULL, "CL_MEM_HOST_PTR of a COPY_HOST_PTR buffer must be NULL");
    CHECK(clReleaseMemObject(m));
    printf("  ok: COPY_HOST_PTR copies at creation\n");
}

static void test_use_host_ptr(void)
{
    STEP("CL_MEM_USE_HOST_PTR");
    /* Aligned generously so implementations may use the memory in place. */
    static cl_uint host[N] __attribute__((aligned(4096)));
    static cl_uint want[N], back[N];
    fill_pattern(host, N, 2);
    memcpy(want, host, sizeof host);
    cl_mem m = make_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    void *hp = NULL;
    CHECK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    EXPECT(hp == (void *)host, "CL_MEM_HOST_PTR %p, expected the host pointer %p", hp,
           (void *)host);
    /* Initial contents come from the host memory. */
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "USE_HOST_PTR initial contents");

    /* A device-side write becomes visible in host memory once the region is mapped,
     * and the mapped pointer is derived from host_ptr. */
    cl_uint patch[64];
    fill_pattern(patch, 64, 3);
    write_all(m, 128 * sizeof(cl_uint), sizeof patch, patch);
    memcpy(want + 128, patch, sizeof patch);
    cl_int err = CL_SUCCESS;
    cl_uint *mp = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL,
                                     NULL, &err);
    CHECK_ERR(err, "clEnqueueMapBuffer(USE_HOST_PTR)");
    EXPECT(mp == host, "map of a USE_HOST_PTR buffer returned %p, expected host_ptr %p",
           (void *)mp, (void *)host);
    expect_equal_u32(host, want, N, "host memory after map (USE_HOST_PTR)");
    CHECK(clEnqueueUnmapMemObject(g_q, m, mp, 0, NULL, NULL));

    /* A mapped offset region points into host memory at that offset. */
    cl_uint *mp2 = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_WRITE, 256 * sizeof(cl_uint),
                                      16 * sizeof(cl_uint), 0, NULL, NULL, &err);
    CHECK_ERR(err, "clEnqueueMapBuffer(USE_HOST_PTR, offset)");
    EXPECT(mp2 == host + 256, "offset map returned %p, expected %p", (void *)mp2,
           (void *)(host + 256));
    for (int i = 0; i < 16; i++)
        mp2[i] = 0xC0DE0000u + (cl_uint)i;
    CHECK(clEnqueueUnmapMemObject(g_q, m, mp2, 0, NULL, NULL));
    for (int i = 0; i < 16; i++)
        want[256 + i] = 0xC0DE0000u + (cl_uint)i;
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "USE_HOST_PTR after mapped write");

    /* A sub-buffer of a USE_HOST_PTR buffer reports host_ptr + origin. */
    cl_uint align_bits = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                          NULL));
    size_t origin = align_bits / 8;
    if (origin + 64 <= sizeof host) {
        cl_buffer_region r = {origin, 64};
        cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        CHECK_ERR(err, "clCreateSubBuffer(USE_HOST_PTR parent)");
        CHECK(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
        EXPECT(hp == (char *)host + origin, "sub-buffer CL_MEM_HOST_PTR %p, expected %p", hp,
               (void *)((char *)host + origin));
        CHECK(clReleaseMemObject(sub));
    }
    CHECK(clReleaseMemObject(m));
    printf("  ok: USE_HOST_PTR uses host memory (map returns host_ptr)\n");
}

static void test_alloc_host_ptr(void)
{
    STEP("CL_MEM_ALLOC_HOST_PTR");
    static cl_uint want[N], back[N];
    cl_int err = CL_SUCCESS;
    cl_mem m = make_buffer(CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, sizeof want, NULL);
    cl_uint *p = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_WRITE, 0, sizeof want, 0, NULL,
                                    NULL, &err);
    CHECK_ERR(err, "clEnqueueMapBuffer(ALLOC_HOST_PTR)");
    fill_pattern(want, N, 4);
    memcpy(p, want, sizeof want);
    CHECK(clEnqueueUnmapMemObject(g_q, m, p, 0, NULL, NULL));
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "ALLOC_HOST_PTR contents written through a map");
    EXPECT(mem_flags(m) == (CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE), "flags 0x%llx",
           (unsigned long long)mem_flags(m));
    CHECK(clReleaseMemObject(m));

    /* ALLOC_HOST_PTR | COPY_HOST_PTR: allocated and initialized from host memory. */
    static cl_uint init[N];
    fill_pattern(init, N, 5);
    m = make_buffer(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, init, N, "ALLOC_HOST_PTR|COPY_HOST_PTR contents");
    CHECK(clReleaseMemObject(m));
    printf("  ok: ALLOC_HOST_PTR (alone and with COPY_HOST_PTR)\n");
}

static void test_flag_errors(void)
{
    STEP("flag combinations and their errors");
    static cl_uint host[64];
    cl_ulong max_alloc = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                          NULL));
    expect_create_error(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL, CL_INVALID_VALUE,
                        "READ_WRITE|READ_ONLY");
    expect_create_error(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, 64, NULL, CL_INVALID_VALUE,
                        "READ_WRITE|WRITE_ONLY");
    expect_create_error(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, CL_INVALID_VALUE,
                        "READ_ONLY|WRITE_ONLY");
    expect_create_error(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof host, host,
                        CL_INVALID_VALUE, "USE_HOST_PTR|COPY_HOST_PTR");
    expect_create_error(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, sizeof host, host,
                        CL_INVALID_VALUE, "USE_HOST_PTR|ALLOC_HOST_PTR");
    expect_create_error(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, NULL,
                        CL_INVALID_VALUE, "HOST_READ_ONLY|HOST_WRITE_ONLY");
    expect_create_error(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, 64, NULL,
                        CL_INVALID_VALUE, "HOST_NO_ACCESS|HOST_READ_ONLY");
    expect_create_error(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY, 64, NULL,
                        CL_INVALID_VALUE, "HOST_NO_ACCESS|HOST_WRITE_ONLY");
    expect_create_error(CL_MEM_USE_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR,
                        "USE_HOST_PTR with NULL host_ptr");
    expect_create_error(CL_MEM_COPY_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR,
                        "COPY_HOST_PTR with NULL host_ptr");
    expect_create_error(CL_MEM_READ_WRITE, sizeof host, host, CL_INVALID_HOST_PTR,
                        "host_ptr without USE/COPY_HOST_PTR");
    expect_create_error(CL_MEM_READ_WRITE, 0, NULL, CL_INVALID_BUFFER_SIZE, "size 0");
    if (max_alloc < (cl_ulong)SIZE_MAX)
        expect_create_error(CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL,
                            CL_INVALID_BUFFER_SIZE, "size > CL_DEVICE_MAX_MEM_ALLOC_SIZE");

    /* Flags 0 means READ_WRITE; the kernel-access flags are recorded as given. */
    const cl_mem_flags ok_flags[] = {
        0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
        CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_NO_ACCESS,
        CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
    };
    for (size_t i = 0; i < sizeof ok_flags / sizeof ok_flags[0]; i++) {
        cl_mem m = make_buffer(ok_flags[i], 256, NULL);
        cl_mem_flags got = mem_flags(m);
        cl_mem_flags want = ok_flags[i] ? ok_flags[i] : CL_MEM_READ_WRITE;
        EXPECT(got == want || (ok_flags[i] == 0 && got == 0),
               "CL_MEM_FLAGS 0x%llx, created with 0x%llx", (unsigned long long)got,
               (unsigned long long)ok_flags[i]);
        size_t sz = 0;
        CHECK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof sz, &sz, NULL));
        EXPECT(sz == 256, "CL_MEM_SIZE %zu", sz);
        CHECK(clReleaseMemObject(m));
    }
    /* The kernel-access flags do not restrict host commands. */
    cl_uint v[64], back[64];
    fill_pattern(v, 64, 6);
    cl_mem ro = make_buffer(CL_MEM_READ_ONLY, sizeof v, NULL);
    cl_mem wo = make_buffer(CL_MEM_WRITE_ONLY, sizeof v, NULL);
    write_all(ro, 0, sizeof v, v);
    CHECK(clEnqueueCopyBuffer(g_q, ro, wo, 0, 0, sizeof v, 0, NULL, NULL));
    read_all(wo, 0, sizeof back, back);
    expect_equal_u32(back, v, 64, "READ_ONLY -> WRITE_ONLY host copy");
    CHECK(clReleaseMemObject(ro));
    CHECK(clReleaseMemObject(wo));
    printf("  ok: kernel-access flags recorded; host commands allowed on them\n");
}

static void test_host_access_flags(void)
{
    STEP("CL_MEM_HOST_* access restrictions");
    cl_int err = CL_SUCCESS;
    cl_uint v[64], back[64];
    fill_pattern(v, 64, 7);
    size_t origin[3] = {0, 0, 0}, region[3] = {16, 2, 1};

    /* HOST_WRITE_ONLY: writes and write-maps work; reads and read-maps do not. */
    cl_mem hw = make_buffer(CL_MEM_HOST_WRITE_ONLY, sizeof v, NULL);
    write_all(hw, 0, sizeof v, v);
    EXPECT_CODE(clEnqueueReadBuffer(g_q, hw, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, hw, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                        back, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    void *p = clEnqueueMapBuffer(g_q, hw, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_OPERATION && p == NULL, "read-map of HOST_WRITE_ONLY: %s",
           cl_err_name(err));
    p = clEnqueueMapBuffer(g_q, hw, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err);
    CHECK_ERR(err, "write-map of HOST_WRITE_ONLY");
    CHECK(clEnqueueUnmapMemObject(g_q, hw, p, 0, NULL, NULL));
    /* Device-side copies are not host access: copy out and read the copy. */
    cl_mem plain = make_buffer(CL_MEM_READ_WRITE, sizeof v, NULL);
    CHECK(clEnqueueCopyBuffer(g_q, hw, plain, 0, 0, sizeof v, 0, NULL, NULL));
    read_all(plain, 0, sizeof back, back);
    expect_equal_u32(back, v, 64, "HOST_WRITE_ONLY contents (copied out)");
    CHECK(clReleaseMemObject(hw));

    /* HOST_READ_ONLY: reads and read-maps work; writes and write-maps do not. */
    cl_mem hr = make_buffer(CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof v, v);
    read_all(hr, 0, sizeof back, back);
    expect_equal_u32(back, v, 64, "HOST_READ_ONLY|COPY_HOST_PTR contents");
    EXPECT_CODE(clEnqueueWriteBuffer(g_q, hr, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    EXPECT_CODE(clEnqueueWriteBufferRect(g_q, hr, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                         v, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(g_q, hr, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_OPERATION && p == NULL, "write-map of HOST_READ_ONLY: %s",
           cl_err_name(err));
    p = clEnqueueMapBuffer(g_q, hr, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, NULL,
                           NULL, &err);
    EXPECT(err == CL_INVALID_OPERATION && p == NULL,
           "write-invalidate-map of HOST_READ_ONLY: %s", cl_err_name(err));
    p = clEnqueueMapBuffer(g_q, hr, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
    CHECK_ERR(err, "read-map of HOST_READ_ONLY");
    expect_equal_u32(p, v, 16, "HOST_READ_ONLY mapped contents");
    CHECK(clEnqueueUnmapMemObject(g_q, hr, p, 0, NULL, NULL));
    CHECK(clReleaseMemObject(hr));

    /* HOST_NO_ACCESS: no reads, writes or maps; device-side copies and fills work. */
    cl_mem hn = make_buffer(CL_MEM_HOST_NO_ACCESS, sizeof v, NULL);
    EXPECT_CODE(clEnqueueReadBuffer(g_q, hn, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    EXPECT_CODE(clEnqueueWriteBuffer(g_q, hn, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(g_q, hn, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_OPERATION && p == NULL, "map of HOST_NO_ACCESS: %s",
           cl_err_name(err));
    write_all(plain, 0, sizeof v, v);
    CHECK(clEnqueueCopyBuffer(g_q, plain, hn, 0, 0, sizeof v, 0, NULL, NULL));
    cl_uint zero = 0;
    CHECK(clEnqueueFillBuffer(g_q, plain, &zero, sizeof zero, 0, sizeof v, 0, NULL, NULL));
    CHECK(clEnqueueCopyBuffer(g_q, hn, plain, 0, 0, sizeof v, 0, NULL, NULL));
    read_all(plain, 0, sizeof back, back);
    expect_equal_u32(back, v, 64, "HOST_NO_ACCESS round trip by device copies");
    CHECK(clReleaseMemObject(hn));
    CHECK(clReleaseMemObject(plain));
    printf("  ok: HOST_WRITE_ONLY / HOST_READ_ONLY / HOST_NO_ACCESS enforced\n");
}

static void test_read_write_copy_fill(void)
{
    STEP("read/write/copy/fill");
    static cl_uint a[N], b[N], want[N], back[N];
    fill_pattern(a, N, 8);
    cl_mem ma = make_buffer(CL_MEM_READ_WRITE, sizeof a, NULL);
    cl_mem mb = make_buffer(CL_MEM_READ_WRITE, sizeof a, NULL);
    write_all(ma, 0, sizeof a, a);

    /* Partial writes and reads at offsets. */
    fill_pattern(b, 100, 9);
    write_all(ma, 1000 * sizeof(cl_uint), 100 * sizeof(cl_uint), b);
    memcpy(want, a, sizeof a);
    memcpy(want + 1000, b, 100 * sizeof(cl_uint));
    read_all(ma, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "write at offset");
    cl_uint part[37];
    read_all(ma, 995 * sizeof(cl_uint), sizeof part, part);
    expect_equal_u32(part, want + 995, 37, "read at offset");
    /* Unaligned byte offsets and sizes. */
    unsigned char bytes[13], wantb[13];
    read_all(ma, 4001, sizeof bytes, bytes);
    memcpy(wantb, (unsigned char *)want + 4001, sizeof wantb);
    expect_equal_bytes(bytes, wantb, sizeof bytes, "unaligned byte read");

    /* Copies: whole, at offsets, and within one buffer without overlap. */
    CHECK(clEnqueueCopyBuffer(g_q, ma, mb, 0, 0, sizeof a, 0, NULL, NULL));
    read_all(mb, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "full copy");
    CHECK(clEnqueueCopyBuffer(g_q, ma, mb, 10 * sizeof(cl_uint), 3000 * sizeof(cl_uint),
                              500 * sizeof(cl_uint), 0, NULL, NULL));
    static cl_uint wantb2[N];
    memcpy(wantb2, want, sizeof want);
    memcpy(wantb2 + 3000, want + 10, 500 * sizeof(cl_uint));
    read_all(mb, 0, sizeof back, back);
    expect_equal_u32(back, wantb2, N, "copy at offsets");
    CHECK(clEnqueueCopyBuffer(g_q, mb, mb, 0, 2048 * sizeof(cl_uint), 2048 * sizeof(cl_uint),
                              0, NULL, NULL));
    memcpy(wantb2 + 2048, wantb2, 2048 * sizeof(cl_uint));
    read_all(mb, 0, sizeof back, back);
    expect_equal_u32(back, wantb2, N, "copy within one buffer");
    EXPECT_CODE(clEnqueueCopyBuffer(g_q, mb, mb, 0, 100, 200, 0, NULL, NULL),
                CL_MEM_COPY_OVERLAP);
    EXPECT_CODE(clEnqueueCopyBuffer(g_q, ma, mb, sizeof a - 4, 0, 8, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueCopyBuffer(g_q, ma, mb, 0, sizeof a - 4, 8, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueCopyBuffer(g_q, ma, mb, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);

    /* Out-of-range and NULL reads/writes. */
    EXPECT_CODE(clEnqueueReadBuffer(g_q, ma, CL_TRUE, sizeof a - 4, 8, back, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueWriteBuffer(g_q, ma, CL_TRUE, sizeof a, 4, a, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadBuffer(g_q, ma, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueWriteBuffer(g_q, ma, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);

    /* Fill with every legal pattern size; the pattern repeats from the fill offset. */
    STEP("fill buffer");
    const size_t psizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (size_t k = 0; k < sizeof psizes / sizeof psizes[0]; k++) {
        size_t ps = psizes[k];
        unsigned char pattern[128];
        for (size_t i = 0; i < ps; i++)
            pattern[i] = (unsigned char)(0x30 + k * 17 + i * 3);
        write_all(ma, 0, sizeof a, a);
        size_t off = ps * 5, size = ps * 40;
        CHECK(clEnqueueFillBuffer(g_q, ma, pattern, ps, off, size, 0, NULL, NULL));
        CHECK(clFinish(g_q));
        unsigned char *wb = (unsigned char *)want;
        memcpy(want, a, sizeof a);
        for (size_t i = 0; i < size; i++)
            wb[off + i] = pattern[i % ps];
        read_all(ma, 0, sizeof back, back);
        expect_equal_u32(back, want, N, "fill result");
    }
    cl_uint pat = 1;
    unsigned char pat3[3] = {1, 2, 3};
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, pat3, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, &pat, 4, 2, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, &pat, 4, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, NULL, 4, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, &pat, 0, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(g_q, ma, &pat, 4, sizeof a - 4, 8, 0, NULL, NULL),
                CL_INVALID_VALUE);

    /* Non-blocking write followed by a blocking read in the same in-order queue. */
    STEP("non-blocking write then read");
    static cl_uint nb[N];
    fill_pattern(nb, N, 10);
    cl_event wev = NULL;
    CHECK(clEnqueueWriteBuffer(g_q, ma, CL_FALSE, 0, sizeof nb, nb, 0, NULL, &wev));
    read_all(ma, 0, sizeof back, back);
    EXPECT(event_status(wev) == CL_COMPLETE, "write not complete after a later blocking read");
    expect_equal_u32(back, nb, N, "non-blocking write then blocking read");
    cl_command_type ct = 0;
    CHECK(clGetEventInfo(wev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_COMMAND_WRITE_BUFFER, "command type 0x%x", ct);
    CHECK(clReleaseEvent(wev));
    CHECK(clReleaseMemObject(ma));
    CHECK(clReleaseMemObject(mb));
    printf("  ok: read/write/copy/fill with offsets, every pattern size, and their errors\n");
}

/* Reference for the Rect commands: copy a 3-D region between two byte arrays. */
static void rect_copy_ref(unsigned char *dst, const size_t dorg[3], size_t drp, size_t dsp,
                          const unsigned char *src, const size_t sorg[3], size_t srp, size_t ssp,
                          const size_t region[3])
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dst + (dorg[2] + z) * dsp + (dorg[1] + y) * drp + dorg[0],
                   src + (sorg[2] + z) * ssp + (sorg[1] + y) * srp + sorg[0], region[0]);
}

static void test_rect(void)
{
    STEP("Rect variants");
    /* Device buffer viewed as 3-D: row pitch 64 bytes, slice pitch 64*16 bytes, 8 slices. */
    enum { BRP = 64, BSP = 64 * 16, BZ = 8, BSIZE = BSP * BZ };
    /* Host array: row pitch 48, slice pitch 48*12, 6 slices. */
    enum { HRP = 48, HSP = 48 * 12, HZ = 6, HSIZE = HSP * HZ };
    static unsigned char host[HSIZE], dev_ref[BSIZE], back[BSIZE], host_back[HSIZE];
    static unsigned char host_ref[HSIZE];
    for (size_t i = 0; i < HSIZE; i++)
        host[i] = (unsigned char)(i * 7 + 3);
    for (size_t i = 0; i < BSIZE; i++)
        dev_ref[i] = (unsigned char)(i * 13 + 1);
    cl_mem m = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BSIZE, dev_ref);

    const size_t borg[3] = {5, 3, 2}, horg[3] = {7, 1, 1}, region[3] = {20, 9, 4};
    CHECK(clEnqueueWriteBufferRect(g_q, m, CL_TRUE, borg, horg, region, BRP, BSP, HRP, HSP,
                                   host, 0, NULL, NULL));
    rect_copy_ref(dev_ref, borg, BRP, BSP, host, horg, HRP, HSP, region);
    read_all(m, 0, BSIZE, back);
    expect_equal_bytes(back, dev_ref, BSIZE, "WriteBufferRect");

    memset(host_back, 0x5A, sizeof host_back);
    memset(host_ref, 0x5A, sizeof host_ref);
    const size_t borg2[3] = {1, 0, 3}, horg2[3] = {2, 2, 0}, region2[3] = {30, 7, 5};
    CHECK(clEnqueueReadBufferRect(g_q, m, CL_TRUE, borg2, horg2, region2, BRP, BSP, HRP, HSP,
                                  host_back, 0, NULL, NULL));
    rect_copy_ref(host_ref, horg2, HRP, HSP, dev_ref, borg2, BRP, BSP, region2);
    expect_equal_bytes(host_back, host_ref, HSIZE, "ReadBufferRect");

    /* Pitches of 0 mean tightly packed rows (region[0]) and slices (region[1] * row pitch). */
    STEP("Rect with zero pitches");
    const size_t zero3[3] = {0, 0, 0}, r3[3] = {16, 4, 2};
    unsigned char packed[16 * 4 * 2], packed_ref[16 * 4 * 2];
    CHECK(clEnqueueReadBufferRect(g_q, m, CL_TRUE, zero3, zero3, r3, 0, 0, 0, 0, packed, 0, NULL,
                                  NULL));
    rect_copy_ref(packed_ref, zero3, 16, 64, dev_ref, zero3, 16, 64, r3);
    expect_equal_bytes(packed, packed_ref, sizeof packed, "ReadBufferRect with zero pitches");

    STEP("CopyBufferRect");
    static unsigned char dst_ref[BSIZE];
    for (size_t i = 0; i < BSIZE; i++)
        dst_ref[i] = (unsigned char)(255 - i % 251);
    cl_mem d = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BSIZE, dst_ref);
    const size_t sorg[3] = {3, 2, 1}, dorg[3] = {9, 4, 0}, creg[3] = {17, 6, 3};
    const size_t DRP = 32, DSP = 32 * 20;
    CHECK(clEnqueueCopyBufferRect(g_q, m, d, sorg, dorg, creg, BRP, BSP, DRP, DSP, 0, NULL,
                                  NULL));
    CHECK(clFinish(g_q));
    rect_copy_ref(dst_ref, dorg, DRP, DSP, dev_ref, sorg, BRP, BSP, creg);
    read_all(d, 0, BSIZE, back);
    expect_equal_bytes(back, dst_ref, BSIZE, "CopyBufferRect");
    /* Same buffer, disjoint regions, same pitches. */
    const size_t s2[3] = {0, 0, 0}, d2[3] = {0, 0, 4}, r2[3] = {64, 16, 4};
    CHECK(clEnqueueCopyBufferRect(g_q, m, m, s2, d2, r2, BRP, BSP, BRP, BSP, 0, NULL, NULL));
    CHECK(clFinish(g_q));
    rect_copy_ref(dev_ref, d2, BRP, BSP, dev_ref, s2, BRP, BSP, r2);
    read_all(m, 0, BSIZE, back);
    expect_equal_bytes(back, dev_ref, BSIZE, "CopyBufferRect within one buffer");

    STEP("Rect errors");
    const size_t bad_region[3] = {0, 1, 1};
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, m, CL_TRUE, zero3, zero3, bad_region, 0, 0, 0, 0,
                                        back, 0, NULL, NULL),
                CL_INVALID_VALUE);
    const size_t r_wide[3] = {32, 2, 1};
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, m, CL_TRUE, zero3, zero3, r_wide, 16, 0, 0, 0,
                                        back, 0, NULL, NULL),
                CL_INVALID_VALUE); /* buffer_row_pitch < region[0] */
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, m, CL_TRUE, zero3, zero3, r_wide, 0, 0, 16, 0,
                                        back, 0, NULL, NULL),
                CL_INVALID_VALUE); /* host_row_pitch < region[0] */
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, m, CL_TRUE, zero3, zero3, r_wide, 64, 64, 0, 0,
                                        back, 0, NULL, NULL),
                CL_INVALID_VALUE); /* buffer_slice_pitch < region[1] * row pitch */
    const size_t far[3] = {0, 0, BZ}, one[3] = {1, 1, 1};
    EXPECT_CODE(clEnqueueReadBufferRect(g_q, m, CL_TRUE, far, zero3, one, BRP, BSP, 0, 0, back,
                                        0, NULL, NULL),
                CL_INVALID_VALUE); /* region out of bounds */
    EXPECT_CODE(clEnqueueWriteBufferRect(g_q, m, CL_TRUE, zero3, zero3, one, 0, 0, 0, 0, NULL,
                                         0, NULL, NULL),
                CL_INVALID_VALUE); /* NULL ptr */
    EXPECT_CODE(clEnqueueCopyBufferRect(g_q, m, m, s2, s2, r2, BRP, BSP, BRP, BSP, 0, NULL,
                                        NULL),
                CL_MEM_COPY_OVERLAP);
    const size_t rr[3] = {8, 2, 2};
    EXPECT_CODE(clEnqueueCopyBufferRect(g_q, m, d, zero3, zero3, rr, 16, 40, 16, 32, 0, NULL,
                                        NULL),
                CL_INVALID_VALUE); /* src_slice_pitch not a multiple of src_row_pitch */
    CHECK(clReleaseMemObject(m));
    CHECK(clReleaseMemObject(d));
    printf("  ok: Write/Read/CopyBufferRect match the host reference; errors checked\n");
}

static void test_map_unmap(void)
{
    STEP("map/unmap");
    static cl_uint init[N], want[N], back[N];
    fill_pattern(init, N, 11);
    memcpy(want, init, sizeof init);
    cl_int err = CL_SUCCESS;
    cl_mem m = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);

    /* Non-blocking map: the pointer is usable once the event completes. */
    cl_event mev = NULL;
    cl_uint *p = clEnqueueMapBuffer(g_q, m, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE,
                                    100 * sizeof(cl_uint), 200 * sizeof(cl_uint), 0, NULL, &mev,
                                    &err);
    CHECK_ERR(err, "non-blocking clEnqueueMapBuffer");
    EXPECT(p != NULL, "map returned NULL");
    CHECK(clWaitForEvents(1, &mev));
    cl_command_type ct = 0;
    CHECK(clGetEventInfo(mev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_COMMAND_MAP_BUFFER, "map event command type 0x%x", ct);
    CHECK(clReleaseEvent(mev));
    expect_equal_u32(p, want + 100, 200, "mapped region contents");
    for (int i = 0; i < 200; i++)
        p[i] = ~p[i];
    for (int i = 0; i < 200; i++)
        want[100 + i] = ~want[100 + i];
    cl_uint map_count = 0;
    CHECK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof map_count, &map_count, NULL));
    EXPECT(map_count >= 1, "CL_MEM_MAP_COUNT %u while mapped", map_count);

    /* A second, overlapping read map may coexist with the first. */
    cl_uint *p2 = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_READ, 0, 16 * sizeof(cl_uint), 0,
                                     NULL, NULL, &err);
    CHECK_ERR(err, "second map");
    expect_equal_u32(p2, want, 16, "second mapping contents");
    /* Unmapping an address that is not mapped is CL_INVALID_VALUE. */
    cl_uint not_mapped[4];
    EXPECT_CODE(clEnqueueUnmapMemObject(g_q, m, not_mapped, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_event uev = NULL;
    CHECK(clEnqueueUnmapMemObject(g_q, m, p, 0, NULL, &uev));
    CHECK(clEnqueueUnmapMemObject(g_q, m, p2, 0, NULL, NULL));
    CHECK(clWaitForEvents(1, &uev));
    CHECK(clGetEventInfo(uev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_COMMAND_UNMAP_MEM_OBJECT, "unmap event command type 0x%x", ct);
    CHECK(clReleaseEvent(uev));
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "contents after mapped write + unmap");

    /* CL_MAP_WRITE_INVALIDATE_REGION: overwrite the whole region through the map. */
    p = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, sizeof init, 0,
                           NULL, NULL, &err);
    CHECK_ERR(err, "write-invalidate map");
    for (int i = 0; i < N; i++)
        p[i] = (cl_uint)i * 3u;
    CHECK(clEnqueueUnmapMemObject(g_q, m, p, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        want[i] = (cl_uint)i * 3u;
    read_all(m, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "contents after write-invalidate map");

    STEP("map errors");
    p = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_READ, sizeof init - 4, 8, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_VALUE && p == NULL, "out-of-range map: %s", cl_err_name(err));
    p = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err);
    EXPECT(err == CL_INVALID_VALUE && p == NULL, "zero-size map: %s", cl_err_name(err));
    if (!skip_check("map-read-invalidate")) {
        p = clEnqueueMapBuffer(g_q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0,
                               8, 0, NULL, NULL, &err);
        EXPECT(err == CL_INVALID_VALUE && p == NULL, "READ|WRITE_INVALIDATE map: %s",
               cl_err_name(err));
    }
    CHECK(clReleaseMemObject(m));
    printf("  ok: blocking/non-blocking maps, overlapping read maps, invalidate maps, errors\n");
}

static void test_sub_buffers(void)
{
    STEP("sub-buffers");
    cl_int err = CL_SUCCESS;
    cl_uint align_bits = 0;
    CHECK(clGetDeviceInfo(g_dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                          NULL));
    size_t align = align_bits / 8;
    EXPECT(align >= 1 && align * 4 <= N * sizeof(cl_uint),
           "CL_DEVICE_MEM_BASE_ADDR_ALIGN (%zu bytes) too large for this test", align);
    static cl_uint init[N], want[N], back[N];
    fill_pattern(init, N, 12);
    memcpy(want, init, sizeof init);
    cl_mem parent = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);

    cl_buffer_region r = {align, align * 2};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(err, "clCreateSubBuffer");
    size_t sz = 0, off = 0;
    cl_mem assoc = NULL;
    cl_mem_object_type mt = 0;
    CHECK(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof sz, &sz, NULL));
    CHECK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(clGetMemObjectInfo(sub, CL_MEM_TYPE, sizeof mt, &mt, NULL));
    EXPECT(sz == align * 2 && off == align && assoc == parent && mt == CL_MEM_OBJECT_BUFFER,
           "sub-buffer info: size %zu offset %zu assoc %p type 0x%x", sz, off, (void *)assoc, mt);
    CHECK(clGetMemObjectInfo(parent, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    EXPECT(assoc == NULL, "parent buffer has an associated memory object");
    CHECK(clGetMemObjectInfo(parent, CL_MEM_OFFSET, sizeof off, &off, NULL));
    EXPECT(off == 0, "parent CL_MEM_OFFSET %zu", off);
    cl_mem_flags sf = mem_flags(sub);
    EXPECT(sf & CL_MEM_READ_WRITE, "sub-buffer did not inherit READ_WRITE (flags 0x%llx)",
           (unsigned long long)sf);

    /* The sub-buffer aliases the parent's bytes, both ways. */
    size_t nsub = sz / sizeof(cl_uint);
    read_all(sub, 0, sz, back);
    expect_equal_u32(back, want + align / sizeof(cl_uint), nsub, "sub-buffer view of parent");
    cl_uint patch[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    write_all(sub, 4 * sizeof(cl_uint), sizeof patch, patch);
    memcpy(want + align / sizeof(cl_uint) + 4, patch, sizeof patch);
    read_all(parent, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "parent after writing through the sub-buffer");
    cl_uint pv = 0xFEEDF00Du;
    CHECK(clEnqueueFillBuffer(g_q, parent, &pv, sizeof pv, align, sizeof pv, 0, NULL, NULL));
    CHECK(clFinish(g_q));
    want[align / sizeof(cl_uint)] = pv;
    read_all(sub, 0, sizeof(cl_uint), back);
    EXPECT(back[0] == pv, "sub-buffer does not see parent fill: 0x%08x", back[0]);
    /* Copies between a sub-buffer and its parent's other bytes. */
    CHECK(clEnqueueCopyBuffer(g_q, sub, parent, 0, 0, 16 * sizeof(cl_uint), 0, NULL, NULL));
    CHECK(clFinish(g_q));
    memmove(want, want + align / sizeof(cl_uint), 16 * sizeof(cl_uint));
    read_all(parent, 0, sizeof back, back);
    expect_equal_u32(back, want, N, "copy from sub-buffer into parent");
    /* Mapping a sub-buffer. */
    cl_uint *mp = clEnqueueMapBuffer(g_q, sub, CL_TRUE, CL_MAP_READ, 0, sz, 0, NULL, NULL, &err);
    CHECK_ERR(err, "map sub-buffer");
    expect_equal_u32(mp, want + align / sizeof(cl_uint), nsub, "mapped sub-buffer");
    CHECK(clEnqueueUnmapMemObject(g_q, sub, mp, 0, NULL, NULL));
    CHECK(clFinish(g_q));

    STEP("sub-buffer errors");
    cl_mem bad;
    if (align > 1) {
        cl_buffer_region mis = {1, 4};
        bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err);
        EXPECT(err == CL_MISALIGNED_SUB_BUFFER_OFFSET && bad == NULL, "misaligned origin: %s",
               cl_err_name(err));
    }
    cl_buffer_region oob = {align, sizeof init};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "out-of-bounds region: %s", cl_err_name(err));
    cl_buffer_region empty = {0, 0};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err);
    EXPECT(err == CL_INVALID_BUFFER_SIZE && bad == NULL, "zero-size region: %s",
           cl_err_name(err));
    cl_buffer_region r0 = {0, 64};
    bad = clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    EXPECT(err == CL_INVALID_MEM_OBJECT && bad == NULL, "sub-buffer of a sub-buffer: %s",
           cl_err_name(err));
    bad = clCreateSubBuffer(parent, 0, 0x7FFF, &r0, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "bad create type: %s", cl_err_name(err));
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "NULL region: %s", cl_err_name(err));
    bad = clCreateSubBuffer(parent, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "host-ptr flag on a sub-buffer: %s",
           cl_err_name(err));

    /* Access flags must not widen the parent's. */
    cl_mem wo = make_buffer(CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, 4 * align, NULL);
    bad = clCreateSubBuffer(wo, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "READ_WRITE sub of WRITE_ONLY: %s",
           cl_err_name(err));
    bad = clCreateSubBuffer(wo, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "READ_ONLY sub of WRITE_ONLY: %s",
           cl_err_name(err));
    bad = clCreateSubBuffer(wo, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    EXPECT(err == CL_INVALID_VALUE && bad == NULL, "HOST_READ_ONLY sub of HOST_WRITE_ONLY: %s",
           cl_err_name(err));
    cl_mem inherit = clCreateSubBuffer(wo, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    CHECK_ERR(err, "sub-buffer inheriting flags");
    sf = mem_flags(inherit);
    EXPECT((sf & CL_MEM_WRITE_ONLY) && (sf & CL_MEM_HOST_WRITE_ONLY),
           "sub-buffer flags 0x%llx do not inherit WRITE_ONLY|HOST_WRITE_ONLY",
           (unsigned long long)sf);
    EXPECT_CODE(clEnqueueReadBuffer(g_q, inherit, CL_TRUE, 0, 4, back, 0, NULL, NULL),
                CL_INVALID_OPERATION);
    CHECK(clReleaseMemObject(inherit));
    CHECK(clReleaseMemObject(wo));
    CHECK(clReleaseMemObject(sub));
    CHECK(clReleaseMemObject(parent));
    printf("  ok: sub-buffers alias their parent; info, inheritance and errors checked\n");
}

static void test_migrate(void)
{
    STEP("migrate");
    static cl_uint init[N], back[N];
    fill_pattern(init, N, 13);
    cl_mem a = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    cl_mem b = make_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    cl_mem both[2] = {a, b};
    cl_event ev = NULL;
    CHECK(clEnqueueMigrateMemObjects(g_q, 2, both, 0, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_command_type ct = 0;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_COMMAND_MIGRATE_MEM_OBJECTS, "migrate command type 0x%x", ct);
    CHECK(clReleaseEvent(ev));
    read_all(a, 0, sizeof back, back);
    expect_equal_u32(back, init, N, "contents after migration to the device");
    CHECK(clEnqueueMigrateMemObjects(g_q, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    read_all(a, 0, sizeof back, back);
    expect_equal_u32(back, init, N, "contents after migration to the host");
    CHECK(clEnqueueMigrateMemObjects(g_q, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                     NULL, NULL));
    CHECK(clFinish(g_q));
    write_all(b, 0, sizeof init, init);
    read_all(b, 0, sizeof back, back);
    expect_equal_u32(back, init, N, "buffer usable after content-undefined migration");
    EXPECT_CODE(clEnqueueMigrateMemObjects(g_q, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueMigrateMemObjects(g_q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueMigrateMemObjects(g_q, 1, &a, 1u << 20, 0, NULL, NULL),
                CL_INVALID_VALUE);
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(b));
    printf("  ok: migrate to device / host / content-undefined keeps buffers usable\n");
}

static volatile int g_destructor_calls = 0;
static void CL_CALLBACK on_destroy(cl_mem m, void *user)
{
    (void)m;
    EXPECT(user == (void *)&g_destructor_calls, "destructor callback got the wrong user data");
    __atomic_add_fetch(&g_destructor_calls, 1, __ATOMIC_SEQ_CST);
}

static void test_info_refcount_destructor(void)
{
    STEP("mem info, reference counts, destructor callback");
    cl_mem m = make_buffer(CL_MEM_READ_WRITE, 1024, NULL);
    cl_uint rc = 0;
    cl_context c = NULL;
    cl_mem_object_type t = 0;
    CHECK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    EXPECT(rc == 1, "new buffer reference count %u", rc);
    CHECK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == g_ctx, "CL_MEM_CONTEXT differs");
    CHECK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_MEM_OBJECT_BUFFER, "CL_MEM_TYPE 0x%x", t);
    EXPECT_CODE(clGetMemObjectInfo(m, 0x7FFF, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t small = 0;
    EXPECT_CODE(clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &small, NULL), CL_INVALID_VALUE);
    CHECK(clRetainMemObject(m));
    CHECK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    EXPECT(rc == 2, "retained buffer reference count %u", rc);
    CHECK(clSetMemObjectDestructorCallback(m, on_destroy, (void *)&g_destructor_calls));
    EXPECT_CODE(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
    CHECK(clReleaseMemObject(m));
    sleep_ms(20);
    EXPECT(g_destructor_calls == 0, "destructor ran while a reference remained");
    CHECK(clReleaseMemObject(m));
    EXPECT(wait_flag(&g_destructor_calls, 1, 5000), "destructor callback not called within 5 s");
    EXPECT(g_destructor_calls == 1, "destructor callback called %d times", g_destructor_calls);
    printf("  ok: mem info, retain/release counts, destructor callback once after last release\n");
}

static void test_intel_bank_bits(void)
{
    STEP("Intel bank-select flags");
    /* CL_CHANNEL_n_INTELFPGA / CL_MEM_BANK_n_ALTERA: n << 16, n = 1..7. */
    static cl_uint init[256], back[256];
    fill_pattern(init, 256, 14);
    for (cl_mem_flags bank = 1; bank <= 7; bank++) {
        cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR | (bank << 16);
        cl_mem m = make_buffer(f, sizeof init, init);
        read_all(m, 0, sizeof back, back);
        expect_equal_u32(back, init, 256, "bank-selected buffer contents");
        CHECK(clReleaseMemObject(m));
    }
    printf("  ok: bank-select bits 16-19 accepted\n");
}

int main(void)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    g_dev = select_device(platform);
    print_selection(platform, g_dev);
    g_ctx = create_context(platform, g_dev);
    g_q = create_queue(g_ctx, g_dev, 0);

    test_copy_host_ptr();
    test_use_host_ptr();
    test_alloc_host_ptr();
    test_flag_errors();
    test_host_access_flags();
    test_read_write_copy_fill();
    test_rect();
    test_map_unmap();
    test_sub_buffers();
    test_migrate();
    test_info_refcount_destructor();
    if (is_fpga_platform(platform))
        test_intel_bank_bits();

    CHECK(clFinish(g_q));
    CHECK(clReleaseCommandQueue(g_q));
    CHECK(clReleaseContext(g_ctx));
    return pass("buffers");
}
