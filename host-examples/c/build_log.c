/*
 * Builds each OpenCL C file given on the command line with clCreateProgramWithSource +
 * clBuildProgram (options from BUILD_LOG_OPTIONS) and prints, per file, the status, the wall
 * time of clBuildProgram and the build log between markers:
 *
 *   === <path>
 *   status=<cl_int> seconds=<wall time> cpu=<CPU time of the process>
 *   <build log lines>
 *   === end
 *
 * Used by tests that check the build log of the compiler's diagnostics (printf formats,
 * private memory warnings) and that pathological inputs return within a bound.
 */
#include "common.h"
#include <sys/resource.h>

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
    install_watchdog(600);
    EXPECT(argc >= 2, "usage: build_log FILE.cl...");
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    const char *options = getenv("BUILD_LOG_OPTIONS");
    for (int i = 1; i < argc; i++) {
        STEP(argv[i]);
        size_t len = 0;
        char *text = read_file(argv[i], &len);
        const char *src = text;
        cl_int err = CL_SUCCESS;
        cl_program prog = clCreateProgramWithSource(ctx, 1, &src, &len, &err);
        CHECK_ERR(err, "clCreateProgramWithSource");
        free(text);
        double t0 = now_ms(), c0 = cpu_seconds();
        cl_int st = clBuildProgram(prog, 1, &dev, options ? options : "", NULL, NULL);
        double secs = (now_ms() - t0) / 1e3, cpu = cpu_seconds() - c0;
        size_t log_len = 0;
        CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len));
        char *log = calloc(1, log_len + 1);
        EXPECT(log != NULL, "out of memory");
        CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL));
        printf("=== %s\nstatus=%d seconds=%.3f cpu=%.3f\n%s\n=== end\n", argv[i], st, secs, cpu, log);
        fflush(stdout);
        free(log);
        clReleaseProgram(prog);
    }
    clReleaseContext(ctx);
    return pass("build_log");
}
