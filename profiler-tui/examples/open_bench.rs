//! Measures opening and browsing a large generated profile: read time, index time, first draw
//! of each tab, scrolling and panning with a redraw per key, and peak memory (VmHWM).
//!
//! ```text
//! cargo run --release -p fpgacl-profiler-tui --example open_bench -- [RECORDS] [FILE]
//! ```
//! Defaults: 1,000,000 records in $TMPDIR/fpgacl-large.mon (written when missing).

use std::path::PathBuf;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profiler_tui::{demo, ui, App, ReportData, Theme};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// CPU time (user + system) of the whole process, all threads, in ns: load-independent,
/// unlike wall time on a shared machine. Resolution: one clock tick (10 ms).
fn cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks = f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0);
    ticks * 10_000_000
}

fn ms(ns: u64) -> String {
    format!("{:.1}ms", ns as f64 / 1e6)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let path = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("fpgacl-large-{n}.mon")));
    if !path.exists() {
        let t = Instant::now();
        demo::write_large(&path, n).expect("write");
        println!(
            "wrote {} records to {} in {:.2?}",
            n,
            path.display(),
            t.elapsed()
        );
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "file: {} ({:.1} MiB)",
        path.display(),
        size as f64 / 1048576.0
    );
    println!("peak RSS before reading: {:.1} MiB", peak_rss_mib());

    let c0 = cpu_ns();
    let t0 = Instant::now();
    let profile = fpgacl_profile_format::read_profile(&path).expect("read");
    let t_read = t0.elapsed();
    let c1 = cpu_ns();
    let rss_read = peak_rss_mib();
    let records = profile.records.len();
    let t1 = Instant::now();
    let data = ReportData::new(path.display().to_string(), profile);
    let t_index = t1.elapsed();
    let c2 = cpu_ns();
    println!(
        "CPU time: read_profile {}, index {}, open total {}",
        ms(c1 - c0),
        ms(c2 - c1),
        ms(c2 - c0)
    );
    let t2 = Instant::now();
    let mut app = App::new(data, Theme::colored());
    let t_app = t2.elapsed();
    let mut term = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let t3 = Instant::now();
    term.draw(|f| ui::draw(f, &app)).unwrap();
    let t_draw = t3.elapsed();
    println!("records: {records}");
    println!("read_profile: {t_read:.2?}");
    println!("index (ReportData::new): {t_index:.2?}");
    println!("App::new: {t_app:.2?}");
    println!("first draw (Source Code, 200x50): {t_draw:.2?}");
    println!(
        "open total (read + index + app + first draw): {:.2?}",
        t_read + t_index + t_app + t_draw
    );
    println!("peak RSS after read_profile: {rss_read:.1} MiB");
    println!("peak RSS after opening: {:.1} MiB", peak_rss_mib());

    let key = |app: &mut App, c: KeyCode| app.on_key(KeyEvent::new(c, KeyModifiers::NONE));
    let bench = |name: &str, app: &mut App, term: &mut Terminal<TestBackend>, keys: &[KeyCode]| {
        let t = Instant::now();
        let reps = 200;
        for i in 0..reps {
            key(app, keys[i % keys.len()]);
            term.draw(|f| ui::draw(f, app)).unwrap();
        }
        let per = t.elapsed() / reps as u32;
        println!("{name}: {per:.2?} per key (key + full redraw)");
    };
    bench(
        "Source Code scroll (j/k)",
        &mut app,
        &mut term,
        &[KeyCode::Char('j'), KeyCode::Char('j'), KeyCode::Char('k')],
    );
    bench(
        "Source Code next high stall (n)",
        &mut app,
        &mut term,
        &[KeyCode::Char('n')],
    );
    key(&mut app, KeyCode::Tab);
    let t = Instant::now();
    term.draw(|f| ui::draw(f, &app)).unwrap();
    println!(
        "first draw (Kernel Execution, whole run, 200x50): {:.2?}",
        t.elapsed()
    );
    bench(
        "Kernel Execution pan (h/l)",
        &mut app,
        &mut term,
        &[KeyCode::Char('l'), KeyCode::Char('l'), KeyCode::Char('h')],
    );
    bench(
        "Kernel Execution zoom (+/-)",
        &mut app,
        &mut term,
        &[KeyCode::Char('+'), KeyCode::Char('+'), KeyCode::Char('-')],
    );
    bench(
        "Kernel Execution next run (])",
        &mut app,
        &mut term,
        &[KeyCode::Char(']')],
    );
    key(&mut app, KeyCode::Enter);
    let t = Instant::now();
    term.draw(|f| ui::draw(f, &app)).unwrap();
    println!(
        "Enter on a run -> its Source Code view: {:.2?}",
        t.elapsed()
    );
    println!("peak RSS at the end: {:.1} MiB", peak_rss_mib());
}
