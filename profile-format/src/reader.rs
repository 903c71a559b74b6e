//! Reading a `profile.mon` back: [`read_profile`] and [`read_profile_bytes`].
//!
//! The whole file is read into memory, then walked twice: a first pass checks every frame's
//! length and checksum and counts frames (so the result vectors are allocated once, at their
//! final size), a second pass decodes the valid frames. Reading stops at the first incomplete
//! or corrupt frame with a warning; nothing a file contains can make the reader panic.

use std::path::{Path, PathBuf};

use crate::error::{FormatProblem, ReadError};
use crate::frame::{self, FrameKind, FrameRef, ScanEnd, MAGIC, PREFIX_LEN};
use crate::model::{Header, Program, Record, FORMAT_MAJOR};
use crate::Profile;

/// Reads the profile at `path` up to its last whole frame.
pub fn read_profile(path: impl AsRef<Path>) -> Result<Profile, ReadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes).map_err(|problem| ReadError::Format {
        path: path.to_path_buf(),
        problem,
    })
}

/// Reads a profile held in memory (the bytes of a whole file).
pub fn read_profile_bytes(bytes: &[u8]) -> Result<Profile, ReadError> {
    parse(bytes).map_err(|problem| ReadError::Format {
        path: PathBuf::from("<memory>"),
        problem,
    })
}

/// Checks the magic number and version of a file's first bytes; returns (major, minor).
pub(crate) fn check_prefix(bytes: &[u8]) -> Result<(u16, u16), FormatProblem> {
    if bytes.is_empty() {
        return Err(FormatProblem::Empty);
    }
    let n = bytes.len().min(MAGIC.len());
    if bytes[..n] != MAGIC[..n] {
        return Err(FormatProblem::NotAProfile);
    }
    if bytes.len() < PREFIX_LEN {
        return Err(FormatProblem::TruncatedHeader { len: bytes.len() });
    }
    let major = u16::from_le_bytes([bytes[8], bytes[9]]);
    let minor = u16::from_le_bytes([bytes[10], bytes[11]]);
    if major > FORMAT_MAJOR {
        return Err(FormatProblem::NewerMajor {
            file_major: major,
            file_minor: minor,
            supported_major: FORMAT_MAJOR,
        });
    }
    if major < FORMAT_MAJOR {
        return Err(FormatProblem::OlderMajor {
            file_major: major,
            file_minor: minor,
            supported_major: FORMAT_MAJOR,
        });
    }
    Ok((major, minor))
}

/// The header frame of a file whose prefix is valid, and the offset after it.
pub(crate) fn read_header(bytes: &[u8]) -> Result<(Header, usize), FormatProblem> {
    // Scan only up to the end of the first frame: the body is checked by the caller.
    let limit = header_frame_end(bytes);
    let mut first: Option<FrameRef> = None;
    let end = frame::scan(&bytes[..limit], PREFIX_LEN, |f| {
        if first.is_none() {
            first = Some(f);
        }
    });
    let f = match (first, end) {
        (Some(f), _) => f,
        (None, ScanEnd::Corrupt { reason, .. }) => return Err(FormatProblem::BadHeader(reason)),
        (None, _) => return Err(FormatProblem::TruncatedHeader { len: bytes.len() }),
    };
    if f.kind != FrameKind::Header {
        return Err(FormatProblem::BadHeader(format!(
            "first frame has kind {} instead of the header",
            f.kind.code()
        )));
    }
    let header: Header = frame::decode_payload(payload(bytes, &f))
        .map_err(|e| FormatProblem::BadHeader(format!("cannot decode the header frame: {e}")))?;
    Ok((header, f.payload_start + f.payload_len))
}

/// End of the first frame after the prefix if its length field is readable and plausible,
/// else the file length (so the scan reports truncation or corruption itself).
fn header_frame_end(bytes: &[u8]) -> usize {
    let at = PREFIX_LEN;
    if bytes.len() < at + frame::FRAME_HEADER_LEN {
        return bytes.len();
    }
    let len =
        u32::from_le_bytes([bytes[at + 1], bytes[at + 2], bytes[at + 3], bytes[at + 4]]) as usize;
    (at + frame::FRAME_HEADER_LEN)
        .saturating_add(len)
        .min(bytes.len())
}

fn payload<'a>(bytes: &'a [u8], f: &FrameRef) -> &'a [u8] {
    &bytes[f.payload_start..f.payload_start + f.payload_len]
}

/// Problems met while decoding frames, turned into a few warnings.
#[derive(Default)]
struct Skips {
    unknown_kinds: usize,
    extra_headers: usize,
    undecodable: usize,
    first_undecodable: Option<(usize, String)>,
}

/// Below this many records, decoding stays on the calling thread.
const PARALLEL_THRESHOLD: usize = 20_000;

fn parse(bytes: &[u8]) -> Result<Profile, FormatProblem> {
    let (_major, minor) = check_prefix(bytes)?;
    let (header, body_start) = read_header(bytes)?;
    let mut warnings = Vec::new();
    if header.format_major != FORMAT_MAJOR {
        warnings.push(format!(
            "the header says format {}.{} but the file prefix says {}.{}; using the prefix",
            header.format_major, header.format_minor, FORMAT_MAJOR, minor
        ));
    }

    // Pass 1: validate lengths and checksums; decode the (few) programs; note where record
    // frames start.
    let mut skips = Skips::default();
    let mut programs: Vec<Program> = Vec::new();
    let mut record_frames: Vec<usize> = Vec::new();
    let end = frame::scan(bytes, body_start, |f| match f.kind {
        FrameKind::Record => record_frames.push(f.offset),
        FrameKind::Program => match frame::decode_payload::<Program>(payload(bytes, &f)) {
            Ok(p) => programs.push(p),
            Err(e) => skips.undecodable(f.offset, e),
        },
        FrameKind::Header => skips.extra_headers += 1,
        FrameKind::Unknown(_) => skips.unknown_kinds += 1,
    });

    // Pass 2: decode the records, in parallel for big files.
    let records = decode_records(bytes, &record_frames, &mut skips);
    drop(record_frames);

    let truncated = !matches!(end, ScanEnd::Clean);
    match &end {
        ScanEnd::Clean => {}
        ScanEnd::Truncated { offset } => warnings.push(format!(
            "the file ends inside a frame at byte {offset} ({} trailing bytes ignored): the \
             writer was interrupted; read {} records up to the last whole one",
            bytes.len() - offset,
            records.len()
        )),
        ScanEnd::Corrupt { offset, reason } => warnings.push(format!(
            "corrupt frame at byte {offset} ({reason}); stopped reading there, {} bytes \
             ignored; read {} records before it",
            bytes.len() - offset,
            records.len()
        )),
    }
    skips.into_warnings(minor, &mut warnings);
    Ok(Profile {
        header,
        programs,
        records,
        truncated,
        warnings,
    })
}

/// Decodes the record frames starting at `offsets` (already validated), in file order.
fn decode_records(bytes: &[u8], offsets: &[usize], skips: &mut Skips) -> Vec<Record> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    // Each slot is filled by exactly one decoder; `Option<Record>` has the size of `Record`,
    // so the final filter reuses the allocation.
    let mut slots: Vec<Option<Record>> = Vec::with_capacity(offsets.len());
    slots.resize_with(offsets.len(), || None);
    if threads <= 1 || offsets.len() < PARALLEL_THRESHOLD {
        decode_into(bytes, offsets, &mut slots, skips);
    } else {
        let chunk = offsets.len().div_ceil(threads);
        let parts: Vec<Skips> = std::thread::scope(|s| {
            let handles: Vec<_> = offsets
                .chunks(chunk)
                .zip(slots.chunks_mut(chunk))
                .map(|(offs, out)| {
                    s.spawn(move || {
                        let mut local = Skips::default();
                        decode_into(bytes, offs, out, &mut local);
                        local
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for p in parts {
            skips.merge(p);
        }
    }
    // `filter_map` (unlike `flatten`) collects in place, reusing the slots allocation.
    #[allow(clippy::filter_map_identity)]
    slots.into_iter().filter_map(|r| r).collect()
}

fn decode_into(bytes: &[u8], offsets: &[usize], out: &mut [Option<Record>], skips: &mut Skips) {
    for (&pos, slot) in offsets.iter().zip(out.iter_mut()) {
        let f = unchecked_frame_at(bytes, pos);
        match frame::decode_payload::<Record>(payload(bytes, &f)) {
            Ok(r) => *slot = Some(r),
            Err(e) => skips.undecodable(f.offset, e),
        }
    }
}

/// The frame at `pos`, which pass 1 has already validated.
fn unchecked_frame_at(bytes: &[u8], pos: usize) -> FrameRef {
    let len = u32::from_le_bytes([
        bytes[pos + 1],
        bytes[pos + 2],
        bytes[pos + 3],
        bytes[pos + 4],
    ]);
    FrameRef {
        kind: FrameKind::from_code(bytes[pos]),
        offset: pos,
        payload_start: pos + frame::FRAME_HEADER_LEN,
        payload_len: len as usize,
    }
}

impl Skips {
    fn merge(&mut self, other: Skips) {
        self.unknown_kinds += other.unknown_kinds;
        self.extra_headers += other.extra_headers;
        self.undecodable += other.undecodable;
        if let Some((off, e)) = other.first_undecodable {
            let earlier = match &self.first_undecodable {
                None => true,
                Some((o, _)) => off < *o,
            };
            if earlier {
                self.first_undecodable = Some((off, e));
            }
        }
    }

    fn undecodable(&mut self, offset: usize, err: String) {
        self.undecodable += 1;
        if self.first_undecodable.is_none() {
            self.first_undecodable = Some((offset, err));
        }
    }

    fn into_warnings(self, file_minor: u16, warnings: &mut Vec<String>) {
        let newer = file_minor > crate::model::FORMAT_MINOR;
        let origin = if newer {
            format!(
                " (the file uses format minor {file_minor}, newer than this reader's {}: \
                 upgrade fpgacl to see them)",
                crate::model::FORMAT_MINOR
            )
        } else {
            String::new()
        };
        if self.unknown_kinds > 0 {
            warnings.push(format!(
                "skipped {} frames of unknown kind{origin}",
                self.unknown_kinds
            ));
        }
        if self.extra_headers > 0 {
            warnings.push(format!(
                "skipped {} extra header frames",
                self.extra_headers
            ));
        }
        if let Some((offset, err)) = self.first_undecodable {
            warnings.push(format!(
                "skipped {} frames that could not be decoded{origin}; first at byte {offset}: {err}",
                self.undecodable
            ));
        }
    }
}
