//! The byte layout of a `profile.mon` file: prefix, frames, checksums.
//!
//! ```text
//! file    := prefix frame*                      (the first frame is the header frame)
//! prefix  := MAGIC (8 bytes) major:u16le minor:u16le           = 12 bytes
//! frame   := kind:u8 len:u32le crc:u32le payload[len]          = 9 + len bytes
//! crc     := CRC-32 (IEEE) of kind, the 4 len bytes and the payload
//! payload := bincode 2 (serde, standard config: little endian, varint integers) of
//!            Header (kind 1), Program (kind 2) or Record (kind 3)
//! ```
//!
//! A frame is only accepted when its whole payload is present and its checksum matches, so a
//! file cut anywhere reads back up to its last whole frame.

use bincode::Decode;
use serde::Serialize;

/// The 8 bytes every `profile.mon` starts with. The high first byte keeps text tools from
/// mistaking the file for text; the trailing newline detects newline translation.
pub const MAGIC: [u8; 8] = *b"\x89fpgmon\n";
/// Length of the prefix: magic and the two version numbers.
pub const PREFIX_LEN: usize = 12;
/// Length of a frame's own header (kind, length, checksum).
pub const FRAME_HEADER_LEN: usize = 9;
/// Largest payload accepted (256 MiB): bigger lengths are treated as corruption.
pub const MAX_FRAME_LEN: usize = 256 << 20;

/// What a frame holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// The [`crate::Header`]; exactly one, first.
    Header,
    /// A [`crate::Program`].
    Program,
    /// A [`crate::Record`].
    Record,
    /// A kind this version does not know (from a newer minor version); skipped.
    Unknown(u8),
}

impl FrameKind {
    /// The kind byte.
    pub fn code(self) -> u8 {
        match self {
            FrameKind::Header => 1,
            FrameKind::Program => 2,
            FrameKind::Record => 3,
            FrameKind::Unknown(c) => c,
        }
    }

    /// The kind of a kind byte.
    pub fn from_code(code: u8) -> Self {
        match code {
            1 => FrameKind::Header,
            2 => FrameKind::Program,
            3 => FrameKind::Record,
            c => FrameKind::Unknown(c),
        }
    }
}

/// The file prefix for the given version.
pub fn prefix(major: u16, minor: u16) -> [u8; PREFIX_LEN] {
    let mut p = [0u8; PREFIX_LEN];
    p[..8].copy_from_slice(&MAGIC);
    p[8..10].copy_from_slice(&major.to_le_bytes());
    p[10..12].copy_from_slice(&minor.to_le_bytes());
    p
}

fn bincode_config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Appends one whole frame holding `value` to `out` (which is not cleared).
pub fn encode_frame<T: Serialize>(
    kind: FrameKind,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), crate::WriteError> {
    let start = out.len();
    out.extend_from_slice(&[0u8; FRAME_HEADER_LEN]);
    if let Err(e) = bincode::serde::encode_into_std_write(value, out, bincode_config()) {
        out.truncate(start);
        return Err(crate::WriteError::Encode(e.to_string()));
    }
    let len = out.len() - start - FRAME_HEADER_LEN;
    if len > MAX_FRAME_LEN {
        out.truncate(start);
        return Err(crate::WriteError::FrameTooLarge {
            len,
            max: MAX_FRAME_LEN,
        });
    }
    out[start] = kind.code();
    out[start + 1..start + 5].copy_from_slice(&(len as u32).to_le_bytes());
    let crc = frame_crc(kind.code(), &out[start + 1..start + 5], &out[start + 9..]);
    out[start + 5..start + 9].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}

fn frame_crc(kind: u8, len_bytes: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&[kind]);
    h.update(len_bytes);
    h.update(payload);
    h.finalize()
}

/// Decodes a payload. Allocation while decoding is bounded by a multiple of the payload
/// length, so a crafted length inside a payload with a valid checksum cannot exhaust memory.
///
/// Payloads are written through serde ([`encode_frame`]); decoding uses bincode's derived
/// `Decode` implementations of the same types, which read the identical byte layout about
/// twice as fast (a test in `tests/encoding.rs` checks both encodings stay byte-identical).
pub fn decode_payload<T: Decode<()>>(payload: &[u8]) -> Result<T, String> {
    // Bincode's limit counts the in-memory size of what it decodes: 8 bytes per varint u64
    // (>= 1 encoded byte) plus, for each open container, its remaining slots (at most 24 bytes
    // of slot per encoded byte, for `Vec<String>`). Those cover disjoint bytes, so a legitimate
    // payload needs at most ~32x its length; 64x plus a constant leaves ample room. Tiers are
    // powers of 4 so the bound is never more than 4x the need.
    let need = payload.len().saturating_mul(64).saturating_add(1 << 16);
    macro_rules! tier {
        ($n:expr) => {
            if need <= $n {
                return decode_limited::<T, { $n }>(payload);
            }
        };
    }
    tier!(1 << 16);
    tier!(1 << 18);
    tier!(1 << 20);
    tier!(1 << 22);
    tier!(1 << 24);
    tier!(1 << 26);
    tier!(1 << 28);
    tier!(1 << 30);
    tier!(1 << 32);
    tier!(1 << 34);
    decode_limited::<T, { 1 << 36 }>(payload)
}

fn decode_limited<T: Decode<()>, const N: usize>(payload: &[u8]) -> Result<T, String> {
    let config = bincode_config().with_limit::<N>();
    match bincode::decode_from_slice::<T, _>(payload, config) {
        Ok((v, used)) if used == payload.len() => Ok(v),
        Ok((_, used)) => Err(format!(
            "{} trailing bytes after the value",
            payload.len() - used
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// One frame found by [`scan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRef {
    /// Kind of the frame.
    pub kind: FrameKind,
    /// Offset of the frame (its kind byte) in the file.
    pub offset: usize,
    /// Payload range start in the file.
    pub payload_start: usize,
    /// Payload length.
    pub payload_len: usize,
}

/// How a scan of the frames ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanEnd {
    /// Every byte belonged to a whole, valid frame.
    Clean,
    /// The file ends inside the frame starting at `offset`.
    Truncated {
        /// Offset of the incomplete frame.
        offset: usize,
    },
    /// The frame at `offset` has a bad checksum or an impossible length.
    Corrupt {
        /// Offset of the bad frame.
        offset: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl ScanEnd {
    /// Offset up to which the file holds whole valid frames.
    pub fn valid_len(&self, file_len: usize) -> usize {
        match self {
            ScanEnd::Clean => file_len,
            ScanEnd::Truncated { offset } | ScanEnd::Corrupt { offset, .. } => *offset,
        }
    }
}

/// Checks the frame at `pos`: `Ok` when it is whole and its checksum matches, else how the
/// file ends there (`Truncated` also when `pos` is at the very end).
pub fn check_frame(bytes: &[u8], pos: usize) -> Result<FrameRef, ScanEnd> {
    let rest = bytes.get(pos..).unwrap_or(&[]);
    if rest.len() < FRAME_HEADER_LEN {
        return Err(ScanEnd::Truncated { offset: pos });
    }
    let kind = rest[0];
    let len = u32::from_le_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
    let crc = u32::from_le_bytes([rest[5], rest[6], rest[7], rest[8]]);
    if kind == 0 {
        return Err(ScanEnd::Corrupt {
            offset: pos,
            reason: "invalid frame kind 0".to_string(),
        });
    }
    if len > MAX_FRAME_LEN {
        return Err(ScanEnd::Corrupt {
            offset: pos,
            reason: format!("impossible frame length {len}"),
        });
    }
    if rest.len() - FRAME_HEADER_LEN < len {
        return Err(ScanEnd::Truncated { offset: pos });
    }
    let payload = &rest[FRAME_HEADER_LEN..FRAME_HEADER_LEN + len];
    if frame_crc(kind, &rest[1..5], payload) != crc {
        return Err(ScanEnd::Corrupt {
            offset: pos,
            reason: "checksum mismatch".to_string(),
        });
    }
    Ok(FrameRef {
        kind: FrameKind::from_code(kind),
        offset: pos,
        payload_start: pos + FRAME_HEADER_LEN,
        payload_len: len,
    })
}

/// The frame at `pos` if it is whole and valid.
pub fn scan_one(bytes: &[u8], pos: usize) -> Option<FrameRef> {
    check_frame(bytes, pos).ok()
}

/// Walks the frames of `bytes` from `start`, checking lengths and checksums, calling `f` for
/// each whole valid frame, and stops at the first incomplete or invalid one.
pub fn scan(bytes: &[u8], start: usize, mut f: impl FnMut(FrameRef)) -> ScanEnd {
    let mut pos = start;
    while pos < bytes.len() {
        match check_frame(bytes, pos) {
            Ok(fr) => {
                f(fr);
                pos = fr.payload_start + fr.payload_len;
            }
            Err(end) => return end,
        }
    }
    ScanEnd::Clean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_roundtrip_and_cut_points() {
        let mut buf = Vec::new();
        encode_frame(FrameKind::Record, &(7u32, String::from("abc")), &mut buf).unwrap();
        encode_frame(FrameKind::Program, &vec![1u64, 2, 3], &mut buf).unwrap();
        let mut seen = Vec::new();
        assert_eq!(scan(&buf, 0, |f| seen.push(f)), ScanEnd::Clean);
        assert_eq!(seen.len(), 2);
        let first = seen[0];
        let v: (u32, String) =
            decode_payload(&buf[first.payload_start..first.payload_start + first.payload_len])
                .unwrap();
        assert_eq!(v, (7, "abc".to_string()));
        let second_at = seen[1].offset;
        // Every cut inside the second frame reads back the first one only.
        for cut in second_at + 1..buf.len() {
            let mut n = 0;
            let end = scan(&buf[..cut], 0, |_| n += 1);
            assert_eq!(n, 1);
            assert_eq!(end, ScanEnd::Truncated { offset: second_at });
        }
    }

    #[test]
    fn flipped_bit_is_corrupt() {
        let mut buf = Vec::new();
        encode_frame(FrameKind::Record, &12345u64, &mut buf).unwrap();
        for i in 0..buf.len() {
            for bit in 0..8 {
                let mut b = buf.clone();
                b[i] ^= 1 << bit;
                let mut n = 0;
                let end = scan(&b, 0, |_| n += 1);
                assert_eq!(n, 0, "byte {i} bit {bit}");
                assert_ne!(end, ScanEnd::Clean);
            }
        }
    }

    #[test]
    fn crafted_huge_string_length_is_an_error_not_an_abort() {
        // varint marker 253 = u64 follows: a string claiming 2^40 bytes.
        let mut payload = vec![253u8];
        payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(decode_payload::<String>(&payload).is_err());
        let mut payload = vec![253u8];
        payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(decode_payload::<Vec<crate::SiteCounters>>(&payload).is_err());
    }
}
