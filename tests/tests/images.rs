//! Images and samplers end to end (issue 17 item 6): the `images` C host through the ICD
//! loader on fpgacl, the same host on PoCL (its expected values are hand-computed from the
//! specification, so passing on both checks fpgacl against an independent implementation),
//! and the profile of an image kernel (image accesses counted as global memory accesses at
//! their source line).

use fpgacl_tests::{example, run_example, Linkage};

#[test]
fn images_host_passes_through_the_icd_loader() {
    let out = run_example(example("images").expect("example"), &Linkage::IcdLoader);
    assert!(
        out.passed() && out.stdout.contains("PASS: images"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("UNORM_INT8 ok") && out.stdout.contains("7 sampler cases ok"),
        "{}",
        out.describe()
    );
}

/// Image reads and writes are global memory accesses at their source line in the profile:
/// the blur's `read_imagef` (line 14 of images.cl) and the copy's `write_imagef` (line 23).
#[test]
fn image_accesses_are_profiled_at_their_line() {
    use fpgacl_profile_format::read_profile;
    use fpgacl_tests::{
        compile_example, fpgacl_cli, run_with_timeout, scratch_dir, DEFAULT_TIMEOUT,
    };
    use std::process::Command;
    let ex = example("images").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir("images_profile");
    let profile = dir.join("profile.mon");
    let mut cmd = Command::new(fpgacl_cli());
    cmd.current_dir(&dir)
        .env_remove("OCL_ICD_VENDORS")
        .args(["profile", "-q", "-o"])
        .arg(&profile)
        .arg("--")
        .arg(&bin);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("fpgacl profile");
    assert!(
        out.success() && out.stdout.contains("PASS: images"),
        "{}",
        out.describe()
    );
    let p = read_profile(&profile).expect("profile");
    let prog = &p.programs[0];
    let runs: Vec<_> = p.kernel_runs().collect();
    let blur = runs.iter().find(|r| r.kernel == "blur").expect("blur run");
    // 7x5 work-items x 9 reads of one CL_R/CL_UNORM_INT8 texel.
    let read = blur
        .sites
        .iter()
        .find(|s| prog.site(s.site).is_some_and(|a| a.line == 14))
        .unwrap_or_else(|| panic!("no counters at line 14: {:?}", blur.sites));
    assert_eq!(
        (read.requests, read.bytes_requested),
        (315, 315),
        "{read:?}"
    );
    assert!(read.bytes_fetched > 0 && read.active_cycles > 0, "{read:?}");
    let copy = runs
        .iter()
        .find(|r| r.kernel == "copy_shift")
        .expect("copy run");
    // 4x3 writes of one RGBA/UNORM_INT8 pixel (4 bytes).
    let write = copy
        .sites
        .iter()
        .find(|s| {
            prog.site(s.site).is_some_and(|a| {
                a.line == 23 && a.kind == fpgacl_profile_format::model::AccessKind::Store
            })
        })
        .unwrap_or_else(|| panic!("no write at line 23: {:?}", copy.sites));
    assert_eq!(
        (write.requests, write.bytes_requested),
        (12, 48),
        "{write:?}"
    );
}
