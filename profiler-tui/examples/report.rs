//! Writes the demo profile (or a large generated one) with the profile-format writer and opens
//! it in the terminal profiler.
//!
//! ```text
//! cargo run -p fpgacl-profiler-tui --example report                  # demo, interactive
//! cargo run -p fpgacl-profiler-tui --example report -- --text        # demo, text report
//! cargo run -p fpgacl-profiler-tui --example report -- --large 1000000 --out big.mon
//! cargo run -p fpgacl-profiler-tui --example report -- --open a.mon [b.mon]
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use fpgacl_profiler_tui::{demo, load_data, run_report, text, Scope};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out = std::env::temp_dir().join("fpgacl-demo-profile.mon");
    let mut large: Option<u64> = None;
    let mut text_mode = false;
    let mut open: Vec<PathBuf> = Vec::new();
    let mut write_only = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = args.next().map(PathBuf::from).unwrap_or(out),
            "--large" => large = args.next().and_then(|n| n.parse().ok()),
            "--text" => text_mode = true,
            "--write-only" => write_only = true,
            "--open" => open.extend(args.by_ref().map(PathBuf::from)),
            other => {
                eprintln!("unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    if open.is_empty() {
        let t = Instant::now();
        let res = match large {
            Some(n) => demo::write_large(&out, n),
            None => demo::write_demo(&out),
        };
        if let Err(e) = res {
            eprintln!("cannot write {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {} in {:.2?}", out.display(), t.elapsed());
        open.push(out);
    }
    if write_only {
        return ExitCode::SUCCESS;
    }
    if text_mode {
        for p in &open {
            match load_data(p) {
                Ok(d) => print!("{}", text::report_text(&d, Scope::Average)),
                Err(e) => {
                    eprintln!("fpgacl report: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    match run_report(&open) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Not eprintln!: stderr may be the terminal that just hung up.
            let _ = writeln!(std::io::stderr(), "fpgacl report: {e}");
            ExitCode::from(e.exit_status(1))
        }
    }
}
