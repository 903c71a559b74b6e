/*
 * dlclose.c: a host that loads libfpgacl.so itself (dlopen, argv[1]), runs one kernel with
 * profiling on, releases everything and dlcloses the library, then keeps running for a while
 * (the library's threads must not run unmapped code) and exits. The profile must hold the run.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 256

static void *lib;

static void *sym(const char *name)
{
    void *f = dlsym(lib, name);
    if (!f) {
        printf("FAIL: no %s in the library\n", name);
        exit(1);
    }
    return f;
}

#define FN(name) ((__typeof__(&name))sym(#name))
#define CHECK(call)                                                  \
    do {                                                             \
        cl_int e_ = (call);                                          \
        if (e_ != CL_SUCCESS) {                                      \
            printf("FAIL: %s returned %d\n", #call, (int)e_);        \
            return 1;                                                \
        }                                                            \
    } while (0)

static const char *SRC =
    "__kernel void twice(__global const int *a, __global int *b)\n"
    "{ int i = get_global_id(0); b[i] = 2 * a[i]; }\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("FAIL: usage: dlclose <libfpgacl.so>\n");
        return 1;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    cl_platform_id p;
    cl_device_id d;
    cl_int err;
    CHECK(FN(clGetPlatformIDs)(1, &p, NULL));
    CHECK(FN(clGetDeviceIDs)(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
    cl_context ctx = FN(clCreateContext)(NULL, 1, &d, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = FN(clCreateCommandQueue)(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    cl_program prog = FN(clCreateProgramWithSource)(ctx, 1, &SRC, NULL, &err);
    CHECK(err);
    CHECK(FN(clBuildProgram)(prog, 1, &d, "", NULL, NULL));
    cl_kernel k = FN(clCreateKernel)(prog, "twice", &err);
    CHECK(err);
    int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    cl_mem ba = FN(clCreateBuffer)(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CHECK(err);
    cl_mem bb = FN(clCreateBuffer)(ctx, CL_MEM_WRITE_ONLY, sizeof b, NULL, &err);
    CHECK(err);
    CHECK(FN(clSetKernelArg)(k, 0, sizeof ba, &ba));
    CHECK(FN(clSetKernelArg)(k, 1, sizeof bb, &bb));
    size_t global = N;
    CHECK(FN(clEnqueueNDRangeKernel)(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(FN(clEnqueueReadBuffer)(q, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (b[i] != 2 * i) {
            printf("FAIL: b[%d] = %d\n", i, b[i]);
            return 1;
        }
    CHECK(FN(clReleaseMemObject)(ba));
    CHECK(FN(clReleaseMemObject)(bb));
    CHECK(FN(clReleaseKernel)(k));
    CHECK(FN(clReleaseProgram)(prog));
    CHECK(FN(clReleaseCommandQueue)(q));
    CHECK(FN(clReleaseContext)(ctx));
    if (dlclose(lib) != 0) {
        printf("FAIL: dlclose: %s\n", dlerror());
        return 1;
    }
    /* Still mapped? (RTLD_NOLOAD only looks; a reference it takes is dropped again.) */
    void *again = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
    printf("still_loaded=%d\n", again != NULL);
    if (again)
        dlclose(again);
    printf("closed\n");
    fflush(stdout);
    /* The library's threads wake several times in this time. */
    usleep(1500 * 1000);
    printf("PASS: dlclose\n");
    return 0;
}
