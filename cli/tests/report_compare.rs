//! `fpgacl report --compare a.mon b.mon [--json] [--fail-if-slower PCT [--kernel NAME]]`
//! (issue 16 item 3): the CI gate exits 1 on a regression and 0 otherwise, prints a text or
//! JSON diff; `--json` takes two files; `fpgacl report` alone opens ./profile.mon.

mod common;
use common::{fpgacl, scratch};
use fpgacl_profile_format::{Profile, ProfileWriter, Record};
use fpgacl_profiler_tui::demo;
use std::path::{Path, PathBuf};

fn write(path: &Path, p: &Profile) {
    let w = ProfileWriter::create(path, &p.header).unwrap();
    for prog in &p.programs {
        w.write_program(prog).unwrap();
    }
    w.write_records(&p.records).unwrap();
    w.flush().unwrap();
}

/// The demo profile with every `kernel` run `pct` percent longer.
fn slower(kernel: &str, pct: u64) -> Profile {
    let mut p = demo::demo_profile();
    for r in &mut p.records {
        if let Record::KernelRun(k) = r {
            if k.kernel == kernel {
                k.end_ns = k.start_ns + k.duration_ns() * (100 + pct) / 100;
            }
        }
    }
    p
}

/// base.mon (the demo) and new.mon (vector_add 20% slower) in a fresh folder.
fn pair(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(tag);
    let (a, b) = (dir.join("base.mon"), dir.join("new.mon"));
    write(&a, &demo::demo_profile());
    write(&b, &slower("vector_add", 20));
    (dir, a, b)
}

fn run(args: &[&str], a: &Path, b: &Path) -> (Option<i32>, String, String) {
    let out = fpgacl()
        .arg("report")
        .args(args)
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gate_fails_on_a_regression_and_passes_within_the_limit() {
    let (_dir, a, b) = pair("compare_gate");
    let (code, out, err) = run(&["--compare", "--fail-if-slower", "10"], &a, &b);
    assert_eq!(code, Some(1), "{out}{err}");
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("vector_add") && l.contains("REGRESSION"))
        .unwrap_or_else(|| panic!("no regression row:\n{out}"));
    assert!(row.contains("+20.0%"), "{row}");
    assert!(out.contains("(all kernels)"), "{out}");
    assert!(out.trim_end().ends_with("FAIL"), "{out}");
    // The per-site diff is printed too.
    assert!(out.contains("Compare "), "{out}");

    let (code, out, _) = run(&["--compare", "--fail-if-slower", "25"], &a, &b);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.trim_end().ends_with("PASS"), "{out}");
    // Implied --compare; the reverse direction is faster: passes at 0%.
    let (code, out, _) = run(&["--fail-if-slower", "0"], &b, &a);
    assert_eq!(code, Some(0), "{out}");
    // Compare alone never fails.
    let (code, out, _) = run(&["--compare"], &a, &b);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("PASS") && !out.contains("FAIL"), "{out}");
}

#[test]
fn gate_per_kernel() {
    let (_dir, a, b) = pair("compare_gate_kernel");
    // consumer did not change: passes even at 0%.
    let (code, out, _) = run(
        &["--compare", "--fail-if-slower", "0", "--kernel", "consumer"],
        &a,
        &b,
    );
    assert_eq!(code, Some(0), "{out}");
    let gate: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Gate:"))
        .collect();
    assert!(gate.iter().any(|l| l.contains("consumer")), "{out}");
    assert!(
        !gate.iter().any(|l| l.contains("vector_add")),
        "only the named kernel is gated:\n{out}"
    );
    let (code, out, _) = run(
        &[
            "--fail-if-slower",
            "5",
            "--kernel",
            "consumer",
            "--kernel",
            "vector_add",
        ],
        &a,
        &b,
    );
    assert_eq!(code, Some(1), "{out}");
    // A kernel that did not run in both files fails the gate and is named.
    let (code, out, _) = run(&["--fail-if-slower", "5", "--kernel", "nosuch"], &a, &b);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("nosuch") && out.contains("not run in both files"),
        "{out}"
    );
}

#[test]
fn json_takes_two_files_and_carries_the_gate() {
    let (_dir, a, b) = pair("compare_json");
    let (code, out, err) = run(&["--json"], &a, &b);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kernel"] == "vector_add")
        .expect("vector_add");
    let (before, after) = (
        k["before"]["total_ns"].as_u64().unwrap(),
        k["after"]["total_ns"].as_u64().unwrap(),
    );
    assert!(after > before, "{k}");
    assert!(v["sites"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(v.get("gate").is_none());

    let (code, out, _) = run(&["--json", "--fail-if-slower", "10"], &a, &b);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["gate"]["passed"], false);
    assert_eq!(v["gate"]["fail_if_slower_pct"], 10.0);
    let g = v["gate"]["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kernel"] == "vector_add")
        .unwrap();
    assert_eq!(g["regression"], true);
    assert!(
        (g["change_pct"].as_f64().unwrap() - 20.0).abs() < 0.01,
        "{g}"
    );
}

#[test]
fn usage_errors_and_the_default_file() {
    let (dir, a, _b) = pair("compare_usage");
    // One file cannot be compared: exit 2 with a message.
    let out = fpgacl()
        .args(["report", "--compare"])
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("baseline first"));
    let out = fpgacl()
        .args(["report", "--fail-if-slower", "-3"])
        .arg(&a)
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // No file given: ./profile.mon.
    std::fs::copy(&a, dir.join("profile.mon")).unwrap();
    let out = fpgacl()
        .args(["report", "--text"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("File: profile.mon"));
}
