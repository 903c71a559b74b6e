//! `clinfo` run through the ICD loader lists the fpgacl platform and device,
//! with every field filled and no error lines.

use std::process::Command;
use std::time::Duration;

use fpgacl_tests::{run_with_timeout, vendors_dir};

/// Markers clinfo prints when a query fails.
fn is_error_line(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    if l.contains("error correction support") {
        return false;
    }
    l.contains(": error ")
        || l.contains("<error")
        || l.contains("error -")
        || l.contains("cl_invalid")
        || l.contains("size mismatch")
        || l.contains("invalid device type")
        || l.contains("out of memory")
        || l.contains("unknown")
}

/// `Label    value` lines of clinfo's human-readable output, by label.
fn field<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    out.lines()
        .filter_map(|line| {
            let t = line.trim_start();
            let rest = t.strip_prefix(label)?;
            // The label must be followed by at least two spaces (column gap).
            rest.starts_with("  ").then(|| rest.trim())
        })
        .collect()
}

fn clinfo(args: &[&str]) -> String {
    let mut cmd = Command::new("clinfo");
    cmd.args(args)
        .env("OCL_ICD_VENDORS", vendors_dir())
        .env_remove("OCL_ICD_FILENAMES");
    for var in ["FPGACL_PLATFORM_NAME", "FPGACL_DEVICE_NAME"] {
        cmd.env_remove(var);
    }
    let out = run_with_timeout(&mut cmd, Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("cannot run clinfo (install it: scripts/setup.sh): {e}"));
    assert!(out.success(), "clinfo failed:\n{}", out.describe());
    out.stdout + &out.stderr
}

#[test]
fn clinfo_lists_fpgacl_with_no_errors() {
    let out = clinfo(&[]);
    let errors: Vec<&str> = out.lines().filter(|l| is_error_line(l)).collect();
    assert!(
        errors.is_empty(),
        "clinfo printed error lines:\n{}\n\nfull output:\n{out}",
        errors.join("\n")
    );

    assert_eq!(field(&out, "Number of platforms"), vec!["1"], "\n{out}");
    let names = field(&out, "Platform Name");
    assert!(
        names.iter().any(|n| n.contains("Intel(R) FPGA SDK for OpenCL(TM)")
            && n.to_ascii_lowercase().contains("fpgacl")),
        "platform name must contain \"Intel(R) FPGA SDK for OpenCL(TM)\" and say fpgacl: {names:?}\n{out}"
    );
    assert_eq!(field(&out, "Number of devices"), vec!["1"], "\n{out}");
    assert_eq!(field(&out, "Device Type"), vec!["Accelerator"], "\n{out}");
    let dev_name = field(&out, "Device Name");
    assert!(
        dev_name.first().is_some_and(|n| n.contains(" : ")),
        "device name must read \"<board> : <description>\": {dev_name:?}"
    );
    assert!(
        field(&out, "Device Version")
            .first()
            .is_some_and(|v| v.starts_with("OpenCL 1.2")),
        "\n{out}"
    );
    assert!(
        field(&out, "Device OpenCL C Version")
            .first()
            .is_some_and(|v| v.starts_with("OpenCL C 1.2")),
        "\n{out}"
    );
    assert_eq!(field(&out, "Compiler Available"), vec!["Yes"], "\n{out}");
    // Images are emulated with the limits of Intel's runtime built with image support (issue
    // 17 item 6).
    assert_eq!(field(&out, "Image support"), vec!["Yes"], "\n{out}");
    assert_eq!(
        field(&out, "Max 2D image size"),
        vec!["16384x16384 pixels"],
        "\n{out}"
    );
    assert_eq!(
        field(&out, "Max number of read image args"),
        vec!["128"],
        "\n{out}"
    );
    assert_eq!(
        field(&out, "Max number of samplers per kernel"),
        vec!["32"],
        "\n{out}"
    );
    assert!(
        field(&out, "Platform Extensions")
            .first()
            .is_some_and(|e| e.contains("cl_khr_icd")),
        "\n{out}"
    );
    let ext = field(&out, "Device Extensions");
    for want in [
        "cl_khr_icd",
        "cl_khr_fp64",
        "cl_khr_byte_addressable_store",
        "cl_khr_global_int32_base_atomics",
        "cl_khr_3d_image_writes",
        "cl_intel_channels",
    ] {
        assert!(
            ext.first()
                .is_some_and(|e| e.split_whitespace().any(|x| x == want)),
            "device extensions lack {want}: {ext:?}"
        );
    }
    // Every string field has a value.
    for label in [
        "Platform Vendor",
        "Platform Version",
        "Platform Profile",
        "Device Vendor",
        "Driver Version",
        "Device Profile",
    ] {
        let v = field(&out, label);
        assert!(
            v.first().is_some_and(|s| !s.is_empty()),
            "{label} is empty or missing\n{out}"
        );
    }
    // The NULL-platform section finds the accelerator by type and by default.
    for t in [
        "CL_DEVICE_TYPE_DEFAULT",
        "CL_DEVICE_TYPE_ACCELERATOR",
        "CL_DEVICE_TYPE_ALL",
    ] {
        let label = format!("clCreateContextFromType(NULL, {t})");
        let line = out.lines().find(|l| l.trim_start().starts_with(&label));
        assert!(
            line.is_some_and(|l| l.contains("Success (1)")),
            "{label}: {line:?}\n{out}"
        );
    }
}

#[test]
fn clinfo_list_mode_shows_platform_and_device() {
    let out = clinfo(&["-l"]);
    assert!(
        out.lines().any(
            |l| l.starts_with("Platform #0:") && l.contains("Intel(R) FPGA SDK for OpenCL(TM)")
        ),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("Device #0:") && l.contains(" : ")),
        "{out}"
    );
    assert!(!out.lines().any(is_error_line), "{out}");
}

#[test]
fn error_detection_recognises_clinfo_error_formats() {
    assert!(is_error_line(
        "  Max work group size   <getWGsizes:1504: create context : error -34>"
    ));
    assert!(is_error_line(
        "  Device Name  <error: 0 devices, no matching platform!>"
    ));
    assert!(is_error_line(
        "  Preferred   <foo:12: clGetDeviceInfo : size mismatch (requested 8, we offer 4)>"
    ));
    assert!(!is_error_line(
        "  Error Correction support                        No"
    ));
    assert!(!is_error_line(
        "  Device Type                                     Accelerator"
    ));
}
