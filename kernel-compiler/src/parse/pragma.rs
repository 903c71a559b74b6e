//! Loop pragmas (`unroll`, `ivdep`, `ii`, `max_concurrency`, `loop_coalesce`,
//! `disable_loop_pipelining`) parsed from the text of a `#pragma` line.

use crate::ir::{Ivdep, LoopPragmas};

/// Splits pragma text into words, numbers and parentheses.
fn words(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn number(w: Option<&String>) -> Option<u32> {
    let w = w?;
    if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        return u32::from_str_radix(h.trim_end_matches(['u', 'U', 'l', 'L']), 16).ok();
    }
    w.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()
}

/// Parses one pragma into `lp`. Returns `Ok(true)` for a loop pragma, `Ok(false)` for a pragma
/// that is not about loops, `Err(warning)` for a malformed loop pragma (ignored).
pub fn parse_loop_pragma(text: &str, lp: &mut LoopPragmas) -> Result<bool, String> {
    let w = words(text);
    let Some(first) = w.first() else {
        return Ok(false);
    };
    // An optional argument: `unroll 4` or `unroll(4)`.
    let arg = |i: usize| -> Option<u32> {
        if w.get(i).map(String::as_str) == Some("(") {
            number(w.get(i + 1))
        } else {
            number(w.get(i))
        }
    };
    let has_arg = w.len() > 1;
    match first.as_str() {
        "unroll" => {
            if has_arg {
                match arg(1) {
                    Some(0) | None => {
                        return Err(format!(
                            "invalid '#pragma unroll' factor in '{text}'; ignored"
                        ))
                    }
                    Some(n) => lp.unroll = Some(Some(n)),
                }
            } else {
                lp.unroll = Some(None);
            }
            Ok(true)
        }
        "nounroll" => {
            lp.unroll = Some(Some(1));
            Ok(true)
        }
        "ivdep" => {
            let mut iv = Ivdep::default();
            // The array may be any expression (`array(S->X[2].A)`): keep its text.
            if let Some(at) = text.find("array") {
                let rest = &text[at + 5..];
                if let Some(open) = rest.find('(') {
                    let mut depth = 0usize;
                    let mut end = None;
                    for (k, c) in rest[open..].char_indices() {
                        match c {
                            '(' => depth += 1,
                            ')' => {
                                depth -= 1;
                                if depth == 0 {
                                    end = Some(open + k);
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    if let Some(end) = end {
                        let name: String = rest[open + 1..end]
                            .chars()
                            .filter(|c| !c.is_whitespace())
                            .collect();
                        if !name.is_empty() {
                            iv.array = Some(name);
                        }
                        let tail = format!("{} {}", &text[..at], &rest[end + 1..]);
                        let w2 = words(&tail);
                        let mut i = 1;
                        while i < w2.len() {
                            if w2[i] == "safelen" {
                                let n = if w2.get(i + 1).map(String::as_str) == Some("(") {
                                    number(w2.get(i + 2))
                                } else {
                                    number(w2.get(i + 1))
                                };
                                match n {
                                    Some(n) if n > 0 => iv.safelen = Some(n),
                                    _ => {
                                        return Err(
                                            "invalid 'safelen' in '#pragma ivdep'; ignored".into()
                                        )
                                    }
                                }
                            }
                            i += 1;
                        }
                        lp.ivdep = Some(iv);
                        return Ok(true);
                    }
                }
            }
            let mut i = 1;
            while i < w.len() {
                match w[i].as_str() {
                    "array" => {
                        if w.get(i + 1).map(String::as_str) != Some("(") {
                            return Err(
                                "expected '(' after 'array' in '#pragma ivdep'; ignored".into()
                            );
                        }
                        let name = w.get(i + 2).cloned().unwrap_or_default();
                        if name.is_empty() || name == ")" {
                            return Err(
                                "expected an array name in '#pragma ivdep array(...)'; ignored"
                                    .into(),
                            );
                        }
                        iv.array = Some(name);
                        i += 4;
                    }
                    "safelen" => {
                        match arg(i + 1) {
                            Some(n) if n > 0 => iv.safelen = Some(n),
                            _ => return Err("invalid 'safelen' in '#pragma ivdep'; ignored".into()),
                        }
                        i += if w.get(i + 1).map(String::as_str) == Some("(") {
                            4
                        } else {
                            2
                        };
                    }
                    other => {
                        return Err(format!(
                            "unknown clause '{other}' in '#pragma ivdep'; ignored"
                        ))
                    }
                }
            }
            lp.ivdep = Some(iv);
            Ok(true)
        }
        "ii" => match arg(1) {
            Some(n) if n > 0 => {
                lp.ii = Some(n);
                Ok(true)
            }
            _ => Err("'#pragma ii' needs a positive integer; ignored".into()),
        },
        "max_concurrency" => match arg(1) {
            Some(n) => {
                lp.max_concurrency = Some(n);
                Ok(true)
            }
            None => Err("'#pragma max_concurrency' needs an integer; ignored".into()),
        },
        "loop_coalesce" => {
            if has_arg {
                match arg(1) {
                    Some(n) if n > 0 => lp.loop_coalesce = Some(Some(n)),
                    _ => return Err("invalid '#pragma loop_coalesce' level; ignored".into()),
                }
            } else {
                lp.loop_coalesce = Some(None);
            }
            Ok(true)
        }
        "disable_loop_pipelining" => {
            lp.disable_loop_pipelining = true;
            Ok(true)
        }
        "speculated_iterations" | "max_interleaving" | "nofusion" => Ok(true),
        _ => Ok(false),
    }
}

/// Applies a statement attribute written before a loop
/// (`__attribute__((opencl_unroll_hint(4)))`). `opencl_unroll_hint` means what
/// `#pragma unroll` does: without an argument full unrolling, with N unrolling by N (1: not
/// unrolled). Returns a warning for an attribute that is ignored (unknown ones such as
/// `xcl_pipeline_loop`, or a factor that is not an integer literal).
pub fn apply_loop_attribute(
    name: &str,
    args: &[crate::ast::Expr],
    lp: &mut LoopPragmas,
) -> Result<(), String> {
    use crate::ast::ExprKind;
    match name {
        "opencl_unroll_hint" => match args {
            [] => {
                lp.unroll = Some(None);
                Ok(())
            }
            [e] => match e.kind {
                ExprKind::Int { value, .. } if value > 0 => {
                    lp.unroll = Some(Some(value.min(u32::MAX as u64) as u32));
                    Ok(())
                }
                _ => Err(
                    "'opencl_unroll_hint' needs a positive integer constant; attribute ignored"
                        .into(),
                ),
            },
            _ => Err("'opencl_unroll_hint' takes at most one argument; attribute ignored".into()),
        },
        other => Err(format!("unknown loop attribute '{other}' ignored")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unroll_forms() {
        let mut lp = LoopPragmas::default();
        assert_eq!(parse_loop_pragma("unroll", &mut lp), Ok(true));
        assert_eq!(lp.unroll, Some(None));
        let mut lp = LoopPragmas::default();
        assert_eq!(parse_loop_pragma("unroll 4", &mut lp), Ok(true));
        assert_eq!(lp.unroll, Some(Some(4)));
        let mut lp = LoopPragmas::default();
        assert!(parse_loop_pragma("unroll x", &mut lp).is_err());
    }

    #[test]
    fn ivdep_clauses() {
        let mut lp = LoopPragmas::default();
        assert_eq!(
            parse_loop_pragma("ivdep array ( A ) safelen(8)", &mut lp),
            Ok(true)
        );
        assert_eq!(
            lp.ivdep,
            Some(Ivdep {
                array: Some("A".into()),
                safelen: Some(8)
            })
        );
    }

    #[test]
    fn ivdep_array_expressions() {
        let mut lp = LoopPragmas::default();
        assert_eq!(
            parse_loop_pragma("ivdep safelen(4) array(S->X[2][3].A)", &mut lp),
            Ok(true)
        );
        assert_eq!(
            lp.ivdep,
            Some(Ivdep {
                array: Some("S->X[2][3].A".into()),
                safelen: Some(4)
            })
        );
    }

    #[test]
    fn other_pragmas_are_not_loop_pragmas() {
        let mut lp = LoopPragmas::default();
        assert_eq!(
            parse_loop_pragma("OPENCL EXTENSION cl_intel_channels : enable", &mut lp),
            Ok(false)
        );
        assert_eq!(lp, LoopPragmas::default());
    }
}
