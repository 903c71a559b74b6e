// A small AOCLUtils-style helper library, written for this example in the manner of the
// helpers Intel's design examples ship: set the working folder to the executable's, find a
// platform by name, find the .aocx for the board, load a binary.
#ifndef AOCL_UTILS_H
#define AOCL_UTILS_H

#include "CL/opencl.h"
#include <string>

namespace aocl_utils {

// Changes the working directory to the folder of the running executable.
bool setCwdToExeDir();

// The first platform whose name contains `name` (NULL if none).
cl_platform_id findPlatform(const char *name);

// "<prefix>.aocx" in the working directory (Intel's helper also tries board-specific names).
std::string getBoardBinaryFile(const char *prefix, cl_device_id device);

// A program created from the binary file `path` for `device`.
cl_program createProgramFromBinary(cl_context context, const char *path, cl_device_id device);

// Prints and exits on an OpenCL error.
void checkError(cl_int err, const char *what);

} // namespace aocl_utils

#endif
