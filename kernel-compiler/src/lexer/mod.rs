//! The OpenCL C lexer.
//!
//! Two layers:
//! - [`lex_pp`] turns source text into *preprocessing tokens* ([`PpToken`]): identifiers,
//!   pp-numbers, character constants and string literals kept as written (the preprocessor needs
//!   the spelling for `#` and `##`), punctuators, header names after `#include`, and stray
//!   characters. Comments and line splices (`\` + newline) are removed; every token keeps the
//!   exact 1-based line and column of its first character in the original text.
//! - [`convert`] turns one preprocessing token into a parser [`Token`], decoding numbers
//!   (C99 6.4.4), character constants and strings, with diagnostics for malformed literals.
//!
//! [`lex`] does both for a text that needs no preprocessing.

mod chars;
mod literal;

use crate::diag::Diagnostics;
use crate::source::{FileId, Loc};
use crate::token::{Punct, Token, TokenKind};
use chars::Chars;

pub use literal::{convert, decode_char, decode_string, parse_number};

/// A preprocessing token kind (C99 6.4, "preprocessing-token").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PpKind {
    Ident(String),
    /// A pp-number, as written (`0x1Fu`, `1.5e-3f`, `1..2` is also one pp-number).
    Number(String),
    /// A character constant as written, quotes included (`'a'`, `'\n'`).
    Char(String),
    /// A string literal as written, quotes included.
    Str(String),
    /// A header name after `#include`, delimiters included (`<a/b.h>`).
    HeaderName(String),
    Punct(Punct),
    /// A character constant or string literal without its closing quote, as written. It is
    /// an error only if it survives preprocessing (skipped groups may hold a lone `'`).
    Unterminated(String),
    /// A character that starts no token (`@`, `` ` ``, a lone `\`, non-ASCII outside literals).
    Other(char),
}

impl PpKind {
    /// The spelling of the token as it would be written back.
    pub fn spelling(&self) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        match self {
            PpKind::Ident(s)
            | PpKind::Number(s)
            | PpKind::Char(s)
            | PpKind::Str(s)
            | PpKind::HeaderName(s)
            | PpKind::Unterminated(s) => Cow::Borrowed(s.as_str()),
            PpKind::Punct(p) => Cow::Borrowed(p.as_str()),
            PpKind::Other(c) => Cow::Owned(c.to_string()),
        }
    }
}

/// A preprocessing token with its location and spacing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpToken {
    pub kind: PpKind,
    pub loc: Loc,
    /// Whitespace (or a comment, or a line break) preceded the token.
    pub space_before: bool,
    /// The token is the first one on its logical line (directives start with such a `#`).
    pub line_start: bool,
}

/// Lexes a whole text to parser tokens (no preprocessing), ending with [`TokenKind::Eof`].
///
/// Malformed literals and stray characters are reported in `diags`; lexing always continues.
pub fn lex(file: FileId, text: &str, diags: &mut Diagnostics) -> Vec<Token> {
    let pp = lex_pp(file, text, diags);
    let mut out = Vec::with_capacity(pp.len() + 1);
    for t in &pp {
        if let Some(tok) = convert(t, diags) {
            out.push(tok);
        }
    }
    out.push(Token {
        kind: TokenKind::Eof,
        loc: end_loc(file, text),
        space_before: true,
    });
    out
}

/// The location just after the last character of `text` (where `Eof` sits).
pub fn end_loc(file: FileId, text: &str) -> Loc {
    let mut line = 1u32;
    let mut col = 1u32;
    let mut prev_cr = false;
    for ch in text.chars() {
        match ch {
            '\n' if prev_cr => {}
            '\n' | '\r' => {
                line = line.saturating_add(1);
                col = 1;
            }
            _ => col = col.saturating_add(1),
        }
        prev_cr = ch == '\r';
    }
    Loc::new(file, line, col)
}

/// Lexes a text into preprocessing tokens (no `Eof` token at the end).
///
/// Unterminated comments are reported in `diags`; an unterminated character constant or
/// string becomes a [`PpKind::Unterminated`] token (an error only if it is used).
pub fn lex_pp(file: FileId, text: &str, diags: &mut Diagnostics) -> Vec<PpToken> {
    let mut cs = Chars::new(text);
    let mut out: Vec<PpToken> = Vec::new();
    let mut space = false;
    let mut line_start = true;
    // Index in `out` of the `#` that starts the current line's directive, for header names.
    let mut directive_start: Option<usize> = None;
    while let Some(c) = cs.peek(0) {
        let (line, col) = cs.pos();
        let loc = Loc::new(file, line, col);
        // Whitespace, newlines, comments.
        if c == '\n' {
            cs.bump();
            space = true;
            line_start = true;
            directive_start = None;
            continue;
        }
        if c == ' ' || c == '\t' || c == '\x0b' || c == '\x0c' {
            cs.bump();
            space = true;
            continue;
        }
        if c == '/' && cs.peek(1) == Some('/') {
            while let Some(c) = cs.peek(0) {
                if c == '\n' {
                    break;
                }
                cs.bump();
            }
            space = true;
            continue;
        }
        if c == '/' && cs.peek(1) == Some('*') {
            cs.bump();
            cs.bump();
            let mut closed = false;
            while let Some(c) = cs.bump() {
                if c == '*' && cs.peek(0) == Some('/') {
                    cs.bump();
                    closed = true;
                    break;
                }
            }
            if !closed {
                diags.error(loc, "unterminated /* comment");
            }
            space = true;
            continue;
        }

        let in_include = directive_start.is_some_and(|i| {
            out.len() == i + 2 && matches!(&out[i + 1].kind, PpKind::Ident(s) if s == "include")
        });
        let kind = if in_include && (c == '<' || c == '"') {
            let close = if c == '<' { '>' } else { '"' };
            let mut s = String::new();
            s.push(c);
            cs.bump();
            let mut closed = false;
            while let Some(ch) = cs.peek(0) {
                if ch == '\n' {
                    break;
                }
                cs.bump();
                s.push(ch);
                if ch == close {
                    closed = true;
                    break;
                }
            }
            // A missing closing delimiter is reported by `#include` itself (not in skipped
            // groups).
            let _ = closed;
            PpKind::HeaderName(s)
        } else if is_ident_start(c) {
            // `L'x'` / `L"x"` wide literals: lexed as one literal token.
            if (c == 'L' || c == 'u' || c == 'U') && matches!(cs.peek(1), Some('\'') | Some('"')) {
                cs.bump();
                let q = cs.peek(0).unwrap_or('"');
                let mut s = String::new();
                s.push(c);
                quoted_kind(lex_quoted(&mut cs, q, &mut s), q, s)
            } else {
                let mut s = String::new();
                while let Some(ch) = cs.peek(0) {
                    if is_ident_continue(ch) {
                        s.push(ch);
                        cs.bump();
                    } else {
                        break;
                    }
                }
                PpKind::Ident(s)
            }
        } else if c.is_ascii_digit() || (c == '.' && cs.peek(1).is_some_and(|d| d.is_ascii_digit()))
        {
            let mut s = String::new();
            s.push(c);
            cs.bump();
            while let Some(ch) = cs.peek(0) {
                let sign = (ch == '+' || ch == '-')
                    && matches!(s.chars().last(), Some('e' | 'E' | 'p' | 'P'));
                if sign || ch == '.' || is_ident_continue(ch) {
                    s.push(ch);
                    cs.bump();
                } else {
                    break;
                }
            }
            PpKind::Number(s)
        } else if c == '\'' || c == '"' {
            let mut s = String::new();
            quoted_kind(lex_quoted(&mut cs, c, &mut s), c, s)
        } else if let Some((p, n)) = punct_at(&cs) {
            for _ in 0..n {
                cs.bump();
            }
            PpKind::Punct(p)
        } else {
            cs.bump();
            PpKind::Other(c)
        };
        if line_start && kind == PpKind::Punct(Punct::Hash) {
            directive_start = Some(out.len());
        }
        out.push(PpToken {
            kind,
            loc,
            space_before: space,
            line_start,
        });
        space = false;
        line_start = false;
    }
    out
}

fn quoted_kind(closed: bool, q: char, s: String) -> PpKind {
    match (closed, q) {
        (false, _) => PpKind::Unterminated(s),
        (true, '\'') => PpKind::Char(s),
        _ => PpKind::Str(s),
    }
}

/// Lexes a character constant or string literal starting at the quote `q` (appended to `s`).
/// Returns whether the closing quote was found on the same logical line.
fn lex_quoted(cs: &mut Chars, q: char, s: &mut String) -> bool {
    s.push(q);
    cs.bump();
    loop {
        match cs.peek(0) {
            None | Some('\n') => return false,
            Some('\\') => {
                s.push('\\');
                cs.bump();
                if let Some(ch) = cs.peek(0) {
                    if ch != '\n' {
                        s.push(ch);
                        cs.bump();
                    }
                }
            }
            Some(ch) => {
                s.push(ch);
                cs.bump();
                if ch == q {
                    return true;
                }
            }
        }
    }
}

/// Identifier start: letter, `_` or `$` (a common extension).
pub fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

/// Identifier continuation: identifier start or digit.
pub fn is_ident_continue(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The longest punctuator at the cursor (C99 6.4.6, digraphs included) and its length in chars.
fn punct_at(cs: &Chars) -> Option<(Punct, usize)> {
    use Punct::*;
    let c0 = cs.peek(0)?;
    let c1 = cs.peek(1);
    let c2 = cs.peek(2);
    let c3 = cs.peek(3);
    let r = match (c0, c1, c2) {
        ('.', Some('.'), Some('.')) => (Ellipsis, 3),
        ('<', Some('<'), Some('=')) => (ShlAssign, 3),
        ('>', Some('>'), Some('=')) => (ShrAssign, 3),
        ('%', Some(':'), Some('%')) if c3 == Some(':') => (HashHash, 4),
        ('-', Some('>'), _) => (Arrow, 2),
        ('+', Some('+'), _) => (PlusPlus, 2),
        ('-', Some('-'), _) => (MinusMinus, 2),
        ('<', Some('<'), _) => (Shl, 2),
        ('>', Some('>'), _) => (Shr, 2),
        ('<', Some('='), _) => (Le, 2),
        ('>', Some('='), _) => (Ge, 2),
        ('=', Some('='), _) => (EqEq, 2),
        ('!', Some('='), _) => (Ne, 2),
        ('&', Some('&'), _) => (AmpAmp, 2),
        ('|', Some('|'), _) => (PipePipe, 2),
        ('*', Some('='), _) => (StarAssign, 2),
        ('/', Some('='), _) => (SlashAssign, 2),
        ('%', Some('='), _) => (PercentAssign, 2),
        ('+', Some('='), _) => (PlusAssign, 2),
        ('-', Some('='), _) => (MinusAssign, 2),
        ('&', Some('='), _) => (AmpAssign, 2),
        ('^', Some('='), _) => (CaretAssign, 2),
        ('|', Some('='), _) => (PipeAssign, 2),
        ('#', Some('#'), _) => (HashHash, 2),
        ('<', Some(':'), _) => (LBracket, 2),
        (':', Some('>'), _) => (RBracket, 2),
        ('<', Some('%'), _) => (LBrace, 2),
        ('%', Some('>'), _) => (RBrace, 2),
        ('%', Some(':'), _) => (Hash, 2),
        ('[', _, _) => (LBracket, 1),
        (']', _, _) => (RBracket, 1),
        ('(', _, _) => (LParen, 1),
        (')', _, _) => (RParen, 1),
        ('{', _, _) => (LBrace, 1),
        ('}', _, _) => (RBrace, 1),
        ('.', _, _) => (Dot, 1),
        ('&', _, _) => (Amp, 1),
        ('*', _, _) => (Star, 1),
        ('+', _, _) => (Plus, 1),
        ('-', _, _) => (Minus, 1),
        ('~', _, _) => (Tilde, 1),
        ('!', _, _) => (Bang, 1),
        ('/', _, _) => (Slash, 1),
        ('%', _, _) => (Percent, 1),
        ('<', _, _) => (Lt, 1),
        ('>', _, _) => (Gt, 1),
        ('^', _, _) => (Caret, 1),
        ('|', _, _) => (Pipe, 1),
        ('?', _, _) => (Question, 1),
        (':', _, _) => (Colon, 1),
        (';', _, _) => (Semi, 1),
        ('=', _, _) => (Assign, 1),
        (',', _, _) => (Comma, 1),
        ('#', _, _) => (Hash, 1),
        _ => return None,
    };
    Some(r)
}

#[cfg(test)]
mod tests;
