//! OpenCL C front end, typed kernel IR, static FPGA analysis, .aocx container.
