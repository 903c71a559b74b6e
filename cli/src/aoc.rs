//! `aoc` (also `fpgacl aoc`): Intel's offline compiler command line, for the emulated device.
//!
//! The command line is read by [`fpgacl_kernel_compiler::aoc_flags`] in Intel's spelling
//! (`-board=`, `-march=emulator`, `-profile=all`, `-o`, `-D`, `-I`, `-c`, `-l`/`-L`, ...).
//! One `.cl` file is compiled into an `.aocx` (sources, options and static report); `-c` makes
//! an object (`.aoco`) or, with `-o x.aoclib`, a library; several sources, objects and
//! libraries (`-l`) are linked by symbol into one `.aocx`. `-report` prints the static report
//! (loops, II, LSUs); given an existing `.aocx` it prints the report of that binary.

use fpgacl_device_model::timing::banks::BankPlacement;
use fpgacl_device_model::{Board, BoardSet};
use fpgacl_kernel_compiler::analysis::{self, Report};
use fpgacl_kernel_compiler::aoc_flags::{self, AocCommand};
use fpgacl_kernel_compiler::aocx::{self, Aocx, BinaryKind};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::link::{self, Object, ObjectKind};
use fpgacl_kernel_compiler::{dump, SourceFile};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "\
aoc (fpgacl): compile OpenCL C for the emulated Intel-style FPGA

Usage: aoc [options] <file>.cl [<file2>.cl ...] [-o <output>.aocx]
       aoc -c [options] <file>.cl [-o <file>.aoco | -o <lib>.aoclib]
       aoc [options] <file>.cl <obj>.aoco ... [-l <lib>.aoclib] [-L <dir>]
       aoc -report <file>.aocx          print the static report stored in a binary

Options that change the emulation:
  -o <file>                 output (.aocx is appended when missing; folders are created)
  -c                        compile only, to an object (.aoco) or a library (-o x.aoclib)
  -D <name>[=<value>]       define a macro          -I <dir>   add an #include folder
  -include <file>           read <file> before each source
  -l <lib>.aoclib, -L <dir> link an OpenCL C library (made with aoc -c or aocl library create)
  -board=<name>             board to emulate (built-in name, file.json or file.json:name);
                            defines AOCL_BOARD_<name>; -list-boards lists them
  -clock=<MHz>              kernel clock target, recorded in the binary's build options
  -fp-relaxed, -fpc, -ffp-contract=fast    floating-point relaxations
  -profile[=all|autorun|enqueued]          instrument for the profiler (always on)
  -no-interleaving=<memory type|default>   buffers stay in the bank their flags name
  -W                        no warnings               -Werror   warnings are errors
  -g                        debug information
  -report                   print the static report (loops, II, LSUs); --json for JSON
  -march=emulator           accepted (fpgacl always emulates)
  -v                        say what is done (repeatable)
  -version, -list-boards, -h/-help
  --cl-options \"<opts>\"     extra OpenCL build options; --dump-ir prints the kernel IR

Accepted with a note (they only affect a hardware compile): -high-effort, -seed=<n>, -rtl,
-incremental, -fast-compile, -O3, -save-temps, -no-accessor-aliasing, -opt-arg=..., -g0,
-legacy-emulator, -emulator-channel-depth-model=..., -board-package=<dir>, ...
";

/// Runs `aoc` with its arguments (without the program name).
pub fn main(args: &[String]) -> ExitCode {
    let cmd = match aoc_flags::parse(args) {
        Ok(c) => c,
        Err(msg) => {
            crate::err(&format!("aoc: {msg} (aoc -help lists the options)\n"));
            return ExitCode::from(2);
        }
    };
    match run(cmd) {
        Ok(code) => code,
        Err(msg) => {
            crate::err(&format!("aoc: {msg}\n"));
            ExitCode::from(1)
        }
    }
}

fn say(cmd: &AocCommand, level: u32, text: &str) {
    if cmd.verbose >= level {
        crate::err(&format!("aoc: {text}\n"));
    }
}

/// The board selected by `-board=` (or `FPGACL_BOARD`): the same board models, board files
/// and figures the runtime uses, so the report's II matches a run.
fn select_board(flag: Option<&str>) -> Result<Board, String> {
    let (selection, origin) = match flag {
        Some(b) => (Some(b.to_string()), "-board"),
        None => (std::env::var("FPGACL_BOARD").ok(), "FPGACL_BOARD"),
    };
    BoardSet::select(selection.as_deref()).map_err(|e| {
        format!(
            "{origin}={}: {e} (aoc -list-boards lists the built-in boards)",
            selection.unwrap_or_default()
        )
    })
}

/// `-no-interleaving=<memory type>` must name `default` or a global memory type of the board,
/// as `clBuildProgram` checks it (rule B5).
fn check_no_interleaving(options: &str, board: &Board) -> Result<(), String> {
    let opts = fpgacl_kernel_compiler::options::BuildOptions::parse(options)
        .map_err(|e| format!("invalid build options: {e}"))?;
    match opts.no_interleaving {
        Some(v) if BankPlacement::new(board, &v, Vec::new()).is_none() => Err(format!(
            "invalid value '{v}' in '-no-interleaving=': board '{}' has no such global memory \
             type (it has: default, {})",
            board.name,
            board
                .global_memory
                .iter()
                .map(|g| g.kind.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => Ok(()),
    }
}

fn extension(p: &Path) -> String {
    p.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// A source file read as the runtime reads `clCreateProgramWithSource` strings: bytes that
/// are not UTF-8 are replaced (they can only matter inside comments or strings).
fn read_source(path: &Path) -> Result<SourceFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(SourceFile {
        name: path.display().to_string(),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// Reads an fpgacl or Intel-built `.aocx`/`.aoco`/`.aoclib`.
fn read_container(path: &Path) -> Result<Aocx, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if aocx::intel::looks_like_elf(&bytes) {
        let intel = aocx::intel::read(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(intel.aocx);
    }
    aocx::read(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The compiled object or library held by a container.
fn container_object(a: Aocx, path: &Path) -> Result<Object, String> {
    let kind = match a.kind {
        BinaryKind::Object => ObjectKind::Object,
        BinaryKind::Library => ObjectKind::Library,
        BinaryKind::Executable => {
            return Err(format!(
                "{} is an executable (.aocx), not an object or library to link",
                path.display()
            ))
        }
    };
    Ok(Object {
        kind,
        units: a.units,
    })
}

/// Finds `-l` library `name` in the `-L` folders, then the current folder (as given, then with
/// `.aoclib` appended, then `lib<name>.aoclib`).
fn find_library(name: &str, dirs: &[PathBuf]) -> Result<PathBuf, String> {
    let mut names = vec![name.to_string()];
    if !name.ends_with(".aoclib") {
        names.push(format!("{name}.aoclib"));
        names.push(format!("lib{name}.aoclib"));
    }
    let mut searched: Vec<PathBuf> = dirs.to_vec();
    searched.push(PathBuf::from("."));
    for d in &searched {
        for n in &names {
            let p = d.join(n);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err(format!(
        "library '{name}' not found (searched: {})",
        searched
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// `-o` as Intel's aoc treats it: `.aocx` appended to a name without it (`.aoco` for `-c`
/// unless a library `.aoclib` is asked for).
fn output_path(cmd: &AocCommand, first_source: Option<&Path>) -> Result<PathBuf, String> {
    let (want, alt) = if cmd.compile_only {
        ("aoco", "aoclib")
    } else {
        ("aocx", "aocx")
    };
    match &cmd.output {
        Some(o) => {
            let e = extension(o);
            if e == want || e == alt {
                Ok(o.clone())
            } else {
                let mut s = o.clone().into_os_string();
                s.push(format!(".{want}"));
                Ok(PathBuf::from(s))
            }
        }
        None => first_source
            .map(|s| s.with_extension(want))
            .ok_or_else(|| "no input file (aoc -help shows the usage)".to_string()),
    }
}

/// Refuses an output that would overwrite an input (as gcc does).
fn check_not_an_input(output: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    let norm = |p: &Path| {
        p.canonicalize().unwrap_or_else(|_| {
            std::env::current_dir()
                .map(|d| d.join(p))
                .unwrap_or_else(|_| p.to_path_buf())
        })
    };
    let out = norm(output);
    match inputs.iter().find(|i| norm(i) == out) {
        Some(i) => Err(format!(
            "output file '{}' is the input file '{}': refusing to overwrite it",
            output.display(),
            i.display()
        )),
        None => Ok(()),
    }
}

fn write_output(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create folder {}: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn list_boards() -> ExitCode {
    let mut s = String::from("Board list:\n");
    for b in BoardSet::default().boards {
        s.push_str(&format!("  {}\n     {}\n", b.name, b.description));
    }
    s.push_str(
        "\nAlso: -board=<file>.json or -board=<file>.json:<name> (a board described in JSON).\n",
    );
    crate::out(&s);
    ExitCode::SUCCESS
}

/// `aoc -version`.
pub fn version_text() -> String {
    format!(
        "fpgacl aoc {} (OpenCL C for the emulated FPGA)\n\
         Accepts the command line of the Intel(R) FPGA SDK for OpenCL(TM) Offline Compiler\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Prints the report of an existing binary: the stored one, else one made again from the
/// binary's sources (linked binaries and Intel-built files).
fn print_stored_report(cmd: &AocCommand, path: &Path, board: &Board) -> Result<ExitCode, String> {
    let a = read_container(path)?;
    let stored: Option<Report> = serde_json::from_slice(&a.report).ok();
    let (sources, report) = match stored {
        Some(r) => (a.sources.clone(), r),
        None => {
            let module = rebuild(&a)?;
            let r = analysis::analyze(&module, &board.analysis_params());
            (module.sources.clone(), r)
        }
    };
    if cmd.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        crate::out(&format!("{json}\n"));
    } else {
        crate::out(&format!(
            "Report of {} (built by fpgacl {} for board {}, options '{}')\n\n",
            path.display(),
            a.fpgacl_version,
            if a.board.is_empty() { "?" } else { &a.board },
            a.options
        ));
        crate::out(&analysis::render::render(&sources, &report));
    }
    Ok(ExitCode::SUCCESS)
}

/// The executable module of a container (rebuilt from its sources or linked from its units).
fn rebuild(a: &Aocx) -> Result<Arc<Module>, String> {
    if !a.units.is_empty() {
        let object = Object {
            kind: ObjectKind::Object,
            units: a.units.clone(),
        };
        let out = link::link(&[&object], "").map_err(|e| e.to_string())?;
        return out
            .module
            .ok_or_else(|| format!("the binary does not link:\n{}", out.log));
    }
    let include_dirs = fpgacl_kernel_compiler::options::BuildOptions::parse(&a.options)
        .map(|o| o.include_dirs)
        .unwrap_or_default();
    let resolver = a.resolver(include_dirs);
    let mains: Vec<SourceFile> = a
        .main_files
        .iter()
        .filter_map(|id| a.sources.file(*id).cloned())
        .collect();
    let out = fpgacl_kernel_compiler::build_with(&mains, &a.options, &resolver)
        .map_err(|e| e.to_string())?;
    out.module
        .ok_or_else(|| format!("the binary's source does not build:\n{}", out.log))
}

pub fn run(cmd: AocCommand) -> Result<ExitCode, String> {
    if cmd.help {
        crate::out(USAGE);
        return Ok(ExitCode::SUCCESS);
    }
    if cmd.version {
        crate::out(&version_text());
        return Ok(ExitCode::SUCCESS);
    }
    if cmd.list_boards {
        return Ok(list_boards());
    }
    for n in &cmd.notes {
        crate::err(&format!("aoc: note: {n}\n"));
    }
    let device_board = select_board(cmd.board.as_deref())?;
    say(
        &cmd,
        1,
        &format!("Selected target board {}", device_board.name),
    );
    if let Some(m) = &cmd.march {
        if m != "emulator" {
            crate::err(&format!(
                "aoc: note: -march={m}: fpgacl only emulates; building for the emulated device\n"
            ));
        }
    }

    let mut sources = Vec::new();
    let mut objects: Vec<(PathBuf, Object)> = Vec::new();
    let mut binaries = Vec::new();
    for input in &cmd.inputs {
        match extension(input).as_str() {
            "aoco" | "aoclib" => {
                let a = read_container(input)?;
                objects.push((input.clone(), container_object(a, input)?));
            }
            "aocx" => binaries.push(input.clone()),
            _ => sources.push(input.clone()),
        }
    }
    if !binaries.is_empty() {
        if !sources.is_empty() || !objects.is_empty() || binaries.len() > 1 {
            return Err(
                "an .aocx is a finished binary: give it alone to print its report (aoc -report x.aocx)"
                    .into(),
            );
        }
        return print_stored_report(&cmd, &binaries[0], &device_board);
    }
    for lib in &cmd.libraries {
        let path = find_library(lib, &cmd.library_dirs)?;
        say(&cmd, 1, &format!("Linking library {}", path.display()));
        let a = read_container(&path)?;
        objects.push((path.clone(), container_object(a, &path)?));
    }
    if sources.is_empty() && objects.is_empty() {
        return Err("no input file (aoc -help shows the usage)".into());
    }

    // Build options: the flags, the source folders (as Intel's clang finds includes next to
    // the source), and the board (AOCL_BOARD_<name>).
    let mut opts_cmd = cmd.clone();
    for s in &sources {
        if let Some(dir) = s.parent().filter(|d| !d.as_os_str().is_empty()) {
            let w = format!("-I{}", aoc_flags::quote(&dir.display().to_string()));
            if !opts_cmd.build_options.contains(&w) {
                opts_cmd.build_options.push(w);
            }
        }
    }
    let options = opts_cmd.options_string(Some(&device_board.name));
    check_no_interleaving(&options, &device_board)?;

    let first_source = sources.first().or_else(|| objects.first().map(|(p, _)| p));
    let output = output_path(&cmd, first_source.map(PathBuf::as_path))?;
    let mut all_inputs = cmd.inputs.clone();
    all_inputs.extend(objects.iter().map(|(p, _)| p.clone()));
    if let Some(o) = &cmd.output {
        check_not_an_input(o, &all_inputs)?;
    }
    check_not_an_input(&output, &all_inputs)?;

    let texts: Vec<SourceFile> = sources
        .iter()
        .map(|s| read_source(s))
        .collect::<Result<_, _>>()?;

    if cmd.compile_only {
        return compile_only(&cmd, &texts, &objects, &options, &device_board, &output);
    }

    let board = device_board.analysis_params();
    say(&cmd, 1, "Running OpenCL parser....");
    say(&cmd, 2, &format!("build options: {options}"));
    let (module, mut container) = if texts.len() == 1 && objects.is_empty() {
        // One source: built in one step; the .aocx keeps the source and options.
        let out = fpgacl_kernel_compiler::build(&texts, &options).map_err(|e| e.to_string())?;
        crate::err(&out.log);
        let Some(module) = out.module else {
            crate::err("aoc: compilation failed\n");
            return Ok(ExitCode::from(1));
        };
        let container = Aocx::new(
            options.clone(),
            board.name.clone(),
            module.sources.clone(),
            vec![fpgacl_kernel_compiler::FileId(0)],
            Vec::new(),
        );
        (module, container)
    } else {
        // Several units: each source compiled on its own, then linked by symbol with the
        // objects and libraries.
        let mut units: Vec<Arc<Object>> = Vec::new();
        for t in &texts {
            let out =
                link::compile(std::slice::from_ref(t), &options, &[]).map_err(|e| e.to_string())?;
            crate::err(&out.log);
            match out.object {
                Some(o) => units.push(o),
                None => {
                    crate::err("aoc: compilation failed\n");
                    return Ok(ExitCode::from(1));
                }
            }
        }
        let mut inputs: Vec<&Object> = units.iter().map(|o| o.as_ref()).collect();
        inputs.extend(objects.iter().map(|(_, o)| o));
        let out = link::link(&inputs, "").map_err(|e| e.to_string())?;
        crate::err(&out.log);
        let (Some(module), Some(linked)) = (out.module, out.object) else {
            crate::err("aoc: link failed\n");
            return Ok(ExitCode::from(1));
        };
        let container = Aocx::with_units(
            BinaryKind::Executable,
            "",
            board.name.clone(),
            linked.units.clone(),
        );
        (module, container)
    };
    say(&cmd, 1, "OpenCL parser completed successfully.");
    if module.kernels.is_empty() {
        // Legal OpenCL C, but almost always a wrong file or a misspelt `__kernel`.
        crate::err(&format!(
            "aoc: warning: {} defines no kernels; the .aocx holds none\n",
            first_source.map_or_else(String::new, |p| p.display().to_string())
        ));
    }
    say(&cmd, 1, "Compiling for Emulation ....");
    let report = analysis::analyze(&module, &board);
    container.report = serde_json::to_vec(&report).map_err(|e| e.to_string())?;
    write_output(&output, &aocx::write(&container))?;
    if cmd.dump_ir {
        crate::out(&dump::dump_module(&module));
    }
    if cmd.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        crate::out(&format!("{json}\n"));
    } else if cmd.report {
        crate::out(&analysis::render::render(&module.sources, &report));
    }
    say(&cmd, 1, "Emulator Compilation completed successfully.");
    say(&cmd, 1, &format!("wrote {}", output.display()));
    Ok(ExitCode::SUCCESS)
}

/// `-c`: each source becomes an object (`.aoco`); with `-o x.aoclib`, the sources and objects
/// given become one library.
fn compile_only(
    cmd: &AocCommand,
    texts: &[SourceFile],
    objects: &[(PathBuf, Object)],
    options: &str,
    board: &Board,
    output: &Path,
) -> Result<ExitCode, String> {
    let library = extension(output) == "aoclib";
    if !library && (texts.len() != 1 || !objects.is_empty()) {
        return Err(
            "-c makes one object from one source; use -o <name>.aoclib to make a library of several"
                .into(),
        );
    }
    let mut units: Vec<Arc<Object>> = Vec::new();
    for t in texts {
        say(cmd, 1, &format!("Compiling {} to an object", t.name));
        let out =
            link::compile(std::slice::from_ref(t), options, &[]).map_err(|e| e.to_string())?;
        crate::err(&out.log);
        match out.object {
            Some(o) => units.push(o),
            None => {
                crate::err("aoc: compilation failed\n");
                return Ok(ExitCode::from(1));
            }
        }
    }
    let container = if library {
        let mut inputs: Vec<&Object> = units.iter().map(|o| o.as_ref()).collect();
        inputs.extend(objects.iter().map(|(_, o)| o));
        let out = link::link(&inputs, "-create-library").map_err(|e| e.to_string())?;
        crate::err(&out.log);
        let Some(lib) = out.object else {
            crate::err("aoc: library creation failed\n");
            return Ok(ExitCode::from(1));
        };
        Aocx::with_units(
            BinaryKind::Library,
            "-create-library",
            board.name.clone(),
            lib.units.clone(),
        )
    } else {
        Aocx::with_units(
            BinaryKind::Object,
            options,
            board.name.clone(),
            units[0].units.clone(),
        )
    };
    write_output(output, &aocx::write(&container))?;
    say(cmd, 1, &format!("wrote {}", output.display()));
    Ok(ExitCode::SUCCESS)
}

/// `aocl library create [-name <lib>.aoclib | -o <lib>.aoclib] <files>`: a library from
/// OpenCL C models (`.cl`), objects (`.aoco`) and other libraries.
pub fn library_create(args: &[String]) -> Result<ExitCode, String> {
    let mut rest = Vec::new();
    let mut name = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-name" | "-o" => name = it.next().cloned(),
            "-vendor" | "-version" => {
                it.next();
            }
            _ => rest.push(a.clone()),
        }
    }
    let name = name.ok_or("aocl library create needs -name <library>.aoclib")?;
    let mut aoc_args = vec!["-c".to_string()];
    aoc_args.extend(rest);
    aoc_args.push("-o".into());
    aoc_args.push(if name.ends_with(".aoclib") {
        name
    } else {
        format!("{name}.aoclib")
    });
    let cmd = aoc_flags::parse(&aoc_args)?;
    run(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(args: &str) -> AocCommand {
        aoc_flags::parse(
            &args
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
        .unwrap()
    }

    #[test]
    fn output_names_follow_intel() {
        let src = Path::new("dir/k.cl");
        assert_eq!(
            output_path(&cmd("-o bin/k"), Some(src)).unwrap(),
            PathBuf::from("bin/k.aocx")
        );
        assert_eq!(
            output_path(&cmd("-o bin/k.aocx"), Some(src)).unwrap(),
            PathBuf::from("bin/k.aocx")
        );
        assert_eq!(
            output_path(&cmd(""), Some(src)).unwrap(),
            PathBuf::from("dir/k.aocx")
        );
        assert_eq!(
            output_path(&cmd("-c"), Some(src)).unwrap(),
            PathBuf::from("dir/k.aoco")
        );
        assert_eq!(
            output_path(&cmd("-c -o lib.aoclib"), Some(src)).unwrap(),
            PathBuf::from("lib.aoclib")
        );
    }

    #[test]
    fn output_equal_to_an_input_is_refused() {
        let e = check_not_an_input(Path::new("./k.cl"), &[PathBuf::from("k.cl")]).unwrap_err();
        assert!(e.contains("k.cl"), "{e}");
        assert!(check_not_an_input(Path::new("k.aocx"), &[PathBuf::from("k.cl")]).is_ok());
    }
}
