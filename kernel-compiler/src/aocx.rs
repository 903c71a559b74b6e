//! The `.aocx` container: fpgacl's own versioned binary for a built program.
//!
//! It holds what is needed to rebuild the program exactly (every source file that took part,
//! main files and includes, and the build options), the board it was built for, and the
//! static report (opaque bytes produced by the analysis). `clCreateProgramWithBinary` reads it
//! back; anything else is rejected with a clear message.
//!
//! Layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FPGACLX\0` |
//! | 8 | 2 | format major version ([`FORMAT_MAJOR`]) |
//! | 10 | 2 | format minor version ([`FORMAT_MINOR`]) |
//! | 12 | 8 | payload length in bytes |
//! | 20 | 4 | CRC-32 (IEEE) of the payload |
//! | 24 | n | payload: [`Aocx`] encoded with bincode 2 (standard configuration, serde) |
//!
//! A reader accepts any minor version of its major version: newer minors may only append
//! fields, and trailing payload bytes are ignored. Version 1.1 appended [`Aocx::kind`] and
//! [`Aocx::units`] (separate compilation); a 1.0 file reads as an executable without units.
//!
//! [`intel`] reads `.aocx` files built by Intel's `aoc` (ELF) into this container: their
//! OpenCL source and `aoc` flags, from which the runtime rebuilds them.

pub mod intel;

use crate::link::Unit;
use crate::preprocess::MapResolver;
use crate::source::{FileId, SourceMap};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The first bytes of every `.aocx` written by fpgacl.
pub const MAGIC: [u8; 8] = *b"FPGACLX\0";
/// Format major version: a reader rejects other majors.
pub const FORMAT_MAJOR: u16 = 1;
/// Format minor version.
pub const FORMAT_MINOR: u16 = 1;
const HEADER_LEN: usize = 24;
/// Largest payload accepted (protects against absurd lengths in damaged files).
const MAX_PAYLOAD: usize = 1 << 30;

/// What an `.aocx` holds (`CL_PROGRAM_BINARY_TYPE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryKind {
    /// An executable: built from [`Aocx::main_files`] with [`Aocx::options`], or, when
    /// [`Aocx::units`] is not empty, linked from those units with the link options.
    #[default]
    Executable,
    /// A compiled object (`clCompileProgram`): one unit.
    Object,
    /// A library (`clLinkProgram -create-library`).
    Library,
}

/// Contents of format 1.0 (read for compatibility).
#[derive(Deserialize)]
struct AocxV10 {
    fpgacl_version: String,
    options: String,
    board: String,
    sources: SourceMap,
    main_files: Vec<FileId>,
    report: Vec<u8>,
}

/// Contents of an `.aocx`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Aocx {
    /// Version of fpgacl that wrote the file (`CARGO_PKG_VERSION`).
    pub fpgacl_version: String,
    /// Build options as given (`BuildOptions::raw`).
    pub options: String,
    /// Board the program was built for.
    pub board: String,
    /// Every file of the build: main sources and everything they included.
    pub sources: SourceMap,
    /// The compilation units, in order (usually one; several after `clCreateProgramWithSource`
    /// with several strings or after linking).
    pub main_files: Vec<FileId>,
    /// Static report produced by the analysis (opaque bytes, typically JSON).
    pub report: Vec<u8>,
    /// Executable, compiled object or library (format 1.1).
    pub kind: BinaryKind,
    /// The compilation units of an object, a library or a linked executable, each with its
    /// own options, files and preprocessed tokens (format 1.1; empty for a program built from
    /// source in one step).
    pub units: Vec<Unit>,
}

impl Aocx {
    /// A container for the current fpgacl version.
    pub fn new(
        options: impl Into<String>,
        board: impl Into<String>,
        sources: SourceMap,
        main_files: Vec<FileId>,
        report: Vec<u8>,
    ) -> Self {
        Aocx {
            fpgacl_version: env!("CARGO_PKG_VERSION").to_string(),
            options: options.into(),
            board: board.into(),
            sources,
            main_files,
            report,
            kind: BinaryKind::Executable,
            units: Vec::new(),
        }
    }

    /// The container of a compiled object, a library or a linked executable: its units
    /// (the first unit's files are also stored as [`Aocx::sources`] for tools that list them).
    pub fn with_units(
        kind: BinaryKind,
        options: impl Into<String>,
        board: impl Into<String>,
        units: Vec<Unit>,
    ) -> Self {
        let sources = units.first().map(|u| u.sources.clone()).unwrap_or_default();
        let main_files = if sources.files.is_empty() {
            vec![]
        } else {
            vec![FileId(0)]
        };
        Aocx {
            kind,
            units,
            ..Aocx::new(options, board, sources, main_files, Vec::new())
        }
    }

    /// An include resolver over the stored files, for rebuilding with the same `-I` folders.
    pub fn resolver(&self, include_dirs: Vec<PathBuf>) -> MapResolver {
        MapResolver::from_sources(&self.sources, include_dirs)
    }
}

/// Why bytes are not a readable `.aocx`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AocxError {
    #[error("not an fpgacl .aocx file (bad magic bytes)")]
    BadMagic,
    #[error("truncated .aocx file: {needed} bytes needed, {got} present")]
    Truncated { needed: u64, got: u64 },
    #[error(".aocx format version {major}.{minor} is not supported (this fpgacl reads {FORMAT_MAJOR}.x); rebuild the program with this fpgacl")]
    UnsupportedVersion { major: u16, minor: u16 },
    #[error(".aocx payload of {0} bytes is too large")]
    TooLarge(u64),
    #[error(
        "corrupt .aocx file: checksum mismatch (stored {stored:08x}, computed {computed:08x})"
    )]
    ChecksumMismatch { stored: u32, computed: u32 },
    #[error("corrupt .aocx file: {0}")]
    Corrupt(String),
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_PAYLOAD>()
}

/// Encodes a container.
pub fn write(a: &Aocx) -> Vec<u8> {
    // Encoding plain data (strings, vectors, integers) into a Vec cannot fail.
    let payload = bincode::serde::encode_to_vec(a, bincode::config::standard()).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_MAJOR.to_le_bytes());
    out.extend_from_slice(&FORMAT_MINOR.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Whether bytes start like an `.aocx` (magic only; [`read`] checks everything).
pub fn looks_like_aocx(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Decodes a container, checking magic, version, length and checksum, and that the stored
/// file ids refer to stored files. Never panics.
pub fn read(bytes: &[u8]) -> Result<Aocx, AocxError> {
    let got = bytes.len() as u64;
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            AocxError::Truncated {
                needed: HEADER_LEN as u64,
                got,
            }
        } else {
            AocxError::BadMagic
        });
    }
    if bytes[..8] != MAGIC {
        return Err(AocxError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(AocxError::Truncated {
            needed: HEADER_LEN as u64,
            got,
        });
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let major = u16_at(8);
    let minor = u16_at(10);
    if major != FORMAT_MAJOR {
        return Err(AocxError::UnsupportedVersion { major, minor });
    }
    let mut len8 = [0u8; 8];
    len8.copy_from_slice(&bytes[12..20]);
    let len = u64::from_le_bytes(len8);
    if len > MAX_PAYLOAD as u64 {
        return Err(AocxError::TooLarge(len));
    }
    let needed = HEADER_LEN as u64 + len;
    if got < needed {
        return Err(AocxError::Truncated { needed, got });
    }
    let mut crc4 = [0u8; 4];
    crc4.copy_from_slice(&bytes[20..24]);
    let stored = u32::from_le_bytes(crc4);
    let payload = &bytes[HEADER_LEN..needed as usize];
    let computed = crc32fast::hash(payload);
    if stored != computed {
        return Err(AocxError::ChecksumMismatch { stored, computed });
    }
    let decoded: Result<(Aocx, usize), _> = bincode::serde::decode_from_slice(payload, config());
    let a = match decoded {
        Ok((a, _used)) => a,
        // Format 1.0 ends before the fields 1.1 appended.
        Err(e) if minor == 0 => {
            let (v, _used): (AocxV10, usize) = bincode::serde::decode_from_slice(payload, config())
                .map_err(|_| AocxError::Corrupt(e.to_string()))?;
            Aocx {
                fpgacl_version: v.fpgacl_version,
                options: v.options,
                board: v.board,
                sources: v.sources,
                main_files: v.main_files,
                report: v.report,
                kind: BinaryKind::Executable,
                units: Vec::new(),
            }
        }
        Err(e) => return Err(AocxError::Corrupt(e.to_string())),
    };
    let nfiles = a.sources.files.len();
    if let Some(bad) = a.main_files.iter().find(|f| f.0 as usize >= nfiles) {
        return Err(AocxError::Corrupt(format!(
            "main file {} is not among the {nfiles} stored files",
            bad.0
        )));
    }
    if matches!(a.kind, BinaryKind::Object | BinaryKind::Library) && a.units.is_empty() {
        return Err(AocxError::Corrupt(
            "a compiled object or library without compilation units".into(),
        ));
    }
    for (k, u) in a.units.iter().enumerate() {
        let n = u.sources.files.len();
        if n == 0 || u.tokens.iter().any(|t| t.loc.file.0 as usize >= n) {
            return Err(AocxError::Corrupt(format!(
                "compilation unit {} refers to files it does not hold",
                k + 1
            )));
        }
        if !matches!(
            u.tokens.last().map(|t| &t.kind),
            Some(crate::token::TokenKind::Eof)
        ) {
            return Err(AocxError::Corrupt(format!(
                "compilation unit {} is truncated",
                k + 1
            )));
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Aocx {
        let mut sm = SourceMap::default();
        let main = sm.add("k.cl", "#include \"a.h\"\nkernel void k() { A; }\n");
        sm.add("a.h", "#define A 1\n");
        Aocx::new(
            "-DX=1 -I inc",
            "a10gx",
            sm,
            vec![main],
            b"{\"kernels\":[]}".to_vec(),
        )
    }

    #[test]
    fn round_trip() {
        let a = sample();
        let bytes = write(&a);
        assert!(looks_like_aocx(&bytes));
        assert_eq!(&bytes[..8], b"FPGACLX\0");
        let b = read(&bytes).unwrap();
        assert_eq!(a, b);
        assert_eq!(b.fpgacl_version, env!("CARGO_PKG_VERSION"));
        // Deterministic encoding.
        assert_eq!(write(&b), bytes);
    }

    #[test]
    fn rejects_bad_input() {
        let bytes = write(&sample());
        assert_eq!(read(b""), Err(AocxError::BadMagic));
        assert_eq!(read(b"\x7fELF\x02\x01\x01\0\0\0"), Err(AocxError::BadMagic));
        assert_eq!(
            read(&bytes[..5]),
            Err(AocxError::Truncated { needed: 24, got: 5 })
        );
        assert_eq!(
            read(&bytes[..30]),
            Err(AocxError::Truncated {
                needed: bytes.len() as u64,
                got: 30
            })
        );
        let mut v = bytes.clone();
        v[8] = 2;
        assert_eq!(
            read(&v),
            Err(AocxError::UnsupportedVersion {
                major: 2,
                minor: FORMAT_MINOR
            })
        );
        assert!(read(&v)
            .unwrap_err()
            .to_string()
            .contains(&format!("version 2.{FORMAT_MINOR} is not supported")));
        let mut v = bytes.clone();
        let last = v.len() - 1;
        v[last] ^= 0x55;
        assert!(matches!(read(&v), Err(AocxError::ChecksumMismatch { .. })));
        let mut v = bytes.clone();
        v[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(read(&v), Err(AocxError::TooLarge(u64::MAX)));
    }

    #[test]
    fn newer_minor_with_appended_fields_is_read() {
        let a = sample();
        let mut payload = bincode::serde::encode_to_vec(&a, bincode::config::standard()).unwrap();
        payload.extend_from_slice(b"future field");
        let mut v = Vec::new();
        v.extend_from_slice(&MAGIC);
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&7u16.to_le_bytes());
        v.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        v.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        v.extend_from_slice(&payload);
        assert_eq!(read(&v).unwrap(), a);
    }

    #[test]
    fn valid_checksum_over_garbage_is_corrupt_not_panic() {
        for payload in [
            &b""[..],
            b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
            b"\x01\x02",
        ] {
            let mut v = Vec::new();
            v.extend_from_slice(&MAGIC);
            v.extend_from_slice(&1u16.to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
            v.extend_from_slice(&(payload.len() as u64).to_le_bytes());
            v.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
            v.extend_from_slice(payload);
            assert!(
                matches!(read(&v), Err(AocxError::Corrupt(_))),
                "{payload:?}"
            );
        }
        // Bad main-file index.
        let mut a = sample();
        a.main_files = vec![FileId(9)];
        assert!(matches!(read(&write(&a)), Err(AocxError::Corrupt(_))));
    }

    #[test]
    fn format_1_0_reads_as_an_executable() {
        #[derive(Serialize)]
        struct V10<'a> {
            fpgacl_version: &'a str,
            options: &'a str,
            board: &'a str,
            sources: &'a SourceMap,
            main_files: &'a [FileId],
            report: &'a [u8],
        }
        let a = sample();
        let old = V10 {
            fpgacl_version: &a.fpgacl_version,
            options: &a.options,
            board: &a.board,
            sources: &a.sources,
            main_files: &a.main_files,
            report: &a.report,
        };
        let payload = bincode::serde::encode_to_vec(&old, bincode::config::standard()).unwrap();
        let mut v = Vec::new();
        v.extend_from_slice(&MAGIC);
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        v.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        v.extend_from_slice(&payload);
        let b = read(&v).unwrap();
        assert_eq!(b, a);
        assert_eq!(b.kind, BinaryKind::Executable);
    }

    #[test]
    fn objects_round_trip_and_damaged_units_are_rejected() {
        let out = crate::link::compile(
            &[crate::SourceFile {
                name: "k.cl".into(),
                text: "#include \"h.h\"\nkernel void k(global int *p) { *p = H; }\n".into(),
            }],
            "-D Q=1",
            &[crate::SourceFile {
                name: "h.h".into(),
                text: "#define H 3\n".into(),
            }],
        )
        .unwrap();
        let obj = out.object.unwrap();
        let a = Aocx::with_units(BinaryKind::Object, "-D Q=1", "a10gx", obj.units.clone());
        let b = read(&write(&a)).unwrap();
        assert_eq!(b, a);
        assert_eq!(b.kind, BinaryKind::Object);
        assert_eq!(b.units, obj.units);
        assert_eq!(b.sources.name(FileId(0)), "k.cl");
        // A token pointing outside its unit's files.
        let mut bad = a.clone();
        bad.units[0].tokens[0].loc.file = FileId(7);
        assert!(matches!(read(&write(&bad)), Err(AocxError::Corrupt(_))));
        // Truncated token stream.
        let mut bad = a.clone();
        bad.units[0].tokens.pop();
        assert!(matches!(read(&write(&bad)), Err(AocxError::Corrupt(_))));
        // An object without units.
        let mut bad = a;
        bad.units.clear();
        assert!(matches!(read(&write(&bad)), Err(AocxError::Corrupt(_))));
    }

    #[test]
    fn rebuild_resolver_finds_stored_includes() {
        use crate::preprocess::IncludeResolver;
        let a = read(&write(&sample())).unwrap();
        let r = a.resolver(vec![]);
        let (name, text) = r
            .resolve("a.h", Some(std::path::Path::new("")), false)
            .unwrap();
        assert_eq!((name.as_str(), text.as_str()), ("a.h", "#define A 1\n"));
    }
}
