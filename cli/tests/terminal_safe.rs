//! Terminal injection (issue 15 item 4) through the real `fpgacl` binary: a profile with
//! ESC/OSC/BEL/C1 sequences in kernel names, `#line` file names, source text and the host
//! command line, and kernel sources whose `#line` and `#error` carry them, print escaped in
//! `fpgacl report --text`, `--format intel-text`, `--json`, `--format chrome-trace` and the
//! `fpgacl aoc` diagnostics.

mod common;
use common::{fpgacl, scratch};
use fpgacl_profile_format::ProfileWriter;
use fpgacl_profiler_tui::demo;

/// Fails when `bytes` hold any C0 control but line feed and tab, DEL, or a C1 control.
fn assert_terminal_safe(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    if let Some(c) = text
        .chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t')
    {
        panic!(
            "{what}: control character U+{:04X} printed:\n{text}",
            c as u32
        );
    }
}

fn write_hostile(path: &std::path::Path) {
    let p = demo::hostile_profile();
    let w = ProfileWriter::create(path, &p.header).unwrap();
    for prog in &p.programs {
        w.write_program(prog).unwrap();
    }
    w.write_records(&p.records).unwrap();
    w.flush().unwrap();
}

#[test]
fn report_exports_escape_control_characters() {
    let dir = scratch("escape_report");
    let mon = dir.join("hostile.mon");
    write_hostile(&mon);
    for args in [
        &["--text"][..],
        &["--format", "intel-text"],
        &["--json"],
        &["--format", "chrome-trace"],
    ] {
        let out = fpgacl()
            .arg("report")
            .args(args)
            .arg(&mon)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_terminal_safe(&out.stdout, &format!("report {args:?}"));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("vector_add\\u001b]0;pwned\\u0007"),
            "{args:?}: the kernel name must be shown escaped:\n{text}"
        );
        if args == ["--json"] {
            // Still the same JSON: the escaped name decodes to the original.
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                v.to_string().contains("vector_add\\u001b]0;pwned\\u0007"),
                "the decoded JSON keeps the original name"
            );
        }
    }
    // Comparing two files prints names too.
    let out = fpgacl()
        .args(["report", "--text"])
        .arg(&mon)
        .arg(&mon)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_terminal_safe(&out.stdout, "report --text a b");
}

#[test]
fn aoc_diagnostics_escape_line_names_and_error_text() {
    let dir = scratch("escape_aoc");
    let src = dir.join("k.cl");
    std::fs::write(
        &src,
        "#line 1 \"\x1b]0;pwned\x07.cl\"\n\
         __kernel void k(__global int *a) { a[0] = undeclared; }\n\
         #error stop \x1b]52;c;ZXZpbA==\x07 \u{9b}5m here\n",
    )
    .unwrap();
    let out = fpgacl().arg("aoc").arg(&src).output().unwrap();
    assert!(!out.status.success());
    assert_terminal_safe(&out.stderr, "aoc stderr");
    assert_terminal_safe(&out.stdout, "aoc stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\\u001b]0;pwned\\u0007.cl"), "{err}");
    assert!(err.contains("\\u001b]52;c;ZXZpbA==\\u0007"), "{err}");
    assert!(err.contains("error: #error stop "), "{err}");
}

#[test]
fn aoc_report_escapes_line_file_names() {
    let dir = scratch("escape_aoc_report");
    let src = dir.join("k.cl");
    std::fs::write(
        &src,
        "#line 1 \"\x1b[5m\x1b]0;t\x07k.cl\"\n\
         __kernel void k(__global int *restrict a, int n) {\n\
         \x20 for (int i = 0; i < n; i++) a[i] = a[i] * 2;\n}\n",
    )
    .unwrap();
    let out = fpgacl()
        .args(["aoc", "-report", "-v", "-o"])
        .arg(dir.join("k.aocx"))
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_terminal_safe(&out.stdout, "aoc -report stdout");
    assert_terminal_safe(&out.stderr, "aoc -report stderr");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("\\u001b[5m"), "{report}");
}
