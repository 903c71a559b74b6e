/*
 * Shared helpers for the fpgacl C host examples.
 *
 * Every example is an ordinary OpenCL host program written against the
 * standard OpenCL 1.2 API (plus the three 2.0 entry points FPGA hosts use),
 * so it runs unchanged on any conformant implementation. It selects its
 * platform the way FPGA hosts do: by a case-insensitive substring of
 * CL_PLATFORM_NAME, taken from the environment variable HOST_PLATFORM
 * (default "Intel(R) FPGA SDK for OpenCL(TM)").
 *
 * Conventions:
 *   - every OpenCL call is checked; a failure prints one "FAIL: ..." line
 *     (with file:line, the call and the error name) and exits with status 1;
 *   - a program exits 0 only when all of its own checks passed;
 *   - a watchdog (alarm) turns a hang into "FAIL: timeout ..." and a crash
 *     signal into "FAIL: crashed ...", both naming the step in progress.
 */
#ifndef FPGACL_EXAMPLES_COMMON_H
#define FPGACL_EXAMPLES_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#include <CL/cl.h>

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/** Platform chosen when HOST_PLATFORM is not set (what Intel FPGA hosts look for). */
#define DEFAULT_HOST_PLATFORM "Intel(R) FPGA SDK for OpenCL(TM)"

/* ------------------------------------------------------------------ */
/* Error names                                                          */
/* ------------------------------------------------------------------ */

/** Symbolic name of an OpenCL error code (or "CL_<unknown>"). */
static inline const char *cl_err_name(cl_int err)
{
    switch (err) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP)
    E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE)
    E(CL_LINK_PROGRAM_FAILURE) E(CL_DEVICE_PARTITION_FAILED)
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION)
    E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL)
    E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#ifdef CL_INVALID_PIPE_SIZE
    E(CL_INVALID_PIPE_SIZE) E(CL_INVALID_DEVICE_QUEUE)
#endif
#undef E
    default: return "CL_<unknown>";
    }
}

/* ------------------------------------------------------------------ */
/* Step tracking, watchdog and crash reporting                          */
/* ------------------------------------------------------------------ */

/** What the program is doing right now; named in timeout/crash messages. */
static const char *volatile g_step = "start-up";

/** Record the current step (a string literal or other static string). */
#define STEP(s) (g_step = (s))

static inline void fatal_signal_handler(int sig)
{
    /* Only async-signal-safe calls here. */
    const char *what = sig == SIGALRM ? "FAIL: timeout (watchdog) during step: "
                                      : "FAIL: crashed (fatal signal) during step: ";
    const char *step = g_step;
    ssize_t ignored = write(2, what, strlen(what));
    ignored = write(2, step, strlen(step));
    ignored = write(2, "\n", 1);
    ignored = write(1, what, strlen(what));
    ignored = write(1, step, strlen(step));
    ignored = write(1, "\n", 1);
    (void)ignored;
    _exit(sig == SIGALRM ? 3 : 2);
}

/**
 * Install the watchdog (default 120 s, overridable with EXAMPLE_TIMEOUT_S)
 * and the crash reporter. Call first in main().
 */
static inline void install_watchdog(unsigned default_seconds)
{
    const char *env = getenv("EXAMPLE_TIMEOUT_S");
    unsigned secs = default_seconds;
    if (env && *env)
        secs = (unsigned)strtoul(env, NULL, 10);
    signal(SIGALRM, fatal_signal_handler);
    signal(SIGSEGV, fatal_signal_handler);
    signal(SIGBUS, fatal_signal_handler);
    signal(SIGFPE, fatal_signal_handler);
    signal(SIGILL, fatal_signal_handler);
    signal(SIGABRT, fatal_signal_handler);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (secs)
        alarm(secs);
}

/* ------------------------------------------------------------------ */
/* Checking macros                                                      */
/* ------------------------------------------------------------------ */

/** Print "FAIL: file:line: message" and exit(1). */
#define FAILF(...)                                                            \
    do {                                                                      \
        fprintf(stdout, "FAIL: %s:%d: [%s] ", __FILE__, __LINE__, g_step);    \
        fprintf(stdout, __VA_ARGS__);                                         \
        fprintf(stdout, "\n");                                                \
        fflush(stdout);                                                       \
        exit(1);                                                              \
    } while (0)

/** Evaluate an OpenCL call returning cl_int; fail unless CL_SUCCESS. */
#define CHECK(call)                                                           \
    do {                                                                      \
        cl_int check_err_ = (call);                                           \
        if (check_err_ != CL_SUCCESS)                                         \
            FAILF("%s returned %s (%d)", #call, cl_err_name(check_err_),      \
                  (int)check_err_);                                           \
    } while (0)

/** Fail unless the error variable `err` (set by a create call) is CL_SUCCESS. */
#define CHECK_ERR(err, what)                                                  \
    do {                                                                      \
        if ((err) != CL_SUCCESS)                                              \
            FAILF("%s failed with %s (%d)", what, cl_err_name(err), (int)(err)); \
    } while (0)

/** Evaluate `call` (returning cl_int) and fail unless it equals `expected`. */
#define EXPECT_CODE(call, expected)                                           \
    do {                                                                      \
        cl_int expect_err_ = (call);                                          \
        if (expect_err_ != (expected))                                        \
            FAILF("%s returned %s (%d), expected %s", #call,                  \
                  cl_err_name(expect_err_), (int)expect_err_,                 \
                  cl_err_name(expected));                                     \
    } while (0)

/** Fail with a message unless the condition holds. */
#define EXPECT(cond, ...)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stdout, "FAIL: %s:%d: [%s] check `%s` failed: ",          \
                    __FILE__, __LINE__, g_step, #cond);                       \
            fprintf(stdout, __VA_ARGS__);                                     \
            fprintf(stdout, "\n");                                            \
            fflush(stdout);                                                   \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* ------------------------------------------------------------------ */
/* Small utilities                                                      */
/* ------------------------------------------------------------------ */

/** Case-insensitive substring test. */
static inline int contains_ci(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return 1;
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] &&
               tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

/** Space-delimited token test for extension strings. */
static inline int has_token(const char *list, const char *token)
{
    size_t n = strlen(token);
    const char *p = list;
    while ((p = strstr(p, token)) != NULL) {
        int start_ok = (p == list) || p[-1] == ' ';
        int end_ok = p[n] == '\0' || p[n] == ' ';
        if (start_ok && end_ok)
            return 1;
        p += n;
    }
    return 0;
}

/** Monotonic wall-clock time in milliseconds. */
static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/** Sleep for the given number of milliseconds. */
static inline void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/** Platform-info string into a static-size buffer (fails on error). */
static inline void platform_string(cl_platform_id p, cl_platform_info what, char *buf, size_t cap)
{
    CHECK(clGetPlatformInfo(p, what, cap, buf, NULL));
}

/** Device-info string into a caller buffer (fails on error). */
static inline void device_string(cl_device_id d, cl_device_info what, char *buf, size_t cap)
{
    CHECK(clGetDeviceInfo(d, what, cap, buf, NULL));
}

/** Substring of CL_PLATFORM_NAME this run looks for. */
static inline const char *wanted_platform(void)
{
    const char *want = getenv("HOST_PLATFORM");
    return (want && *want) ? want : DEFAULT_HOST_PLATFORM;
}

/**
 * Select the platform whose name contains HOST_PLATFORM (case-insensitive),
 * printing the candidates when none matches.
 */
static inline cl_platform_id select_platform(void)
{
    const char *want = wanted_platform();
    cl_uint n = 0;
    STEP("select platform");
    CHECK(clGetPlatformIDs(0, NULL, &n));
    EXPECT(n > 0, "no OpenCL platforms found");
    cl_platform_id *ids = calloc(n, sizeof *ids);
    EXPECT(ids != NULL, "out of memory");
    CHECK(clGetPlatformIDs(n, ids, NULL));
    cl_platform_id chosen = NULL;
    for (cl_uint i = 0; i < n; i++) {
        char name[1024];
        platform_string(ids[i], CL_PLATFORM_NAME, name, sizeof name);
        if (!chosen && contains_ci(name, want))
            chosen = ids[i];
    }
    if (!chosen) {
        fprintf(stdout, "FAIL: no platform name contains \"%s\"; platforms are:\n", want);
        for (cl_uint i = 0; i < n; i++) {
            char name[1024];
            platform_string(ids[i], CL_PLATFORM_NAME, name, sizeof name);
            fprintf(stdout, "  - %s\n", name);
        }
        exit(1);
    }
    free(ids);
    return chosen;
}

/** First device of the platform (CL_DEVICE_TYPE_ALL). */
static inline cl_device_id select_device(cl_platform_id platform)
{
    cl_device_id dev = NULL;
    cl_uint n = 0;
    STEP("select device");
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, &n));
    EXPECT(n >= 1 && dev != NULL, "platform has no devices");
    return dev;
}

/** True when the selected platform is (an emulation of) an Intel FPGA platform. */
static inline int is_fpga_platform(cl_platform_id platform)
{
    char name[1024];
    platform_string(platform, CL_PLATFORM_NAME, name, sizeof name);
    return contains_ci(name, "FPGA") || contains_ci(name, "Altera");
}

/** Print the selected platform and device names. */
static inline void print_selection(cl_platform_id platform, cl_device_id device)
{
    char pname[1024], dname[1024];
    platform_string(platform, CL_PLATFORM_NAME, pname, sizeof pname);
    device_string(device, CL_DEVICE_NAME, dname, sizeof dname);
    printf("platform: %s\ndevice:   %s\n", pname, dname);
}

/** Create a single-device context with an explicit CL_CONTEXT_PLATFORM property. */
static inline cl_context create_context(cl_platform_id platform, cl_device_id device)
{
    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, "clCreateContext");
    EXPECT(ctx != NULL, "clCreateContext returned NULL with CL_SUCCESS");
    return ctx;
}

/** Create a command queue (OpenCL 1.2 entry point) with the given properties. */
static inline cl_command_queue create_queue(cl_context ctx, cl_device_id device,
                                     cl_command_queue_properties props)
{
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(ctx, device, props, &err);
    CHECK_ERR(err, "clCreateCommandQueue");
    EXPECT(q != NULL, "clCreateCommandQueue returned NULL with CL_SUCCESS");
    return q;
}

/** Execution status of an event (fails on error). */
static inline cl_int event_status(cl_event ev)
{
    cl_int st = 0;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    return st;
}

/** Reference count of an event (fails on error). */
static inline cl_uint event_refcount(cl_event ev)
{
    cl_uint rc = 0;
    CHECK(clGetEventInfo(ev, CL_EVENT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    return rc;
}

/** Profiling timestamp of a completed event (fails on error). */
static inline cl_ulong profile_time(cl_event ev, cl_profiling_info what)
{
    cl_ulong t = 0;
    CHECK(clGetEventProfilingInfo(ev, what, sizeof t, &t, NULL));
    return t;
}

/** Poll `*flag` (an int set by a callback) until it reaches `want` or `ms` elapse. */
static inline int wait_flag(volatile int *flag, int want, unsigned ms)
{
    double deadline = now_ms() + ms;
    while (__atomic_load_n(flag, __ATOMIC_SEQ_CST) < want) {
        if (now_ms() > deadline)
            return 0;
        sleep_ms(1);
    }
    return 1;
}

/**
 * True when the check named `id` is listed in the comma-separated environment
 * variable EXAMPLE_SKIP_CHECKS. Used only to validate the examples on other
 * implementations with known deviations from the specification (the test
 * harness lists them explicitly); prints a "skip:" line so nothing is hidden.
 */
static inline int skip_check(const char *id)
{
    const char *list = getenv("EXAMPLE_SKIP_CHECKS");
    if (!list || !*list)
        return 0;
    size_t n = strlen(id);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, id, n) == 0) {
            printf("  skip: %s (listed in EXAMPLE_SKIP_CHECKS)\n", id);
            return 1;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Programs (kernel examples)                                           */
/* ------------------------------------------------------------------ */

#ifndef FPGACL_KERNELS_DIR
#define FPGACL_KERNELS_DIR "kernels"
#endif

/** Whole file into a NUL-terminated heap buffer (fails on error). */
static inline char *read_file(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    EXPECT(f != NULL, "cannot open %s", path);
    EXPECT(fseek(f, 0, SEEK_END) == 0, "cannot seek %s", path);
    long len = ftell(f);
    EXPECT(len >= 0, "cannot size %s", path);
    rewind(f);
    char *buf = malloc((size_t)len + 1);
    EXPECT(buf != NULL, "out of memory");
    EXPECT(fread(buf, 1, (size_t)len, f) == (size_t)len, "cannot read %s", path);
    buf[len] = '\0';
    fclose(f);
    if (len_out)
        *len_out = (size_t)len;
    return buf;
}

/**
 * Kernel file to load: argv[1] when given (a .cl source or an .aocx binary),
 * else `<FPGACL_KERNELS_DIR>/<default_name>`.
 */
static inline const char *kernel_path(int argc, char **argv, const char *default_name)
{
    static char path[4096];
    if (argc > 1 && argv[1][0])
        return argv[1];
    snprintf(path, sizeof path, "%s/%s", FPGACL_KERNELS_DIR, default_name);
    return path;
}

/** Like kernel_path, for the `index`-th (1-based) program argument. */
static inline const char *kernel_path_n(int argc, char **argv, int index, const char *default_name)
{
    static char paths[4][4096];
    if (argc > index && argv[index][0])
        return argv[index];
    char *path = paths[index & 3];
    snprintf(path, sizeof paths[0], "%s/%s", FPGACL_KERNELS_DIR, default_name);
    return path;
}

/**
 * Create and build a program from `path`: an `.aocx` file through
 * clCreateProgramWithBinary (as FPGA hosts do), anything else as OpenCL C
 * source. Prints the build log and fails on error.
 */
static inline cl_program build_program(cl_context ctx, cl_device_id dev, const char *path,
                                       const char *options)
{
    cl_int err = CL_SUCCESS;
    size_t len = 0;
    char *text = read_file(path, &len);
    cl_program prog;
    size_t plen = strlen(path);
    STEP("create program");
    if (plen > 5 && strcmp(path + plen - 5, ".aocx") == 0) {
        const unsigned char *bin = (const unsigned char *)text;
        cl_int bin_status = CL_SUCCESS;
        prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &bin_status, &err);
        CHECK_ERR(err, "clCreateProgramWithBinary");
        CHECK_ERR(bin_status, "binary status");
    } else {
        const char *src = text;
        prog = clCreateProgramWithSource(ctx, 1, &src, &len, &err);
        CHECK_ERR(err, "clCreateProgramWithSource");
    }
    free(text);
    STEP("build program");
    err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t log_len = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
        char *log = calloc(1, log_len + 1);
        if (log)
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
        printf("build log of %s:\n%s\n", path, log ? log : "(none)");
        free(log);
        FAILF("clBuildProgram(%s) returned %s", path, cl_err_name(err));
    }
    return prog;
}

/** Create a kernel by name (fails on error). */
static inline cl_kernel create_kernel(cl_program prog, const char *name)
{
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS || !k)
        FAILF("clCreateKernel(%s) returned %s", name, cl_err_name(err));
    return k;
}

/** Create a buffer (fails on error). */
static inline cl_mem create_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
    if (err != CL_SUCCESS || !m)
        FAILF("clCreateBuffer(size %zu) returned %s", size, cl_err_name(err));
    return m;
}

/** Number from an environment variable, or `fallback`. */
static inline unsigned long env_number(const char *name, unsigned long fallback)
{
    const char *v = getenv(name);
    return (v && *v) ? strtoul(v, NULL, 0) : fallback;
}

/** Print the final success line and return 0 (use as `return pass(...)`). */
static inline int pass(const char *program)
{
    printf("PASS: %s\n", program);
    fflush(stdout);
    return 0;
}

#endif /* FPGACL_EXAMPLES_COMMON_H */
