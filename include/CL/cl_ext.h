/*
 * CL/cl_ext.h (fpgacl): the system's Khronos <CL/cl_ext.h>, then Intel's FPGA extensions.
 *
 * Intel's FPGA SDK ships a CL/cl_ext.h that includes cl_ext_intelfpga.h, so Intel host
 * programs use CL_MEM_BANK_1_ALTERA, CL_CHANNEL_1_INTELFPGA or clGetProfileInfoIntelFPGA after
 * including only <CL/opencl.h> (which includes <CL/cl_ext.h>). With fpgacl's include folder
 * first on the search path (`aocl compile-config`), this file does the same.
 */
#ifndef FPGACL_CL_EXT_WRAPPER_H
#define FPGACL_CL_EXT_WRAPPER_H

#include_next <CL/cl_ext.h>
#include "cl_ext_intelfpga.h"

#endif /* FPGACL_CL_EXT_WRAPPER_H */
