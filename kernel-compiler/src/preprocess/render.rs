//! Printing preprocessed tokens back as text (for `fpgacl aoc -E`-style output and golden
//! tests): one output line per source line, prefixed with `file:line:`.

use crate::source::SourceMap;
use crate::token::{FloatSuffix, Token, TokenKind};
use std::fmt::Write as _;

/// The C spelling of a token (literals re-encoded from their values).
pub fn token_text(kind: &TokenKind) -> String {
    match kind {
        TokenKind::Ident(s) => s.clone(),
        TokenKind::Punct(p) => p.as_str().to_string(),
        TokenKind::Int {
            value,
            unsigned,
            long,
            decimal,
        } => {
            let mut s = if *decimal {
                value.to_string()
            } else {
                format!("{value:#x}")
            };
            if *unsigned {
                s.push('u');
            }
            if *long {
                s.push('l');
            }
            s
        }
        TokenKind::Float { value, suffix } => match suffix {
            FloatSuffix::None => format!("{value:?}"),
            FloatSuffix::F => format!("{:?}f", *value as f32),
            FloatSuffix::H => format!("{:?}h", *value as f32),
        },
        TokenKind::Char(v) => match u8::try_from(*v) {
            Ok(b) if (0x20..0x7f).contains(&b) && b != b'\'' && b != b'\\' => {
                format!("'{}'", b as char)
            }
            _ => format!("'\\x{:x}'", *v as u32),
        },
        TokenKind::Str(s) => format!("{s:?}"),
        TokenKind::Pragma(p) => format!("#pragma {p}"),
        TokenKind::Eof => String::new(),
    }
}

/// Renders tokens grouped by source line: `file:line: tok tok ...`, with a space where the
/// source had white space. Pragmas get a line of their own. The final `Eof` is not shown.
pub fn render_tokens(tokens: &[Token], sources: &SourceMap) -> String {
    let mut out = String::new();
    let mut cur: Option<(u32, u32)> = None;
    let mut last_col = 0;
    for t in tokens {
        if t.kind == TokenKind::Eof {
            continue;
        }
        let key = (t.loc.file.0, t.loc.line);
        let pragma = matches!(t.kind, TokenKind::Pragma(_));
        // A token not to the right of the previous one on the same line starts a new output
        // line (the same file included twice in a row), unless both come from one macro use.
        let restart = cur == Some(key) && t.loc.col < last_col;
        last_col = t.loc.col;
        if cur != Some(key) || pragma || restart {
            if cur.is_some() {
                out.push('\n');
            }
            let _ = write!(out, "{}:{}:", sources.name(t.loc.file), t.loc.line);
            out.push(' ');
            cur = if pragma { None } else { Some(key) };
            out.push_str(&token_text(&t.kind));
            if pragma {
                out.push('\n');
            }
            continue;
        }
        if t.space_before {
            out.push(' ');
        }
        out.push_str(&token_text(&t.kind));
    }
    if cur.is_some() {
        out.push('\n');
    }
    out
}
