//! The differential test: run a corpus kernel (`host-examples/diff/`) with
//! the generic driver `diff_driver.c` on two implementations and compare the
//! result files ([`compare`]) and the kernels' printf output (exactly).

mod check;
mod compare;
mod output;

pub use check::{spec_ulp_bound, ulp_distance, Check};
pub use compare::{compare, Comparison};
pub use output::{DiffOutput, ElemType, OutputBuffer, ParseError};

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use fpgacl_host_examples::{diff_driver_source, Compiler, DiffCase, Linkage};

use crate::implementations::Implementation;
use crate::locate::profile_dir;
use crate::run::{hermetic_command, run_with_timeout, RunOutput};

/// Time limit for one driver run (Oclgrind is slow).
pub const DIFF_TIMEOUT: Duration = Duration::from_secs(240);

/// The driver compiled against the ICD loader, once per test process
/// (`<target>/<profile>/host-examples/icd/diff_driver`). Panics with the
/// compiler's diagnostics when it does not compile.
pub fn diff_driver() -> PathBuf {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let result = BIN.get_or_init(|| {
        let out_dir = profile_dir().join("host-examples").join("icd");
        Compiler::new()
            .compile_source(
                &diff_driver_source(),
                "diff_driver",
                &out_dir,
                &Linkage::IcdLoader,
            )
            .map_err(|e| e.to_string())
    });
    match result {
        Ok(p) => p.clone(),
        Err(e) => panic!("cannot compile diff_driver.c: {e}"),
    }
}

/// One driver run: its parsed results and the kernel's printf output.
#[derive(Debug)]
pub struct DiffRun {
    /// The parsed result file.
    pub output: DiffOutput,
    /// Everything the kernel printed (the driver prints nothing else on success).
    pub stdout: String,
    /// The result file's text, as written by the driver.
    pub raw: String,
    /// The raw run, for reports.
    pub run: RunOutput,
}

/// Run `case` on `implementation` with extra environment variables. `Err`
/// carries a full report (command, status, stdout, stderr) when the driver
/// fails, times out or writes an unreadable result, or when the
/// implementation is not installed.
pub fn run_case(
    case: &DiffCase,
    implementation: Implementation,
    env: &[(&str, &str)],
) -> Result<DiffRun, String> {
    let driver = diff_driver();
    let tag: String = std::iter::once(implementation.label().to_string())
        .chain(env.iter().map(|(k, v)| format!("{k}={v}")))
        .collect::<Vec<_>>()
        .join("-");
    let scratch = format!("diff/{}/{tag}", case.name);
    let mut cmd = hermetic_command(&driver, &scratch);
    implementation.configure(&mut cmd)?;
    for (k, v) in env {
        cmd.env(k, v);
    }
    let result_file = crate::run::scratch_dir(&scratch).join("result.txt");
    let _ = std::fs::remove_file(&result_file);
    cmd.arg(&case.source).arg(&case.spec).arg(&result_file);
    let run = run_with_timeout(&mut cmd, DIFF_TIMEOUT)
        .map_err(|e| format!("cannot run {}: {e}", driver.display()))?;
    if !run.success() || !run.fail_lines().is_empty() {
        return Err(format!(
            "{} failed on {}:\n{}",
            case.name,
            implementation.label(),
            run.describe()
        ));
    }
    let text = std::fs::read_to_string(&result_file).map_err(|e| {
        format!(
            "{}: no result file {} ({e}):\n{}",
            case.name,
            result_file.display(),
            run.describe()
        )
    })?;
    let output = DiffOutput::parse(&text)
        .map_err(|e| format!("{}: {} unreadable: {e}", case.name, result_file.display()))?;
    Ok(DiffRun {
        output,
        stdout: run.stdout.clone(),
        raw: text,
        run,
    })
}

/// Compare two runs of `case`: buffers by their rules, printf output
/// exactly (as sorted lines when the spec says `# diff: printf-unordered`).
/// Returns a report of every difference, or `Ok` with the number of elements
/// compared.
pub fn compare_runs(
    case: &DiffCase,
    reference: (&str, &DiffRun),
    actual: (&str, &DiffRun),
) -> Result<usize, String> {
    let name = &case.name;
    let c = compare(&reference.1.output, &actual.1.output);
    let mut report = String::new();
    if !c.is_match() {
        report.push_str(&format!(
            "{name}: {} of {} elements of {} differ from {}:\n{}",
            c.mismatches, c.compared, actual.0, reference.0, c.report
        ));
    }
    let same_printf = if case.printf_unordered() {
        sorted_lines(&reference.1.stdout) == sorted_lines(&actual.1.stdout)
    } else {
        reference.1.stdout == actual.1.stdout
    };
    if !same_printf {
        report.push_str(&format!(
            "{name}: printf output differs.\n--- {} ---\n{}\n--- {} ---\n{}\n",
            reference.0, reference.1.stdout, actual.0, actual.1.stdout
        ));
    }
    if report.is_empty() {
        Ok(c.compared)
    } else {
        Err(report)
    }
}

fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

/// The recorded reference run of `case` (`host-examples/diff/expected/`), as
/// a [`DiffRun`] whose `run` field describes where it came from.
pub fn recorded_reference(case: &DiffCase) -> Result<DiffRun, String> {
    let path = case.expected_output();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: no recorded reference output {} ({e}); record it with \
             DIFF_BLESS=1 cargo test -p fpgacl-tests --test diff_corpus recorded (needs PoCL)",
            case.name,
            path.display()
        )
    })?;
    let output = DiffOutput::parse(&text)
        .map_err(|e| format!("{}: {} unreadable: {e}", case.name, path.display()))?;
    let stdout = std::fs::read_to_string(case.expected_stdout()).unwrap_or_default();
    Ok(DiffRun {
        output,
        stdout: stdout.clone(),
        raw: text,
        run: RunOutput {
            command: format!("(recorded) {}", path.display()),
            status: None,
            stdout,
            stderr: String::new(),
            timed_out: false,
            elapsed: Duration::ZERO,
        },
    })
}

/// Write `run` as the recorded reference of `case`.
pub fn record_reference(case: &DiffCase, run: &DiffRun) -> Result<(), String> {
    let dir = fpgacl_host_examples::diff_expected_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    std::fs::write(case.expected_output(), &run.raw)
        .map_err(|e| format!("cannot write {}: {e}", case.expected_output().display()))?;
    let stdout_path = case.expected_stdout();
    if run.stdout.is_empty() {
        let _ = std::fs::remove_file(&stdout_path);
        Ok(())
    } else {
        std::fs::write(&stdout_path, &run.stdout)
            .map_err(|e| format!("cannot write {}: {e}", stdout_path.display()))
    }
}
