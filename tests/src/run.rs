//! Compiling and running the C examples with a timeout, and reporting failures.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use fpgacl_host_examples::{Compiler, Example, Linkage};

use crate::icd_file::vendors_dir;
use crate::locate::{fpgacl_lib_dir, profile_dir};

/// How long one example may run before it is killed and reported as hung.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// Environment variables that would change which platform an example picks or
/// what it skips; removed so every run is hermetic.
const SCRUBBED_ENV: &[&str] = &[
    "HOST_PLATFORM",
    "EXAMPLE_SKIP_CHECKS",
    "EXAMPLE_TIMEOUT_S",
    "OCL_ICD_VENDORS",
    "OCL_ICD_FILENAMES",
    "FPGACL_PLATFORM_NAME",
    "FPGACL_DEVICE_NAME",
    "ACL_RUNTIME_PROFILING_ACTIVE",
];

/// The outcome of one program run.
#[derive(Debug)]
pub struct RunOutput {
    /// The command line, for the report.
    pub command: String,
    /// Exit status (`None` if it had to be killed).
    pub status: Option<ExitStatus>,
    /// Everything the program wrote to stdout.
    pub stdout: String,
    /// Everything the program wrote to stderr.
    pub stderr: String,
    /// True when the run exceeded its timeout and was killed.
    pub timed_out: bool,
    /// Wall-clock duration.
    pub elapsed: Duration,
}

impl RunOutput {
    /// Exit status 0 within the time limit.
    pub fn success(&self) -> bool {
        !self.timed_out && self.status.is_some_and(|s| s.success())
    }

    /// The example passed: exit 0, no `FAIL:` line, and a line starting with `PASS: `.
    pub fn passed(&self) -> bool {
        self.success()
            && self.fail_lines().is_empty()
            && self.stdout.lines().any(|l| l.starts_with("PASS: "))
    }

    /// The `FAIL: ...` lines the program printed.
    pub fn fail_lines(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .chain(self.stderr.lines())
            .filter(|l| l.contains("FAIL:"))
            .collect()
    }

    /// A full human-readable report: command, status, time, stdout, stderr.
    pub fn describe(&self) -> String {
        let status = if self.timed_out {
            format!("killed after timeout ({:.1} s)", self.elapsed.as_secs_f64())
        } else {
            match self.status {
                Some(s) => format!("{s} after {:.2} s", self.elapsed.as_secs_f64()),
                None => "no exit status".to_string(),
            }
        };
        let fails = self.fail_lines();
        let summary = if fails.is_empty() {
            String::new()
        } else {
            format!("--- FAIL lines ---\n{}\n", fails.join("\n"))
        };
        format!(
            "$ {}\nstatus: {status}\n{summary}--- stdout ---\n{}\n--- stderr ---\n{}\n",
            self.command, self.stdout, self.stderr
        )
    }
}

/// Runs `f` while `hogs` threads spin on busy loops (a loaded machine: every core taken), and
/// stops them when `f` returns.
pub fn beside_cpu_hog<T>(hogs: usize, f: impl FnOnce() -> T) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    let done = AtomicBool::new(false);
    thread::scope(|s| {
        for _ in 0..hogs {
            s.spawn(|| {
                let mut x = 1u64;
                while !done.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            });
        }
        let out = f();
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// Run `cmd` with piped output, killing it after `timeout`.
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> io::Result<RunOutput> {
    let command = format!("{cmd:?}");
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait().ok();
        }
        thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    Ok(RunOutput {
        command,
        status,
        stdout,
        stderr,
        timed_out,
        elapsed,
    })
}

/// A per-purpose scratch directory under the profile directory
/// (`<target>/<profile>/test-scratch/<name>`), created if missing.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = profile_dir().join("test-scratch").join(name);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Linking directly against the freshly built `libfpgacl.so`.
pub fn direct_linkage() -> Linkage {
    Linkage::Direct {
        lib_dir: fpgacl_lib_dir(),
    }
}

/// Compile an example for `linkage` into `<target>/<profile>/host-examples/<icd|direct>/`;
/// panics with the compiler's diagnostics on failure.
pub fn compile_example(example: &Example, linkage: &Linkage) -> PathBuf {
    let out_dir = profile_dir().join("host-examples").join(linkage.label());
    Compiler::new()
        .compile(example, &out_dir, linkage)
        .unwrap_or_else(|e| {
            panic!(
                "cannot compile example {} ({}): {e}",
                example.name,
                linkage.label()
            )
        })
}

/// The command that runs a compiled example hermetically: scrubbed
/// environment, `OCL_ICD_VENDORS` pointing at fpgacl's vendors directory for
/// [`Linkage::IcdLoader`], and a scratch working directory (so files such as
/// `profile.mon` land there).
pub fn example_command(binary: &Path, name: &str, linkage: &Linkage) -> Command {
    let mut cmd = hermetic_command(binary, &format!("{}-{}", name, linkage.label()));
    if let Linkage::IcdLoader = linkage {
        cmd.env("OCL_ICD_VENDORS", vendors_dir());
    }
    cmd
}

/// A command for `binary` with the platform-selection and skip variables
/// removed from its environment and `<target>/<profile>/test-scratch/<scratch>`
/// as its working directory. Callers add the variables they want.
pub fn hermetic_command(binary: &Path, scratch: &str) -> Command {
    let mut cmd = Command::new(binary);
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    cmd.current_dir(scratch_dir(scratch));
    cmd
}

/// Compile and run an example against fpgacl through `linkage`.
pub fn run_example(example: &Example, linkage: &Linkage) -> RunOutput {
    // Build the library first so the ICD file and direct link find it.
    let _ = fpgacl_lib_dir();
    let bin = compile_example(example, linkage);
    let mut cmd = example_command(&bin, example.name, linkage);
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT)
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()))
}

/// Compile and run the named example against fpgacl (`"icd"` through the ICD
/// loader, `"direct"` linked directly) and panic with its full output unless
/// it exits 0 with a `PASS:` line and no `FAIL:` line.
pub fn assert_example_passes(name: &str, how: &str) {
    let example =
        fpgacl_host_examples::example(name).unwrap_or_else(|| panic!("no example named {name}"));
    let linkage = match how {
        "icd" => Linkage::IcdLoader,
        "direct" => direct_linkage(),
        other => panic!("unknown linkage {other:?} (use \"icd\" or \"direct\")"),
    };
    let out = run_example(example, &linkage);
    assert!(
        out.passed(),
        "example {name} ({how}) failed:\n{}",
        out.describe()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_with_timeout_captures_output_and_status() {
        let out = run_with_timeout(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(30),
        )
        .expect("run sh");
        assert_eq!(out.stdout, "out\n");
        assert_eq!(out.stderr, "err\n");
        assert_eq!(out.status.and_then(|s| s.code()), Some(3));
        assert!(!out.success());
        assert!(!out.timed_out);
    }

    #[test]
    fn run_with_timeout_kills_hung_programs() {
        let out = run_with_timeout(Command::new("sleep").arg("30"), Duration::from_millis(200))
            .expect("run sleep");
        assert!(out.timed_out);
        assert!(!out.success());
        assert!(out.elapsed < Duration::from_secs(20));
        assert!(out.describe().contains("killed after timeout"));
    }

    #[test]
    fn fail_lines_are_collected_from_both_streams() {
        let out = run_with_timeout(
            Command::new("sh").args(["-c", "echo 'FAIL: a'; echo 'FAIL: b' >&2; echo fine"]),
            Duration::from_secs(30),
        )
        .expect("run sh");
        assert_eq!(out.fail_lines(), vec!["FAIL: a", "FAIL: b"]);
        assert!(out.describe().contains("--- FAIL lines ---"));
    }
}
