//! End-to-end test in a real terminal: starts the profiler in a detached tmux session, sends
//! keys (switch tabs, jump to the next high-stall line, open an autorun capture, quit) and
//! asserts what `tmux capture-pane` shows. Skips with a message when tmux is not installed.
//!
//! The command under test is the `report` example of this crate (it opens the file given after
//! `--open`), or the command in `FPGACL_REPORT_CMD` (e.g. `"/path/to/fpgacl report"`), to which
//! the profile path is appended.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use fpgacl_profiler_tui::demo;

/// A tmux command on the session's own server (`-L <session>`): parallel test processes never
/// race to start or share the default server.
fn tmux(session: &str) -> Command {
    let mut c = Command::new("tmux");
    c.args(["-L", session]);
    c
}

fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The command line that opens `profile`, or None when the example binary is not built.
fn report_command(profile: &Path) -> Option<Vec<String>> {
    if let Ok(cmd) = std::env::var("FPGACL_REPORT_CMD") {
        let mut v: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        v.push(profile.display().to_string());
        return Some(v);
    }
    // target/<profile>/deps/tmux_e2e-<hash> -> target/<profile>/examples/report
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("examples").join("report");
    bin.exists().then(|| {
        vec![
            bin.display().to_string(),
            "--open".into(),
            profile.display().to_string(),
        ]
    })
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `cmd` as one shell command line.
fn shell_line(cmd: &[String]) -> String {
    cmd.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A tmux session that is killed when dropped.
struct Session {
    name: String,
}

impl Session {
    fn start(tag: &str, cmd: &[String]) -> Session {
        Session::start_env(tag, cmd, false)
    }

    /// Starts `cmd` in a new session; `no_color` sets NO_COLOR=1 for it (otherwise it is
    /// unset: the tmux server's environment, not ours, is what the pane inherits).
    fn start_env(tag: &str, cmd: &[String], no_color: bool) -> Session {
        let name = format!("fpgacl-tui-{tag}-{}", std::process::id());
        let line = shell_line(cmd);
        // Print the exit status after the profiler returns, then keep the pane alive.
        let env = if no_color {
            "export NO_COLOR=1;"
        } else {
            "unset NO_COLOR;"
        };
        let script = format!("{env} {line}; echo \"EXIT=$?\"; sleep 30");
        let st = tmux(&name)
            .args(["new-session", "-d", "-s", &name, "-x", "120", "-y", "40"])
            .arg(script)
            .env_remove("NO_COLOR")
            .status()
            .expect("tmux new-session");
        assert!(st.success(), "tmux new-session failed");
        Session { name }
    }

    fn send(&self, keys: &[&str]) {
        let st = tmux(&self.name)
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(st.success());
    }

    /// The pane with its colours and attributes as escape sequences.
    fn capture_escapes(&self) -> String {
        let out = tmux(&self.name)
            .args(["capture-pane", "-p", "-e", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn capture(&self) -> String {
        let out = tmux(&self.name)
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the pane shows every one of `needles`; panics with the screen otherwise.
    fn wait_for(&self, needles: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let screen = self.capture();
            if needles.iter().all(|n| screen.contains(n)) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {needles:?}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = tmux(&self.name).arg("kill-server").status();
    }
}

fn demo_file(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fpgacl-tui-e2e-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("profile.mon");
    demo::write_demo(&path).unwrap();
    path
}

/// A demo profile named after `tag` and the command that opens it; None (after saying why on
/// stderr) when tmux is not installed or the report example is not built.
fn tmux_and_profile(tag: &str) -> Option<(PathBuf, Vec<String>)> {
    if !have_tmux() {
        eprintln!("SKIPPED: tmux is not installed");
        return None;
    }
    let profile = demo_file(tag);
    let Some(cmd) = report_command(&profile) else {
        eprintln!("SKIPPED: report example not built (run `cargo test` to build examples)");
        let _ = std::fs::remove_file(&profile);
        return None;
    };
    Some((profile, cmd))
}

#[test]
fn tmux_switch_tabs_jump_to_stall_open_capture() {
    let Some((profile, cmd)) = tmux_and_profile("keys") else {
        return;
    };
    let s = Session::start("keys", &cmd);
    let screen = s.wait_for(&["Board: fpgacl_a10_ref", "1 Source Code", "vector_add.cl"]);
    assert!(
        screen.contains("Global Memory BW (DDR): 25600 MB/s"),
        "{screen}"
    );

    // Next high-stall line: the producer's channel write in pipeline.cl.
    s.send(&["n"]);
    let screen = s.wait_for(&[
        "high-stall line 1 of 1: pipeline.cl:7",
        "Back-pressure",
        "74.4%",
    ]);
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with(">  7") && l.contains("74.4%")),
        "{screen}"
    );

    // Kernel Execution tab: lanes and the selected run's details.
    s.send(&["Tab"]);
    // (Every part waited for: a capture can catch the frame half redrawn, lanes drawn and the
    // details pane not yet.)
    let screen = s.wait_for(&[
        "time ->",
        "producer",
        "consumer",
        "write (host->dev)",
        "run #",
    ]);
    assert!(screen.contains("run #"), "{screen}");

    // Autorun Captures tab, then open the 4.30ms capture.
    s.send(&["Tab"]);
    s.wait_for(&["Device 0 streamer", "[0.03ms] [2.00ms] [4.30ms]"]);
    s.send(&["l", "l"]);
    s.wait_for(&["capture 3 of 3 at 4.30ms"]);
    s.send(&["Enter"]);
    let screen = s.wait_for(&["autorun capture of streamer at 4.30ms", "streamer.cl"]);
    assert!(
        screen
            .lines()
            .any(|l| l.contains("write_channel_intel(c2, x)") && l.contains("35.0%")),
        "{screen}"
    );

    // Help, then quit: the shell prints the exit status on the normal screen.
    s.send(&["?"]);
    s.wait_for(&["Keys (any key closes)"]);
    s.send(&["Escape"]);
    s.send(&["q"]);
    let screen = s.wait_for(&["EXIT=0"]);
    assert!(
        !screen.contains("1 Source Code"),
        "alternate screen left: {screen}"
    );
    let _ = std::fs::remove_file(&profile);
}

#[test]
fn tmux_ctrl_c_restores_the_terminal() {
    let Some((profile, cmd)) = tmux_and_profile("ctrlc") else {
        return;
    };
    let s = Session::start("ctrlc", &cmd);
    s.wait_for(&["1 Source Code"]);
    s.send(&["C-c"]);
    let screen = s.wait_for(&["EXIT=0"]);
    assert!(!screen.contains("Source Code"), "{screen}");
    // Raw mode is off again: the terminal echoes typed text (raw mode does not).
    s.send(&["typed-after-exit"]);
    s.wait_for(&["typed-after-exit"]);
    let _ = std::fs::remove_file(&profile);
}

/// The SGR parameter lists (`ESC [ ... m`) in `s`.
fn sgr_params(s: &str) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("\x1b[") {
        rest = &rest[i + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('m') {
            out.push(
                rest[..end]
                    .split(';')
                    .filter_map(|p| p.parse().ok())
                    .collect(),
            );
        }
        rest = &rest[end..];
    }
    out
}

/// True when an SGR parameter list sets a foreground or background colour.
fn sets_colour(params: &[u32]) -> bool {
    params
        .iter()
        .any(|&p| matches!(p, 30..=38 | 40..=48 | 90..=97 | 100..=107))
}

#[test]
fn tmux_colours_and_no_color() {
    let Some((profile, cmd)) = tmux_and_profile("colour") else {
        return;
    };
    // Colours: the high-stall line has the dark red background (256-colour 124 at 74%).
    let s = Session::start_env("colour", &cmd, false);
    s.wait_for(&["1 Source Code"]);
    s.send(&["n"]);
    s.wait_for(&["high-stall line 1 of 1"]);
    let esc = s.capture_escapes();
    let line = esc
        .lines()
        .find(|l| l.contains("write_channel_intel(c0"))
        .expect("stall line");
    assert!(
        sgr_params(line)
            .iter()
            .any(|p| p.windows(3).any(|w| w == [48, 5, 124])),
        "no dark red background on {line:?}"
    );
    s.send(&["q"]);
    s.wait_for(&["EXIT=0"]);
    drop(s);

    // NO_COLOR=1: no colour anywhere, the cursor line still stands out (reverse video).
    let s = Session::start_env("nocolour", &cmd, true);
    s.wait_for(&["1 Source Code"]);
    s.send(&["n"]);
    s.wait_for(&["high-stall line 1 of 1"]);
    let esc = s.capture_escapes();
    let coloured: Vec<Vec<u32>> = sgr_params(&esc)
        .into_iter()
        .filter(|p| sets_colour(p))
        .collect();
    assert!(coloured.is_empty(), "colours with NO_COLOR: {coloured:?}");
    assert!(
        sgr_params(&esc).iter().any(|p| p.contains(&7)),
        "no reverse video for the cursor"
    );
    s.send(&["q"]);
    s.wait_for(&["EXIT=0"]);
    let _ = std::fs::remove_file(&profile);
}

/// Pids of the direct children of `parent` (from /proc).
fn children_of(parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            out.push(pid);
        }
    }
    out
}

/// `kill -<sig>` on the profiler with its terminal still there: the terminal is restored and
/// the shell sees exit status `status` (128 + the signal number).
fn signal_restores_the_terminal(tag: &str, sig: &str, status: &str) {
    let Some((profile, cmd)) = tmux_and_profile(tag) else {
        return;
    };
    let s = Session::start(tag, &cmd);
    s.wait_for(&["1 Source Code"]);
    let (_shell, pid) = pane_shell_and_profiler(&s);
    let st = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let screen = s.wait_for(&["EXIT="]);
    assert!(
        !screen.contains("1 Source Code"),
        "alternate screen left: {screen}"
    );
    assert!(
        screen.contains(&format!("EXIT={status}")),
        "SIG{sig} exits with {status}: {screen}"
    );
    let _ = std::fs::remove_file(&profile);
}

#[test]
fn tmux_sigterm_restores_the_terminal() {
    signal_restores_the_terminal("term", "TERM", "143");
}

#[test]
fn unreadable_file_is_an_error_with_a_message() {
    let missing = std::env::temp_dir().join("fpgacl-tui-no-such-file.mon");
    let Some(cmd) = report_command(&missing) else {
        eprintln!("SKIPPED: report example not built");
        return;
    };
    let out = Command::new(&cmd[0]).args(&cmd[1..]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read"), "{err}");

    // A readable file but no terminal (stdin/stdout are pipes here): a clear message.
    let good = demo_file("pipe");
    let cmd = report_command(&good).unwrap();
    let out = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    let _ = std::fs::remove_file(&good);

    // A file that is not a profile.
    let junk = std::env::temp_dir().join(format!("fpgacl-tui-junk-{}.mon", std::process::id()));
    std::fs::write(&junk, b"this is not a profile").unwrap();
    let cmd = report_command(&junk).unwrap();
    let out = Command::new(&cmd[0]).args(&cmd[1..]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not an fpgacl profile.mon"), "{err}");
    let _ = std::fs::remove_file(&junk);
}

/// The pane shell's pid and the profiler under it (its only child).
fn pane_shell_and_profiler(s: &Session) -> (u32, u32) {
    let out = tmux(&s.name)
        .args(["display-message", "-p", "-t", &s.name, "#{pane_pid}"])
        .output()
        .unwrap();
    let shell: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let kids = children_of(shell);
    assert_eq!(
        kids.len(),
        1,
        "profiler process under the pane shell: {kids:?}"
    );
    (shell, kids[0])
}

/// True while `pid` runs (a zombie has exited: it only waits for its parent to reap it).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !matches!(
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next()),
            Some("Z" | "X") | None
        ),
        Err(_) => false,
    }
}

/// Waits up to `limit` for `pid` to exit; true when it did.
fn exits_within(pid: u32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if !running(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    !running(pid)
}

/// Starts the profiler in a session whose shell ignores SIGHUP (so it survives the hangup and
/// writes the profiler's exit status to `status_file`); `block_hup` also starts the profiler
/// with SIGHUP blocked (through python3), so the hangup reaches it only through the terminal.
fn start_for_hangup(tag: &str, cmd: &[String], status_file: &Path, block_hup: bool) -> Session {
    let name = format!("fpgacl-tui-{tag}-{}", std::process::id());
    let mut line = shell_line(cmd);
    if block_hup {
        line = format!(
            "python3 -c 'import os, signal, sys; \
             signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP]); \
             os.execvp(sys.argv[1], sys.argv[1:])' {line}"
        );
    }
    let script = format!(
        "trap '' HUP; {line}; echo $? > {}",
        shell_quote(&status_file.display().to_string())
    );
    let st = tmux(&name)
        .args(["new-session", "-d", "-s", &name, "-x", "100", "-y", "30"])
        .arg(script)
        .status()
        .expect("tmux new-session");
    assert!(st.success(), "tmux new-session failed");
    Session { name }
}

fn have_python3() -> bool {
    Command::new("python3")
        .arg("-c")
        .arg("import signal; signal.pthread_sigmask")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The terminal disappears under the profiler (tmux server killed): the profiler must exit
/// within a few seconds with status 129 instead of spinning on the dead terminal (crossterm's
/// reader loops on read() = EIO forever). Checked with SIGHUP delivered as usual and, when
/// python3 is there, with SIGHUP blocked so only the terminal's hangup tells.
#[test]
fn tmux_server_killed_the_profiler_exits() {
    let Some((profile, cmd)) = tmux_and_profile("hangup") else {
        return;
    };
    let mut variants = vec![("hup", false)];
    if have_python3() {
        variants.push(("hupblocked", true));
    } else {
        eprintln!("python3 missing: the blocked-SIGHUP variant is skipped");
    }
    for (tag, block) in variants {
        let status_file = profile.with_file_name(format!("status-{tag}"));
        let _ = std::fs::remove_file(&status_file);
        let s = start_for_hangup(tag, &cmd, &status_file, block);
        s.wait_for(&["1 Source Code"]);
        let (_shell, pid) = pane_shell_and_profiler(&s);
        if block {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
            let blocked = status
                .lines()
                .find_map(|l| l.strip_prefix("SigBlk:"))
                .map(|m| u64::from_str_radix(m.trim(), 16).unwrap())
                .unwrap();
            assert_ne!(blocked & 1, 0, "SIGHUP is not blocked in the profiler");
        }
        let st = tmux(&s.name).arg("kill-server").status().unwrap();
        assert!(st.success());
        let killed = Instant::now();
        if !exits_within(pid, Duration::from_secs(3)) {
            // Do not leave a spinning process behind.
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("{tag}: the profiler (pid {pid}) still runs 3 s after its terminal went away");
        }
        eprintln!("{tag}: exited {:.2?} after the hangup", killed.elapsed());
        // The shell (SIGHUP ignored) writes the exit status once the profiler is gone.
        let deadline = Instant::now() + Duration::from_secs(3);
        let status = loop {
            if let Ok(s) = std::fs::read_to_string(&status_file) {
                if s.ends_with('\n') {
                    break s;
                }
            }
            assert!(Instant::now() < deadline, "{tag}: no exit status written");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.trim(), "129", "{tag}: exit status");
        let _ = std::fs::remove_file(&status_file);
    }
    let _ = std::fs::remove_file(&profile);
}

/// SIGHUP with the terminal still there (e.g. `kill -HUP`).
#[test]
fn tmux_sighup_restores_the_terminal() {
    signal_restores_the_terminal("sighup", "HUP", "129");
}

/// Issue 16 item 5 in a real terminal: `/` search with n / N, the Loops tab and its jump to
/// the source, the details pane collapsed with `d`, the plots of a kernel with `v`.
#[test]
fn tmux_search_loops_details_and_plots() {
    let Some((profile, cmd)) = tmux_and_profile("search") else {
        return;
    };
    let s = Session::start("search", &cmd);
    s.wait_for(&["1 Source Code", "vector_add.cl"]);

    // `/channel` + Enter: the first match in file order, then n / N walk the matches.
    s.send(&["/"]);
    s.wait_for(&["search sources and kernel names"]);
    s.send(&["-l", "read_channel"]);
    s.wait_for(&["/read_channel_"]);
    s.send(&["Enter"]);
    let screen = s.wait_for(&["/read_channel: match 1 of"]);
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with('>') && l.contains("read_channel_intel")),
        "cursor not on the match:\n{screen}"
    );
    let total: usize = screen
        .split("/read_channel: match 1 of ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("match count");
    assert!(total >= 2, "{screen}");
    s.send(&["n"]);
    s.wait_for(&["/read_channel: match 2 of"]);
    s.send(&["N"]);
    s.wait_for(&["/read_channel: match 1 of"]);
    // A kernel name: `consumer` matches its definition line.
    s.send(&["/"]);
    s.send(&["-l", "consumer"]);
    s.send(&["Enter"]);
    let screen = s.wait_for(&["/consumer: match"]);
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with('>') && l.contains("consumer")),
        "{screen}"
    );
    // Esc clears the search: n goes back to the high-stall lines.
    s.send(&["Escape"]);
    s.wait_for(&["search cleared"]);
    s.send(&["n"]);
    s.wait_for(&["high-stall line 1 of 1"]);

    // `d` collapses the details pane and brings it back.
    s.wait_for(&["Details"]);
    s.send(&["d"]);
    let screen = s.wait_for(&["1 Source Code"]);
    assert!(!screen.contains(" Details "), "{screen}");
    s.send(&["d"]);
    s.wait_for(&[" Details "]);

    // Loops tab: the consumer's II 4 loop with its reason; Enter shows it in the source.
    s.send(&["4"]);
    let screen = s.wait_for(&["4 Loops", "Why II > 1", "loop-carried dependency on acc"]);
    assert!(
        screen
            .lines()
            .any(|l| l.contains("pipeline.cl:13") && l.contains("consumer") && l.contains(" 4 ")),
        "{screen}"
    );
    s.send(&["j"]);
    s.wait_for(&["consumer pipeline.cl:13:3  II 4"]);
    s.send(&["Enter"]);
    let screen = s.wait_for(&["1 Source Code", "pipeline.cl ("]);
    assert!(
        screen.lines().any(|l| l.starts_with("> 13")),
        "cursor not on line 13:\n{screen}"
    );

    // Kernel Execution tab, plots of the first lane's kernel.
    s.send(&["2"]);
    s.wait_for(&["time ->"]);
    s.send(&["v"]);
    s.wait_for(&[
        "Global memory bandwidth over time",
        "Mean occupancy over time",
        "Run durations",
    ]);
    s.send(&["q"]);
    s.wait_for(&["EXIT=0"]);
    let _ = std::fs::remove_file(&profile);
}
