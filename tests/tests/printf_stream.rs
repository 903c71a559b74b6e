//! Issue 15 item 8: printf inside an endless loop prints promptly, line by line, while the
//! kernel runs (not when its work-group ends), and memory stays bounded; the watchdog
//! (`FPGACL_KERNEL_TIMEOUT_S`) stops the kernels (`printf_stream` C host through the ICD loader).

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use fpgacl_tests::{compile_example, example, example_command, fpgacl_lib_dir, Linkage};

const TIMEOUT_S: f64 = 3.0;

#[test]
fn endless_printf_streams_lines_before_the_watchdog_with_bounded_memory() {
    let _ = fpgacl_lib_dir();
    let ex = example("printf_stream").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "printf_stream", &Linkage::IcdLoader);
    cmd.env("FPGACL_KERNEL_TIMEOUT_S", format!("{TIMEOUT_S}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn printf_stream");
    let err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(err), &mut s);
        s
    });
    // Read stdout as it comes, with the time each interesting line arrived.
    let start = Instant::now();
    let mut launch = [None::<f64>; 2];
    let mut first = [None::<f64>; 2];
    let mut stopped = [None::<f64>; 2];
    let mut next_tick = [0u64; 2];
    let mut gaps = Vec::new();
    let mut flood_bytes = 0u64;
    let mut tail = Vec::new();
    let reader = BufReader::new(child.stdout.take().unwrap());
    for line in reader.split(b'\n') {
        let Ok(line) = line else { break };
        let t = start.elapsed().as_secs_f64();
        let s = String::from_utf8_lossy(&line).into_owned();
        let k = if s.contains("paced") { 0 } else { 1 };
        if s.starts_with("launch ") {
            launch[k] = Some(t);
        } else if s.starts_with("stopped ") {
            stopped[k] = Some(t);
            tail.push(s);
        } else if let Some(rest) = s.strip_prefix("tick ").or_else(|| s.strip_prefix("flood ")) {
            let k = usize::from(s.starts_with("flood "));
            if k == 1 {
                flood_bytes += line.len() as u64 + 1;
            }
            first[k].get_or_insert(t);
            let n: u64 = rest
                .split_whitespace()
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(u64::MAX);
            if n != next_tick[k] && gaps.len() < 5 {
                gaps.push(format!("{k}: expected {} got line {s:?}", next_tick[k]));
            }
            next_tick[k] = n.wrapping_add(1);
        } else {
            tail.push(s);
        }
    }
    let status = child.wait().unwrap();
    let stderr = err_reader.join().unwrap();
    let report = format!(
        "status {status:?}\nlaunch {launch:?} first {first:?} stopped {stopped:?}\n\
         ticks {next_tick:?} flood bytes {flood_bytes}\ngaps {gaps:?}\n{}\nstderr:\n{stderr}",
        tail.join("\n")
    );
    eprintln!("{report}");
    assert!(status.success(), "{report}");
    assert!(
        tail.iter().any(|l| l.contains("PASS: printf_stream")),
        "{report}"
    );
    assert!(gaps.is_empty(), "lines lost or out of order: {report}");
    for k in 0..2 {
        let (l, f, s) = (
            launch[k].expect("launch line"),
            first[k].expect("printed lines"),
            stopped[k].expect("stopped line"),
        );
        // The kernel ran for the watchdog's time; its first lines arrived long before the end.
        assert!(s - l >= TIMEOUT_S - 0.5, "{report}");
        assert!(
            f < s - 1.0,
            "kernel {k}: first line at {f:.2}s, stopped at {s:.2}s: {report}"
        );
    }
    assert!(next_tick[0] >= 10, "{report}");
    // Peak resident set of the host: the output streamed instead of piling up.
    let hwm: f64 = tail
        .iter()
        .find_map(|l| l.strip_prefix("vmhwm_kb="))
        .and_then(|v| v.parse().ok())
        .expect("vmhwm_kb");
    let before: f64 = tail
        .iter()
        .find_map(|l| l.strip_prefix("vmhwm_before_kb="))
        .and_then(|v| v.parse().ok())
        .expect("vmhwm_before_kb");
    assert!(
        hwm - before < 64.0 * 1024.0,
        "peak RSS grew by {} kB while {flood_bytes} bytes were printed: {report}",
        hwm - before
    );
    assert!(start.elapsed() < Duration::from_secs(60), "{report}");
}
