//! Build options: the string a host passes to `clBuildProgram`/`clCompileProgram`, and the
//! flags of `fpgacl aoc`.
//!
//! Accepted: the OpenCL 1.2/2.0 options (5.6.4: `-D`, `-I`, `-cl-*`, `-w`, `-Werror`, `-g`),
//! `-U`, and the Intel offline-compiler flags hosts commonly pass (`-march=emulator`,
//! `-board=`, `-profile`, `-v`, `-report`, `-fp-relaxed`, `-fpc`, ...). Anything else is an
//! error (the runtime maps it to `CL_INVALID_BUILD_OPTIONS`). Values may be quoted as in a
//! shell: `-D MSG="a b"`, `-I "dir with space"`, `-D S=\"text\"`.

use crate::preprocess::PpOptions;
use std::path::PathBuf;

/// OpenCL C language version selected by `-cl-std=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ClStd {
    Cl10,
    Cl11,
    Cl12,
    Cl20,
}

impl ClStd {
    /// The value of `__OPENCL_C_VERSION__` for this version.
    pub fn version(self) -> u32 {
        match self {
            ClStd::Cl10 => 100,
            ClStd::Cl11 => 110,
            ClStd::Cl12 => 120,
            ClStd::Cl20 => 200,
        }
    }
}

/// Parsed build options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D name[=value]`, in order (`None` = defined as `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`, in order.
    pub undefines: Vec<String>,
    /// `-I dir`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-cl-std=`; `None` means OpenCL C 1.2 (the highest 1.x version of the device).
    pub cl_std: Option<ClStd>,
    /// `-Werror`: warnings are errors.
    pub werror: bool,
    /// `-w`: no warnings.
    pub no_warnings: bool,
    /// `-cl-fast-relaxed-math` (implies the other relaxed-math flags).
    pub fast_relaxed_math: bool,
    pub mad_enable: bool,
    pub no_signed_zeros: bool,
    pub unsafe_math_optimizations: bool,
    pub finite_math_only: bool,
    pub single_precision_constant: bool,
    pub denorms_are_zero: bool,
    pub fp32_correctly_rounded_divide_sqrt: bool,
    pub uniform_work_group_size: bool,
    /// `-cl-opt-disable`.
    pub opt_disable: bool,
    /// `-cl-kernel-arg-info`: keep argument names and qualifiers for `clGetKernelArgInfo`.
    pub kernel_arg_info: bool,
    /// `-g`.
    pub debug_info: bool,
    /// `-march=emulator`.
    pub emulator: bool,
    /// `-board=NAME`.
    pub board: Option<String>,
    /// `-profile[=all|autorun|enqueued]`: instrument for the dynamic profiler.
    pub profile: bool,
    /// `-v`.
    pub verbose: bool,
    /// `-report`.
    pub report: bool,
    /// `-fp-relaxed`: relaxed floating-point operation ordering (Intel).
    pub fp_relaxed: bool,
    /// `-fpc`: fewer floating-point rounding operations (Intel).
    pub fpc: bool,
    /// `-no-interleaving=<memory type>` (Intel): the banks of that global memory type are
    /// not burst-interleaved; each buffer lives in the bank its `CL_CHANNEL_n_INTELFPGA` /
    /// `CL_MEM_CHANNEL_INTEL` flag names (`default`: the board's first memory type). The
    /// timing model's rule B5 reads it back from the program's options.
    pub no_interleaving: Option<String>,
    /// `-clock=<MHz>`: the kernel clock the user's design closed timing at. Kept in the
    /// program's options (and so in its `.aocx`); the timing model runs at this fmax instead
    /// of the board's default.
    /// In kHz (whole), so that the options stay `Eq`; [`BuildOptions::clock_mhz`].
    pub clock_khz: Option<u64>,
    /// `-include FILE` (GCC's spelling): files read as if `#include "FILE"` were the first
    /// lines of every main source file, in order (Intel's flow for RTL library headers).
    pub forced_includes: Vec<String>,
    /// The options string as given.
    pub raw: String,
}

impl BuildOptions {
    /// The kernel clock given with `-clock=<MHz>`, if any.
    pub fn clock_mhz(&self) -> Option<f64> {
        self.clock_khz.map(|k| k as f64 / 1000.0)
    }

    /// Parses an options string. Unknown options and missing or malformed values give an
    /// error message naming the option.
    pub fn parse(s: &str) -> Result<BuildOptions, String> {
        let words = split_words(s)?;
        let mut o = BuildOptions {
            raw: s.to_string(),
            ..BuildOptions::default()
        };
        let mut it = words.into_iter();
        while let Some(w) = it.next() {
            let mut value_of = |flag: &str, rest: &str| -> Result<String, String> {
                if rest.is_empty() {
                    it.next()
                        .ok_or_else(|| format!("missing argument to '{flag}'"))
                } else {
                    Ok(rest.to_string())
                }
            };
            if let Some(rest) = w.strip_prefix("-D") {
                let v = value_of("-D", rest)?;
                o.defines.push(parse_define(&v)?);
                continue;
            }
            if let Some(rest) = w.strip_prefix("-U") {
                let v = value_of("-U", rest)?;
                if !is_identifier(&v) {
                    return Err(format!("macro name '{v}' given to -U is not an identifier"));
                }
                o.undefines.push(v);
                continue;
            }
            if let Some(rest) = w.strip_prefix("-I") {
                let v = value_of("-I", rest)?;
                o.include_dirs.push(PathBuf::from(v));
                continue;
            }
            if let Some(v) = w.strip_prefix("-cl-std=") {
                o.cl_std = Some(match v {
                    "CL1.0" => ClStd::Cl10,
                    "CL1.1" => ClStd::Cl11,
                    "CL1.2" => ClStd::Cl12,
                    "CL2.0" => ClStd::Cl20,
                    _ => {
                        return Err(format!(
                        "invalid value '{v}' in '-cl-std=' (expected CL1.0, CL1.1, CL1.2 or CL2.0)"
                    ))
                    }
                });
                continue;
            }
            if let Some(v) = w.strip_prefix("-board=") {
                if v.is_empty() {
                    return Err("missing board name in '-board='".into());
                }
                o.board = Some(v.to_string());
                continue;
            }
            if let Some(v) = w.strip_prefix("-no-interleaving=") {
                if v.is_empty()
                    || !v
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(format!(
                        "invalid value '{v}' in '-no-interleaving=' (expected default or a global memory type name)"
                    ));
                }
                o.no_interleaving = Some(v.to_string());
                continue;
            }
            if let Some(v) = w.strip_prefix("-clock=") {
                let mhz = v
                    .strip_suffix("MHz")
                    .or_else(|| v.strip_suffix("mhz"))
                    .unwrap_or(v);
                match mhz.parse::<f64>() {
                    Ok(f) if (0.001..=10_000.0).contains(&f) => {
                        o.clock_khz = Some((f * 1000.0).round() as u64)
                    }
                    _ => {
                        return Err(format!(
                            "invalid value '{v}' in '-clock=' (expected a kernel clock in MHz, e.g. -clock=240)"
                        ))
                    }
                }
                continue;
            }
            if let Some(v) = w.strip_prefix("-march=") {
                match v {
                    "emulator" => o.emulator = true,
                    "simulator" => {}
                    _ => {
                        return Err(format!(
                            "invalid value '{v}' in '-march=' (expected emulator or simulator)"
                        ))
                    }
                }
                continue;
            }
            if let Some(v) = w.strip_prefix("-profile=") {
                match v {
                    "all" | "autorun" | "enqueued" => o.profile = true,
                    _ => {
                        return Err(format!(
                        "invalid value '{v}' in '-profile=' (expected all, autorun or enqueued)"
                    ))
                    }
                }
                continue;
            }
            if w == "-include" {
                let v = value_of("-include", "")?;
                o.forced_includes.push(v);
                continue;
            }
            if let Some(v) = w
                .strip_prefix("-seed=")
                .or_else(|| w.strip_prefix("-const-cache-bytes="))
            {
                if v.parse::<u64>().is_err() {
                    return Err(format!("'{w}' needs a non-negative integer"));
                }
                continue;
            }
            match w.as_str() {
                "-cl-fast-relaxed-math" => {
                    o.fast_relaxed_math = true;
                    o.mad_enable = true;
                    o.no_signed_zeros = true;
                    o.unsafe_math_optimizations = true;
                    o.finite_math_only = true;
                }
                "-cl-mad-enable" => o.mad_enable = true,
                "-cl-no-signed-zeros" => o.no_signed_zeros = true,
                "-cl-unsafe-math-optimizations" => {
                    o.unsafe_math_optimizations = true;
                    o.mad_enable = true;
                    o.no_signed_zeros = true;
                }
                "-cl-finite-math-only" => o.finite_math_only = true,
                "-cl-single-precision-constant" => o.single_precision_constant = true,
                "-cl-denorms-are-zero" => o.denorms_are_zero = true,
                "-cl-fp32-correctly-rounded-divide-sqrt" => {
                    o.fp32_correctly_rounded_divide_sqrt = true
                }
                "-cl-uniform-work-group-size" => o.uniform_work_group_size = true,
                "-cl-strict-aliasing" | "-cl-no-subgroup-ifp" => {}
                "-cl-opt-disable" => o.opt_disable = true,
                "-cl-kernel-arg-info" => o.kernel_arg_info = true,
                "-Werror" => o.werror = true,
                "-w" => o.no_warnings = true,
                "-g" => o.debug_info = true,
                "-g0" => o.debug_info = false,
                "-profile" => o.profile = true,
                "-v" => o.verbose = true,
                "-report" => o.report = true,
                "-fp-relaxed" => o.fp_relaxed = true,
                "-fpc" => o.fpc = true,
                "-fast-compile" | "-high-effort" | "-incremental" => {}
                "-board" => {
                    let v = it
                        .next()
                        .ok_or_else(|| "missing argument to '-board'".to_string())?;
                    o.board = Some(v);
                }
                _ => return Err(format!("unknown build option '{w}'")),
            }
        }
        Ok(o)
    }

    /// The OpenCL C version compiled for (`__OPENCL_C_VERSION__`).
    pub fn cl_c_version(&self) -> u32 {
        self.cl_std.unwrap_or(ClStd::Cl12).version()
    }

    /// What the preprocessor needs from these options.
    pub fn pp_options(&self) -> PpOptions {
        PpOptions {
            defines: self.defines.clone(),
            undefines: self.undefines.clone(),
            include_dirs: self.include_dirs.clone(),
            cl_c_version: self.cl_c_version(),
            board: self.board.clone(),
            fast_relaxed_math: self.fast_relaxed_math,
            finite_math_only: self.finite_math_only,
            forced_includes: self.forced_includes.clone(),
        }
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// `name`, `name=value` or `name(params)=value`.
fn parse_define(v: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match v.split_once('=') {
        Some((n, val)) => (n, Some(val.to_string())),
        None => (v, None),
    };
    let base = match name.split_once('(') {
        Some((b, params)) if params.ends_with(')') => b,
        Some(_) => return Err(format!("malformed macro name '{name}' given to -D")),
        None => name,
    };
    if !is_identifier(base) {
        if name.is_empty() {
            return Err("macro name missing after -D".into());
        }
        return Err(format!(
            "macro name '{name}' given to -D is not an identifier"
        ));
    }
    Ok((name.to_string(), value))
}

/// Whether the options string `options` holds the word `opt` (split like [`split_words`];
/// a string that does not split holds nothing).
pub fn has_option(options: &str, opt: &str) -> bool {
    split_words(options).is_ok_and(|w| w.iter().any(|o| o == opt))
}

/// Splits an options string into words like a POSIX shell: white space separates words,
/// single quotes keep text literally, double quotes keep text with `\"` and `\\` escapes, and
/// a backslash outside quotes escapes the next character.
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut it = s.chars();
    while let Some(c) = it.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match it.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unterminated ' in build options".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match it.next() {
                        Some('"') => break,
                        Some('\\') => match it.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => return Err("unterminated \" in build options".into()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unterminated \" in build options".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = it.next() {
                    cur.push(x);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_whitespace() {
        let o = BuildOptions::parse("  \t ").unwrap();
        assert_eq!(
            o,
            BuildOptions {
                raw: "  \t ".into(),
                ..BuildOptions::default()
            }
        );
        assert_eq!(o.cl_c_version(), 120);
    }

    #[test]
    fn defines_and_includes() {
        let o = BuildOptions::parse(
            "-DN=16 -D FLAG -D 'F(x)=(x+1)' -D MSG=\\\"hi\\\" -D SP=\"a b\" -Iinc -I \"dir with space\" -U X",
        )
        .unwrap();
        assert_eq!(
            o.defines,
            vec![
                ("N".to_string(), Some("16".to_string())),
                ("FLAG".to_string(), None),
                ("F(x)".to_string(), Some("(x+1)".to_string())),
                ("MSG".to_string(), Some("\"hi\"".to_string())),
                ("SP".to_string(), Some("a b".to_string())),
            ]
        );
        assert_eq!(
            o.include_dirs,
            vec![PathBuf::from("inc"), PathBuf::from("dir with space")]
        );
        assert_eq!(o.undefines, vec!["X".to_string()]);
        let pp = o.pp_options();
        assert_eq!(pp.defines, o.defines);
        assert_eq!(pp.include_dirs, o.include_dirs);
    }

    #[test]
    fn cl_flags() {
        let o = BuildOptions::parse(
            "-cl-std=CL2.0 -cl-fast-relaxed-math -cl-opt-disable -cl-kernel-arg-info -Werror -w -g \
             -cl-denorms-are-zero -cl-single-precision-constant -cl-fp32-correctly-rounded-divide-sqrt",
        )
        .unwrap();
        assert_eq!(o.cl_std, Some(ClStd::Cl20));
        assert_eq!(o.cl_c_version(), 200);
        assert!(o.fast_relaxed_math && o.mad_enable && o.finite_math_only && o.no_signed_zeros);
        assert!(o.opt_disable && o.kernel_arg_info && o.werror && o.no_warnings && o.debug_info);
        assert!(o.denorms_are_zero && o.single_precision_constant);
        assert!(o.fp32_correctly_rounded_divide_sqrt);
        let pp = o.pp_options();
        assert!(pp.fast_relaxed_math && pp.finite_math_only);
        assert_eq!(pp.cl_c_version, 200);
        for v in ["CL1.0", "CL1.1", "CL1.2"] {
            assert!(BuildOptions::parse(&format!("-cl-std={v}")).is_ok());
        }
    }

    #[test]
    fn intel_flags() {
        let o = BuildOptions::parse(
            "-march=emulator -board=a10gx -profile -v -report -fp-relaxed -fpc -board s10mx -profile=all",
        )
        .unwrap();
        assert!(o.emulator && o.profile && o.verbose && o.report && o.fp_relaxed && o.fpc);
        assert_eq!(o.board.as_deref(), Some("s10mx"));
        assert_eq!(o.pp_options().board.as_deref(), Some("s10mx"));
        assert_eq!(o.no_interleaving, None);
        let o = BuildOptions::parse("-no-interleaving=default").unwrap();
        assert_eq!(o.no_interleaving.as_deref(), Some("default"));
        let o = BuildOptions::parse("-no-interleaving=DDR4").unwrap();
        assert_eq!(o.no_interleaving.as_deref(), Some("DDR4"));
        assert_eq!(o.clock_mhz(), None);
        let o = BuildOptions::parse("-clock=240 -board=p520_max_sg280h").unwrap();
        assert_eq!(o.clock_mhz(), Some(240.0));
        assert_eq!(
            BuildOptions::parse("-clock=312.5MHz").unwrap().clock_mhz(),
            Some(312.5)
        );
        for bad in ["-clock=", "-clock=fast", "-clock=0", "-clock=-5"] {
            let e = BuildOptions::parse(bad).unwrap_err();
            assert!(e.starts_with("invalid value"), "{bad}: {e}");
        }
        let o = BuildOptions::parse("-clock=300 -include lib.h -include \"b c.h\"").unwrap();
        assert_eq!(o.forced_includes, ["lib.h", "b c.h"]);
        assert_eq!(o.pp_options().forced_includes, ["lib.h", "b c.h"]);
        assert!(BuildOptions::parse("-include")
            .unwrap_err()
            .contains("-include"));
    }

    #[test]
    fn errors() {
        let e = |s: &str| BuildOptions::parse(s).unwrap_err();
        assert_eq!(e("-foo"), "unknown build option '-foo'");
        assert_eq!(
            e("-cl-std=CL3.1").split(" (").next().unwrap(),
            "invalid value 'CL3.1' in '-cl-std='"
        );
        assert_eq!(e("-D"), "missing argument to '-D'");
        assert_eq!(e("-I"), "missing argument to '-I'");
        assert_eq!(
            e("-D 1X=2"),
            "macro name '1X' given to -D is not an identifier"
        );
        assert_eq!(e("-D =2"), "macro name missing after -D");
        assert_eq!(e("-D 'F(x=1'"), "malformed macro name 'F(x' given to -D");
        assert_eq!(e("-DX=\"a"), "unterminated \" in build options");
        assert_eq!(e("-DX='a"), "unterminated ' in build options");
        assert_eq!(
            e("-march=gpu").split(" (").next().unwrap(),
            "invalid value 'gpu' in '-march='"
        );
        assert_eq!(e("-U 3"), "macro name '3' given to -U is not an identifier");
        assert_eq!(e("cl-mad-enable"), "unknown build option 'cl-mad-enable'");
        for bad in [
            "-no-interleaving=",
            "-no-interleaving=a/b",
            "-no-interleaving",
        ] {
            assert!(BuildOptions::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn split_words_like_a_shell() {
        assert_eq!(
            split_words(r#"a "b c" 'd e' f\ g "h\"i" "x\y""#).unwrap(),
            ["a", "b c", "d e", "f g", "h\"i", "x\\y"]
        );
        assert_eq!(split_words("\"\"").unwrap(), [""]);
    }
}
