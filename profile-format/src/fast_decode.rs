//! Hand-written bincode decoding of [`SiteCounters`], the hottest type of a profile (a million
//! kernel runs carry several million of them).
//!
//! It reads the same bytes the derived (and serde) encoding writes: the 14 fields in order,
//! each a bincode varint (a byte below 251 is the value itself; 251, 252 and 253 announce a
//! little-endian u16, u32 or u64). Compared with the derived code it claims the decode limit
//! once per struct instead of once per field; `tests/encoding.rs` checks it against the serde
//! encoding for small and large values.

use bincode::de::read::Reader;
use bincode::de::Decoder;
use bincode::error::{DecodeError, IntegerType};
use bincode::Decode;

use crate::model::SiteCounters;

const U16_BYTE: u8 = 251;
const U32_BYTE: u8 = 252;
const U64_BYTE: u8 = 253;

#[inline(always)]
fn varint<R: Reader>(r: &mut R) -> Result<u64, DecodeError> {
    if let Some(b) = r.peek_read(9) {
        let (v, used) = match b[0] {
            x @ 0..=250 => (x as u64, 1),
            U16_BYTE => (u16::from_le_bytes([b[1], b[2]]) as u64, 3),
            U32_BYTE => (u32::from_le_bytes([b[1], b[2], b[3], b[4]]) as u64, 5),
            U64_BYTE => (
                u64::from_le_bytes([b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8]]),
                9,
            ),
            _ => return Err(bad_marker()),
        };
        r.consume(used);
        Ok(v)
    } else {
        varint_slow(r)
    }
}

#[cold]
fn bad_marker() -> DecodeError {
    DecodeError::InvalidIntegerType {
        expected: IntegerType::U64,
        found: IntegerType::Reserved,
    }
}

/// Near the end of the input (fewer than 9 bytes left): read the marker, then its payload.
#[cold]
fn varint_slow<R: Reader>(r: &mut R) -> Result<u64, DecodeError> {
    let mut m = [0u8; 1];
    r.read(&mut m)?;
    Ok(match m[0] {
        x @ 0..=250 => x as u64,
        U16_BYTE => {
            let mut b = [0u8; 2];
            r.read(&mut b)?;
            u16::from_le_bytes(b) as u64
        }
        U32_BYTE => {
            let mut b = [0u8; 4];
            r.read(&mut b)?;
            u32::from_le_bytes(b) as u64
        }
        U64_BYTE => {
            let mut b = [0u8; 8];
            r.read(&mut b)?;
            u64::from_le_bytes(b)
        }
        _ => return Err(bad_marker()),
    })
}

impl<Context> Decode<Context> for SiteCounters {
    fn decode<D: Decoder<Context = Context>>(decoder: &mut D) -> Result<Self, DecodeError> {
        decoder.claim_bytes_read(std::mem::size_of::<SiteCounters>())?;
        let r = decoder.reader();
        let site = varint(r)?;
        let site = u32::try_from(site).map_err(|_| DecodeError::InvalidIntegerType {
            expected: IntegerType::U32,
            found: IntegerType::U64,
        })?;
        Ok(SiteCounters {
            site,
            fired_cycles: varint(r)?,
            stall_cycles: varint(r)?,
            predicated_cycles: varint(r)?,
            active_cycles: varint(r)?,
            requests: varint(r)?,
            bytes_requested: varint(r)?,
            bytes_fetched: varint(r)?,
            bursts: varint(r)?,
            burst_bytes: varint(r)?,
            max_burst_bytes: varint(r)?,
            cache_hits: varint(r)?,
            cache_misses: varint(r)?,
            unaligned_requests: varint(r)?,
        })
    }
}
bincode::impl_borrow_decode!(SiteCounters);
