/*
 * fpgacl_intel_ext.h: the Intel FPGA OpenCL extension functions fpgacl implements.
 *
 * Written for fpgacl (an OpenCL runtime that emulates and profiles an Intel-style FPGA
 * accelerator). Host programs include it after <CL/cl.h>:
 *
 *     #include <CL/cl.h>
 *     #include <CL/fpgacl_intel_ext.h>     (compile with -I<fpgacl>/include)
 *
 * Linked directly against libfpgacl.so, the functions can be called by name. Through the ICD
 * loader (-lOpenCL), get them with clGetExtensionFunctionAddressForPlatform(platform, "name")
 * and call them through the *_fn pointer types below.
 *
 * Profiling (see fpgacl's README for the environment: ACL_RUNTIME_PROFILING_ACTIVE=1,
 * ACL_PROFILE_TIMER=1, ACL_PROFILE_START_CYCLE / ACL_PROFILE_STOP_CYCLE,
 * FPGACL_PROFILE_OUT):
 *   clGetProfileInfoIntelFPGA(event): writes a snapshot of the counters of the kernel of
 *     `event` while it runs; CL_INVALID_EVENT if it is not a kernel command running now.
 *   clGetProfileDataDeviceIntelFPGA(device, program, read_enqueue_kernels,
 *     read_auto_enqueued, clear_counters_after_readback, ...): writes one capture per
 *     compute unit of every autorun kernel of `program` (read_auto_enqueued) and a snapshot of
 *     every running enqueued kernel (read_enqueue_kernels); clear_counters_after_readback
 *     restarts the autorun counters. param_value* are unused. program may be NULL (all
 *     programs of the device).
 *
 * Host pipes (cl_intel_fpga_host_pipe): a pipe created with clCreatePipe and
 * CL_MEM_HOST_READ_ONLY (host reads) or CL_MEM_HOST_WRITE_ONLY (host writes), bound to a
 * kernel's pipe argument with clSetKernelArg. Both calls are non-blocking: retry on
 * CL_PIPE_EMPTY / CL_PIPE_FULL.
 *
 * Buffer location: clCreateBufferWithPropertiesINTEL with { CL_MEM_CHANNEL_INTEL, n, 0 }
 * places the buffer in global memory bank n (like the CL_CHANNEL_n_INTELFPGA flags).
 */
#ifndef FPGACL_INTEL_EXT_H
#define FPGACL_INTEL_EXT_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error codes ---- */
#ifndef CL_PIPE_FULL
#define CL_PIPE_FULL -1111
#endif
#ifndef CL_PIPE_EMPTY
#define CL_PIPE_EMPTY -1112
#endif

/* ---- buffer location ---- */
#ifndef CL_MEM_CHANNEL_INTEL
#define CL_MEM_CHANNEL_INTEL 0x4213
#endif
#ifndef CL_CHANNEL_AUTO_INTELFPGA
#define CL_CHANNEL_AUTO_INTELFPGA 0
#define CL_CHANNEL_1_INTELFPGA (1 << 16)
#define CL_CHANNEL_2_INTELFPGA (2 << 16)
#define CL_CHANNEL_3_INTELFPGA (3 << 16)
#define CL_CHANNEL_4_INTELFPGA (4 << 16)
#define CL_CHANNEL_5_INTELFPGA (5 << 16)
#define CL_CHANNEL_6_INTELFPGA (6 << 16)
#define CL_CHANNEL_7_INTELFPGA (7 << 16)
#endif
#ifndef CL_MEM_HETEROGENEOUS_INTELFPGA
#define CL_MEM_HETEROGENEOUS_INTELFPGA (1 << 19)
#endif

#if !defined(CL_VERSION_3_0) && !defined(FPGACL_HAVE_MEM_PROPERTIES)
typedef cl_bitfield cl_mem_properties;
#endif
typedef cl_mem_properties cl_mem_properties_intel;

/* ---- dynamic profiler ---- */
typedef cl_int(CL_API_CALL *clGetProfileInfoIntelFPGA_fn)(cl_event kernel_event);
extern CL_API_ENTRY cl_int CL_API_CALL clGetProfileInfoIntelFPGA(cl_event kernel_event);

typedef cl_int(CL_API_CALL *clGetProfileDataDeviceIntelFPGA_fn)(
    cl_device_id device_id, cl_program program, cl_bool read_enqueue_kernels,
    cl_bool read_auto_enqueued, cl_bool clear_counters_after_readback,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret,
    cl_int *errcode_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clGetProfileDataDeviceIntelFPGA(
    cl_device_id device_id, cl_program program, cl_bool read_enqueue_kernels,
    cl_bool read_auto_enqueued, cl_bool clear_counters_after_readback,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret,
    cl_int *errcode_ret);

/* ---- host pipes ---- */
typedef cl_int(CL_API_CALL *clReadPipeIntelFPGA_fn)(cl_mem pipe, void *ptr);
extern CL_API_ENTRY cl_int CL_API_CALL clReadPipeIntelFPGA(cl_mem pipe, void *ptr);

typedef cl_int(CL_API_CALL *clWritePipeIntelFPGA_fn)(cl_mem pipe, const void *ptr);
extern CL_API_ENTRY cl_int CL_API_CALL clWritePipeIntelFPGA(cl_mem pipe, const void *ptr);

/* ---- buffers with properties ---- */
typedef cl_mem(CL_API_CALL *clCreateBufferWithPropertiesINTEL_fn)(
    cl_context context, const cl_mem_properties_intel *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret);
extern CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithPropertiesINTEL(
    cl_context context, const cl_mem_properties_intel *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret);

#ifdef __cplusplus
}
#endif

#endif /* FPGACL_INTEL_EXT_H */
