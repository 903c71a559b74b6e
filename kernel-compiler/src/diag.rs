//! Diagnostics: errors and warnings with `file:line:column`, rendered the way C compilers do
//! (`file:line:col: error: message`, the source line, and a caret under the column).

use crate::source::{Loc, SourceMap};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One diagnostic message attached to a source location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Loc,
    pub message: String,
}

impl Diagnostic {
    pub fn error(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            loc,
            message: message.into(),
        }
    }
    pub fn warning(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            loc,
            message: message.into(),
        }
    }
    pub fn note(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Note,
            loc,
            message: message.into(),
        }
    }

    /// Renders `file:line:col: severity: message`, then the source line and a caret.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}:{}:{}: {}: {}",
            sources.name(self.loc.file),
            self.loc.line,
            self.loc.col,
            self.severity.word(),
            self.message
        );
        if let Some(line) = sources.line_text(self.loc) {
            let _ = writeln!(out, "{line}");
            let mut caret = String::new();
            for (i, ch) in line.chars().enumerate() {
                if i + 1 >= self.loc.col as usize {
                    break;
                }
                caret.push(if ch == '\t' { '\t' } else { ' ' });
            }
            caret.push('^');
            let _ = writeln!(out, "{caret}");
        }
        out
    }
}

/// Collects diagnostics during a compilation.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    pub fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Diagnostic::error(loc, message));
    }
    pub fn warning(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Diagnostic::warning(loc, message));
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }
    /// The full build log: every diagnostic rendered, in order.
    pub fn render(&self, sources: &SourceMap) -> String {
        self.list.iter().map(|d| d.render(sources)).collect()
    }
}
