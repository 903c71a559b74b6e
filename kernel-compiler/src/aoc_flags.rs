//! Intel's offline compiler command line (`aoc`), in Intel's spelling: single-dash long flags
//! with `=` values (`-board=a10gx`, `-profile=all`), `-o FILE`, `-D`/`-I` attached or
//! separate, several inputs (`.cl` sources, `.aoco` objects, `.aoclib` libraries).
//!
//! [`parse`] sorts every word into what changes emulation (defines, include folders, board,
//! clock, floating-point relaxations, profiling, bank interleaving, warnings: turned into
//! OpenCL build options that [`crate::options::BuildOptions`] accepts and the `.aocx` keeps),
//! what the command does (compile only, link objects and libraries, report, list boards,
//! version, help) and flags that only matter to a hardware compile (`-high-effort`, `-seed=`,
//! `-rtl`, ...): those are accepted and noted in one line each. Any other flag is an error that
//! names it. `fpgacl aoc` uses it, and so does the loader of Intel-built `.aocx` files (whose
//! `.acl.compilation_env` keeps the `aoc` command line).

use std::path::PathBuf;

/// An `aoc` command line, sorted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AocCommand {
    /// Input files in command-line order (`.cl`, `.aoco`, `.aoclib`, or an `.aocx` whose
    /// stored report is printed).
    pub inputs: Vec<PathBuf>,
    /// `-o FILE`.
    pub output: Option<PathBuf>,
    /// `-c`: stop after compiling each source to an object.
    pub compile_only: bool,
    /// OpenCL build options, one shell-quoted word or pair per entry, in order (`-D`, `-I`,
    /// `-include`, `-fp-relaxed`, `-fpc`, `-g`, `-w`, `-Werror`, `-profile`, `-clock=`,
    /// `-no-interleaving=`, `-cl-*`, the text of `--cl-options`). The board is not among them.
    pub build_options: Vec<String>,
    /// `-board=NAME` (or `-board NAME`).
    pub board: Option<String>,
    /// `-board-package=DIR`.
    pub board_package: Option<String>,
    /// `-march=...`.
    pub march: Option<String>,
    /// `-l LIB` (libraries to link), in order.
    pub libraries: Vec<String>,
    /// `-L DIR` (where `-l` libraries are searched), in order.
    pub library_dirs: Vec<PathBuf>,
    /// `-report`: print the static report.
    pub report: bool,
    /// `--json`: print the static report as JSON (fpgacl).
    pub json: bool,
    /// `--dump-ir`: print the kernel IR (fpgacl).
    pub dump_ir: bool,
    /// `-v` count (repeatable).
    pub verbose: u32,
    /// `-list-boards`.
    pub list_boards: bool,
    /// `-version` / `--version`.
    pub version: bool,
    /// `-h` / `-help` / `--help`.
    pub help: bool,
    /// One line per accepted flag that has no effect on emulation.
    pub notes: Vec<String>,
}

/// Flags that only matter to a hardware compile (or to Intel's own emulator internals):
/// accepted, with a one-line note. Entries ending in `=` take a value.
const HARDWARE_ONLY: &[&str] = &[
    "-high-effort",
    "-seed=",
    "-rtl",
    "-incremental",
    "-incremental=",
    "-fast-compile",
    "-O3",
    "-O2",
    "-O1",
    "-O0",
    "-save-temps",
    "-no-accessor-aliasing",
    "-opt-arg=",
    "-llc-arg=",
    "-bsp-flow=",
    "-parallel=",
    "-hyper-optimized-handshaking=",
    "-dont-error-if-large-area-est",
    "-ecc",
    "-tidy",
    "-sim-acc-mem",
    "-fast-emulator",
    "-legacy-emulator",
    "-emulator-channel-depth-model=",
    "-hw-profile",
    "-profile-shared-counters",
    "-no-burst-interleaving",
    "-global-ring",
    "-duplicate-ring",
    "-num-reorder=",
    "-force-single-store-ring",
    "-dsploc=",
    "-ramloc=",
    "-quartus-seed=",
    "-time",
    "-time=",
    "-regtest_mode",
    "-shared",
    "-cl-strict-aliasing",
    "-dot",
    "-hash=",
    "-ggdb",
    "-fmax=",
];

/// Shell-quotes `s` as one word for an options string (double quotes when it holds white
/// space, quotes or backslashes).
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '\\'))
    {
        return s.to_string();
    }
    let mut q = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// A `-clock=` value: MHz, optionally with an `MHz` suffix. Returns the number as written.
fn clock_value(v: &str) -> Option<String> {
    let n = v
        .strip_suffix("MHz")
        .or_else(|| v.strip_suffix("mhz"))
        .unwrap_or(v);
    n.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite() && *f > 0.0)
        .map(|_| n.to_string())
}

/// Parses an `aoc` command line (without the program name). Errors name the flag.
pub fn parse(args: &[String]) -> Result<AocCommand, String> {
    let mut c = AocCommand::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "-h" || arg == "-help" || arg == "--help" {
            c.help = true;
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            c.inputs.push(PathBuf::from(arg));
            continue;
        }
        // Intel spells long flags with one dash; accept two as well.
        let w: String = match arg.strip_prefix("--") {
            Some(rest) if rest.len() > 1 => format!("-{rest}"),
            _ => arg.clone(),
        };
        let mut value = |flag: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("missing argument to '{flag}'"))
        };
        // Flags whose value may be attached (`-DX`, `-Idir`, `-lfoo`, `-Ldir`).
        if let Some(rest) = w.strip_prefix("-D") {
            let v = if rest.is_empty() {
                value("-D")?
            } else {
                rest.to_string()
            };
            c.build_options.push(format!("-D{}", quote(&v)));
            continue;
        }
        if let Some(rest) = w.strip_prefix("-U") {
            let v = if rest.is_empty() {
                value("-U")?
            } else {
                rest.to_string()
            };
            c.build_options.push(format!("-U{}", quote(&v)));
            continue;
        }
        if let Some(rest) = w.strip_prefix("-I") {
            let v = if rest.is_empty() {
                value("-I")?
            } else {
                rest.to_string()
            };
            c.build_options.push(format!("-I{}", quote(&v)));
            continue;
        }
        if let Some(rest) = w.strip_prefix("-L") {
            let v = if rest.is_empty() {
                value("-L")?
            } else {
                rest.to_string()
            };
            c.library_dirs.push(PathBuf::from(v));
            continue;
        }
        // `-l LIB` / `-lLIB`, unless the word is one of the flags that start with `-l`.
        let l_flag = w == "-list-boards"
            || HARDWARE_ONLY
                .iter()
                .any(|h| w == *h || (h.ends_with('=') && w.starts_with(h)));
        if let Some(rest) = w.strip_prefix("-l").filter(|_| !l_flag) {
            let v = if rest.is_empty() {
                value("-l")?
            } else {
                rest.to_string()
            };
            c.libraries.push(v);
            continue;
        }
        if let Some((name, v)) = w.split_once('=') {
            match name {
                "-board" => {
                    if v.is_empty() {
                        return Err("missing board name in '-board='".into());
                    }
                    c.board = Some(v.to_string());
                }
                "-board-package" => {
                    c.board_package = Some(v.to_string());
                    c.notes.push(format!(
                        "{arg}: board packages are Intel hardware descriptions; fpgacl emulates the board named by -board= (or a board JSON file)"
                    ));
                }
                "-march" => c.march = Some(v.to_string()),
                "-clock" => {
                    let mhz = clock_value(v).ok_or_else(|| {
                        format!("invalid value '{v}' in '-clock=' (expected a frequency in MHz, e.g. -clock=300)")
                    })?;
                    c.build_options.push(format!("-clock={mhz}"));
                }
                "-profile" => match v {
                    "all" | "autorun" | "enqueued" => c.build_options.push(w.clone()),
                    _ => {
                        return Err(format!(
                            "invalid value '{v}' in '-profile=' (expected all, autorun or enqueued)"
                        ))
                    }
                },
                "-no-interleaving" => c
                    .build_options
                    .push(format!("-no-interleaving={}", quote(v))),
                "-ffp-contract" => match v {
                    "fast" => c.build_options.push("-fpc".into()),
                    "off" | "on" => {}
                    _ => {
                        return Err(format!(
                            "invalid value '{v}' in '-ffp-contract=' (expected fast, on or off)"
                        ))
                    }
                },
                "-const-cache-bytes" => {
                    if v.parse::<u64>().is_err() {
                        return Err(format!("'{arg}' needs a non-negative integer"));
                    }
                    c.build_options.push(w.clone());
                }
                "-cl-std" => c.build_options.push(w.clone()),
                "-o" => c.output = Some(PathBuf::from(v)),
                _ if HARDWARE_ONLY.contains(&format!("{name}=").as_str()) => {
                    if name == "-seed" && v.parse::<u64>().is_err() {
                        return Err(format!("'{arg}' needs a non-negative integer"));
                    }
                    c.notes.push(hardware_note(arg));
                }
                _ => return Err(format!("unknown option '{arg}'")),
            }
            continue;
        }
        match w.as_str() {
            "-o" => c.output = Some(PathBuf::from(value("-o")?)),
            "-c" => c.compile_only = true,
            "-board" => c.board = Some(value("-board")?),
            "-march" => c.march = Some(value("-march")?),
            "-no-interleaving" => {
                let v = value("-no-interleaving")?;
                c.build_options
                    .push(format!("-no-interleaving={}", quote(&v)));
            }
            "-include" => {
                let v = value("-include")?;
                c.build_options.push(format!("-include {}", quote(&v)));
            }
            "-fp-relaxed" | "-ffp-reassoc" => c.build_options.push("-fp-relaxed".into()),
            "-fpc" => c.build_options.push("-fpc".into()),
            "-profile" => c.build_options.push("-profile".into()),
            "-g" => c.build_options.push("-g".into()),
            "-g0" => {}
            "-W" | "-w" => c.build_options.push("-w".into()),
            "-Werror" => c.build_options.push("-Werror".into()),
            "-report" => c.report = true,
            "-json" => c.json = true,
            "-dump-ir" => c.dump_ir = true,
            "-v" => c.verbose += 1,
            "-version" => c.version = true,
            "-list-boards" => c.list_boards = true,
            "-cl-options" => {
                let v = value("--cl-options")?;
                if !v.trim().is_empty() {
                    c.build_options.push(v);
                }
            }
            w if w.starts_with("-cl-") => c.build_options.push(w.to_string()),
            w if HARDWARE_ONLY.contains(&w) => c.notes.push(hardware_note(arg)),
            _ => return Err(format!("unknown option '{arg}'")),
        }
    }
    Ok(c)
}

fn hardware_note(flag: &str) -> String {
    format!("{flag}: accepted; it only affects a hardware compile, not emulation")
}

impl AocCommand {
    /// The OpenCL build options string of this command for the board called `board`
    /// (`-board=` defines `AOCL_BOARD_<board>` as Intel's compiler does).
    pub fn options_string(&self, board: Option<&str>) -> String {
        let mut words = self.build_options.clone();
        if let Some(b) = board {
            words.push(format!("-board={}", quote(b)));
        }
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::BuildOptions;

    fn p(s: &str) -> Result<AocCommand, String> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn intel_flags_become_build_options() {
        let c = p(
            "-march=emulator -board=a10gx -fp-relaxed -fpc -ffp-contract=fast -v -v \
                   -DN=4 -D M -Iinc -I other -profile=all -no-interleaving=default -W -Werror \
                   -clock=300MHz -g -include lib.h k.cl other.cl -o bin/k",
        )
        .unwrap();
        assert_eq!(c.inputs, [PathBuf::from("k.cl"), PathBuf::from("other.cl")]);
        assert_eq!(c.output, Some(PathBuf::from("bin/k")));
        assert_eq!(c.board.as_deref(), Some("a10gx"));
        assert_eq!(c.march.as_deref(), Some("emulator"));
        assert_eq!(c.verbose, 2);
        let o = c.options_string(Some("a10gx"));
        let b = BuildOptions::parse(&o).unwrap();
        assert!(b.fp_relaxed && b.fpc && b.profile && b.werror && b.no_warnings && b.debug_info);
        assert_eq!(b.defines.len(), 2);
        assert_eq!(b.include_dirs.len(), 2);
        assert_eq!(b.forced_includes, ["lib.h"]);
        assert_eq!(b.board.as_deref(), Some("a10gx"));
        assert_eq!(b.no_interleaving.as_deref(), Some("default"));
        assert!(o.contains("-clock=300"), "{o}");
    }

    #[test]
    fn hardware_flags_are_noted_and_unknown_ones_named() {
        let c = p(
            "-high-effort -seed=3 -rtl -incremental -fast-compile -O3 -save-temps \
                   -no-accessor-aliasing -opt-arg=-foo -legacy-emulator \
                   -emulator-channel-depth-model=strict -board-package=/x k.cl",
        )
        .unwrap();
        assert_eq!(c.notes.len(), 12, "{:?}", c.notes);
        assert!(c.notes.iter().all(|n| n.lines().count() == 1));
        // -opt-arg=... is not -o.
        assert_eq!(c.output, None);
        assert!(!c.help);
        for bad in [
            "-frobnicate",
            "-seed=x",
            "-profile=some",
            "-clock=fast",
            "-xyz=1",
        ] {
            let e = p(bad).unwrap_err();
            assert!(e.contains(bad.split('=').next().unwrap()), "{bad}: {e}");
        }
        assert_eq!(p("-o").unwrap_err(), "missing argument to '-o'");
    }

    #[test]
    fn help_version_list_boards_libraries() {
        assert!(p("-h").unwrap().help && p("-help").unwrap().help);
        assert!(p("--version").unwrap().version && p("-version").unwrap().version);
        assert!(p("-list-boards").unwrap().list_boards);
        let c = p("-c model.cl -o lib.aoclib").unwrap();
        assert!(c.compile_only);
        let c = p("-l lib.aoclib -llib2.aoclib -L dir -Ldir2 k.cl").unwrap();
        assert_eq!(c.libraries, ["lib.aoclib", "lib2.aoclib"]);
        assert_eq!(
            c.library_dirs,
            [PathBuf::from("dir"), PathBuf::from("dir2")]
        );
        let c = p("--no-interleaving DDR4").unwrap();
        assert_eq!(c.build_options, ["-no-interleaving=DDR4"]);
        let c = p("--report --json --dump-ir k.cl --cl-options -cl-mad-enable").unwrap();
        assert!(c.report && c.json && c.dump_ir);
        assert_eq!(c.build_options, ["-cl-mad-enable"]);
    }

    #[test]
    fn quoting_round_trips_through_the_option_splitter() {
        for s in ["plain", "a b", "q\"x", "back\\slash", ""] {
            let words = crate::options::split_words(&quote(s)).unwrap();
            assert_eq!(words, [s.to_string()], "{s}");
        }
    }
}
