/*
 * Images and samplers (OpenCL 1.2 chapters 5.3, 5.5 and 8): supported formats, a 3x3 blur
 * reading an image2d_t through a program-scope sampler (Intel's course exercise shape), an
 * image copy through a host sampler, a format conversion table (write_imagef into UNORM,
 * SNORM, half and float channels; integer saturation), normalized/linear/repeat sampling,
 * queries of a 3D image, the image commands (write/read with pitches, fill, copy, to/from
 * buffers, map) and the specification's error codes. Expected values are computed by hand
 * from the specification, so the same program checks fpgacl and PoCL.
 */
#include "common.h"
#include <math.h>

static cl_mem image2d(cl_context ctx, cl_mem_flags f, cl_channel_order o, cl_channel_type t,
                      size_t w, size_t h, void *host)
{
    cl_image_format fmt = {o, t};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    cl_int err;
    cl_mem m = clCreateImage(ctx, f, &fmt, &d, host, &err);
    CHECK_ERR(err, "clCreateImage");
    return m;
}

static cl_int create_code(cl_context ctx, cl_mem_flags f, const cl_image_format *fmt,
                          const cl_image_desc *d, void *host)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(ctx, f, fmt, d, host, &err);
    if (m)
        clReleaseMemObject(m);
    return err;
}

static void run2(cl_command_queue q, cl_kernel k, size_t gx, size_t gy)
{
    size_t g[2] = {gx, gy};
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    CHECK(clFinish(q));
}

/* Error code checks, each with an id so that an implementation's known deviations can be
 * listed in EXAMPLE_SKIP_CHECKS; all are run, failures counted. */
static int g_errc_n, g_errc_failed;
#define ERRC(id, call, expected)                                                          \
    do {                                                                                  \
        cl_int errc_ = (call);                                                            \
        const char *id_ = (id);                                                           \
        g_errc_n++;                                                                       \
        if (errc_ != (expected) && !skip_check(id_)) {                                    \
            g_errc_failed++;                                                              \
            printf("FAIL: %s: %s returned %s (%d), expected %s\n", id_, #call,            \
                   cl_err_name(errc_), (int)errc_, cl_err_name(expected));                \
        }                                                                                 \
    } while (0)

static cl_int sampler_code(cl_context ctx, cl_bool n, cl_addressing_mode a, cl_filter_mode f)
{
    cl_int err = CL_SUCCESS;
    cl_sampler s = clCreateSampler(ctx, n, a, f, &err);
    if (s)
        clReleaseSampler(s);
    return err;
}

static int near(float a, float b) { return fabsf(a - b) <= 1e-6f + 1e-6f * fabsf(b); }

int main(int argc, char **argv)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    EXPECT(images, "device reports no image support");
    size_t max_w = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL));
    cl_context ctx = create_context(platform, dev);
    cl_command_queue q = create_queue(ctx, dev, 0);
    cl_int err;

    STEP("supported formats");
    {
        cl_uint n = 0;
        CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                         &n));
        cl_image_format *f = calloc(n, sizeof *f);
        CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n, f,
                                         NULL));
        /* The OpenCL 1.2 minimum list (table 5.8) plus R/RG. */
        const cl_image_format need[] = {
            {CL_RGBA, CL_UNORM_INT8},   {CL_RGBA, CL_UNORM_INT16},  {CL_RGBA, CL_SIGNED_INT8},
            {CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT8},
            {CL_RGBA, CL_UNSIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT32}, {CL_RGBA, CL_HALF_FLOAT},
            {CL_RGBA, CL_FLOAT},        {CL_BGRA, CL_UNORM_INT8},   {CL_R, CL_UNORM_INT8},
            {CL_R, CL_FLOAT},           {CL_RG, CL_FLOAT},
        };
        size_t n_need = sizeof need / sizeof need[0];
        if (skip_check("rg-formats"))
            n_need--;
        for (size_t i = 0; i < n_need; i++) {
            int found = 0;
            for (cl_uint j = 0; j < n; j++)
                found |= f[j].image_channel_order == need[i].image_channel_order &&
                         f[j].image_channel_data_type == need[i].image_channel_data_type;
            EXPECT(found, "format %#x/%#x not listed", need[i].image_channel_order,
                   need[i].image_channel_data_type);
        }
        printf("  %u 2D formats\n", n);
        free(f);
    }

    cl_program prog = build_program(ctx, dev, kernel_path(argc, argv, "images.cl"), "");

    STEP("blur through a program-scope sampler");
    {
        enum { W = 7, H = 5 };
        unsigned char px[W * H];
        for (int i = 0; i < W * H; i++)
            px[i] = (unsigned char)((i * 37) % 251);
        cl_mem src = image2d(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_R, CL_UNORM_INT8,
                             W, H, px);
        cl_mem dst = create_buffer(ctx, CL_MEM_WRITE_ONLY, W * H * sizeof(float), NULL);
        cl_kernel k = create_kernel(prog, "blur");
        CHECK(clSetKernelArg(k, 0, sizeof src, &src));
        CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
        run2(q, k, W, H);
        float out[W * H];
        CHECK(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float s = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
                        int yy = y + dy < 0 ? 0 : y + dy >= H ? H - 1 : y + dy;
                        s += px[yy * W + xx] / 255.0f;
                    }
                EXPECT(fabsf(out[y * W + x] - s / 9.0f) < 1e-5f, "blur (%d,%d) %g vs %g", x, y,
                       out[y * W + x], s / 9.0f);
            }
        printf("  blur %dx%d ok, centre %.6f\n", W, H, out[2 * W + 3]);
        clReleaseKernel(k);
        clReleaseMemObject(src);
        clReleaseMemObject(dst);
    }

    STEP("copy through a host sampler, read back with a row pitch");
    {
        enum { W = 4, H = 3 };
        unsigned char px[W * H * 4];
        for (int i = 0; i < W * H * 4; i++)
            px[i] = (unsigned char)(i * 5);
        cl_mem src = image2d(ctx, CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, W, H, NULL);
        size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
        CHECK(clEnqueueWriteImage(q, src, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
        cl_mem dst = image2d(ctx, CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, W, H, NULL);
        cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
        CHECK_ERR(err, "clCreateSampler");
        cl_kernel k = create_kernel(prog, "copy_shift");
        int sx = 1, sy = 0;
        CHECK(clSetKernelArg(k, 0, sizeof src, &src));
        CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
        CHECK(clSetKernelArg(k, 2, sizeof s, &s));
        CHECK(clSetKernelArg(k, 3, sizeof sx, &sx));
        CHECK(clSetKernelArg(k, 4, sizeof sy, &sy));
        run2(q, k, W, H);
        /* Read into rows of 20 bytes (16 used). */
        unsigned char back[H * 20];
        memset(back, 0xee, sizeof back);
        CHECK(clEnqueueReadImage(q, dst, CL_TRUE, o, r, 20, 0, back, 0, NULL, NULL));
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    /* CL_ADDRESS_CLAMP: x + 1 == W reads the border color (0, 0, 0, 0). */
                    int want = x + 1 < W ? px[(y * W + x + 1) * 4 + c] : 0;
                    EXPECT(back[y * 20 + x * 4 + c] == want, "(%d,%d).%d = %d, want %d", x, y,
                           c, back[y * 20 + x * 4 + c], want);
                }
        EXPECT(back[16] == 0xee, "row padding written");
        cl_uint refs = 0;
        CHECK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
        cl_addressing_mode am = 0;
        CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
        cl_bool nc = CL_TRUE;
        CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof nc, &nc, NULL));
        EXPECT(refs == 1 && am == CL_ADDRESS_CLAMP && nc == CL_FALSE, "sampler info %u %#x %u",
               refs, am, nc);
        CHECK(clRetainSampler(s));
        CHECK(clReleaseSampler(s));
        clReleaseSampler(s);
        clReleaseKernel(k);
        clReleaseMemObject(src);
        clReleaseMemObject(dst);
    }

    STEP("format conversion table");
    {
        /* write_imagef values and the bytes each format must hold (OpenCL 1.2 8.3.1.1:
         * UNORM_INT8 = convert_uchar_sat_rte(f * 255), SNORM_INT8 = convert_char_sat_rte(f *
         * 127), UNORM_INT16 = convert_ushort_sat_rte(f * 65535)). */
        const float v[4][4] = {
            {0.0f, 0.5f, 1.0f, 2.0f},       /* 0, 127.5 -> 128, 255, saturate */
            {0.25f, -0.5f, 1.5f / 255.0f, 2.5f / 255.0f}, /* 63.75 -> 64, 0, 1.5 -> 2, 2.5 -> 2 */
            {-1.0f, 0.1f, 0.999f, 0.0039f},
            {1e30f, -1e30f, 0.75f, 0.3333333f},
        };
        cl_mem vb = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof v,
                                  (void *)v);
        struct {
            cl_channel_type t;
            size_t bytes;
            const char *name;
        } fmts[] = {
            {CL_UNORM_INT8, 1, "UNORM_INT8"},   {CL_SNORM_INT8, 1, "SNORM_INT8"},
            {CL_UNORM_INT16, 2, "UNORM_INT16"}, {CL_HALF_FLOAT, 2, "HALF_FLOAT"},
            {CL_FLOAT, 4, "FLOAT"},
        };
        const unsigned char want_u8[16] = {0, 128, 255, 255, 64, 0, 2, 2,
                                           0, 26, 255, 1, 255, 0, 191, 85};
        const signed char want_s8[16] = {0, 64, 127, 127, 32, -64, 1, 1,
                                         -127, 13, 127, 0, 127, -128, 95, 42};
        const unsigned short want_u16[16] = {0, 32768, 65535, 65535, 16384, 0, 386, 642,
                                             0, 6554, 65469, 256, 65535, 0, 49151, 21845};
        /* half bits: 0, 0.5, 1, 2; 0.25, -0.5, 1.5/255 ~ 0x1e06, 2.5/255 ~ 0x2105 */
        const unsigned short want_h[8] = {0x0000, 0x3800, 0x3c00, 0x4000,
                                          0x3400, 0xb800, 0x1e06, 0x2105};
        for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
            cl_mem img = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, fmts[fi].t, 4, 1, NULL);
            cl_kernel k = create_kernel(prog, "write_f");
            CHECK(clSetKernelArg(k, 0, sizeof img, &img));
            CHECK(clSetKernelArg(k, 1, sizeof vb, &vb));
            run2(q, k, 4, 1);
            unsigned char raw[64];
            size_t o[3] = {0, 0, 0}, r[3] = {4, 1, 1};
            CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, raw, 0, NULL, NULL));
            for (int i = 0; i < 16; i++) {
                switch (fmts[fi].t) {
                case CL_UNORM_INT8:
                    EXPECT(raw[i] == want_u8[i], "%s[%d] = %d, want %d", fmts[fi].name, i,
                           raw[i], want_u8[i]);
                    break;
                case CL_SNORM_INT8:
                    EXPECT((signed char)raw[i] == want_s8[i], "%s[%d] = %d, want %d",
                           fmts[fi].name, i, (signed char)raw[i], want_s8[i]);
                    break;
                case CL_UNORM_INT16: {
                    unsigned short u;
                    memcpy(&u, raw + 2 * i, 2);
                    EXPECT(u == want_u16[i], "%s[%d] = %u, want %u", fmts[fi].name, i, u,
                           want_u16[i]);
                    break;
                }
                case CL_HALF_FLOAT: {
                    unsigned short u;
                    memcpy(&u, raw + 2 * i, 2);
                    if (i < 8)
                        EXPECT(u == want_h[i], "%s[%d] = %#x, want %#x", fmts[fi].name, i, u,
                               want_h[i]);
                    break;
                }
                default: {
                    float f;
                    memcpy(&f, raw + 4 * i, 4);
                    EXPECT(f == v[i / 4][i % 4], "%s[%d] = %g", fmts[fi].name, i, f);
                }
                }
            }
            /* Read back as float: UNORM_INT8 128 -> 128/255 exactly as computed in float. */
            if (fmts[fi].t == CL_UNORM_INT8) {
                cl_mem ob = create_buffer(ctx, CL_MEM_WRITE_ONLY, 4 * 4 * sizeof(float), NULL);
                cl_kernel rk = create_kernel(prog, "read_f");
                CHECK(clSetKernelArg(rk, 0, sizeof img, &img));
                CHECK(clSetKernelArg(rk, 1, sizeof ob, &ob));
                run2(q, rk, 4, 1);
                float back[16];
                CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
                for (int i = 0; i < 16; i++)
                    EXPECT(near(back[i], want_u8[i] / 255.0f), "read_imagef[%d] = %g", i,
                           back[i]);
                clReleaseKernel(rk);
                clReleaseMemObject(ob);
            }
            printf("  %s ok\n", fmts[fi].name);
            clReleaseKernel(k);
            clReleaseMemObject(img);
        }
        clReleaseMemObject(vb);
        /* Integer saturation: write_imagei into SIGNED_INT8, write_imageui into UNSIGNED_INT16. */
        const int iv[4] = {-300, 127, 128, -128};
        cl_mem ib = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof iv,
                                  (void *)iv);
        cl_mem img = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_SIGNED_INT8, 1, 1, NULL);
        cl_kernel k = create_kernel(prog, "write_i");
        CHECK(clSetKernelArg(k, 0, sizeof img, &img));
        CHECK(clSetKernelArg(k, 1, sizeof ib, &ib));
        run2(q, k, 1, 1);
        signed char s8[4];
        size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
        CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, s8, 0, NULL, NULL));
        EXPECT(s8[0] == -128 && s8[1] == 127 && s8[2] == 127 && s8[3] == -128,
               "SIGNED_INT8 %d %d %d %d", s8[0], s8[1], s8[2], s8[3]);
        clReleaseKernel(k);
        clReleaseMemObject(img);
        const unsigned uv[4] = {70000, 65535, 1, 0};
        cl_mem ub = create_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof uv,
                                  (void *)uv);
        img = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT16, 1, 1, NULL);
        k = create_kernel(prog, "write_ui");
        CHECK(clSetKernelArg(k, 0, sizeof img, &img));
        CHECK(clSetKernelArg(k, 1, sizeof ub, &ub));
        run2(q, k, 1, 1);
        unsigned short u16[4];
        CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, u16, 0, NULL, NULL));
        EXPECT(u16[0] == 65535 && u16[1] == 65535 && u16[2] == 1 && u16[3] == 0,
               "UNSIGNED_INT16 %u %u %u %u", u16[0], u16[1], u16[2], u16[3]);
        clReleaseKernel(k);
        clReleaseMemObject(img);
        clReleaseMemObject(ib);
        clReleaseMemObject(ub);
        printf("  integer saturation ok\n");
    }

    STEP("normalized, repeat and linear sampling");
    {
        /* A 4x1 CL_R/CL_FLOAT image {10, 20, 30, 40}. */
        float px[4] = {10, 20, 30, 40};
        cl_mem img = image2d(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_R, CL_FLOAT, 4, 1,
                             px);
        struct {
            cl_bool norm;
            cl_addressing_mode a;
            cl_filter_mode f;
            float s, want;
        } cases[] = {
            /* linear, unnormalized 1.75: i0 = 1, a = 0.25 -> 0.75*20 + 0.25*30 = 22.5 */
            {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, 1.75f, 22.5f},
            /* linear at 0.25 with clamp to edge: i0 = -1 -> 0, i1 = 0 -> 10 */
            {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, 0.25f, 10.0f},
            /* linear at 0.25 with clamp: u - 0.5 = -0.25, i0 = -1 (border 0), i1 = 0,
             * a = frac(-0.25) = 0.75: 0.25 * 0 + 0.75 * 10 = 7.5 */
            {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, 0.25f, 7.5f},
            /* normalized nearest 0.6 -> u = 2.4 -> 30 */
            {CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, 0.6f, 30.0f},
            /* repeat: -0.1 -> 0.9 * 4 = 3.6 -> 40 */
            {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, -0.1f, 40.0f},
            /* repeat linear at s = 0: u = 0, i0 = -1 + 4 = 3, i1 = 0, a = 0.5 -> 25 */
            {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, 0.0f, 25.0f},
            /* mirrored repeat 1.25 -> 0.75 -> u = 3 -> 40 */
            {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, 1.25f, 40.0f},
        };
        cl_kernel k = create_kernel(prog, "sample");
        cl_mem at = create_buffer(ctx, CL_MEM_READ_ONLY, 2 * sizeof(float), NULL);
        cl_mem ob = create_buffer(ctx, CL_MEM_WRITE_ONLY, 4 * sizeof(float), NULL);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            cl_sampler s = clCreateSampler(ctx, cases[i].norm, cases[i].a, cases[i].f, &err);
            CHECK_ERR(err, "clCreateSampler");
            /* t = 0.5 (normalized) or 0.5 (unnormalized): row 0 either way. */
            float c[2] = {cases[i].s, 0.5f};
            CHECK(clEnqueueWriteBuffer(q, at, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
            CHECK(clSetKernelArg(k, 0, sizeof img, &img));
            CHECK(clSetKernelArg(k, 1, sizeof s, &s));
            CHECK(clSetKernelArg(k, 2, sizeof at, &at));
            CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
            run2(q, k, 1, 1);
            float out[4];
            CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
            /* Linear filtering may use reduced precision weights (PoCL and GPUs): 1e-3. */
            /* The border color of CL_R has alpha 1 (OpenCL 1.2 8.2), so alpha stays 1. */
            int alpha_ok = out[3] == 1.0f ||
                           (cases[i].a == CL_ADDRESS_CLAMP && skip_check("border-alpha"));
            EXPECT(fabsf(out[0] - cases[i].want) < 1e-3f * cases[i].want + 1e-4f && alpha_ok,
                   "case %zu: s=%g -> %g, want %g (alpha %g)", i, cases[i].s, out[0],
                   cases[i].want, out[3]);
            clReleaseSampler(s);
        }
        printf("  %zu sampler cases ok\n", sizeof cases / sizeof cases[0]);
        clReleaseKernel(k);
        clReleaseMemObject(at);
        clReleaseMemObject(ob);
        clReleaseMemObject(img);
    }

    STEP("3D image queries");
    {
        cl_image_format fmt = {CL_RGBA, CL_FLOAT};
        cl_mem v = clCreateImage3D(ctx, CL_MEM_READ_ONLY, &fmt, 3, 4, 5, 0, 0, NULL, &err);
        CHECK_ERR(err, "clCreateImage3D");
        float px[4] = {1, 7, 3, 4};
        size_t o[3] = {1, 2, 3}, r[3] = {1, 1, 1};
        CHECK(clEnqueueWriteImage(q, v, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
        cl_mem ob = create_buffer(ctx, CL_MEM_WRITE_ONLY, 7 * sizeof(int), NULL);
        cl_kernel k = create_kernel(prog, "query");
        CHECK(clSetKernelArg(k, 0, sizeof v, &v));
        CHECK(clSetKernelArg(k, 1, sizeof ob, &ob));
        run2(q, k, 1, 1);
        int out[7];
        CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        EXPECT(out[0] == 3 && out[1] == 4 && out[2] == 5 && out[3] == 12 && out[4] == 1 &&
                   out[5] == 1 && out[6] == 7,
               "queries %d %d %d %d %d %d %d", out[0], out[1], out[2], out[3], out[4], out[5],
               out[6]);
        size_t w = 0, d = 0, es = 0, rp = 0, sp = 0;
        CHECK(clGetImageInfo(v, CL_IMAGE_WIDTH, sizeof w, &w, NULL));
        CHECK(clGetImageInfo(v, CL_IMAGE_DEPTH, sizeof d, &d, NULL));
        CHECK(clGetImageInfo(v, CL_IMAGE_ELEMENT_SIZE, sizeof es, &es, NULL));
        CHECK(clGetImageInfo(v, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, NULL));
        CHECK(clGetImageInfo(v, CL_IMAGE_SLICE_PITCH, sizeof sp, &sp, NULL));
        cl_image_format got;
        CHECK(clGetImageInfo(v, CL_IMAGE_FORMAT, sizeof got, &got, NULL));
        cl_mem_object_type mt = 0;
        CHECK(clGetMemObjectInfo(v, CL_MEM_TYPE, sizeof mt, &mt, NULL));
        EXPECT(w == 3 && d == 5 && es == 16 && rp >= 48 && sp >= rp * 4 &&
                   got.image_channel_order == CL_RGBA && got.image_channel_data_type == CL_FLOAT &&
                   mt == CL_MEM_OBJECT_IMAGE3D,
               "image info %zu %zu %zu %zu %zu type %#x", w, d, es, rp, sp, mt);
        clReleaseKernel(k);
        clReleaseMemObject(ob);
        clReleaseMemObject(v);
    }

    STEP("fill, copy, image <-> buffer, map");
    {
        cl_mem a = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, 4, 4, NULL);
        cl_mem b = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, 4, 4, NULL);
        cl_uint color[4] = {1, 2, 300, 4}; /* 300 saturates to 255 */
        size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
        CHECK(clEnqueueFillImage(q, a, color, o, r, 0, NULL, NULL));
        cl_uint zero[4] = {0, 0, 0, 0};
        CHECK(clEnqueueFillImage(q, b, zero, o, r, 0, NULL, NULL));
        size_t so[3] = {1, 1, 0}, dso[3] = {0, 2, 0}, cr[3] = {2, 2, 1};
        CHECK(clEnqueueCopyImage(q, a, b, so, dso, cr, 0, NULL, NULL));
        unsigned char px[64];
        CHECK(clEnqueueReadImage(q, b, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                int in = x < 2 && y >= 2;
                const unsigned char *p = px + (y * 4 + x) * 4;
                EXPECT(in ? (p[0] == 1 && p[1] == 2 && p[2] == 255 && p[3] == 4)
                          : (p[0] == 0 && p[3] == 0),
                       "pixel (%d,%d) = %d %d %d %d", x, y, p[0], p[1], p[2], p[3]);
            }
        cl_mem buf = create_buffer(ctx, CL_MEM_READ_WRITE, 64 + 8, NULL);
        CHECK(clEnqueueCopyImageToBuffer(q, b, buf, o, r, 8, 0, NULL, NULL));
        unsigned char bb[72];
        CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof bb, bb, 0, NULL, NULL));
        EXPECT(memcmp(bb + 8, px, 64) == 0, "image to buffer");
        /* Buffer to image: an incrementing pattern into a 2x2 region at (2, 0). */
        unsigned char pat[16];
        for (int i = 0; i < 16; i++)
            pat[i] = (unsigned char)(100 + i);
        CHECK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 16, pat, 0, NULL, NULL));
        size_t bo[3] = {2, 0, 0}, br[3] = {2, 2, 1};
        CHECK(clEnqueueCopyBufferToImage(q, buf, b, 0, bo, br, 0, NULL, NULL));
        size_t rp = 0;
        unsigned char *m = clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0,
                                             NULL, NULL, &err);
        CHECK_ERR(err, "clEnqueueMapImage");
        EXPECT(rp >= 16, "mapped row pitch %zu", rp);
        EXPECT(m[2 * 4] == 100 && m[3 * 4 + 3] == 107 && m[rp + 2 * 4] == 108 &&
                   m[rp + 3 * 4 + 3] == 115 && m[2 * rp] == 1,
               "mapped %d %d %d %d %d", m[8], m[15], m[rp + 8], m[rp + 15], m[2 * rp]);
        CHECK(clEnqueueUnmapMemObject(q, b, m, 0, NULL, NULL));
        CHECK(clFinish(q));
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseMemObject(buf);
        printf("  host commands ok\n");
    }

    STEP("CL_MEM_USE_HOST_PTR image: map returns the host memory with the latest bits");
    {
        /* 3 x 2 RGBA8 pixels, rows 16 bytes apart (12 used): the host layout is kept. */
        unsigned char host[32];
        for (int b = 0; b < 32; b++)
            host[b] = (unsigned char)(200 + b % 50);
        cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
        cl_image_desc d;
        memset(&d, 0, sizeof d);
        d.image_type = CL_MEM_OBJECT_IMAGE2D;
        d.image_width = 3;
        d.image_height = 2;
        d.image_row_pitch = 16;
        cl_int err;
        cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &fmt, &d, host,
                                   &err);
        CHECK_ERR(err, "clCreateImage(CL_MEM_USE_HOST_PTR)");
        /* A kernel writes row 0 (one pixel per work-item). */
        cl_kernel kw = create_kernel(prog, "write_ui");
        cl_uint vals[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        cl_mem vb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof vals,
                                   vals, &err);
        CHECK_ERR(err, "clCreateBuffer");
        CHECK(clSetKernelArg(kw, 0, sizeof img, &img));
        CHECK(clSetKernelArg(kw, 1, sizeof vb, &vb));
        size_t g = 3;
        CHECK(clEnqueueNDRangeKernel(q, kw, 1, NULL, &g, NULL, 0, NULL, NULL));
        size_t o[3] = {0, 0, 0}, r[3] = {3, 2, 1}, rp = 0;
        unsigned char *m = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r,
                                             &rp, NULL, 0, NULL, NULL, &err);
        CHECK_ERR(err, "clEnqueueMapImage");
        EXPECT(m == host && rp == 16, "mapped at host%+td with row pitch %zu (want host, 16)",
               m - host, rp);
        EXPECT(host[0] == 1 && host[5] == 6 && host[11] == 12,
               "host memory holds the kernel's row after the map: %d %d %d", host[0], host[5],
               host[11]);
        EXPECT(host[12] == 212 && host[16] == 216 && host[27] == 227,
               "padding and row 1 kept: %d %d %d", host[12], host[16], host[27]);
        host[16 + 4] = 77; /* pixel (1,1), red, through the mapping */
        CHECK(clEnqueueUnmapMemObject(q, img, m, 0, NULL, NULL));
        size_t o11[3] = {1, 1, 0}, r11[3] = {1, 1, 1};
        m = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o11, r11, &rp, NULL, 0, NULL, NULL,
                              &err);
        CHECK_ERR(err, "clEnqueueMapImage (1,1)");
        EXPECT(m == host + 16 + 4, "pixel (1,1) mapped at host%+td (want +20)", m - host);
        CHECK(clEnqueueUnmapMemObject(q, img, m, 0, NULL, NULL));
        unsigned char px[24];
        CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
        EXPECT(px[12 + 4] == 77 && px[0] == 1 && px[12] == 216,
               "the unmapped write reached the image: %d %d %d", px[16], px[0], px[12]);
        clReleaseKernel(kw);
        clReleaseMemObject(vb);
        clReleaseMemObject(img);
        printf("  use-host-ptr image ok\n");
    }

    STEP("error codes");
    {
        cl_image_desc d;
        memset(&d, 0, sizeof d);
        d.image_type = CL_MEM_OBJECT_IMAGE2D;
        d.image_width = 4;
        d.image_height = 4;
        cl_image_format good = {CL_RGBA, CL_UNORM_INT8};
        cl_image_format bgra_float = {CL_BGRA, CL_FLOAT};
        cl_image_format bogus = {0x1234, CL_UNORM_INT8};
        ERRC("null-format", create_code(ctx, CL_MEM_READ_WRITE, NULL, &d, NULL),
                    CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        ERRC("bogus-order", create_code(ctx, CL_MEM_READ_WRITE, &bogus, &d, NULL),
                    CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        ERRC("bgra-float", create_code(ctx, CL_MEM_READ_WRITE, &bgra_float, &d, NULL),
                        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        ERRC("null-desc", create_code(ctx, CL_MEM_READ_WRITE, &good, NULL, NULL),
                    CL_INVALID_IMAGE_DESCRIPTOR);
        cl_image_desc zero_w = d;
        zero_w.image_width = 0;
        ERRC("zero-width", create_code(ctx, CL_MEM_READ_WRITE, &good, &zero_w, NULL),
                    CL_INVALID_IMAGE_DESCRIPTOR);
        cl_image_desc bad_type = d;
        bad_type.image_type = CL_MEM_OBJECT_BUFFER;
        ERRC("bad-type", create_code(ctx, CL_MEM_READ_WRITE, &good, &bad_type, NULL),
                    CL_INVALID_IMAGE_DESCRIPTOR);
        cl_image_desc pitch_no_ptr = d;
        pitch_no_ptr.image_row_pitch = 64;
        ERRC("pitch-without-ptr", create_code(ctx, CL_MEM_READ_WRITE, &good, &pitch_no_ptr, NULL),
                    CL_INVALID_IMAGE_DESCRIPTOR);
        unsigned char host[256];
        cl_image_desc small_pitch = d;
        small_pitch.image_row_pitch = 8; /* < 4 * 4 bytes */
        ERRC("small-pitch", create_code(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &good,
                                &small_pitch, host),
                    CL_INVALID_IMAGE_DESCRIPTOR);
        cl_image_desc too_wide = d;
        too_wide.image_width = max_w + 1;
        ERRC("too-wide", create_code(ctx, CL_MEM_READ_WRITE, &good, &too_wide, NULL),
                    CL_INVALID_IMAGE_SIZE);
        ERRC("copy-ptr-null", create_code(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &good, &d, NULL),
                    CL_INVALID_HOST_PTR);
        ERRC("ptr-without-flag", create_code(ctx, CL_MEM_READ_WRITE, &good, &d, host), CL_INVALID_HOST_PTR);
        cl_image_format rgb565 = {CL_RGB, CL_UNORM_SHORT_565};
        ERRC("rgb-565", create_code(ctx, CL_MEM_READ_WRITE, &rgb565, &d, NULL),
                    CL_IMAGE_FORMAT_NOT_SUPPORTED);
        ERRC("sampler-unnormalized-repeat", sampler_code(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST), CL_INVALID_VALUE);
        ERRC("sampler-bad-addressing", sampler_code(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST), CL_INVALID_VALUE);
        ERRC("retain-null-sampler", clRetainSampler(NULL), CL_INVALID_SAMPLER);

        cl_mem img = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, 4, 4, NULL);
        cl_mem other = image2d(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, 4, 4, NULL);
        cl_mem buf = create_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
        size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1}, big[3] = {5, 4, 1}, deep[3] = {4, 4, 2};
        ERRC("region-too-big", clEnqueueReadImage(q, img, CL_TRUE, o, big, 0, 0, host, 0, NULL, NULL),
                    CL_INVALID_VALUE);
        ERRC("region-depth-2d", clEnqueueReadImage(q, img, CL_TRUE, o, deep, 0, 0, host, 0, NULL, NULL),
                    CL_INVALID_VALUE);
        ERRC("row-pitch-too-small", clEnqueueReadImage(q, img, CL_TRUE, o, r, 8, 0, host, 0, NULL, NULL),
                    CL_INVALID_VALUE);
        ERRC("read-image-of-buffer", clEnqueueReadImage(q, buf, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                    CL_INVALID_MEM_OBJECT);
        ERRC("read-buffer-of-image", clEnqueueReadBuffer(q, img, CL_TRUE, 0, 16, host, 0, NULL, NULL),
                    CL_INVALID_MEM_OBJECT);
        ERRC("copy-format-mismatch", clEnqueueCopyImage(q, img, other, o, o, r, 0, NULL, NULL),
                    CL_IMAGE_FORMAT_MISMATCH);
        size_t o2[3] = {1, 0, 0}, r2[3] = {2, 1, 1};
        ERRC("copy-overlap", clEnqueueCopyImage(q, img, img, o, o2, r2, 0, NULL, NULL),
                    CL_MEM_COPY_OVERLAP);
        ERRC("image-to-small-buffer", clEnqueueCopyImageToBuffer(q, img, buf, o, r, 4, 0, NULL, NULL),
                    CL_INVALID_VALUE);
        ERRC("image-info-of-buffer", clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof(size_t), host, NULL),
                    CL_INVALID_MEM_OBJECT);
        /* A buffer where the kernel takes an image, an image where it takes a buffer. */
        cl_kernel k = create_kernel(prog, "read_f");
        ERRC("buffer-as-image-arg", clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
        ERRC("image-as-buffer-arg", clSetKernelArg(k, 1, sizeof img, &img), CL_INVALID_MEM_OBJECT);
        clReleaseKernel(k);
        clReleaseMemObject(img);
        clReleaseMemObject(other);
        clReleaseMemObject(buf);
        EXPECT(g_errc_failed == 0, "%d error code checks failed", g_errc_failed);
        printf("  %d error codes ok\n", g_errc_n);
    }

    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("PASS: images\n");
    return 0;
}
