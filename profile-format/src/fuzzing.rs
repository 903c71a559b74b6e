//! Turning fuzzer input into candidate `profile.mon` files, shared by the cargo-fuzz target
//! (`fuzz/`), the proptest robustness tests and the `fuzz_loop` example. Not part of the
//! stable API.
//!
//! Random bytes almost never get past the magic number and checksums, so the first input
//! byte selects a construction that reaches deeper code:
//!
//! * 0: the bytes as they are;
//! * 1: a valid prefix and header, then the bytes as the frame stream (checksums mostly fail);
//! * 2: a valid sample file damaged by the input (XOR at positions, then a cut);
//! * 3: a valid prefix and header, then frames with *correct* checksums whose kinds and
//!   payloads come from the input (exercises the payload decoder on arbitrary bytes);
//! * 4: like 3, but each payload is a valid record with a few bytes changed.

use crate::frame::{self, FrameKind};
use crate::{sample, ProfileWriter};

/// A valid sample file of `records` records (header, program, records), built in memory.
pub fn sample_file(records: u64) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&frame::prefix(
        crate::model::FORMAT_MAJOR,
        crate::model::FORMAT_MINOR,
    ));
    let _ = frame::encode_frame(FrameKind::Header, &sample::header(), &mut out);
    let _ = frame::encode_frame(FrameKind::Program, &sample::program(), &mut out);
    for n in 0..records {
        let _ = frame::encode_frame(FrameKind::Record, &sample::record(n), &mut out);
    }
    out
}

fn prefix_and_header() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&frame::prefix(
        crate::model::FORMAT_MAJOR,
        crate::model::FORMAT_MINOR,
    ));
    let _ = frame::encode_frame(FrameKind::Header, &sample::header(), &mut out);
    out
}

/// Appends a frame with a correct checksum around arbitrary payload bytes.
pub fn raw_frame(kind: u8, payload: &[u8], out: &mut Vec<u8>) {
    let len = (payload.len() as u32).to_le_bytes();
    let mut h = crc32fast::Hasher::new();
    h.update(&[kind]);
    h.update(&len);
    h.update(payload);
    out.push(kind);
    out.extend_from_slice(&len);
    out.extend_from_slice(&h.finalize().to_le_bytes());
    out.extend_from_slice(payload);
}

/// Builds a candidate file from fuzzer input (see the module documentation).
pub fn file_from_input(data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return Vec::new();
    };
    match mode % 5 {
        0 => rest.to_vec(),
        1 => {
            let mut out = prefix_and_header();
            out.extend_from_slice(rest);
            out
        }
        2 => {
            let mut file = sample_file(8);
            let mut it = rest.chunks_exact(3);
            for c in &mut it {
                let pos = u16::from_le_bytes([c[0], c[1]]) as usize % file.len();
                file[pos] ^= c[2];
            }
            if let [a, b] = it.remainder() {
                let cut = u16::from_le_bytes([*a, *b]) as usize % (file.len() + 1);
                file.truncate(cut);
            }
            file
        }
        3 => {
            let mut out = prefix_and_header();
            let mut rest = rest;
            while let [kind, len, tail @ ..] = rest {
                let n = (*len as usize).min(tail.len());
                raw_frame(1 + kind % 4, &tail[..n], &mut out);
                rest = &tail[n..];
            }
            out
        }
        _ => {
            let mut out = prefix_and_header();
            for (i, c) in rest.chunks(4).enumerate() {
                let mut payload = Vec::new();
                let _ = bincode::serde::encode_into_std_write(
                    sample::record(i as u64 + c.first().copied().unwrap_or(0) as u64),
                    &mut payload,
                    bincode::config::standard(),
                );
                if !payload.is_empty() {
                    for pair in c[1..].chunks(2) {
                        let pos = pair[0] as usize % payload.len();
                        payload[pos] = *pair.get(1).unwrap_or(&0xff);
                    }
                }
                raw_frame(FrameKind::Record.code(), &payload, &mut out);
            }
            out
        }
    }
}

/// Reads a candidate file and, if it reads, runs every export over the result: none of this
/// may panic. Also reads it through the piece-by-piece path used for files (piece size derived
/// from the file) and panics if the two readings differ. Returns whether the file was
/// accepted.
pub fn exercise(file: &[u8]) -> bool {
    let whole = crate::read_profile_bytes(file);
    let piece = 1 + file.len() % 257;
    let pieces = crate::reader::read_profile_in_pieces(file, piece);
    match (&whole, &pieces) {
        (Ok(a), Ok(b)) => {
            assert!(
                a.records == b.records
                    && a.programs == b.programs
                    && a.truncated == b.truncated
                    && a.warnings == b.warnings,
                "piece-by-piece reading (piece {piece}) differs from whole-file reading"
            );
        }
        (Err(a), Err(b)) => assert_eq!(a.problem(), b.problem(), "piece {piece}"),
        _ => panic!("piece-by-piece reading (piece {piece}) disagrees on accepting the file"),
    }
    match whole {
        Ok(p) => {
            crate::exports::exercise_all(&p);
            true
        }
        Err(e) => {
            let _ = e.to_string();
            false
        }
    }
}

/// Also exercises the append path: writes the candidate to `path`, opens it for appending
/// (which validates and repairs it), appends a record and reads it back.
pub fn exercise_append(file: &[u8], path: &std::path::Path) -> std::io::Result<()> {
    std::fs::write(path, file)?;
    if let Ok(w) = ProfileWriter::append(path) {
        let _ = w.write_record(&sample::record(1));
        drop(w);
        let _ = crate::read_profile(path);
    }
    Ok(())
}
