//! Generates a profile of N sample records (default one million, mostly kernel runs with three
//! sites each), then reads it back and reports the read time and peak memory.
//!
//! `cargo run --release -p fpgacl-profile-format --example gen_and_read -- 1000000 [path]`

use std::time::Instant;

use fpgacl_profile_format::{read_profile, sample, ProfileWriter, Record};

/// Peak resident set size of this process so far, in KiB (Linux `VmHWM`).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of this process so far, in seconds (Linux `/proc/self/stat`).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = match args.next().map(|a| a.parse()) {
        None => 1_000_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("gen_and_read: bad record count: {e}");
            std::process::exit(2);
        }
    };
    let path = args
        .next()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("fpgacl-gen-and-read.mon"));

    let read_only = std::env::var_os("GEN_AND_READ_SKIP_WRITE").is_some();
    let t = Instant::now();
    if !read_only {
        let w = match ProfileWriter::create(&path, &sample::header()) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("gen_and_read: {e}");
                std::process::exit(1);
            }
        };
        let write = || -> Result<(), fpgacl_profile_format::WriteError> {
            w.write_program(&sample::program())?;
            // Batches of 1000 records per write keep generation quick; the runtime writes one
            // record per call.
            let mut batch: Vec<Record> = Vec::with_capacity(1000);
            for i in 0..n {
                batch.push(sample::record(i));
                if batch.len() == 1000 {
                    w.write_records(&batch)?;
                    batch.clear();
                }
            }
            w.write_records(&batch)
        };
        if let Err(e) = write() {
            eprintln!("gen_and_read: {e}");
            std::process::exit(1);
        }
        drop(w);
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let rss_before = peak_rss_kib().unwrap_or(0);
        println!(
            "wrote {n} records ({:.1} MB) to {} in {:.2?}; peak RSS while writing {} MiB",
            size as f64 / 1e6,
            path.display(),
            t.elapsed(),
            rss_before / 1024
        );
    }

    let cpu0 = cpu_seconds().unwrap_or(0.0);
    let t = Instant::now();
    let profile = match read_profile(&path) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gen_and_read: {e}");
            std::process::exit(1);
        }
    };
    let elapsed = t.elapsed();
    let cpu = cpu_seconds().unwrap_or(0.0) - cpu0;
    let sites: usize = profile.kernel_runs().map(|r| r.sites.len()).sum();
    println!(
        "read {} records ({} kernel runs, {} site counters) in {:.3?} ({:.0} ns/record); \
         truncated={}",
        profile.records.len(),
        profile.kernel_runs().count(),
        sites,
        elapsed,
        elapsed.as_nanos() as f64 / profile.records.len().max(1) as f64,
        profile.truncated
    );
    println!(
        "CPU time of the read (all threads): {cpu:.2} s; peak RSS (VmHWM) after reading: {} MiB",
        peak_rss_kib().unwrap_or(0) / 1024
    );
    if std::env::var_os("GEN_AND_READ_EXPORTS").is_some() {
        use fpgacl_profile_format::exports::*;
        let sink = || std::io::BufWriter::new(std::io::sink());
        let t = Instant::now();
        let json = write_json(&profile, sink());
        println!("JSON export: {:.2?} ({json:?})", t.elapsed());
        let t = Instant::now();
        let text = write_intel_text(&profile, sink());
        println!("Intel text export: {:.2?} ({text:?})", t.elapsed());
        let t = Instant::now();
        let trace = write_chrome_trace(&profile, sink());
        println!("Chrome trace export: {:.2?} ({trace:?})", t.elapsed());
    }
    if profile.records.len() as u64 != n {
        eprintln!("gen_and_read: expected {n} records");
        std::process::exit(1);
    }
}
