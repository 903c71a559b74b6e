//! Logical characters of a source text (C99 5.1.1.2 phases 1-2): line splices removed, `\r\n`
//! and lone `\r` folded to `\n`, each character tagged with its line and column in the
//! original text.

/// A cursor over the logical characters of a text.
pub(crate) struct Chars {
    chars: Vec<(char, u32, u32)>,
    pos: usize,
    end: (u32, u32),
}

impl Chars {
    pub(crate) fn new(text: &str) -> Self {
        let raw: Vec<char> = text.chars().collect();
        let mut chars = Vec::with_capacity(raw.len());
        let mut line = 1u32;
        let mut col = 1u32;
        let mut i = 0;
        while i < raw.len() {
            let c = raw[i];
            // Line splice: backslash immediately followed by a line break.
            if c == '\\' {
                let nl = match (raw.get(i + 1), raw.get(i + 2)) {
                    (Some('\r'), Some('\n')) => 3,
                    (Some('\n'), _) | (Some('\r'), _) => 2,
                    _ => 0,
                };
                if nl > 0 {
                    i += nl;
                    line = line.saturating_add(1);
                    col = 1;
                    continue;
                }
            }
            if c == '\r' || c == '\n' {
                chars.push(('\n', line, col));
                i += if c == '\r' && raw.get(i + 1) == Some(&'\n') {
                    2
                } else {
                    1
                };
                line = line.saturating_add(1);
                col = 1;
                continue;
            }
            chars.push((c, line, col));
            col = col.saturating_add(1);
            i += 1;
        }
        Chars {
            chars,
            pos: 0,
            end: (line, col),
        }
    }

    /// The character `n` positions ahead, if any.
    pub(crate) fn peek(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).map(|c| c.0)
    }

    /// Consumes and returns the next character.
    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).map(|c| c.0);
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    /// Line and column of the next character (or of the end of the text).
    pub(crate) fn pos(&self) -> (u32, u32) {
        self.chars
            .get(self.pos)
            .map(|c| (c.1, c.2))
            .unwrap_or(self.end)
    }
}
