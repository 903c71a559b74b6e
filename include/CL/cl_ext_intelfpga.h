/*
 * CL/cl_ext_intelfpga.h (fpgacl): the Intel FPGA SDK for OpenCL host extensions that fpgacl
 * implements, under Intel's names and values, so Intel host programs compile unchanged.
 *
 * Written for fpgacl from the public API names and values. Functions: see
 * CL/fpgacl_intel_ext.h (profiler, host pipes, buffer properties). Linked with
 * `aocl link-config` (libfpgacl.so directly) they are called by name; through the ICD loader
 * get them with clGetExtensionFunctionAddressForPlatform.
 *
 * Not implemented by fpgacl, so not declared: clTrackLiveObjectsIntelFPGA,
 * clReportLiveObjectsIntelFPGA, clGetBoardExtensionFunctionAddressIntelFPGA,
 * clMapHostPipeIntelFPGA / clUnmapHostPipeIntelFPGA, clCreateProgramLibraryIntelFPGA
 * (a host that calls one fails to link, naming it).
 */
#ifndef FPGACL_CL_EXT_INTELFPGA_H
#define FPGACL_CL_EXT_INTELFPGA_H

#include <CL/cl.h>
#include "fpgacl_intel_ext.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- extension names ---- */
#ifndef cl_intel_fpga_host_pipe
#define cl_intel_fpga_host_pipe 1
#endif

/* ---- global memory banks (buffer flags; the bank number shifted by 16) ---- */
#ifndef CL_MEM_BANK_1_ALTERA
#define CL_MEM_BANK_AUTO_ALTERA CL_CHANNEL_AUTO_INTELFPGA
#define CL_MEM_BANK_1_ALTERA CL_CHANNEL_1_INTELFPGA
#define CL_MEM_BANK_2_ALTERA CL_CHANNEL_2_INTELFPGA
#define CL_MEM_BANK_3_ALTERA CL_CHANNEL_3_INTELFPGA
#define CL_MEM_BANK_4_ALTERA CL_CHANNEL_4_INTELFPGA
#define CL_MEM_BANK_5_ALTERA CL_CHANNEL_5_INTELFPGA
#define CL_MEM_BANK_6_ALTERA CL_CHANNEL_6_INTELFPGA
#define CL_MEM_BANK_7_ALTERA CL_CHANNEL_7_INTELFPGA
#endif
#ifndef CL_MEM_HETEROGENEOUS_ALTERA
#define CL_MEM_HETEROGENEOUS_ALTERA CL_MEM_HETEROGENEOUS_INTELFPGA
#endif

/* ---- context properties (cl_intelfpga_compiler_mode) ---- */
#ifndef CL_CONTEXT_COMPILER_MODE_INTELFPGA
#define CL_CONTEXT_COMPILER_MODE_INTELFPGA 0x40F0
#define CL_CONTEXT_PROGRAM_EXE_LIBRARY_ROOT_INTELFPGA 0x40F1
#define CL_CONTEXT_OFFLINE_DEVICE_INTELFPGA 0x40F2
#define CL_CONTEXT_COMPILER_MODE_OFFLINE_INTELFPGA 0
#define CL_CONTEXT_COMPILER_MODE_OFFLINE_CREATE_EXE_LIBRARY_INTELFPGA 1
#define CL_CONTEXT_COMPILER_MODE_OFFLINE_USE_EXE_LIBRARY_INTELFPGA 2
#define CL_CONTEXT_COMPILER_MODE_PRELOADED_BINARY_ONLY_INTELFPGA 3
#endif

/* ---- device info ---- */
#ifndef CL_DEVICE_CORE_TEMPERATURE_INTELFPGA
#define CL_DEVICE_CORE_TEMPERATURE_INTELFPGA 0x40F3
#endif

/* ---- the older Altera names of the functions fpgacl implements ---- */
#define clGetProfileInfoAltera clGetProfileInfoIntelFPGA
#define clGetProfileDataDeviceAltera clGetProfileDataDeviceIntelFPGA

#ifdef __cplusplus
}
#endif

#endif /* FPGACL_CL_EXT_INTELFPGA_H */
