//! Source files and locations.
//!
//! Every token, AST node, IR instruction and access site carries a [`Loc`]: the file it came from
//! (an index into the [`SourceMap`]), its 1-based line and 1-based column. Locations survive
//! preprocessing (`#include`, macro expansion, `#line`) so that diagnostics and the profiler point
//! at the text the user wrote.

use serde::{Deserialize, Serialize};

/// Index of a file in a [`SourceMap`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct FileId(pub u32);

/// A position in a source file: 1-based line and column.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub fn new(file: FileId, line: u32, col: u32) -> Self {
        Loc { file, line, col }
    }
}

/// One source file as the user wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFile {
    /// File name as shown in diagnostics (the path given, or `<source>` for in-memory text).
    pub name: String,
    pub text: String,
}

/// All files that took part in a compilation (main sources and everything they included).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        FileId((self.files.len() - 1) as u32)
    }

    /// The file of an id, if it exists.
    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// The file name of an id (`<unknown>` for ids not in the map).
    pub fn name(&self, id: FileId) -> &str {
        self.file(id)
            .map(|f| f.name.as_str())
            .unwrap_or("<unknown>")
    }

    /// The text of line `line` (1-based) of a file, without its line terminator.
    pub fn line_text(&self, loc: Loc) -> Option<&str> {
        let f = self.file(loc.file)?;
        f.text
            .split('\n')
            .nth(loc.line.checked_sub(1)? as usize)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
    }
}
