//! `fpgacl-diff-compare REFERENCE ACTUAL`: compare two result files written by
//! `diff_driver.c` with the differential test's rules; exit 0 when they
//! match, 1 with a report when not, 2 on bad input.

use std::process::ExitCode;

use fpgacl_tests::diff::{compare, DiffOutput};

fn load(path: &str) -> Result<DiffOutput, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    DiffOutput::parse(&text).map_err(|e| format!("{path}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 {
        eprintln!("usage: fpgacl-diff-compare REFERENCE ACTUAL");
        return ExitCode::from(2);
    }
    let (reference, actual) = match (load(&args[0]), load(&args[1])) {
        (Ok(r), Ok(a)) => (r, a),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let c = compare(&reference, &actual);
    if c.is_match() {
        println!("match: {} elements compared", c.compared);
        ExitCode::SUCCESS
    } else {
        print!("{}", c.report);
        println!("{} of {} elements differ", c.mismatches, c.compared);
        ExitCode::from(1)
    }
}
