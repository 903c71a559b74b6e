//! Reading a `profile.mon` back: [`read_profile`] and [`read_profile_bytes`].
//!
//! The file is walked twice, piece by piece (never held in memory whole): a first pass checks
//! every frame's length and checksum, decodes the few program frames and notes where record
//! frames start, so the record vector is allocated once at its final size; a second pass
//! decodes the records, split across threads for big files, re-checking each checksum (a
//! file rewritten between the passes is detected). Reading stops at the first incomplete or
//! corrupt frame with a warning; nothing a file contains can make the reader panic.

use std::io;
use std::mem::MaybeUninit;
use std::path::{Path, PathBuf};

use crate::error::{FormatProblem, ReadError};
use crate::frame::{self, FrameKind, FrameRef, ScanEnd, FRAME_HEADER_LEN, MAGIC, PREFIX_LEN};
use crate::model::{Header, Program, Record, FORMAT_MAJOR};
use crate::source::{FileSource, Source};
use crate::Profile;

/// Reads the profile at `path` up to its last whole frame.
pub fn read_profile(path: impl AsRef<Path>) -> Result<Profile, ReadError> {
    let path = path.as_ref();
    let io_err = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    parse(&FileSource::new(file, len)).map_err(|e| match e {
        Fail::Format(problem) => ReadError::Format {
            path: path.to_path_buf(),
            problem,
        },
        Fail::Io(source) => io_err(source),
    })
}

/// Reads a profile held in memory (the bytes of a whole file).
pub fn read_profile_bytes(bytes: &[u8]) -> Result<Profile, ReadError> {
    parse(bytes).map_err(|e| match e {
        Fail::Format(problem) => ReadError::Format {
            path: PathBuf::from("<memory>"),
            problem,
        },
        Fail::Io(source) => ReadError::Io {
            path: PathBuf::from("<memory>"),
            source,
        },
    })
}

/// Reads in-memory bytes through the piece-by-piece path used for files, with pieces of
/// `piece` bytes (for differential testing against [`read_profile_bytes`]).
pub(crate) fn read_profile_in_pieces(bytes: &[u8], piece: usize) -> Result<Profile, ReadError> {
    parse(&crate::source::Pieces { bytes, piece }).map_err(|e| match e {
        Fail::Format(problem) => ReadError::Format {
            path: PathBuf::from("<memory>"),
            problem,
        },
        Fail::Io(source) => ReadError::Io {
            path: PathBuf::from("<memory>"),
            source,
        },
    })
}

/// Why parsing failed.
pub(crate) enum Fail {
    Format(FormatProblem),
    Io(io::Error),
}

impl From<FormatProblem> for Fail {
    fn from(p: FormatProblem) -> Self {
        Fail::Format(p)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        Fail::Io(e)
    }
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

/// The prefix and header frame of a source: (minor version, header, offset after it).
pub(crate) fn source_header<S: Source + ?Sized>(src: &S) -> Result<(u16, Header, u64), Fail> {
    let mut buf = Vec::new();
    let head = src.bytes(0, PREFIX_LEN + FRAME_HEADER_LEN, &mut buf)?;
    let (_major, minor) = check_prefix(head)?;
    let want = header_frame_end_hint(head);
    let mut buf2 = Vec::new();
    let bytes = src.bytes(0, want, &mut buf2)?;
    if (bytes.len() as u64) < src.len() && bytes.len() < want {
        // The source shrank while being read.
        return Err(FormatProblem::TruncatedHeader { len: bytes.len() }.into());
    }
    let (header, end) = read_header(bytes)?;
    Ok((minor, header, end as u64))
}

/// Length of prefix + header frame according to the header frame's length field (capped at
/// the largest frame), or just the prefix + frame header when that field is not there yet.
fn header_frame_end_hint(head: &[u8]) -> usize {
    if head.len() < PREFIX_LEN + FRAME_HEADER_LEN {
        return head.len();
    }
    let at = PREFIX_LEN;
    let len = u32::from_le_bytes([head[at + 1], head[at + 2], head[at + 3], head[at + 4]]) as usize;
    PREFIX_LEN + FRAME_HEADER_LEN + len.min(frame::MAX_FRAME_LEN)
}

/// Walks the frames of `src` from `start` in pieces, checking lengths and checksums, calling
/// `f` with each whole valid frame (absolute offsets) and its payload; returns how the walk
/// ended, in absolute offsets.
pub(crate) fn scan_source<S: Source + ?Sized>(
    src: &S,
    start: u64,
    mut f: impl FnMut(FrameRef, &[u8]),
) -> io::Result<ScanEnd> {
    let total = src.len();
    let mut pos = start;
    let mut buf = Vec::new();
    while pos < total {
        // Size the piece so that the frame at `pos` fits whole.
        let mut hdr = Vec::new();
        let h = src.bytes(pos, FRAME_HEADER_LEN, &mut hdr)?;
        let first_len = if h.len() == FRAME_HEADER_LEN {
            u32::from_le_bytes([h[1], h[2], h[3], h[4]]) as usize
        } else {
            0
        };
        let want = src
            .piece_len()
            .max(FRAME_HEADER_LEN + first_len.min(frame::MAX_FRAME_LEN));
        let piece = src.bytes(pos, want, &mut buf)?;
        let at_eof = pos + piece.len() as u64 >= total;
        let end = frame::scan(piece, 0, |fr| {
            let payload = &piece[fr.payload_start..fr.payload_start + fr.payload_len];
            f(
                FrameRef {
                    kind: fr.kind,
                    offset: fr.offset + pos as usize,
                    payload_start: fr.payload_start + pos as usize,
                    payload_len: fr.payload_len,
                },
                payload,
            );
        });
        match end {
            ScanEnd::Clean => {
                if piece.is_empty() {
                    // The source shrank: what is missing counts as cut off.
                    return Ok(ScanEnd::Truncated {
                        offset: pos as usize,
                    });
                }
                pos += piece.len() as u64;
            }
            ScanEnd::Truncated { offset } if !at_eof && offset > 0 => {
                // The piece ended inside a frame: continue from that frame.
                pos += offset as u64;
            }
            ScanEnd::Truncated { offset } => {
                return Ok(ScanEnd::Truncated {
                    offset: pos as usize + offset,
                })
            }
            ScanEnd::Corrupt { offset, reason } => {
                return Ok(ScanEnd::Corrupt {
                    offset: pos as usize + offset,
                    reason,
                })
            }
        }
    }
    Ok(ScanEnd::Clean)
}

fn parse<S: Source + ?Sized>(src: &S) -> Result<Profile, Fail> {
    let (minor, header, body_start) = source_header(src)?;
    let mut warnings = Vec::new();
    // The prefix and the header frame both record the version: a difference means a damaged
    // prefix or header (the prefix is used).
    if header.format_major != FORMAT_MAJOR || header.format_minor != minor {
        warnings.push(format!(
            "the header says format {}.{} but the file prefix says {}.{}; using the prefix",
            header.format_major, header.format_minor, FORMAT_MAJOR, minor
        ));
    }

    // Pass 1: validate lengths and checksums; decode the (few) programs; note where record
    // frames start.
    let mut skips = Skips::default();
    let mut programs: Vec<Program> = Vec::new();
    let mut record_frames: Vec<u64> = Vec::new();
    let mut end = scan_source(src, body_start, |f, payload| match f.kind {
        FrameKind::Record => record_frames.push(f.offset as u64),
        FrameKind::Program => match frame::decode_payload::<Program>(payload) {
            Ok(p) => programs.push(p),
            Err(e) => skips.undecodable(f.offset, e),
        },
        FrameKind::Header => skips.extra_headers += 1,
        FrameKind::Unknown(_) => skips.unknown_kinds += 1,
    })?;

    // Pass 2: decode the records, in parallel for big files.
    let (records, changed_at) = decode_records(src, &record_frames, &mut skips)?;
    drop(record_frames);
    if let Some(offset) = changed_at {
        end = ScanEnd::Corrupt {
            offset: offset as usize,
            reason: "the file changed while it was being read".to_string(),
        };
    }

    let file_len = src.len();
    let truncated = !matches!(end, ScanEnd::Clean);
    match &end {
        ScanEnd::Clean => {}
        ScanEnd::Truncated { offset } => warnings.push(format!(
            "the file ends inside a frame at byte {offset} ({} trailing bytes ignored): the \
             writer was interrupted; read {} records up to the last whole one",
            file_len.saturating_sub(*offset as u64),
            records.len()
        )),
        ScanEnd::Corrupt { offset, reason } => warnings.push(format!(
            "corrupt frame at byte {offset} ({reason}); stopped reading there, {} bytes \
             ignored; read {} records before it",
            file_len.saturating_sub(*offset as u64),
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

/// What one decoding worker found besides its records.
#[derive(Default)]
struct Part {
    skips: Skips,
    /// Index (in the worker's slice) and offset of the first frame that no longer matched
    /// pass 1 (the file was rewritten meanwhile); later slots are left empty.
    changed: Option<(usize, u64)>,
}

/// Decodes the record frames starting at `offsets` (validated by pass 1), in file order.
/// Returns the records and, if the file changed between the passes, the offset where.
fn decode_records<S: Source + ?Sized>(
    src: &S,
    offsets: &[u64],
    skips: &mut Skips,
) -> io::Result<(Vec<Record>, Option<u64>)> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    // Each slot is written by exactly one worker (so the page faults of this big allocation
    // are spread over the workers too); `Option<Record>` has the size of `Record`, so the
    // final `filter_map` collects in place, reusing the allocation.
    let n = offsets.len();
    let mut slots: Vec<Option<Record>> = Vec::with_capacity(n);
    let chunk = if threads <= 1 || n < PARALLEL_THRESHOLD {
        n.max(1)
    } else {
        n.div_ceil(threads)
    };
    let spare = &mut slots.spare_capacity_mut()[..n];
    let joined: Vec<std::thread::Result<io::Result<Part>>> = if n <= chunk {
        vec![Ok(decode_chunk(src, offsets, spare))]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = offsets
                .chunks(chunk)
                .zip(spare.chunks_mut(chunk))
                .map(|(offs, out)| s.spawn(move || decode_chunk(src, offs, out)))
                .collect();
            handles.into_iter().map(|h| h.join()).collect()
        })
    };
    let mut parts = Vec::with_capacity(joined.len());
    for j in joined {
        match j {
            Ok(part) => parts.push(part),
            // A worker panicked (a bug): its slots may be uninitialised, so they are not
            // adopted (what was decoded leaks instead of being dropped).
            Err(_) => return Err(io::Error::other("a record decoding thread panicked")),
        }
    }
    // SAFETY: every worker returned normally, and `decode_chunk` initialises every slot of its
    // chunk on every return path; the chunks cover `0..n` of the spare capacity exactly.
    unsafe { slots.set_len(n) };
    let mut changed_at = None;
    for (i, part) in parts.into_iter().enumerate() {
        let part = part?;
        skips.merge(part.skips);
        if changed_at.is_none() {
            if let Some((idx, off)) = part.changed {
                changed_at = Some((i * chunk + idx, off));
            }
        }
    }
    if let Some((idx, _)) = changed_at {
        slots.truncate(idx);
    }
    #[allow(clippy::filter_map_identity)]
    let records = slots.into_iter().filter_map(|r| r).collect();
    Ok((records, changed_at.map(|(_, off)| off)))
}

/// Decodes the frames at `offsets` into `out`, initialising every slot of `out` (with `None`
/// for frames that were skipped or not reached) whatever happens.
fn decode_chunk<S: Source + ?Sized>(
    src: &S,
    offsets: &[u64],
    out: &mut [MaybeUninit<Option<Record>>],
) -> io::Result<Part> {
    let mut filled = 0;
    let res = decode_into(src, offsets, |r| {
        out[filled].write(r);
        filled += 1;
    });
    for slot in &mut out[filled..] {
        slot.write(None);
    }
    res
}

/// Decodes the frames at `offsets`, reading contiguous runs of frames in pieces; calls `put`
/// once per frame, in order, until it stops (early on a change of the file).
fn decode_into<S: Source + ?Sized>(
    src: &S,
    offsets: &[u64],
    mut put: impl FnMut(Option<Record>),
) -> io::Result<Part> {
    let mut part = Part::default();
    let mut buf = Vec::new();
    let mut i = 0;
    while i < offsets.len() {
        // Read from this frame's start up to a piece length (at least the frame itself).
        let base = offsets[i];
        let mut hdr = Vec::new();
        let h = src.bytes(base, FRAME_HEADER_LEN, &mut hdr)?;
        if h.len() < FRAME_HEADER_LEN {
            part.changed = Some((i, base));
            return Ok(part);
        }
        let first_len = u32::from_le_bytes([h[1], h[2], h[3], h[4]]) as usize;
        let want = src
            .piece_len()
            .max(FRAME_HEADER_LEN + first_len.min(frame::MAX_FRAME_LEN));
        let piece = src.bytes(base, want, &mut buf)?;
        let mut progressed = false;
        while i < offsets.len() {
            let rel = (offsets[i] - base) as usize;
            let mut one = frame::scan_one(piece, rel);
            if one.is_none() && !progressed {
                // Not whole even in a piece sized for it: the file changed since pass 1.
                part.changed = Some((i, offsets[i]));
                return Ok(part);
            }
            let Some(f) = one.take() else { break };
            if f.kind != FrameKind::Record {
                part.changed = Some((i, offsets[i]));
                return Ok(part);
            }
            let payload = &piece[f.payload_start..f.payload_start + f.payload_len];
            match frame::decode_payload::<Record>(payload) {
                Ok(r) => put(Some(r)),
                Err(e) => {
                    part.skips.undecodable(offsets[i] as usize, e);
                    put(None);
                }
            }
            progressed = true;
            i += 1;
        }
    }
    Ok(part)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::sample_file;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn file_source(bytes: &[u8], piece: usize, name: &str) -> FileSource {
        let dir = std::env::temp_dir().join(format!("fpgacl-pf-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        FileSource {
            file,
            len: bytes.len() as u64,
            piece,
        }
    }

    fn same(a: &Profile, b: &Profile) {
        assert_eq!(a.records, b.records);
        assert_eq!(a.programs, b.programs);
        assert_eq!(a.truncated, b.truncated);
        assert_eq!(a.warnings, b.warnings);
    }

    /// Reading a file in small pieces (frames straddling every possible boundary) gives exactly
    /// what reading it from memory gives, for whole, cut and damaged files.
    #[test]
    fn pieces_match_in_memory_reading() {
        let base = sample_file(30);
        let mut variants = vec![base.clone()];
        for cut in [base.len() - 1, base.len() - 50, base.len() / 2, 400] {
            variants.push(base[..cut].to_vec());
        }
        let mut damaged = base.clone();
        damaged[base.len() * 2 / 3] ^= 0x10;
        variants.push(damaged);
        for (v, bytes) in variants.iter().enumerate() {
            let Ok(want) = parse(&bytes[..]) else {
                panic!("variant {v} must read");
            };
            for piece in [1, 7, 9, 10, 100, 333, 4096] {
                let src = file_source(bytes, piece, &format!("p{v}-{piece}.mon"));
                let got = parse(&src).unwrap_or_else(|_| panic!("variant {v} piece {piece}"));
                same(&got, &want);
            }
        }
    }

    /// A source whose bytes change after `switch_after` reads: the file rewritten between the
    /// passes.
    struct Changing {
        before: Vec<u8>,
        after: Vec<u8>,
        reads: AtomicUsize,
        switch_after: usize,
    }

    impl Source for Changing {
        fn len(&self) -> u64 {
            self.before.len() as u64
        }
        fn bytes<'a>(&'a self, off: u64, len: usize, buf: &'a mut Vec<u8>) -> io::Result<&'a [u8]> {
            let n = self.reads.fetch_add(1, Ordering::SeqCst);
            let src = if n < self.switch_after {
                &self.before
            } else {
                &self.after
            };
            <[u8] as Source>::bytes(&src[..], off, len, buf)
        }
        fn piece_len(&self) -> usize {
            usize::MAX
        }
    }

    #[test]
    fn file_changed_between_passes_is_reported() {
        let before = sample_file(30);
        let mut after = before.clone();
        let at = before.len() / 2;
        after[at] ^= 0xff;
        // Count the reads of the header and pass 1 on an unchanging source.
        let counting = Changing {
            before: before.clone(),
            after: before.clone(),
            reads: AtomicUsize::new(0),
            switch_after: usize::MAX,
        };
        let (_, _, start) = source_header(&counting).ok().unwrap();
        scan_source(&counting, start, |_, _| {}).unwrap();
        let pass1_reads = counting.reads.load(Ordering::SeqCst);
        let src = Changing {
            before: before.clone(),
            after,
            reads: AtomicUsize::new(0),
            switch_after: pass1_reads,
        };
        let p = parse(&src).ok().unwrap();
        assert!(p.truncated);
        assert!(
            p.warnings[0].contains("changed while it was being read"),
            "{:?}",
            p.warnings
        );
        let full = parse(&before[..]).ok().unwrap();
        assert!(p.records.len() < full.records.len());
        assert_eq!(p.records[..], full.records[..p.records.len()]);
    }

    /// Big files take the parallel path: undecodable frames, order and a file changed between
    /// the passes behave as on the single-threaded path.
    #[test]
    fn parallel_path_keeps_order_and_reports_problems() {
        let n = 3 * PARALLEL_THRESHOLD as u64 / 2;
        let mut bytes = crate::fuzzing::sample_file(0);
        let bad_at = n * 5 / 6;
        for i in 0..n {
            if i == bad_at {
                // Valid checksum, payload that is not a Record.
                crate::fuzzing::raw_frame(FrameKind::Record.code(), &[200, 1, 2, 3], &mut bytes);
            } else {
                frame::encode_frame(FrameKind::Record, &crate::sample::record(i), &mut bytes)
                    .unwrap();
            }
        }
        let p = parse(&bytes[..]).ok().unwrap();
        assert!(!p.truncated);
        assert_eq!(p.records.len() as u64, n - 1);
        for (k, r) in p.records.iter().enumerate() {
            let i = if (k as u64) < bad_at {
                k as u64
            } else {
                k as u64 + 1
            };
            assert_eq!(r, &crate::sample::record(i), "record {k}");
        }
        assert!(p.warnings[0].contains("skipped 1 frames that could not be decoded"));

        // Changed between the passes, three quarters in (second worker's range).
        let mut after = bytes.clone();
        let flip = bytes.len() * 3 / 4;
        after[flip] ^= 0x01;
        let counting = Changing {
            before: bytes.clone(),
            after: bytes.clone(),
            reads: AtomicUsize::new(0),
            switch_after: usize::MAX,
        };
        let (_, _, start) = source_header(&counting).ok().unwrap();
        scan_source(&counting, start, |_, _| {}).unwrap();
        let src = Changing {
            before: bytes.clone(),
            after,
            reads: AtomicUsize::new(0),
            switch_after: counting.reads.load(Ordering::SeqCst),
        };
        let q = parse(&src).ok().unwrap();
        assert!(q.truncated);
        assert!(q.records.len() < p.records.len() && q.records.len() > p.records.len() / 2);
        assert_eq!(q.records[..], p.records[..q.records.len()]);
        assert!(q.warnings[0].contains("changed while it was being read"));
    }
}
