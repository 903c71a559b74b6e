//! Terminal-safe text: the one escaping rule for everything fpgacl prints to a terminal.
//!
//! A profile or a kernel source is untrusted input: kernel names, source file names (settable
//! with `#line`), `#error` text and the host command line can carry control characters, and a
//! terminal obeys them (ESC sequences retitle the window, blink, or write the clipboard with
//! OSC 52). Every viewer (`fpgacl report --text`, `--format intel-text`, `--json`, the terminal
//! profiler, `fpgacl aoc` / `fpgacl profile` messages) passes what it prints through this module.
//!
//! The rule: every control character — C0 (U+0000..U+001F), DEL (U+007F) and C1
//! (U+0080..U+009F, among them CSI U+009B and OSC U+009D) — is written as the six characters
//! `\u00XX` (lower-case hex), e.g. ESC as `\u001b`. The form is the JSON string escape, so
//! escaping JSON text keeps it valid JSON with the same meaning. [`escape_controls`] escapes
//! them all (for names and single-line fields); [`escape_text`] keeps line feeds, tabs and
//! CR LF line ends of multi-line text (source files, build logs, reports). Backslashes are not
//! escaped: the result is for reading, not for parsing back.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::model::Record;
use crate::Profile;

/// True for the characters the rule escapes: C0, DEL and C1 controls.
pub fn is_escaped(c: char) -> bool {
    c.is_control()
}

fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = write!(out, "\\u{:04x}", c as u32);
}

/// `s` with every control character (C0 including line feed and tab, DEL, C1) escaped as
/// `\u00XX`. Borrows when there is nothing to escape.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_escaped(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Multi-line `s` with every control character escaped as `\u00XX`, except line feeds, tabs
/// and the CR of a CR LF line end. Borrows when there is nothing to escape.
pub fn escape_text(s: &str) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    let unsafe_at = |i: usize, c: char| -> bool {
        is_escaped(c) && c != '\n' && c != '\t' && !(c == '\r' && bytes.get(i + 1) == Some(&b'\n'))
    };
    if !s.char_indices().any(|(i, c)| unsafe_at(i, c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for (i, c) in s.char_indices() {
        if unsafe_at(i, c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that applies [`escape_text`]'s rule to a byte stream of UTF-8 text (C0 except LF,
/// tab and the CR of CR LF; DEL; C1 as `0xC2 0x80..=0x9F`), for exports streamed to a terminal.
/// Bytes that are not UTF-8 pass through unchanged; JSON stays valid JSON.
pub struct TerminalSafeWriter<W: Write> {
    inner: W,
    /// A byte held back from the end of the previous write: `0xC2` (may start a C1) or `\r`
    /// (may start CR LF).
    held: Option<u8>,
}

impl<W: Write> TerminalSafeWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        TerminalSafeWriter { inner, held: None }
    }

    /// Writes any held byte and returns the inner writer.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.flush_held()?;
        // `Drop` is not implemented, so moving out is fine.
        Ok(self.inner)
    }

    fn flush_held(&mut self) -> io::Result<()> {
        match self.held.take() {
            Some(b'\r') => self.inner.write_all(b"\\u000d"),
            Some(b) => self.inner.write_all(&[b]),
            None => Ok(()),
        }
    }

    fn escape_byte(&mut self, code: u32) -> io::Result<()> {
        write!(self.inner, "\\u{code:04x}")
    }
}

impl<W: Write> Write for TerminalSafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0; // first byte of buf not yet written
        let mut i = 0;
        if let Some(h) = self.held.take() {
            match (h, buf.first()) {
                (_, None) => {
                    self.held = Some(h);
                    return Ok(0);
                }
                (0xC2, Some(&b)) if (0x80..=0x9F).contains(&b) => {
                    self.escape_byte(u32::from(b))?;
                    start = 1;
                    i = 1;
                }
                (b'\r', Some(&b'\n')) => self.inner.write_all(b"\r")?,
                (b'\r', _) => self.inner.write_all(b"\\u000d")?,
                (h, _) => self.inner.write_all(&[h])?,
            }
        }
        while i < buf.len() {
            let b = buf[i];
            let escape = match b {
                b'\n' | b'\t' => None,
                b'\r' => match buf.get(i + 1) {
                    Some(b'\n') => None,
                    Some(_) => Some(0x0d),
                    None => {
                        self.inner.write_all(&buf[start..i])?;
                        self.held = Some(b'\r');
                        return Ok(buf.len());
                    }
                },
                0x00..=0x1F | 0x7F => Some(u32::from(b)),
                0xC2 => match buf.get(i + 1) {
                    Some(&n) if (0x80..=0x9F).contains(&n) => {
                        self.inner.write_all(&buf[start..i])?;
                        self.escape_byte(u32::from(n))?;
                        i += 2;
                        start = i;
                        continue;
                    }
                    Some(_) => None,
                    None => {
                        self.inner.write_all(&buf[start..i])?;
                        self.held = Some(0xC2);
                        return Ok(buf.len());
                    }
                },
                _ => None,
            };
            if let Some(code) = escape {
                self.inner.write_all(&buf[start..i])?;
                self.escape_byte(code)?;
                start = i + 1;
            }
            i += 1;
        }
        self.inner.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_held()?;
        self.inner.flush()
    }
}

fn escape_in_place(s: &mut String) {
    if let Cow::Owned(e) = escape_controls(s) {
        *s = e;
    }
}

impl Profile {
    /// Escapes every text field for display on a terminal ([`escape_controls`] for names,
    /// [`escape_text`] for source text and warnings). Equal names stay equal, so lookups by
    /// name (records to kernels, sites to files) still match.
    pub fn escape_for_terminal(&mut self) {
        let h = &mut self.header;
        escape_in_place(&mut h.fpgacl_version);
        escape_in_place(&mut h.start_time);
        h.command_line.iter_mut().for_each(escape_in_place);
        escape_in_place(&mut h.board.name);
        for m in &mut h.board.global_memory {
            escape_in_place(&mut m.name);
            escape_in_place(&mut m.memory_type);
        }
        for p in &mut self.programs {
            escape_in_place(&mut p.name);
            for s in &mut p.sources {
                escape_in_place(&mut s.name);
                if let Cow::Owned(t) = escape_text(&s.text) {
                    s.text = t;
                }
            }
            for k in &mut p.report.kernels {
                escape_in_place(&mut k.name);
                escape_in_place(&mut k.file);
            }
            for l in &mut p.report.loops {
                escape_in_place(&mut l.kernel);
                escape_in_place(&mut l.file);
                escape_in_place(&mut l.ii_reason);
                l.critical_path.iter_mut().for_each(escape_in_place);
            }
            for a in &mut p.report.sites {
                escape_in_place(&mut a.kernel);
                escape_in_place(&mut a.file);
                escape_in_place(&mut a.lsu);
                a.memory_system.iter_mut().for_each(escape_in_place);
                a.target.iter_mut().for_each(escape_in_place);
                a.modifiers.iter_mut().for_each(escape_in_place);
            }
        }
        for r in &mut self.records {
            match r {
                Record::KernelRun(k) => escape_in_place(&mut k.kernel),
                Record::Snapshot(s) => escape_in_place(&mut s.run.kernel),
                Record::AutorunCapture(c) => escape_in_place(&mut c.kernel),
                Record::MemTransfer(_) => {}
                Record::HostGap(g) => escape_in_place(&mut g.command),
                Record::OutOfBounds(o) => {
                    escape_in_place(&mut o.kernel);
                    escape_in_place(&mut o.file);
                    escape_in_place(&mut o.memory);
                    escape_in_place(&mut o.target);
                }
            }
        }
        self.warnings.iter_mut().for_each(escape_in_place);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through_writer(chunks: &[&[u8]]) -> String {
        let mut w = TerminalSafeWriter::new(Vec::new());
        for c in chunks {
            w.write_all(c).unwrap();
        }
        w.flush().unwrap();
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn names_escape_every_control() {
        assert_eq!(escape_controls("vector_add"), "vector_add");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("\x1b]0;pwned\x07"),
            "\\u001b]0;pwned\\u0007"
        );
        assert_eq!(escape_controls("a\nb\tc\x7f"), "a\\u000ab\\u0009c\\u007f");
        assert_eq!(escape_controls("x\u{9b}2Jy\u{9d}"), "x\\u009b2Jy\\u009d");
        // Printable non-ASCII stays.
        assert_eq!(escape_controls("größe µs"), "größe µs");
    }

    #[test]
    fn text_keeps_line_structure() {
        assert_eq!(escape_text("a\n\tb\r\nc"), "a\n\tb\r\nc");
        assert_eq!(escape_text("a\rb\x1b[5m"), "a\\u000db\\u001b[5m");
        assert_eq!(escape_text("end\r"), "end\\u000d");
    }

    #[test]
    fn writer_matches_escape_text_across_chunk_boundaries() {
        let s = "k\u{9b}1;2H\x1b]52;c;ZXZpbA==\x07 ok\r\nnext\rX\u{7f}é\u{85}";
        let want = escape_text(s).into_owned();
        let bytes = s.as_bytes();
        assert_eq!(through_writer(&[bytes]), want);
        for cut in 0..=bytes.len() {
            assert_eq!(
                through_writer(&[&bytes[..cut], &bytes[cut..]]),
                want,
                "cut at {cut}"
            );
        }
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(through_writer(&one_by_one), want);
    }

    #[test]
    fn escaped_json_is_the_same_json() {
        let v = serde_json::json!({"kernel": "a\u{7f}b\u{9b}c\x1bd", "n": 1});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let safe = through_writer(&[text.as_bytes()]);
        assert!(!safe.chars().any(|c| c.is_control() && c != '\n'), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }
}
