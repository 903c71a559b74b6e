//! `.aocx` files built by Intel's `aoc`: ELF files whose sections keep, next to the hardware
//! or emulator image fpgacl cannot use, the OpenCL source and the compiler command line:
//!
//! | section | holds |
//! |---|---|
//! | `.acl.source` | the main `.cl` file |
//! | `.acl.nfiles` | how many source files follow |
//! | `.acl.file.N` | the path of source file N (main file and includes) |
//! | `.acl.source.N` | the text of source file N |
//! | `.acl.compilation_env` | `KEY=VALUE` lines; `INPUT_ARGS=` is the `aoc` command line |
//! | `.acl.compileoptions` | the OpenCL options aoc passed on (older files) |
//! | `.acl.board` | the board the file was built for |
//!
//! [`read`] turns them into an fpgacl [`Aocx`] (sources, main file, build options from the
//! `aoc` flags as [`crate::aoc_flags`] reads them) that the runtime rebuilds like its own.

use super::Aocx;
use crate::source::{FileId, SourceMap};
use object::{Object, ObjectSection};

/// Whether `bytes` start like an ELF file.
pub fn looks_like_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// What an Intel-built `.aocx` held, rebuilt into an fpgacl container, and how it was read.
#[derive(Clone, Debug)]
pub struct IntelAocx {
    /// Sources (main file first when known) and build options, ready to rebuild.
    pub aocx: Aocx,
    /// The `aoc` command line found (`INPUT_ARGS`), if any.
    pub input_args: Option<String>,
    /// The board section (`.acl.board`), if any.
    pub board: Option<String>,
    /// Flags of the command line that were not used for the rebuild (outputs, notes).
    pub ignored: Vec<String>,
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Reads an Intel-built `.aocx`. `Err` with a message saying what is missing.
pub fn read(bytes: &[u8]) -> Result<IntelAocx, String> {
    let file = object::File::parse(bytes)
        .map_err(|e| format!("not a readable ELF file (Intel .aocx files are ELF): {e}"))?;
    let section = |name: &str| -> Option<String> {
        file.section_by_name(name)
            .and_then(|s| s.data().ok())
            .map(text)
    };
    let main_text = section(".acl.source");
    let mut sm = SourceMap::default();
    let mut main = None;
    for n in 0.. {
        let (Some(path), Some(body)) = (
            section(&format!(".acl.file.{n}")),
            section(&format!(".acl.source.{n}")),
        ) else {
            break;
        };
        let id = sm.add(path.trim().to_string(), body);
        if main.is_none() && main_text.as_deref() == sm.file(id).map(|f| f.text.as_str()) {
            main = Some(id);
        }
    }
    let main =
        match (main, main_text) {
            (Some(m), _) => m,
            (None, Some(t)) => sm.add("kernel.cl", t),
            (None, None) if !sm.files.is_empty() => FileId(0),
            (None, None) => return Err(
                "this Intel-built .aocx holds no OpenCL source (.acl.source): Intel's aoc keeps \
                 it only in some builds; rebuild the binary with `aoc -march=emulator` on fpgacl"
                    .into(),
            ),
        };
    let board = section(".acl.board")
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty());
    let env = section(".acl.compilation_env").unwrap_or_default();
    let input_args = env
        .lines()
        .find_map(|l| l.strip_prefix("INPUT_ARGS="))
        .map(|s| s.trim().to_string());
    let args_text = match &input_args {
        Some(a) => a.clone(),
        None => section(".acl.compileoptions").unwrap_or_default(),
    };
    let words = crate::options::split_words(&args_text)
        .map_err(|e| format!("the aoc command line in the .aocx does not split: {e}"))?;
    let (cmd, ignored) = parse_lenient(&words);
    // Include folders keep their meaning only relative to where aoc ran; the stored files
    // are found by path, and a relative `-I` is also tried against the main file's folder.
    let options = cmd.options_string(cmd.board.as_deref());
    let aocx = Aocx::new(
        options,
        board.clone().unwrap_or_default(),
        sm,
        vec![main],
        Vec::new(),
    );
    Ok(IntelAocx {
        aocx,
        input_args,
        board,
        ignored,
    })
}

/// Parses the stored `aoc` command line, dropping (and listing) any word fpgacl does not
/// know instead of failing: the file was built by a compiler that accepted it.
fn parse_lenient(words: &[String]) -> (crate::aoc_flags::AocCommand, Vec<String>) {
    let mut kept: Vec<String> = Vec::new();
    let mut ignored = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        // A flag with a separate value goes in with its value.
        let pair = matches!(
            w.as_str(),
            "-o" | "-D" | "-I" | "-U" | "-L" | "-l" | "-board" | "-include" | "-march"
        );
        let chunk: Vec<String> = if pair && i + 1 < words.len() {
            vec![w.clone(), words[i + 1].clone()]
        } else {
            vec![w.clone()]
        };
        i += chunk.len();
        let mut trial = kept.clone();
        trial.extend(chunk.iter().cloned());
        if crate::aoc_flags::parse(&trial).is_ok() {
            kept = trial;
        } else {
            ignored.push(chunk.join(" "));
        }
    }
    let cmd = crate::aoc_flags::parse(&kept).unwrap_or_default();
    (cmd, ignored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_parse_keeps_what_it_knows() {
        let words: Vec<String> = "-march=emulator -board=a10gx -DN=4 -secret-flag k.cl -o out.aocx"
            .split(' ')
            .map(String::from)
            .collect();
        let (cmd, ignored) = parse_lenient(&words);
        assert_eq!(ignored, ["-secret-flag"]);
        assert_eq!(cmd.board.as_deref(), Some("a10gx"));
        assert_eq!(cmd.options_string(Some("a10gx")), "-DN=4 -board=a10gx");
    }

    #[test]
    fn non_elf_is_an_error() {
        assert!(read(b"not an elf").is_err());
    }
}
