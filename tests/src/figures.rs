//! Figures a host example prints as `name=value` lines (durations, bandwidths), and the one
//! tolerance check the figure tests use.

use std::collections::BTreeMap;

/// The `name=value` lines of `stdout` whose value is a number, by name. Panics, showing the
/// whole output, when one of `required` is missing.
pub fn printed_figures(stdout: &str, required: &[&str]) -> BTreeMap<String, f64> {
    let figures: BTreeMap<String, f64> = stdout
        .lines()
        .filter_map(|l| l.trim().split_once('='))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect();
    for key in required {
        assert!(figures.contains_key(*key), "no {key} in\n{stdout}");
    }
    figures
}

/// Asserts `got` is within the relative tolerance `tol` of `want`.
pub fn assert_within(what: &str, got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol * want,
        "{what}: {got:.4}, expected {want:.4} within {:.1}%",
        tol * 100.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_and_other_lines_ignored() {
        let f = printed_figures("a=1.5\n  b = x\nc=2\nPASS\n", &["a", "c"]);
        assert_eq!(f.len(), 2);
        assert_eq!(f["a"], 1.5);
        assert_within("c", f["c"], 2.02, 0.01);
    }

    #[test]
    #[should_panic(expected = "no d in")]
    fn a_missing_figure_is_reported() {
        printed_figures("a=1\n", &["d"]);
    }
}
