// AOCLUtils-style helpers (see aocl_utils.h).
#include "AOCLUtils/aocl_utils.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace aocl_utils {

bool setCwdToExeDir()
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return false;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    if (!slash)
        return false;
    *slash = 0;
    return chdir(path) == 0;
}

cl_platform_id findPlatform(const char *name)
{
    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0)
        return NULL;
    std::vector<cl_platform_id> ids(n);
    clGetPlatformIDs(n, ids.data(), NULL);
    for (cl_uint i = 0; i < n; i++) {
        char pname[256] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (strstr(pname, name))
            return ids[i];
    }
    return NULL;
}

std::string getBoardBinaryFile(const char *prefix, cl_device_id)
{
    return std::string(prefix) + ".aocx";
}

cl_program createProgramFromBinary(cl_context context, const char *path, cl_device_id device)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    std::vector<unsigned char> bytes(len);
    if (fread(bytes.data(), 1, len, f) != len) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    const unsigned char *bin = bytes.data();
    cl_int status = 0, err = 0;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &len, &bin, &status, &err);
    checkError(err, "clCreateProgramWithBinary");
    checkError(status, "binary status");
    return p;
}

void checkError(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "ERROR: %s returned %d\n", what, (int)err);
        exit(1);
    }
}

} // namespace aocl_utils
