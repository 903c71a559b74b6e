//! The result file written by `diff_driver.c`, parsed.
//!
//! ```text
//! fpgacl-diff-output 1
//! kernel NAME
//! buffer ARG TYPE COUNT CHECK
//! <COUNT hexadecimal bit patterns, 16 per line>
//! ...
//! end
//! ```

use std::fmt;

/// Element type of an output buffer (the spec's scalar type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElemType {
    /// `char` (8-bit signed).
    Char,
    /// `uchar`.
    Uchar,
    /// `short`.
    Short,
    /// `ushort`.
    Ushort,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `long`.
    Long,
    /// `ulong`.
    Ulong,
    /// `float` (IEEE binary32).
    Float,
    /// `half` (IEEE binary16 bit patterns).
    Half,
}

impl ElemType {
    /// Parse the spec's type name.
    pub fn parse(name: &str) -> Option<ElemType> {
        Some(match name {
            "char" => ElemType::Char,
            "uchar" => ElemType::Uchar,
            "short" => ElemType::Short,
            "ushort" => ElemType::Ushort,
            "int" => ElemType::Int,
            "uint" => ElemType::Uint,
            "long" => ElemType::Long,
            "ulong" => ElemType::Ulong,
            "float" => ElemType::Float,
            "half" => ElemType::Half,
            _ => return None,
        })
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::Char | ElemType::Uchar => 1,
            ElemType::Short | ElemType::Ushort | ElemType::Half => 2,
            ElemType::Int | ElemType::Uint | ElemType::Float => 4,
            ElemType::Long | ElemType::Ulong => 8,
        }
    }

    /// The spec's name for the type.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::Char => "char",
            ElemType::Uchar => "uchar",
            ElemType::Short => "short",
            ElemType::Ushort => "ushort",
            ElemType::Int => "int",
            ElemType::Uint => "uint",
            ElemType::Long => "long",
            ElemType::Ulong => "ulong",
            ElemType::Float => "float",
            ElemType::Half => "half",
        }
    }

    /// A human-readable rendering of the bit pattern `bits`.
    pub fn render(self, bits: u64) -> String {
        match self {
            ElemType::Char => format!("{}", bits as u8 as i8),
            ElemType::Short => format!("{}", bits as u16 as i16),
            ElemType::Int => format!("{}", bits as u32 as i32),
            ElemType::Long => format!("{}", bits as i64),
            ElemType::Uchar | ElemType::Ushort | ElemType::Uint | ElemType::Ulong => {
                format!("{bits}")
            }
            ElemType::Float => format!("{:e} (0x{:08x})", f32::from_bits(bits as u32), bits),
            ElemType::Half => format!("half 0x{bits:04x}"),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One output buffer of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputBuffer {
    /// Kernel argument index.
    pub arg: u32,
    /// Element type.
    pub ty: ElemType,
    /// The comparison rule named in the spec (`check=`), see [`super::Check`].
    pub check: String,
    /// Element bit patterns (zero-extended).
    pub values: Vec<u64>,
}

/// A whole result file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffOutput {
    /// The kernel that ran.
    pub kernel: String,
    /// The `out` and `inout` buffers, in argument order.
    pub buffers: Vec<OutputBuffer>,
}

/// Why a result file could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("result file line {line}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl DiffOutput {
    /// Parse the driver's result file.
    pub fn parse(text: &str) -> Result<DiffOutput, ParseError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let err = |line: usize, message: String| ParseError { line, message };
        match lines.next() {
            Some((_, "fpgacl-diff-output 1")) => {}
            Some((n, other)) => return Err(err(n, format!("bad header {other:?}"))),
            None => return Err(err(0, "empty file".into())),
        }
        let kernel = match lines.next() {
            Some((_, l)) if l.starts_with("kernel ") => l["kernel ".len()..].to_string(),
            Some((n, l)) => return Err(err(n, format!("expected `kernel NAME`, got {l:?}"))),
            None => return Err(err(1, "missing kernel line".into())),
        };
        let mut buffers = Vec::new();
        loop {
            let Some((n, line)) = lines.next() else {
                return Err(err(0, "missing `end` (truncated file)".into()));
            };
            if line == "end" {
                break;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 5 || f[0] != "buffer" {
                return Err(err(
                    n,
                    format!("expected `buffer ARG TYPE COUNT CHECK`, got {line:?}"),
                ));
            }
            let arg = f[1]
                .parse()
                .map_err(|_| err(n, format!("bad arg {:?}", f[1])))?;
            let ty = ElemType::parse(f[2]).ok_or_else(|| err(n, format!("bad type {:?}", f[2])))?;
            let count: usize = f[3]
                .parse()
                .map_err(|_| err(n, format!("bad count {:?}", f[3])))?;
            let mut values = Vec::with_capacity(count);
            while values.len() < count {
                let Some((n, row)) = lines.next() else {
                    return Err(err(
                        0,
                        format!("buffer {arg}: only {} of {count} values", values.len()),
                    ));
                };
                for word in row.split_whitespace() {
                    if word.len() != ty.size() * 2 {
                        return Err(err(
                            n,
                            format!("value {word:?} is not {} hex digits", ty.size() * 2),
                        ));
                    }
                    let v = u64::from_str_radix(word, 16)
                        .map_err(|_| err(n, format!("bad hex value {word:?}")))?;
                    values.push(v);
                }
            }
            if values.len() != count {
                return Err(err(
                    0,
                    format!("buffer {arg}: {} values, expected {count}", values.len()),
                ));
            }
            buffers.push(OutputBuffer {
                arg,
                ty,
                check: f[4].to_string(),
                values,
            });
        }
        Ok(DiffOutput { kernel, buffers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_result_file() {
        let text = "fpgacl-diff-output 1\nkernel k\nbuffer 1 float 3 sin\n3f800000 00000000\n7fc00000\nbuffer 2 char 2 exact\nff 01\nend\n";
        let out = DiffOutput::parse(text).expect("parse");
        assert_eq!(out.kernel, "k");
        assert_eq!(out.buffers.len(), 2);
        assert_eq!(out.buffers[0].values, vec![0x3f80_0000, 0, 0x7fc0_0000]);
        assert_eq!(out.buffers[0].check, "sin");
        assert_eq!(out.buffers[1].ty, ElemType::Char);
        assert_eq!(ElemType::Char.render(out.buffers[1].values[0]), "-1");
    }

    #[test]
    fn rejects_truncated_and_malformed_files() {
        assert!(DiffOutput::parse("").is_err());
        assert!(DiffOutput::parse(
            "fpgacl-diff-output 1\nkernel k\nbuffer 1 int 2 exact\n00000001\n"
        )
        .is_err());
        assert!(DiffOutput::parse(
            "fpgacl-diff-output 1\nkernel k\nbuffer 1 int 1 exact\n001\nend\n"
        )
        .is_err());
        assert!(DiffOutput::parse(
            "fpgacl-diff-output 1\nkernel k\nbuffer 1 quad 1 exact\n00\nend\n"
        )
        .is_err());
        assert!(DiffOutput::parse("fpgacl-diff-output 2\n").is_err());
        assert!(DiffOutput::parse("fpgacl-diff-output 1\nkernel k\n").is_err());
    }
}
