//! `fpgacl` writes its output to pipes users cut short (`fpgacl aoc --dump-ir k.cl | head`,
//! `fpgacl profile ./host 2>&1 | head`): a reader that went away must not make it panic
//! (exit 101 with the panic message lost); `fpgacl profile` still passes the host's status
//! through. `--board` of `fpgacl profile` must name a real board before the host runs.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};

mod common;
use common::{fpgacl, scratch};

/// Runs `cmd`, reads `n` bytes of its stdout and closes it, as `| head -1` does; returns its
/// exit status and everything it wrote to stderr.
fn read_a_little_then_hang_up(mut cmd: Command, n: usize) -> (ExitStatus, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0u8; n];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap(), stderr)
}

/// A kernel whose IR dump is far larger than a pipe buffer (64 KiB).
fn big_kernel() -> String {
    let mut s = String::from("__kernel void big(__global int *restrict d) {\n  int x = d[0];\n");
    for i in 0..1000 {
        s.push_str(&format!("  x = x * {} + d[{}];\n", i + 3, i % 97));
    }
    s.push_str("  d[1] = x;\n}\n");
    s
}

#[test]
fn aoc_survives_a_closed_stdout() {
    let dir = scratch("closed_stdout");
    let src = dir.join("big.cl");
    std::fs::write(&src, big_kernel()).unwrap();
    let mut cmd = fpgacl();
    cmd.args(["aoc", "--dump-ir", "-o"])
        .arg(dir.join("big.aocx"))
        .arg(&src);
    let (status, stderr) = read_a_little_then_hang_up(cmd, 16);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(dir.join("big.aocx").is_file());
}

#[test]
fn profile_survives_a_closed_stderr_and_passes_the_status_through() {
    let dir = scratch("closed_stderr");
    // The host below never loads the library: a placeholder file satisfies the lookup.
    std::fs::write(dir.join("libfpgacl.so"), b"").unwrap();
    let mut child = fpgacl()
        .current_dir(&dir)
        .env("FPGACL_LIB_DIR", &dir)
        .args(["profile", "sh", "-c", "exit 3"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "{status:?}");
}

#[test]
fn profile_rejects_an_unknown_board_before_running_the_host() {
    let dir = scratch("profile_board");
    std::fs::write(dir.join("libfpgacl.so"), b"").unwrap();
    let marker = dir.join("host-ran");
    let out = fpgacl()
        .current_dir(&dir)
        .env("FPGACL_LIB_DIR", &dir)
        .args(["profile", "--board", "no_such_board", "touch"])
        .arg(&marker)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("no_such_board") && stderr.contains("fpgacl_a10"),
        "{stderr}"
    );
    assert!(!marker.exists(), "the host ran with an unknown board");
}

/// `fpgacl report --json|--text|--format` into a pipe closed early is not an error.
#[test]
fn report_survives_a_closed_stdout() {
    let dir = scratch("report_closed_stdout");
    let file = dir.join("big.mon");
    std::fs::write(&file, fpgacl_profile_format::fuzzing::sample_file(3000)).unwrap();
    for args in [
        &["report", "--json"][..],
        &["report", "--text"][..],
        &["report", "--format", "intel-text"][..],
        &["report", "--format", "chrome-trace"][..],
    ] {
        let mut cmd = fpgacl();
        cmd.args(args).arg(&file);
        let (status, stderr) = read_a_little_then_hang_up(cmd, 8);
        assert!(status.success(), "{args:?}: {status:?} {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}
