/*
 * aocx_ready: loads an .aocx with clCreateProgramWithBinary and runs its kernel
 * `scale_offset` (out[i] = in[i] * SCALE + OFFSET), the way Intel FPGA hosts do.
 *
 *   aocx_ready <file.aocx> <SCALE> <OFFSET> nobuild   never calls clBuildProgram: the program
 *                                                     from an executable binary must already
 *                                                     be executable (build status SUCCESS,
 *                                                     log saying so)
 *   aocx_ready <file.aocx> <SCALE> <OFFSET> build     calls clBuildProgram first (still fine)
 *
 * Prints "PASS: ..." when every check held, "FAIL: ..." lines otherwise.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond, ...)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL: ");                                                                  \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)
#define CHECK(call)                                                                            \
    do {                                                                                       \
        cl_int e_ = (call);                                                                    \
        if (e_ != CL_SUCCESS) {                                                                \
            printf("FAIL: %s returned %d\n", #call, (int)e_);                                  \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        printf("FAIL: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        printf("usage: %s <file.aocx> <SCALE> <OFFSET> build|nobuild\n", argv[0]);
        return 2;
    }
    int scale = atoi(argv[2]), offset = atoi(argv[3]);
    int build = strcmp(argv[4], "build") == 0;
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);

    size_t len = 0;
    const unsigned char *bin = read_file(argv[1], &len);
    cl_int status = -1;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &status, &err);
    CHECK(err);
    EXPECT(status == CL_SUCCESS, "binary status %d", (int)status);

    cl_build_status st = CL_BUILD_ERROR;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_BUILD_SUCCESS, "build status before any clBuildProgram is %d, expected "
           "CL_BUILD_SUCCESS (%d)", (int)st, (int)CL_BUILD_SUCCESS);
    char log[4096] = "";
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    printf("build log: %s\n", log);
    EXPECT(strstr(log, "without clBuildProgram") != NULL, "build log does not say the binary "
           "is ready without clBuildProgram: \"%s\"", log);
    cl_program_binary_type bt = 0;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    EXPECT(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "binary type %lu", (unsigned long)bt);

    if (build) {
        CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
        CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
        EXPECT(st == CL_BUILD_SUCCESS, "build status after clBuildProgram is %d", (int)st);
    }

    cl_kernel k = clCreateKernel(p, "scale_offset", &err);
    CHECK(err);
    enum { N = 256 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i - 17;
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CHECK(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (out[i] != in[i] * scale + offset)
            bad++;
    EXPECT(bad == 0, "%d of %d results differ from in*%d+%d (out[1] = %d)", bad, N, scale,
           offset, out[1]);
    printf("out[1]=%d\n", out[1]);

    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    if (failures == 0)
        printf("PASS: %s program from %s ran (scale %d, offset %d)\n",
               build ? "built" : "never built", argv[1], scale, offset);
    return failures == 0 ? 0 : 1;
}
