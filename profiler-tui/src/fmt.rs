//! Number and time formatting shared by the screens and the text report.

/// A duration or time point in ns as a short human string: `850ns`, `12.5us`, `1.234ms`,
/// `2.500s`.
pub fn time(ns: u64) -> String {
    let f = ns as f64;
    if ns < 1_000 {
        format!("{ns}ns")
    } else if ns < 1_000_000 {
        format!("{:.1}us", f / 1e3)
    } else if ns < 1_000_000_000 {
        format!("{:.3}ms", f / 1e6)
    } else {
        format!("{:.3}s", f / 1e9)
    }
}

/// A capture time as the Intel GUI labels its capture buttons: milliseconds since host start
/// with two decimals, e.g. `0.03ms`.
pub fn capture_label(ns: u64) -> String {
    format!("{:.2}ms", ns as f64 / 1e6)
}

/// A percentage with one decimal, or `-` when not available.
pub fn pct(v: Option<f64>) -> String {
    match v {
        Some(p) => format!("{p:.1}%"),
        None => "-".into(),
    }
}

/// A bandwidth in MB/s with one decimal, or `-`.
pub fn mbps(v: Option<f64>) -> String {
    match v {
        Some(b) => format!("{b:.1} MB/s"),
        None => "-".into(),
    }
}

/// A byte count with a binary unit: `512 B`, `4.0 KiB`, `1.5 MiB`.
pub fn bytes(b: u64) -> String {
    let f = b as f64;
    if b < 1024 {
        format!("{b} B")
    } else if b < 1024 * 1024 {
        format!("{:.1} KiB", f / 1024.0)
    } else if b < 1024 * 1024 * 1024 {
        format!("{:.1} MiB", f / 1048576.0)
    } else {
        format!("{:.2} GiB", f / 1073741824.0)
    }
}

/// A signed difference with one decimal and an explicit sign, e.g. `+12.5`, `-3.0`, or `-`.
pub fn delta(v: Option<f64>) -> String {
    match v {
        Some(d) if d.abs() < 0.05 => "0.0".into(),
        Some(d) => format!("{d:+.1}"),
        None => "-".into(),
    }
}

/// Cuts `s` to at most `width` characters, marking the cut with `…`.
pub fn fit(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// Work sizes as `1024` or `64x64` or `8x8x8` (only used dimensions).
pub fn dims(v: [u64; 3], work_dim: u32) -> String {
    let n = (work_dim.clamp(1, 3)) as usize;
    v[..n]
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(time(850), "850ns");
        assert_eq!(time(12_500), "12.5us");
        assert_eq!(time(1_234_000), "1.234ms");
        assert_eq!(time(2_500_000_000), "2.500s");
        assert_eq!(capture_label(30_000), "0.03ms");
        assert_eq!(capture_label(1_250_000), "1.25ms");
        assert_eq!(pct(Some(12.345)), "12.3%");
        assert_eq!(pct(None), "-");
        assert_eq!(delta(Some(-3.04)), "-3.0");
        assert_eq!(delta(Some(0.01)), "0.0");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
        assert_eq!(fit("abc", 0), "");
        assert_eq!(dims([64, 32, 1], 2), "64x32");
        assert_eq!(bytes(4096), "4.0 KiB");
    }
}
