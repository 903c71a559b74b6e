//! The cl_khr_icd dispatch table: every object handle starts with a pointer to it.
//!
//! The order is the Khronos `cl_icd_dispatch` layout (`CL/cl_icd.h`), which the ICD loader
//! indexes. Interop entries (GL, D3D, DX9, EGL) and the `EXT` device-fission entries are NULL:
//! the platform does not report those extensions.

use std::ffi::c_void;

use crate::entry;

/// Number of entries in the Khronos dispatch table (OpenCL 3.0 headers).
pub const DISPATCH_LEN: usize = 149;

/// The dispatch table.
#[repr(C)]
pub struct Dispatch(pub [*const c_void; DISPATCH_LEN]);

// SAFETY: the table is immutable function pointers.
unsafe impl Sync for Dispatch {}

/// The one dispatch table of fpgacl.
pub static DISPATCH: Dispatch = Dispatch([
    /*   0 clGetPlatformIDs */ entry::clGetPlatformIDs as *const c_void,
    /*   1 clGetPlatformInfo */ entry::clGetPlatformInfo as *const c_void,
    /*   2 clGetDeviceIDs */ entry::clGetDeviceIDs as *const c_void,
    /*   3 clGetDeviceInfo */ entry::clGetDeviceInfo as *const c_void,
    /*   4 clCreateContext */ entry::clCreateContext as *const c_void,
    /*   5 clCreateContextFromType */ entry::clCreateContextFromType as *const c_void,
    /*   6 clRetainContext */ entry::clRetainContext as *const c_void,
    /*   7 clReleaseContext */ entry::clReleaseContext as *const c_void,
    /*   8 clGetContextInfo */ entry::clGetContextInfo as *const c_void,
    /*   9 clCreateCommandQueue */ entry::clCreateCommandQueue as *const c_void,
    /*  10 clRetainCommandQueue */ entry::clRetainCommandQueue as *const c_void,
    /*  11 clReleaseCommandQueue */ entry::clReleaseCommandQueue as *const c_void,
    /*  12 clGetCommandQueueInfo */ entry::clGetCommandQueueInfo as *const c_void,
    /*  13 clSetCommandQueueProperty */ entry::clSetCommandQueueProperty as *const c_void,
    /*  14 clCreateBuffer */ entry::clCreateBuffer as *const c_void,
    /*  15 clCreateImage2D */ entry::clCreateImage2D as *const c_void,
    /*  16 clCreateImage3D */ entry::clCreateImage3D as *const c_void,
    /*  17 clRetainMemObject */ entry::clRetainMemObject as *const c_void,
    /*  18 clReleaseMemObject */ entry::clReleaseMemObject as *const c_void,
    /*  19 clGetSupportedImageFormats */ entry::clGetSupportedImageFormats as *const c_void,
    /*  20 clGetMemObjectInfo */ entry::clGetMemObjectInfo as *const c_void,
    /*  21 clGetImageInfo */ entry::clGetImageInfo as *const c_void,
    /*  22 clCreateSampler */ entry::clCreateSampler as *const c_void,
    /*  23 clRetainSampler */ entry::clRetainSampler as *const c_void,
    /*  24 clReleaseSampler */ entry::clReleaseSampler as *const c_void,
    /*  25 clGetSamplerInfo */ entry::clGetSamplerInfo as *const c_void,
    /*  26 clCreateProgramWithSource */ entry::clCreateProgramWithSource as *const c_void,
    /*  27 clCreateProgramWithBinary */ entry::clCreateProgramWithBinary as *const c_void,
    /*  28 clRetainProgram */ entry::clRetainProgram as *const c_void,
    /*  29 clReleaseProgram */ entry::clReleaseProgram as *const c_void,
    /*  30 clBuildProgram */ entry::clBuildProgram as *const c_void,
    /*  31 clUnloadCompiler */ entry::clUnloadCompiler as *const c_void,
    /*  32 clGetProgramInfo */ entry::clGetProgramInfo as *const c_void,
    /*  33 clGetProgramBuildInfo */ entry::clGetProgramBuildInfo as *const c_void,
    /*  34 clCreateKernel */ entry::clCreateKernel as *const c_void,
    /*  35 clCreateKernelsInProgram */ entry::clCreateKernelsInProgram as *const c_void,
    /*  36 clRetainKernel */ entry::clRetainKernel as *const c_void,
    /*  37 clReleaseKernel */ entry::clReleaseKernel as *const c_void,
    /*  38 clSetKernelArg */ entry::clSetKernelArg as *const c_void,
    /*  39 clGetKernelInfo */ entry::clGetKernelInfo as *const c_void,
    /*  40 clGetKernelWorkGroupInfo */ entry::clGetKernelWorkGroupInfo as *const c_void,
    /*  41 clWaitForEvents */ entry::clWaitForEvents as *const c_void,
    /*  42 clGetEventInfo */ entry::clGetEventInfo as *const c_void,
    /*  43 clRetainEvent */ entry::clRetainEvent as *const c_void,
    /*  44 clReleaseEvent */ entry::clReleaseEvent as *const c_void,
    /*  45 clGetEventProfilingInfo */ entry::clGetEventProfilingInfo as *const c_void,
    /*  46 clFlush */ entry::clFlush as *const c_void,
    /*  47 clFinish */ entry::clFinish as *const c_void,
    /*  48 clEnqueueReadBuffer */ entry::clEnqueueReadBuffer as *const c_void,
    /*  49 clEnqueueWriteBuffer */ entry::clEnqueueWriteBuffer as *const c_void,
    /*  50 clEnqueueCopyBuffer */ entry::clEnqueueCopyBuffer as *const c_void,
    /*  51 clEnqueueReadImage */ entry::clEnqueueReadImage as *const c_void,
    /*  52 clEnqueueWriteImage */ entry::clEnqueueWriteImage as *const c_void,
    /*  53 clEnqueueCopyImage */ entry::clEnqueueCopyImage as *const c_void,
    /*  54 clEnqueueCopyImageToBuffer */ entry::clEnqueueCopyImageToBuffer as *const c_void,
    /*  55 clEnqueueCopyBufferToImage */ entry::clEnqueueCopyBufferToImage as *const c_void,
    /*  56 clEnqueueMapBuffer */ entry::clEnqueueMapBuffer as *const c_void,
    /*  57 clEnqueueMapImage */ entry::clEnqueueMapImage as *const c_void,
    /*  58 clEnqueueUnmapMemObject */ entry::clEnqueueUnmapMemObject as *const c_void,
    /*  59 clEnqueueNDRangeKernel */ entry::clEnqueueNDRangeKernel as *const c_void,
    /*  60 clEnqueueTask */ entry::clEnqueueTask as *const c_void,
    /*  61 clEnqueueNativeKernel */ entry::clEnqueueNativeKernel as *const c_void,
    /*  62 clEnqueueMarker */ entry::clEnqueueMarker as *const c_void,
    /*  63 clEnqueueWaitForEvents */ entry::clEnqueueWaitForEvents as *const c_void,
    /*  64 clEnqueueBarrier */ entry::clEnqueueBarrier as *const c_void,
    /*  65 clGetExtensionFunctionAddress */
    entry::clGetExtensionFunctionAddress as *const c_void,
    /*  66 clCreateFromGLBuffer */ std::ptr::null(),
    /*  67 clCreateFromGLTexture2D */ std::ptr::null(),
    /*  68 clCreateFromGLTexture3D */ std::ptr::null(),
    /*  69 clCreateFromGLRenderbuffer */ std::ptr::null(),
    /*  70 clGetGLObjectInfo */ std::ptr::null(),
    /*  71 clGetGLTextureInfo */ std::ptr::null(),
    /*  72 clEnqueueAcquireGLObjects */ std::ptr::null(),
    /*  73 clEnqueueReleaseGLObjects */ std::ptr::null(),
    /*  74 clGetGLContextInfoKHR */ std::ptr::null(),
    /*  75 clGetDeviceIDsFromD3D10KHR */ std::ptr::null(),
    /*  76 clCreateFromD3D10BufferKHR */ std::ptr::null(),
    /*  77 clCreateFromD3D10Texture2DKHR */ std::ptr::null(),
    /*  78 clCreateFromD3D10Texture3DKHR */ std::ptr::null(),
    /*  79 clEnqueueAcquireD3D10ObjectsKHR */ std::ptr::null(),
    /*  80 clEnqueueReleaseD3D10ObjectsKHR */ std::ptr::null(),
    /*  81 clSetEventCallback */ entry::clSetEventCallback as *const c_void,
    /*  82 clCreateSubBuffer */ entry::clCreateSubBuffer as *const c_void,
    /*  83 clSetMemObjectDestructorCallback */
    entry::clSetMemObjectDestructorCallback as *const c_void,
    /*  84 clCreateUserEvent */ entry::clCreateUserEvent as *const c_void,
    /*  85 clSetUserEventStatus */ entry::clSetUserEventStatus as *const c_void,
    /*  86 clEnqueueReadBufferRect */ entry::clEnqueueReadBufferRect as *const c_void,
    /*  87 clEnqueueWriteBufferRect */ entry::clEnqueueWriteBufferRect as *const c_void,
    /*  88 clEnqueueCopyBufferRect */ entry::clEnqueueCopyBufferRect as *const c_void,
    /*  89 clCreateSubDevicesEXT */ std::ptr::null(),
    /*  90 clRetainDeviceEXT */ std::ptr::null(),
    /*  91 clReleaseDeviceEXT */ std::ptr::null(),
    /*  92 clCreateEventFromGLsyncKHR */ std::ptr::null(),
    /*  93 clCreateSubDevices */ entry::clCreateSubDevices as *const c_void,
    /*  94 clRetainDevice */ entry::clRetainDevice as *const c_void,
    /*  95 clReleaseDevice */ entry::clReleaseDevice as *const c_void,
    /*  96 clCreateImage */ entry::clCreateImage as *const c_void,
    /*  97 clCreateProgramWithBuiltInKernels */
    entry::clCreateProgramWithBuiltInKernels as *const c_void,
    /*  98 clCompileProgram */ entry::clCompileProgram as *const c_void,
    /*  99 clLinkProgram */ entry::clLinkProgram as *const c_void,
    /* 100 clUnloadPlatformCompiler */ entry::clUnloadPlatformCompiler as *const c_void,
    /* 101 clGetKernelArgInfo */ entry::clGetKernelArgInfo as *const c_void,
    /* 102 clEnqueueFillBuffer */ entry::clEnqueueFillBuffer as *const c_void,
    /* 103 clEnqueueFillImage */ entry::clEnqueueFillImage as *const c_void,
    /* 104 clEnqueueMigrateMemObjects */ entry::clEnqueueMigrateMemObjects as *const c_void,
    /* 105 clEnqueueMarkerWithWaitList */
    entry::clEnqueueMarkerWithWaitList as *const c_void,
    /* 106 clEnqueueBarrierWithWaitList */
    entry::clEnqueueBarrierWithWaitList as *const c_void,
    /* 107 clGetExtensionFunctionAddressForPlatform */
    entry::clGetExtensionFunctionAddressForPlatform as *const c_void,
    /* 108 clCreateFromGLTexture */ std::ptr::null(),
    /* 109 clGetDeviceIDsFromD3D11KHR */ std::ptr::null(),
    /* 110 clCreateFromD3D11BufferKHR */ std::ptr::null(),
    /* 111 clCreateFromD3D11Texture2DKHR */ std::ptr::null(),
    /* 112 clCreateFromD3D11Texture3DKHR */ std::ptr::null(),
    /* 113 clCreateFromDX9MediaSurfaceKHR */ std::ptr::null(),
    /* 114 clEnqueueAcquireD3D11ObjectsKHR */ std::ptr::null(),
    /* 115 clEnqueueReleaseD3D11ObjectsKHR */ std::ptr::null(),
    /* 116 clGetDeviceIDsFromDX9MediaAdapterKHR */ std::ptr::null(),
    /* 117 clEnqueueAcquireDX9MediaSurfacesKHR */ std::ptr::null(),
    /* 118 clEnqueueReleaseDX9MediaSurfacesKHR */ std::ptr::null(),
    /* 119 clCreateFromEGLImageKHR */ std::ptr::null(),
    /* 120 clEnqueueAcquireEGLObjectsKHR */ std::ptr::null(),
    /* 121 clEnqueueReleaseEGLObjectsKHR */ std::ptr::null(),
    /* 122 clCreateEventFromEGLSyncKHR */ std::ptr::null(),
    /* 123 clCreateCommandQueueWithProperties */
    entry::clCreateCommandQueueWithProperties as *const c_void,
    /* 124 clCreatePipe */ entry::clCreatePipe as *const c_void,
    /* 125 clGetPipeInfo */ entry::clGetPipeInfo as *const c_void,
    /* 126 clSVMAlloc */ entry::clSVMAlloc as *const c_void,
    /* 127 clSVMFree */ entry::clSVMFree as *const c_void,
    /* 128 clEnqueueSVMFree */ entry::clEnqueueSVMFree as *const c_void,
    /* 129 clEnqueueSVMMemcpy */ entry::clEnqueueSVMMemcpy as *const c_void,
    /* 130 clEnqueueSVMMemFill */ entry::clEnqueueSVMMemFill as *const c_void,
    /* 131 clEnqueueSVMMap */ entry::clEnqueueSVMMap as *const c_void,
    /* 132 clEnqueueSVMUnmap */ entry::clEnqueueSVMUnmap as *const c_void,
    /* 133 clCreateSamplerWithProperties */
    entry::clCreateSamplerWithProperties as *const c_void,
    /* 134 clSetKernelArgSVMPointer */ entry::clSetKernelArgSVMPointer as *const c_void,
    /* 135 clSetKernelExecInfo */ entry::clSetKernelExecInfo as *const c_void,
    /* 136 clGetKernelSubGroupInfoKHR */ entry::clGetKernelSubGroupInfo as *const c_void,
    /* 137 clCloneKernel */ entry::clCloneKernel as *const c_void,
    /* 138 clCreateProgramWithIL */ entry::clCreateProgramWithIL as *const c_void,
    /* 139 clEnqueueSVMMigrateMem */ entry::clEnqueueSVMMigrateMem as *const c_void,
    /* 140 clGetDeviceAndHostTimer */ entry::clGetDeviceAndHostTimer as *const c_void,
    /* 141 clGetHostTimer */ entry::clGetHostTimer as *const c_void,
    /* 142 clGetKernelSubGroupInfo */ entry::clGetKernelSubGroupInfo as *const c_void,
    /* 143 clSetDefaultDeviceCommandQueue */
    entry::clSetDefaultDeviceCommandQueue as *const c_void,
    /* 144 clSetProgramReleaseCallback */
    entry::clSetProgramReleaseCallback as *const c_void,
    /* 145 clSetProgramSpecializationConstant */
    entry::clSetProgramSpecializationConstant as *const c_void,
    /* 146 clCreateBufferWithProperties */
    entry::clCreateBufferWithProperties as *const c_void,
    /* 147 clCreateImageWithProperties */
    entry::clCreateImageWithProperties as *const c_void,
    /* 148 clSetContextDestructorCallback */
    entry::clSetContextDestructorCallback as *const c_void,
]);
