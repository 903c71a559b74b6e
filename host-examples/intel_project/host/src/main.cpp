// Host of the Intel-style example: unchanged Intel host code. It includes only CL/opencl.h
// (through aocl_utils.h) and uses Intel's names from it (CL_MEM_BANK_n_ALTERA,
// clGetProfileDataDeviceIntelFPGA), finds the platform by Intel's name, moves to its own
// folder, loads bin/vector_scale.aocx and runs producer and consumer on two queues.
#include "AOCLUtils/aocl_utils.h"

#include <cmath>
#include <cstdio>
#include <vector>

using namespace aocl_utils;

int main()
{
    if (!setCwdToExeDir())
        return 1;
    cl_platform_id platform = findPlatform("Intel(R) FPGA");
    if (!platform) {
        printf("ERROR: Unable to find Intel(R) FPGA OpenCL platform.\n");
        return 1;
    }
    cl_device_id device;
    checkError(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "devices");
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    checkError(err, "clCreateContext");
    cl_command_queue qp = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    checkError(err, "queue");
    cl_command_queue qc = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    checkError(err, "queue");

    std::string binary_file = getBoardBinaryFile("vector_scale", device);
    printf("Using AOCX: %s\n", binary_file.c_str());
    cl_program program = createProgramFromBinary(context, binary_file.c_str(), device);
    checkError(clBuildProgram(program, 0, NULL, "", NULL, NULL), "clBuildProgram");

    const int N = 4096;
    std::vector<float> in(N), out(N, 0.0f);
    for (int i = 0; i < N; i++)
        in[i] = 0.5f * i;
    cl_mem bin = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_BANK_1_ALTERA,
                                N * sizeof(float), NULL, &err);
    checkError(err, "input buffer");
    cl_mem bout = clCreateBuffer(context, CL_MEM_WRITE_ONLY | CL_MEM_BANK_2_ALTERA,
                                 N * sizeof(float), NULL, &err);
    checkError(err, "output buffer");
    checkError(clEnqueueWriteBuffer(qp, bin, CL_TRUE, 0, N * sizeof(float), in.data(), 0, NULL,
                                    NULL),
               "write");

    cl_kernel producer = clCreateKernel(program, "producer", &err);
    checkError(err, "producer");
    cl_kernel consumer = clCreateKernel(program, "consumer", &err);
    checkError(err, "consumer");
    checkError(clSetKernelArg(producer, 0, sizeof(cl_mem), &bin), "arg");
    checkError(clSetKernelArg(producer, 1, sizeof(int), &N), "arg");
    checkError(clSetKernelArg(consumer, 0, sizeof(cl_mem), &bout), "arg");
    checkError(clSetKernelArg(consumer, 1, sizeof(int), &N), "arg");
    cl_event ev[2];
    checkError(clEnqueueTask(qc, consumer, 0, NULL, &ev[1]), "consumer");
    checkError(clEnqueueTask(qp, producer, 0, NULL, &ev[0]), "producer");
    checkError(clWaitForEvents(2, ev), "wait");
    // Intel's extension function, called directly: read the profile counters of the device.
    checkError(clGetProfileDataDeviceIntelFPGA(device, program, CL_TRUE, CL_TRUE, CL_FALSE, 0,
                                               NULL, NULL, NULL),
               "clGetProfileDataDeviceIntelFPGA");
    checkError(clEnqueueReadBuffer(qc, bout, CL_TRUE, 0, N * sizeof(float), out.data(), 0, NULL,
                                   NULL),
               "read");
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (std::fabs(out[i] - in[i] * 3.0f) > 1e-6f)
            bad++;
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(ev[1], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    clGetEventProfilingInfo(ev[1], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    printf("consumer_ns=%llu\n", (unsigned long long)(end - start));
    printf("out[%d]=%g\n", N - 1, out[N - 1]);
    clReleaseEvent(ev[0]);
    clReleaseEvent(ev[1]);
    clReleaseKernel(producer);
    clReleaseKernel(consumer);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseProgram(program);
    clReleaseCommandQueue(qp);
    clReleaseCommandQueue(qc);
    clReleaseContext(context);
    if (bad) {
        printf("Verification: FAIL (%d of %d wrong)\n", bad, N);
        return 1;
    }
    printf("Verification: PASS\n");
    return 0;
}
