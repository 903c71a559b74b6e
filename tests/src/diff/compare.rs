//! Comparing two result files buffer by buffer.

use std::fmt::Write as _;

use super::check::{ulp_distance, Check};
use super::output::{DiffOutput, ElemType};

/// Elements shown per mismatching buffer in a report.
const SHOWN_PER_BUFFER: usize = 8;

/// The outcome of comparing an implementation's results with a reference.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Elements compared (excluding skipped buffers).
    pub compared: usize,
    /// Elements that differ beyond their rule.
    pub mismatches: usize,
    /// Human-readable report of the differences (empty when none).
    pub report: String,
}

impl Comparison {
    /// No differences.
    pub fn is_match(&self) -> bool {
        self.mismatches == 0 && self.report.is_empty()
    }
}

/// Compare `actual` with `reference`. Structural differences (kernel name,
/// buffer list, types, counts, rules) and malformed rules are reported as
/// mismatches too.
pub fn compare(reference: &DiffOutput, actual: &DiffOutput) -> Comparison {
    let mut c = Comparison::default();
    if reference.kernel != actual.kernel {
        let _ = writeln!(
            c.report,
            "kernel {:?} vs {:?}",
            reference.kernel, actual.kernel
        );
        c.mismatches += 1;
    }
    if reference.buffers.len() != actual.buffers.len() {
        let _ = writeln!(
            c.report,
            "{} output buffers vs {}",
            reference.buffers.len(),
            actual.buffers.len()
        );
        c.mismatches += 1;
        return c;
    }
    for (r, a) in reference.buffers.iter().zip(&actual.buffers) {
        if (r.arg, r.ty, &r.check, r.values.len()) != (a.arg, a.ty, &a.check, a.values.len()) {
            let _ = writeln!(
                c.report,
                "buffer layout differs: arg {} {} x{} check={} vs arg {} {} x{} check={}",
                r.arg,
                r.ty,
                r.values.len(),
                r.check,
                a.arg,
                a.ty,
                a.values.len(),
                a.check
            );
            c.mismatches += 1;
            continue;
        }
        let check = match Check::parse(&r.check) {
            Ok(check) => check,
            Err(e) => {
                let _ = writeln!(c.report, "argument {}: {e}", r.arg);
                c.mismatches += 1;
                continue;
            }
        };
        if check == Check::Skip {
            continue;
        }
        let mut bad = 0usize;
        let mut lines = String::new();
        for (i, (&rv, &av)) in r.values.iter().zip(&a.values).enumerate() {
            c.compared += 1;
            if check.accepts(r.ty, rv, av) {
                continue;
            }
            bad += 1;
            if bad <= SHOWN_PER_BUFFER {
                let extra = if r.ty == ElemType::Float {
                    let (rf, af) = (f32::from_bits(rv as u32), f32::from_bits(av as u32));
                    if rf.is_nan() || af.is_nan() {
                        String::new()
                    } else {
                        format!(" ({} ulp)", ulp_distance(rf, af))
                    }
                } else {
                    String::new()
                };
                let _ = writeln!(
                    lines,
                    "    [{i}] reference {} actual {}{extra}",
                    r.ty.render(rv),
                    r.ty.render(av)
                );
            }
        }
        if bad > 0 {
            let _ = writeln!(
                c.report,
                "argument {} ({} x{}, check={} -> {:?}): {bad} element(s) differ",
                r.arg,
                r.ty,
                r.values.len(),
                r.check,
                check
            );
            c.report.push_str(&lines);
            if bad > SHOWN_PER_BUFFER {
                let _ = writeln!(c.report, "    ... {} more", bad - SHOWN_PER_BUFFER);
            }
            c.mismatches += bad;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::output::OutputBuffer;

    fn out(check: &str, values: Vec<u64>) -> DiffOutput {
        DiffOutput {
            kernel: "k".into(),
            buffers: vec![OutputBuffer {
                arg: 1,
                ty: ElemType::Float,
                check: check.into(),
                values,
            }],
        }
    }

    #[test]
    fn reports_elements_beyond_their_rule() {
        let one = u64::from(1.0f32.to_bits());
        let r = out("sin", vec![one, one, one]);
        let a = out("sin", vec![one, one + 5, one + 6]);
        let c = compare(&r, &a);
        assert_eq!(c.compared, 3);
        assert_eq!(c.mismatches, 1);
        assert!(c.report.contains("[2]"), "{}", c.report);
        assert!(c.report.contains("6 ulp"), "{}", c.report);
        assert!(compare(&r, &r).is_match());
    }

    #[test]
    fn structural_differences_and_bad_rules_are_mismatches() {
        let r = out("exact", vec![0, 0]);
        assert!(!compare(&r, &out("exact", vec![0])).is_match());
        assert!(!compare(&r, &out("sin", vec![0, 0])).is_match());
        assert!(!compare(&out("nonsense", vec![0]), &out("nonsense", vec![0])).is_match());
        let mut other = r.clone();
        other.kernel = "j".into();
        assert!(!compare(&r, &other).is_match());
    }

    #[test]
    fn skipped_buffers_are_not_compared() {
        let c = compare(&out("native", vec![1]), &out("native", vec![2]));
        assert!(c.is_match());
        assert_eq!(c.compared, 0);
    }
}
