//! `fpgacl aoc`: compile OpenCL C into an `.aocx` and print the static FPGA report, taking the
//! flags an Intel `aoc` user types (`-o`, `-I`, `-D`, `-board=`, `-march=emulator`, `-profile`,
//! `-report`, `-v`).

use clap::Args;
use fpgacl_device_model::timing::banks::BankPlacement;
use fpgacl_device_model::{Board, BoardSet};
use fpgacl_kernel_compiler::analysis;
use fpgacl_kernel_compiler::{aocx, dump, SourceFile};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct AocArgs {
    /// The kernel source file.
    pub source: PathBuf,
    /// Output file (default: the source name with `.aocx`).
    #[arg(short = 'o')]
    pub output: Option<PathBuf>,
    /// Add a folder to the `#include` search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Board to compile for (`-board=NAME`): a built-in board, `file.json` or `file.json:name`
    /// (default: `FPGACL_BOARD`, else the built-in default board).
    #[arg(long)]
    pub board: Option<String>,
    /// Do not interleave the banks of this global memory type (`-no-interleaving=default` or a
    /// memory type of the board): each buffer goes to the bank of its `CL_CHANNEL_n` flag.
    #[arg(long = "no-interleaving", value_name = "MEMORY_TYPE")]
    pub no_interleaving: Option<String>,
    /// Target (`-march=emulator` is accepted; fpgacl always emulates).
    #[arg(long)]
    pub march: Option<String>,
    /// Accepted for compatibility: fpgacl always instruments every access site.
    #[arg(long)]
    pub profile: bool,
    /// Print the static report (loops, II, LSUs) after compiling.
    #[arg(long)]
    pub report: bool,
    /// Print the static report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the kernel IR.
    #[arg(long = "dump-ir")]
    pub dump_ir: bool,
    /// Verbose: say what is done.
    #[arg(short = 'v')]
    pub verbose: bool,
    /// Extra OpenCL build options (`-cl-fast-relaxed-math`, `-Werror`, ...).
    #[arg(long = "cl-options", default_value = "", allow_hyphen_values = true)]
    pub cl_options: String,
}

/// Turns Intel's single-dash long flags (`-board=x`, `-march=emulator`, `-profile`, `-report`)
/// into the double-dash form the parser expects.
pub fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    const LONG: [&str; 6] = [
        "board",
        "march",
        "profile",
        "report",
        "dump-ir",
        "no-interleaving",
    ];
    let mut out: Vec<String> = args.collect();
    if out.get(1).map(String::as_str) != Some("aoc") {
        return out;
    }
    let mut value_of_cl_options = false;
    for a in out.iter_mut().skip(2) {
        // The value of `--cl-options` is OpenCL options text, not aoc flags.
        if std::mem::replace(&mut value_of_cl_options, a == "--cl-options") {
            continue;
        }
        if let Some(rest) = a.strip_prefix('-') {
            if !rest.starts_with('-') {
                let name = rest.split('=').next().unwrap_or("");
                if LONG.contains(&name) {
                    *a = format!("-{a}");
                }
            }
        }
    }
    out
}

fn quote(s: &str) -> String {
    if s.chars().any(|c| c.is_whitespace() || c == '"') {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        s.to_string()
    }
}

/// The analysis parameters of the board selected by `-board=` (or `FPGACL_BOARD`): the same
/// board models, board files and figures the runtime uses, so the report's II matches a run.
fn select_board(flag: Option<&str>) -> Result<Board, String> {
    let (selection, origin) = match flag {
        Some(b) => (Some(b.to_string()), "-board"),
        None => (std::env::var("FPGACL_BOARD").ok(), "FPGACL_BOARD"),
    };
    BoardSet::select(selection.as_deref())
        .map_err(|e| format!("{origin}={}: {e}", selection.unwrap_or_default()))
}

/// `-no-interleaving=<memory type>` (from the flag or `--cl-options`) must name `default` or a
/// global memory type of the board, as `clBuildProgram` checks it (rule B5).
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

pub fn run(args: AocArgs) -> Result<ExitCode, String> {
    let device_board = select_board(args.board.as_deref())?;
    let board = device_board.analysis_params();
    let text = std::fs::read_to_string(&args.source)
        .map_err(|e| format!("cannot read {}: {e}", args.source.display()))?;
    let mut options = Vec::new();
    for d in &args.define {
        options.push(format!("-D{}", quote(d)));
    }
    for i in &args.include {
        options.push(format!("-I{}", quote(&i.display().to_string())));
    }
    if let Some(dir) = args.source.parent().filter(|d| !d.as_os_str().is_empty()) {
        options.push(format!("-I{}", quote(&dir.display().to_string())));
    }
    if let Some(m) = &args.no_interleaving {
        options.push(format!("-no-interleaving={}", quote(m)));
    }
    if !args.cl_options.is_empty() {
        options.push(args.cl_options.clone());
    }
    let options = options.join(" ");
    check_no_interleaving(&options, &device_board)?;
    if let Some(m) = &args.march {
        if m != "emulator" {
            crate::err(&format!(
                "fpgacl aoc: -march={m}: fpgacl only emulates; building for the emulated device\n"
            ));
        }
    }
    let name = args.source.display().to_string();
    if args.verbose {
        crate::err(&format!(
            "fpgacl aoc: compiling {name} with options: {options}\n"
        ));
    }
    let out = fpgacl_kernel_compiler::build(&[SourceFile { name, text }], &options)
        .map_err(|e| e.to_string())?;
    crate::err(&out.log);
    let Some(module) = out.module else {
        crate::err("fpgacl aoc: compilation failed\n");
        return Ok(ExitCode::from(1));
    };
    if module.kernels.is_empty() {
        // Legal OpenCL C, but almost always a wrong file or a misspelt `__kernel`.
        crate::err(&format!(
            "fpgacl aoc: warning: {} defines no kernels; the .aocx holds none\n",
            args.source.display()
        ));
    }
    let report = analysis::analyze(&module, &board);
    let report_json = serde_json::to_vec(&report).map_err(|e| e.to_string())?;
    let container = aocx::Aocx::new(
        options,
        board.name.clone(),
        module.sources.clone(),
        vec![fpgacl_kernel_compiler::FileId(0)],
        report_json,
    );
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.source.with_extension("aocx"));
    std::fs::write(&output, aocx::write(&container))
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    if args.dump_ir {
        crate::out(&dump::dump_module(&module));
    }
    if args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        crate::out(&format!("{json}\n"));
    } else if args.report {
        crate::out(&analysis::render::render(&module.sources, &report));
    }
    if args.verbose {
        crate::err(&format!("fpgacl aoc: wrote {}\n", output.display()));
    }
    Ok(ExitCode::SUCCESS)
}
