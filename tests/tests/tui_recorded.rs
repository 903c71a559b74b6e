//! Issue 7: the terminal profiler on profiles *recorded* from real C host programs (compiled
//! with gcc, run through the ICD loader with the Intel profiling environment), drawn on
//! ratatui's TestBackend through the profiler-tui library and compared with reviewed insta
//! snapshots (tests/snapshots/tui_recorded__*.snap).
//!
//! * feed_forward (the demo): the baseline kernel's serialised loop (II 326, memory
//!   dependency) in the Source Code tab with its details pane, the split's memory kernel, and
//!   the Kernel Execution tab (the two split kernels overlap).
//! * concurrent_bandwidth: two copies share the board's bandwidth; `n` jumps to the
//!   high-stall line (Stall 52%) and its diagnosis.
//! * profile_autorun: the Autorun Captures tab and one capture opened in the Source Code tab.
//!
//! What varies between runs is redacted: the date, the host command line (paths), and times
//! that include host gaps (emulated time since start, run start/end, capture times, the
//! timeline's axis and bars). Counters and durations are deterministic and stay in.

use std::path::{Path, PathBuf};
use std::process::Command;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profile_format::{read_profile, Profile};
use fpgacl_profiler_tui::{ui, App, ReportData, Tab, Theme};
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_cli, fpgacl_lib_dir, run_with_timeout,
    scratch_dir, workspace_root, Linkage, DEFAULT_TIMEOUT,
};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;

const W: u16 = 120;
const H: u16 = 40;

/// Runs example `name` through the ICD loader with runtime profiling on, in its own scratch
/// folder, with `args`; asserts it passed and returns the profile it wrote.
fn record(name: &str, scratch: &str, args: &[PathBuf]) -> Profile {
    let _ = fpgacl_lib_dir();
    let ex = example(name).unwrap_or_else(|| panic!("no example {name}"));
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(scratch);
    let out_path = dir.join("profile.mon");
    let _ = std::fs::remove_file(&out_path);
    let mut cmd = example_command(&bin, name, &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .args(args)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("ACL_PROFILE_TIMER", "1")
        .env("FPGACL_PROFILE_OUT", &out_path);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run example");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(&out_path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}\n{}",
            out_path.display(),
            out.describe()
        )
    });
    assert!(!p.truncated, "{:?}", p.warnings);
    p
}

/// Compiles `kernel` (a path relative to the workspace root, as the demo does) with
/// `fpgacl aoc` into `dir`.
fn aoc(kernel: &str, dir: &Path) -> PathBuf {
    let stem = Path::new(kernel).file_stem().unwrap().to_str().unwrap();
    let out = dir.join(format!("{stem}.aocx"));
    let st = Command::new(fpgacl_cli())
        .current_dir(workspace_root())
        .args(["aoc", "-march=emulator", kernel, "-o"])
        .arg(&out)
        .output()
        .expect("run fpgacl aoc");
    assert!(
        st.status.success(),
        "fpgacl aoc {kernel}: {}",
        String::from_utf8_lossy(&st.stderr)
    );
    out
}

/// The demo's profile: feed_forward with the baseline and split programs compiled by
/// `fpgacl aoc` from their paths under the workspace root (so the file names are the demo's).
/// The two split kernels are released by one transfer and must start together; a host too slow
/// to enqueue both within that transfer gets a second and third try.
fn feed_forward_profile() -> Profile {
    let dir = scratch_dir("tui-recorded-feed-forward-aocx");
    let base = aoc("host-examples/c/kernels/feed_forward_baseline.cl", &dir);
    let split = aoc("host-examples/c/kernels/feed_forward_split.cl", &dir);
    for attempt in 1..=3 {
        let p = record(
            "feed_forward",
            "tui-recorded-feed-forward",
            &[base.clone(), split.clone()],
        );
        let start = |k: &str| {
            p.kernel_runs()
                .find(|r| r.kernel == k)
                .unwrap_or_else(|| panic!("no {k} run"))
                .start_ns
        };
        if start("memory_kernel") == start("compute_kernel") {
            return p;
        }
        eprintln!("attempt {attempt}: the split kernels did not start together; again");
    }
    panic!("the split kernels never started together (host too slow?)");
}

fn app(p: Profile) -> App {
    App::new(ReportData::new("profile.mon", p), Theme::colored())
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn draw(app: &App) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(W, H)).unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    term.backend().buffer().clone()
}

fn screen(buf: &Buffer) -> String {
    let a = buf.area;
    let mut out = String::new();
    for y in 0..a.height {
        let mut line = String::new();
        for x in 0..a.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Replaces the whitespace-delimited token after each `key` on `line` with `with`.
fn replace_after(line: &str, key: &str, with: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(key) {
        out.push_str(&rest[..i + key.len()]);
        rest = &rest[i + key.len()..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push_str(with);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Redactions common to every recorded profile: the date, the host command line (paths) and
/// the emulated time since the host started (host gaps).
fn redact_header(s: &str) -> String {
    let mut out = String::new();
    for line in s.lines() {
        let mut l = replace_after(line, "Emulated time: ", "[t]");
        l = replace_after(&l, "Date: ", "[date]");
        if let Some(i) = l.find("Host: ") {
            l = format!("{}Host: [command line]", &l[..i]);
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The Kernel Execution tab's host-gap-dependent parts: the axis, the bars (lane labels stay),
/// the host lane's markers (wall-clock gaps), the view range and cursor, the selected run's
/// start and end and its host gap.
fn redact_timeline(s: &str) -> String {
    let mut out = String::new();
    let mut in_lanes = false;
    for line in s.lines() {
        let l = if line.starts_with("time ->") {
            in_lanes = true;
            "time -> [axis]".to_string()
        } else if line.starts_with("host gaps (") {
            let label = line.split(')').next().unwrap_or(line);
            format!("{label}) [host gap markers]")
        } else if line.contains("host gap before its enqueue: ") {
            replace_after(line, "enqueue: ", "[gap]")
        } else if line.starts_with(" view ") {
            // its rule's length follows the length of the times
            in_lanes = false;
            " view [range and cursor] ───".to_string()
        } else if in_lanes {
            // "label (n)   ███  │ ██": keep the label (everything before the first bar or
            // cursor glyph), replace the bars
            let cut = line.find(['█', '│', '#']).unwrap_or(line.len());
            let label = line[..cut].trim_end();
            if label.is_empty() {
                // an empty row crossed by the cursor line
                String::new()
            } else if line[cut..].contains(['█', '#']) {
                format!("{label} [bars]")
            } else {
                label.to_string()
            }
        } else {
            replace_after(&replace_after(line, "start ", "[t]"), "end ", "[t]")
        };
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// Replaces every `<digits>.<digits>ms` with `[t]ms` (times since the host started).
fn redact_ms(s: &str) -> String {
    redact_number_before(s, "ms", "[t]ms")
}

/// Replaces every `<digits>[.<digits>]%` with `[p]%`.
fn redact_pct(s: &str) -> String {
    redact_number_before(s, "%", "[p]%")
}

/// Replaces every number (`<digits>[.<digits>]`, not part of a word) followed by `unit` with
/// `with`.
fn redact_number_before(s: &str, unit: &str, with: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let start = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > start {
            if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
                j += 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
            }
            let word_start =
                start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'.');
            if word_start && s[j..].starts_with(unit) {
                out.push_str(with);
                i = j + unit.len();
                continue;
            }
            // not a match: copy the digits as they are
            out.push_str(&s[start..j]);
            i = j;
            continue;
        }
        // copy one char
        let ch = s[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Moves the Source Code cursor to 1-based `line` of the current file.
fn goto_line(app: &mut App, line: usize) {
    key(app, KeyCode::Home);
    for _ in 1..line {
        key(app, KeyCode::Down);
    }
    assert_eq!(app.source.cursor, line - 1);
}

/// Opens the file whose name ends with `name` through the file/kernel picker (`f`).
fn open_file(app: &mut App, name: &str) {
    let file = app
        .data
        .files
        .iter()
        .position(|f| f.name.ends_with(name))
        .unwrap_or_else(|| panic!("no file {name}"));
    keys(app, "f");
    key(app, KeyCode::Home);
    for _ in 0..40 {
        if app.source.popup.is_none() {
            break;
        }
        let Some(fpgacl_profiler_tui::app::Popup::Picker { entries, selected }) =
            app.source.popup.clone()
        else {
            panic!("no picker")
        };
        if entries[selected] == (file, None) {
            key(app, KeyCode::Enter);
            break;
        }
        key(app, KeyCode::Down);
    }
    assert_eq!(app.source.file, file, "picker did not open {name}");
}

#[test]
fn feed_forward_source_and_execution_tabs() {
    let p = feed_forward_profile();
    let mut app = app(p);
    // Opens on the first kernel that ran: the baseline, its file as `fpgacl aoc` named it.
    assert_eq!(
        app.data.files[app.source.file].name,
        "host-examples/c/kernels/feed_forward_baseline.cl"
    );

    // The outer loop's first load: the details pane gives the loop's II and the reason.
    goto_line(&mut app, 17);
    let s = screen(&draw(&app));
    assert!(s.contains("II 326"), "{s}");
    assert!(s.contains("memory dependency"), "{s}");
    assert!(s.contains("average of 3 runs"), "{s}");
    let baseline_source = s.clone();

    // The inner loop's load of input2: pipelined (II 1) but one outer iteration at a time.
    goto_line(&mut app, 26);
    let inner = screen(&draw(&app));
    assert!(inner.contains("Cache Hit 90.4%"), "{inner}");

    // The split's memory kernel: the same input2 load runs at a far higher bandwidth.
    open_file(&mut app, "feed_forward_split.cl");
    goto_line(&mut app, 30);
    let split = screen(&draw(&app));
    let counters = |g: usize| app.source.counters[g].expect("counters");
    let split_load = app.current_site().expect("a site on line 30");
    assert_eq!(
        app.data.site(split_load).target.as_deref(),
        Some("input2"),
        "{split}"
    );
    let base_load = (0..app.data.sites.len())
        .find(|&g| {
            app.data.files[app.data.sites[g].file]
                .name
                .ends_with("feed_forward_baseline.cl")
                && app.data.site(g).target.as_deref() == Some("input2")
        })
        .expect("baseline input2 load");
    let (split_c, base_c) = (counters(split_load), counters(base_load));
    // The same words loaded, at more than ten times the bandwidth.
    assert_eq!(split_c.requests, base_c.requests);
    let mhz = app.data.fmax_mhz();
    let (split_bw, base_bw) = (
        split_c.bandwidth_mbps(mhz).unwrap(),
        base_c.bandwidth_mbps(mhz).unwrap(),
    );
    assert!(
        split_bw > 10.0 * base_bw,
        "split {split_bw} MB/s, baseline {base_bw} MB/s"
    );

    // Kernel Execution: one lane per kernel, the selected run's details.
    app.goto_tab(Tab::Execution);
    let buf = draw(&app);
    let exec = screen(&buf);
    for lane in ["baseline (", "memory_kernel (", "compute_kernel ("] {
        assert!(exec.lines().any(|l| l.starts_with(lane)), "{lane}: {exec}");
    }
    assert!(exec.contains("write (host->dev)"), "{exec}");
    // The split kernels overlap: their lanes have bars in the same columns; the baseline's
    // bar is elsewhere.
    let cols = |label: &str| -> Vec<u16> {
        let y = exec
            .lines()
            .position(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no lane {label}")) as u16;
        (0..W).filter(|&x| buf[(x, y)].symbol() == "█").collect()
    };
    let (mem, comp, base) = (
        cols("memory_kernel"),
        cols("compute_kernel"),
        cols("baseline"),
    );
    assert!(
        !mem.is_empty() && mem == comp,
        "mem {mem:?} compute {comp:?}"
    );
    assert!(base.iter().all(|x| !mem.contains(x)), "{exec}");

    insta::assert_snapshot!(
        "feed_forward_source_baseline",
        redact_header(&baseline_source)
    );
    insta::assert_snapshot!("feed_forward_source_split", redact_header(&split));
    insta::assert_snapshot!(
        "feed_forward_execution",
        redact_timeline(&redact_header(&exec))
    );
}

#[test]
fn concurrent_bandwidth_next_high_stall_line() {
    let p = record("concurrent_bandwidth", "tui-recorded-concurrent-bw", &[]);
    let mut app = app(p);
    // n: the next high-stall line, until the memory-bound copy kernel's (the sink kernel
    // below it also stalls, but on a channel the host fills late: host gaps).
    let mut found = false;
    for _ in 0..4 {
        keys(&mut app, "n");
        let g = app.current_site().expect("a high-stall site");
        let k = app.data.sites[g]
            .kernel
            .map(|k| app.data.kernel(k).name.clone());
        if k.as_deref() == Some("copy") {
            found = true;
            break;
        }
    }
    assert!(found, "no high-stall line in the copy kernel");
    let s = screen(&draw(&app));
    assert!(s.contains("high-stall line 1 of"), "{s}");
    assert!(s.contains("Stall source"), "{s}");
    let g = app.current_site().unwrap();
    let c = app.source.counters[g].unwrap();
    let stall = c.stall_pct().unwrap();
    assert!(stall >= 20.0, "{c:?}");
    insta::assert_snapshot!("concurrent_bandwidth_high_stall", redact_header(&s));
}

#[test]
fn profile_autorun_captures_tab_and_one_capture() {
    let p = record("profile_autorun", "tui-recorded-autorun", &[]);
    let mut app = app(p);
    assert!(app.tabs.contains(&Tab::Autorun));
    app.goto_tab(Tab::Autorun);
    let tab = screen(&draw(&app));
    assert!(tab.contains("Device 0"), "{tab}");
    assert!(tab.contains("worker"), "{tab}");
    // Second capture of compute unit 0: 512 values read since the first read (every
    // clGetProfileDataDeviceIntelFPGA read restarts the autorun counters, as Intel's does).
    keys(&mut app, "l");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.current_tab(), Tab::Source);
    let cap = screen(&draw(&app));
    assert!(cap.contains("autorun capture of worker"), "{cap}");
    assert!(cap.contains("compute unit 0"), "{cap}");
    // The capture's own counters: 512 values read and written by compute unit 0 since the
    // previous read; it waits for the feed kernel most of the time (Stall% about 76: its window
    // holds device time only; it was over 90% while the host's own time between rounds was on
    // the device timeline).
    let g = app.current_site().expect("the worker's channel read");
    assert_eq!(app.data.site(g).line, 18);
    let c = app.source.counters[g].expect("capture counters");
    assert_eq!(c.requests, 512, "{c:?}");
    assert!(c.stall_pct().unwrap() > 60.0, "{c:?}");
    let write = app.line_sites(18)[0];
    let w = app.source.counters[write].expect("write counters");
    assert_eq!(w.requests, 512, "{w:?}");
    // Capture times count from the host's start, and an autorun kernel's percentages are
    // shares of all the time since it started, host gaps included: both are redacted.
    insta::assert_snapshot!(
        "profile_autorun_tab",
        redact_pct(&redact_ms(&redact_header(&tab)))
    );
    insta::assert_snapshot!(
        "profile_autorun_capture",
        redact_pct(&redact_ms(&redact_header(&cap)))
    );
}
