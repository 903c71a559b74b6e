//! Finding `#include`d files: on disk ([`FsResolver`]) or in a stored set of files
//! ([`MapResolver`], used to rebuild a program from an `.aocx`).

use crate::source::SourceMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Finds the text of an included file.
pub trait IncludeResolver {
    /// Resolves `name` from `#include "name"` (`angled == false`) or `#include <name>`.
    ///
    /// `from_dir` is the folder of the including file (quoted includes look there first),
    /// then the `-I` folders are searched in order. Returns the file's display name (the
    /// path used in diagnostics and stored in the `.aocx`) and its text.
    fn resolve(
        &self,
        name: &str,
        from_dir: Option<&Path>,
        angled: bool,
    ) -> Option<(String, String)>;
}

/// The candidate paths of an include, in search order.
fn candidates(name: &str, from_dir: Option<&Path>, angled: bool, dirs: &[PathBuf]) -> Vec<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return vec![p.to_path_buf()];
    }
    let mut out = Vec::with_capacity(dirs.len() + 1);
    if !angled {
        out.push(match from_dir {
            Some(d) => d.join(name),
            None => p.to_path_buf(),
        });
    }
    out.extend(dirs.iter().map(|d| d.join(name)));
    out
}

/// Resolves includes on the file system: the including file's folder, then `-I` folders.
#[derive(Clone, Debug, Default)]
pub struct FsResolver {
    pub include_dirs: Vec<PathBuf>,
}

impl FsResolver {
    pub fn new(include_dirs: Vec<PathBuf>) -> Self {
        FsResolver { include_dirs }
    }
}

impl IncludeResolver for FsResolver {
    fn resolve(
        &self,
        name: &str,
        from_dir: Option<&Path>,
        angled: bool,
    ) -> Option<(String, String)> {
        for c in candidates(name, from_dir, angled, &self.include_dirs) {
            if c.is_file() {
                if let Ok(bytes) = std::fs::read(&c) {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    return Some((c.to_string_lossy().into_owned(), text));
                }
            }
        }
        None
    }
}

/// Resolves includes from a fixed set of files keyed by display name, with the same search
/// order as [`FsResolver`]: rebuilding from the files an earlier build recorded finds the
/// same files.
#[derive(Clone, Debug, Default)]
pub struct MapResolver {
    pub files: BTreeMap<String, String>,
    pub include_dirs: Vec<PathBuf>,
}

impl MapResolver {
    /// A resolver over every file of a source map.
    pub fn from_sources(sources: &SourceMap, include_dirs: Vec<PathBuf>) -> Self {
        MapResolver {
            files: sources
                .files
                .iter()
                .map(|f| (f.name.clone(), f.text.clone()))
                .collect(),
            include_dirs,
        }
    }
}

impl IncludeResolver for MapResolver {
    fn resolve(
        &self,
        name: &str,
        from_dir: Option<&Path>,
        angled: bool,
    ) -> Option<(String, String)> {
        for c in candidates(name, from_dir, angled, &self.include_dirs) {
            let key = c.to_string_lossy();
            if let Some(text) = self.files.get(key.as_ref()) {
                return Some((key.into_owned(), text.clone()));
            }
        }
        None
    }
}
