//! The shared library itself: no dependency on the ICD loader, every OpenCL
//! 1.2 entry point (plus the ICD and 2.0 ones FPGA hosts use) exported.

use std::collections::BTreeSet;
use std::process::Command;

use fpgacl_tests::fpgacl_lib;

fn tool(name: &str, args: &[&str]) -> String {
    let lib = fpgacl_lib();
    let out = Command::new(name)
        .args(args)
        .arg(&lib)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name} (binutils): {e}"));
    assert!(
        out.status.success(),
        "{name} {args:?} {} failed: {}",
        lib.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn libfpgacl_does_not_depend_on_libopencl() {
    let dynamic = tool("readelf", &["-d"]);
    let needed: Vec<&str> = dynamic.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(
        !needed.is_empty(),
        "readelf -d shows no NEEDED entries at all:\n{dynamic}"
    );
    let bad: Vec<&&str> = needed.iter().filter(|l| l.contains("libOpenCL")).collect();
    assert!(
        bad.is_empty(),
        "libfpgacl.so depends on the ICD loader: {bad:?}\n{dynamic}"
    );
}

/// Every function of the OpenCL 1.2 API (including those deprecated by 1.2
/// that still sit in the ICD dispatch table), the ICD entry point, and the
/// 2.0 functions FPGA host programs call.
const REQUIRED_EXPORTS: &[&str] = &[
    "clGetPlatformIDs",
    "clGetPlatformInfo",
    "clGetDeviceIDs",
    "clGetDeviceInfo",
    "clCreateSubDevices",
    "clRetainDevice",
    "clReleaseDevice",
    "clCreateContext",
    "clCreateContextFromType",
    "clRetainContext",
    "clReleaseContext",
    "clGetContextInfo",
    "clCreateCommandQueue",
    "clRetainCommandQueue",
    "clReleaseCommandQueue",
    "clGetCommandQueueInfo",
    "clCreateBuffer",
    "clCreateSubBuffer",
    "clCreateImage",
    "clRetainMemObject",
    "clReleaseMemObject",
    "clGetSupportedImageFormats",
    "clGetMemObjectInfo",
    "clGetImageInfo",
    "clSetMemObjectDestructorCallback",
    "clCreateSampler",
    "clRetainSampler",
    "clReleaseSampler",
    "clGetSamplerInfo",
    "clCreateProgramWithSource",
    "clCreateProgramWithBinary",
    "clCreateProgramWithBuiltInKernels",
    "clRetainProgram",
    "clReleaseProgram",
    "clBuildProgram",
    "clCompileProgram",
    "clLinkProgram",
    "clUnloadPlatformCompiler",
    "clGetProgramInfo",
    "clGetProgramBuildInfo",
    "clCreateKernel",
    "clCreateKernelsInProgram",
    "clRetainKernel",
    "clReleaseKernel",
    "clSetKernelArg",
    "clGetKernelInfo",
    "clGetKernelArgInfo",
    "clGetKernelWorkGroupInfo",
    "clWaitForEvents",
    "clGetEventInfo",
    "clCreateUserEvent",
    "clRetainEvent",
    "clReleaseEvent",
    "clSetUserEventStatus",
    "clSetEventCallback",
    "clGetEventProfilingInfo",
    "clFlush",
    "clFinish",
    "clEnqueueReadBuffer",
    "clEnqueueReadBufferRect",
    "clEnqueueWriteBuffer",
    "clEnqueueWriteBufferRect",
    "clEnqueueFillBuffer",
    "clEnqueueCopyBuffer",
    "clEnqueueCopyBufferRect",
    "clEnqueueReadImage",
    "clEnqueueWriteImage",
    "clEnqueueFillImage",
    "clEnqueueCopyImage",
    "clEnqueueCopyImageToBuffer",
    "clEnqueueCopyBufferToImage",
    "clEnqueueMapBuffer",
    "clEnqueueMapImage",
    "clEnqueueUnmapMemObject",
    "clEnqueueMigrateMemObjects",
    "clEnqueueNDRangeKernel",
    "clEnqueueTask",
    "clEnqueueNativeKernel",
    "clEnqueueMarkerWithWaitList",
    "clEnqueueBarrierWithWaitList",
    "clGetExtensionFunctionAddressForPlatform",
    // Deprecated by 1.2 but part of the 1.2 headers and dispatch table.
    "clCreateImage2D",
    "clCreateImage3D",
    "clEnqueueMarker",
    "clEnqueueWaitForEvents",
    "clEnqueueBarrier",
    "clUnloadCompiler",
    "clGetExtensionFunctionAddress",
    // cl_khr_icd.
    "clIcdGetPlatformIDsKHR",
    // OpenCL 2.0 functions used by FPGA hosts.
    "clCreateCommandQueueWithProperties",
    "clCreatePipe",
    "clGetPipeInfo",
];

#[test]
fn libfpgacl_exports_every_entry_point() {
    let symbols = tool("nm", &["-D", "--defined-only"]);
    let exported: BTreeSet<&str> = symbols
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (_addr, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            (kind == "T" || kind == "W" || kind == "i").then_some(name)
        })
        .collect();
    let missing: Vec<&&str> = REQUIRED_EXPORTS
        .iter()
        .filter(|s| !exported.contains(**s))
        .collect();
    assert!(
        missing.is_empty(),
        "libfpgacl.so does not export {} entry points: {missing:?}",
        missing.len()
    );
}

#[test]
fn required_export_list_has_no_duplicates() {
    let set: BTreeSet<&str> = REQUIRED_EXPORTS.iter().copied().collect();
    assert_eq!(set.len(), REQUIRED_EXPORTS.len());
}
