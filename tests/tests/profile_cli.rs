//! `fpgacl profile` with real C hosts through the ICD loader (issue 13 item 4, issue 16 item 4):
//! the output path survives a host that changes directory, Ctrl-C leaves a profile with the
//! runs that completed and says so, and a terminal shows a progress line.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    compile_example, example, fpgacl_cli, fpgacl_lib_dir, run_with_timeout, scratch_dir, Linkage,
    DEFAULT_TIMEOUT,
};

fn host(name: &str) -> PathBuf {
    let _ = fpgacl_lib_dir();
    let ex = example(name).unwrap_or_else(|| panic!("no example {name}"));
    compile_example(ex, &Linkage::IcdLoader)
}

/// `fpgacl profile [extra] -- sh -c 'cd sub && exec host'` run in `dir`: the host's working
/// directory is `dir/sub` (as with AOCLUtils' `setCwdToExeDir()`).
fn profile_in_subdir(dir: &Path, extra: &[&str]) -> fpgacl_tests::RunOutput {
    let bin = host("vector_add");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mut cmd = Command::new(fpgacl_cli());
    cmd.arg("profile")
        .args(extra)
        .args(["--", "sh", "-c", "cd sub && exec \"$0\""])
        .arg(&bin)
        .current_dir(dir)
        .env("VECTOR_N", "4096")
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir())
        .env_remove("ACL_RUNTIME_PROFILING_ACTIVE")
        .env_remove("FPGACL_PROFILE_OUT")
        .env_remove("OCL_ICD_VENDORS");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl profile");
    assert!(out.success(), "{}", out.describe());
    out
}

#[test]
fn output_paths_survive_a_host_that_changes_directory() {
    // Default output: ./profile.mon of the directory fpgacl ran in, not of the host's.
    let dir = scratch_dir("profile-cli-chdir-default");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = profile_in_subdir(&dir, &[]);
    assert!(!dir.join("sub/profile.mon").exists(), "{}", out.describe());
    let p =
        read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{e}\n{}", out.describe()));
    assert_eq!(p.kernel_runs().count(), 1);
    assert!(
        out.stderr.contains("profile written to"),
        "{}",
        out.describe()
    );

    // A relative -o: relative to where fpgacl ran.
    let dir = scratch_dir("profile-cli-chdir-o");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("results")).unwrap();
    let out = profile_in_subdir(&dir, &["-o", "results/run.mon"]);
    assert!(!dir.join("sub/results").exists(), "{}", out.describe());
    let p = read_profile(dir.join("results/run.mon"))
        .unwrap_or_else(|e| panic!("{e}\n{}", out.describe()));
    assert_eq!(p.kernel_runs().count(), 1);

    // `fpgacl report` without a file opens ./profile.mon.
    let dir = scratch_dir("profile-cli-chdir-default");
    let rep = Command::new(fpgacl_cli())
        .args(["report", "--text"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        rep.status.success(),
        "{}",
        String::from_utf8_lossy(&rep.stderr)
    );
    let text = String::from_utf8_lossy(&rep.stdout);
    assert!(text.contains("vector_add"), "{text}");
}

fn runs_in(path: &Path) -> usize {
    read_profile(path).map_or(0, |p| p.kernel_runs().count())
}

fn wait_for_runs(path: &Path, n: usize) -> usize {
    let t0 = Instant::now();
    loop {
        let have = runs_in(path);
        if have >= n || t0.elapsed() > Duration::from_secs(120) {
            return have;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts `fpgacl profile -o <dir>/profile.mon -- profile_stream` (endless rounds) in its own
/// process group, waits for 5 kernel runs in the file, signals with `kill_args` (`-INT -PGID`
/// for the whole group, as a terminal's Ctrl-C does, or `-INT PID` for fpgacl alone) and
/// returns fpgacl's exit code, its stderr and the profile path.
fn interrupt(scratch: &str, group: bool) -> (Option<i32>, String, PathBuf) {
    use std::os::unix::process::CommandExt;
    let bin = host("profile_stream");
    let dir = scratch_dir(scratch);
    let path = dir.join("profile.mon");
    let _ = std::fs::remove_file(&path);
    let mut child = Command::new(fpgacl_cli())
        .args(["profile", "-o"])
        .arg(&path)
        .arg("--")
        .arg(&bin)
        .current_dir(&dir)
        .env("PROFILE_ROUNDS", "0")
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir())
        .env_remove("OCL_ICD_VENDORS")
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fpgacl profile");
    let have = wait_for_runs(&path, 5);
    assert!(have >= 5, "only {have} runs before the timeout");
    let target = if group {
        format!("-{}", child.id())
    } else {
        child.id().to_string()
    };
    let st = Command::new("kill")
        .args(["-INT", "--", &target])
        .status()
        .unwrap();
    assert!(st.success());
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("fpgacl profile did not end after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err, path)
}

fn assert_interrupt_reported(code: Option<i32>, err: &str, path: &Path) {
    // The host was stopped by SIGINT: 128 + 2, and fpgacl says so instead of dying silently.
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("fpgacl: interrupted"), "{err}");
    assert!(err.contains("profile written to"), "{err}");
    let runs = runs_in(path);
    assert!(runs >= 5, "{runs} runs in the interrupted profile\n{err}");
    assert!(
        err.contains(&format!("{runs} kernel run(s)")),
        "the summary must count the runs in the file ({runs}):\n{err}"
    );
}

#[test]
fn ctrl_c_keeps_the_completed_runs_and_says_so() {
    let (code, err, path) = interrupt("profile-cli-ctrl-c", true);
    assert_interrupt_reported(code, &err, &path);
}

#[test]
fn sigint_to_fpgacl_alone_reaches_the_host() {
    let (code, err, path) = interrupt("profile-cli-sigint-forward", false);
    assert_interrupt_reported(code, &err, &path);
}

/// In a real terminal (tmux): the progress line counts runs while the host runs; Ctrl-C ends
/// it with the interrupt message. Skips when tmux is missing.
#[test]
fn progress_line_on_a_terminal_and_ctrl_c() {
    if !Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let bin = host("profile_stream");
    let dir = scratch_dir("profile-cli-progress");
    let path = dir.join("profile.mon");
    let _ = std::fs::remove_file(&path);
    let name = format!("fpgacl-progress-{}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &name])
            .args(args)
            .output()
            .expect("tmux")
    };
    let q = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', "'\\''"));
    // The pane's shell ignores SIGINT so it lives to print the status; fpgacl installs its
    // own handler and the host gets the default action back at exec.
    let script = format!(
        "trap '' INT; cd {} && PROFILE_ROUNDS=0 FPGACL_LIB_DIR={} {} profile -o {} -- {} >/dev/null; \
         echo EXIT=$?; sleep 30",
        q(&dir),
        q(&fpgacl_lib_dir()),
        q(&fpgacl_cli()),
        q(&path),
        q(&bin)
    );
    let st = tmux(&[
        "new-session",
        "-d",
        "-s",
        &name,
        "-x",
        "160",
        "-y",
        "20",
        &script,
    ]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let capture =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", &name]).stdout).into_owned();
    let wait = |needle: &dyn Fn(&str) -> bool| {
        let t0 = Instant::now();
        loop {
            let s = capture();
            if needle(&s) {
                return s;
            }
            if t0.elapsed() > Duration::from_secs(120) {
                let _ = tmux(&["kill-server"]);
                panic!("timed out; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    // At least 3 runs counted on the progress line, and how many kernels run now.
    let screen = wait(&|s: &str| runs_done(s).is_some_and(|n| n >= 3));
    assert!(
        screen.contains("kernel run(s) done, emulated time"),
        "{screen}"
    );
    assert!(screen.contains(" kernel(s) running, "), "{screen}");
    assert!(screen.contains("last: "), "{screen}");
    tmux(&["send-keys", "-t", &name, "C-c"]);
    let screen = wait(&|s: &str| s.contains("EXIT="));
    let _ = tmux(&["kill-server"]);
    assert!(screen.contains("fpgacl: interrupted"), "{screen}");
    assert!(screen.contains("EXIT=130"), "{screen}");
    // The progress line was cleared before the summary.
    assert!(!screen.contains("running the host:"), "{screen}");
}

/// The runs-done count of the progress line in `screen`.
fn runs_done(screen: &str) -> Option<u64> {
    let line = screen.split("running the host: ").nth(1)?;
    let before = line.split(" kernel run(s) done").next()?;
    before
        .rsplit([' ', ','])
        .find(|w| !w.is_empty())?
        .parse()
        .ok()
}

/// Issue 16 item 4: the progress line says how many kernels are running. Forced on with
/// `FPGACL_PROGRESS=1` (stderr is a pipe here): the watchdog host runs an endless kernel for 2 s
/// (`FPGACL_KERNEL_TIMEOUT_S=2`), so the line shows 1 kernel running, later runs done; after
/// the host, its own time is printed apart from the emulated time.
#[test]
fn forced_progress_line_shows_kernels_running() {
    let bin = host("watchdog");
    let dir = scratch_dir("profile-cli-running");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = Command::new(fpgacl_cli());
    cmd.args(["profile", "-o"])
        .arg(dir.join("w.mon"))
        .arg("--")
        .arg(&bin)
        .current_dir(&dir)
        .env("FPGACL_PROGRESS", "1")
        .env("FPGACL_KERNEL_TIMEOUT_S", "2")
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir())
        .env_remove("ACL_RUNTIME_PROFILING_ACTIVE")
        .env_remove("FPGACL_PROFILE_OUT")
        .env_remove("OCL_ICD_VENDORS");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl profile");
    assert!(out.success(), "{}", out.describe());
    let err = out.stderr.replace('\r', "\n");
    assert!(
        err.contains("running the host: 1 kernel(s) running, 0 kernel run(s) done"),
        "{}",
        out.describe()
    );
    assert!(
        err.contains("host program's own time: "),
        "{}",
        out.describe()
    );
    // Without the variable and without a terminal: no progress line.
    cmd.env("FPGACL_PROGRESS", "0");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl profile");
    assert!(out.success(), "{}", out.describe());
    assert!(
        !out.stderr.contains("running the host"),
        "{}",
        out.describe()
    );
}

/// Issue 16 item 6: the runtime's diagnostics go through `log`; warnings hosts rely on show by
/// default, `FPGACL_LOG=off` silences them, an invalid level is named.
#[test]
fn fpgacl_log_filters_runtime_diagnostics() {
    let bin = host("vector_add");
    let run = |log: Option<&str>| {
        let mut cmd = fpgacl_tests::example_command(&bin, "vector_add", &Linkage::IcdLoader);
        cmd.env("VECTOR_N", "1024")
            .env("FPGACL_BOARD", "no_such_board_anywhere");
        match log {
            Some(v) => cmd.env("FPGACL_LOG", v),
            None => cmd.env_remove("FPGACL_LOG"),
        };
        let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run host");
        assert!(out.success(), "{}", out.describe());
        out.stderr
    };
    let default = run(None);
    assert!(
        default.contains("fpgacl: FPGACL_BOARD: ") && default.contains("using the default board"),
        "{default}"
    );
    let off = run(Some("off"));
    assert!(!off.contains("FPGACL_BOARD"), "{off}");
    let error_only = run(Some("error"));
    assert!(!error_only.contains("FPGACL_BOARD"), "{error_only}");
    let bad = run(Some("loud"));
    assert!(bad.contains("FPGACL_LOG=loud: not a level"), "{bad}");
    assert!(bad.contains("using the default board"), "{bad}");
}
