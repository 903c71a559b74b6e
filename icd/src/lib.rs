//! C ABI of fpgacl: cl_khr_icd dispatch table and OpenCL entry points (libfpgacl.so).
