//! Rule B5: global memory banks, burst-interleaved (the default) or partitioned by hand with
//! `-no-interleaving=<memory type>` and the buffers' bank flags.
//!
//! Burst-interleaved (the offline compiler's default, Best Practices Guide "Optimize Global
//! Memory Accesses"): consecutive bursts of every buffer go to the banks in turn, so each
//! buffer's traffic spreads evenly over the banks and memory cycles are the total bytes over
//! the board's total bytes per cycle (rule B1, unchanged).
//!
//! Non-interleaved (`-no-interleaving=default` or the name of a memory type of the board,
//! "Manual Partitioning of Global Memory"): the memory type's banks are separate contiguous
//! regions and a buffer lives in one of them, the bank its `CL_CHANNEL_n_INTELFPGA` flag (or
//! `CL_MEM_CHANNEL_INTEL` property) names: `n` -> bank `n - 1`. Each bank moves its own bytes
//! at its own rate, so memory cycles = max over banks of bytes on the bank / that bank's bytes
//! per cycle. Choices (documented in `MODEL.md`, rule B5):
//! - a buffer without a bank (`CL_CHANNEL_AUTO_INTELFPGA`, flag 0) is in bank 0: with
//!   non-interleaved banks the address space is bank 1 followed by bank 2, ..., and the
//!   allocator fills it from the low addresses, so buffers that fit go to the first bank;
//! - a flag naming a bank the memory type does not have is treated like AUTO (bank 0);
//! - a global access site whose buffer the compiler does not know statically
//!   (`AccessSite::arg` is `None`, e.g. a pointer chosen at run time) spreads its bytes evenly
//!   over the banks (its buffer is unknown, so no bank is favoured);
//! - every buffer is in the named memory type (heterogeneous `buffer_location` placement is
//!   not modelled), so the other memory types of the board move nothing.

use super::dram;
use crate::board::Board;

/// Where the buffers of one launch are, for a program built with `-no-interleaving`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankPlacement {
    /// Index in [`Board::global_memory`] of the memory type that is not interleaved.
    pub group: usize,
    /// Per kernel argument, the bank flag of its buffer: 0 automatic, `n` for
    /// `CL_CHANNEL_n_INTELFPGA` (1-based, as in the flags); 0 for arguments that are not
    /// buffers.
    pub arg_banks: Vec<u32>,
}

impl BankPlacement {
    /// The placement for `-no-interleaving=<memory_type>` on `board`: `default` is the board's
    /// first memory type, any other name must match a memory type's `kind` (ASCII case
    /// insensitive). `None` when the board has no such memory type.
    pub fn new(board: &Board, memory_type: &str, arg_banks: Vec<u32>) -> Option<BankPlacement> {
        let group = if memory_type == "default" {
            (!board.global_memory.is_empty()).then_some(0)?
        } else {
            board
                .global_memory
                .iter()
                .position(|g| g.kind.eq_ignore_ascii_case(memory_type))?
        };
        Some(BankPlacement { group, arg_banks })
    }

    /// The bank (0-based) of a site accessing kernel argument `arg`, `None` when the site's
    /// buffer is unknown (its bytes spread over the banks).
    pub fn bank_of(&self, arg: Option<u32>, banks: u32) -> Option<u32> {
        let flag = self.arg_banks.get(arg? as usize).copied().unwrap_or(0);
        Some(if flag == 0 || flag > banks {
            0
        } else {
            flag - 1
        })
    }
}

/// One global access site's traffic as the banks see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiteTraffic {
    /// The kernel argument the site's buffer comes from, when known statically.
    pub arg: Option<u32>,
    /// Bytes fetched (rules M0-M4).
    pub bytes: u64,
    /// A store site (write stream); loads and atomics read.
    pub write: bool,
    /// Average burst of the site in bytes (rule M4), at least one word.
    pub burst_bytes: u64,
    /// Consecutive bursts of the site are a DRAM row or more apart (its static stride).
    pub strided: bool,
}

impl SiteTraffic {
    /// A read stream of `bytes` in bursts of `burst_bytes` (tests, callers without sites).
    pub fn read(arg: Option<u32>, bytes: u64, burst_bytes: u64) -> SiteTraffic {
        SiteTraffic {
            arg,
            bytes,
            write: false,
            burst_bytes,
            strided: false,
        }
    }
}

/// Global memory cycles to move `sites`: rule B1 when `placement` is `None` (interleaved),
/// rule B5 otherwise; on a bank group with DRAM timing (`MemoryBankGroup::dram`), each bank's
/// time follows rules D1-D7 ([`super::dram`]) instead of its peak bandwidth.
pub fn memory_cycles(
    board: &Board,
    placement: Option<&BankPlacement>,
    sites: impl Iterator<Item = SiteTraffic>,
) -> u64 {
    let group = placement.and_then(|p| board.global_memory.get(p.group).map(|g| (p, g)));
    let Some((p, g)) = group else {
        if let Some(g) = board.global_memory.first().filter(|g| g.dram.is_some()) {
            return dram_cycles(board, g, None, sites);
        }
        let bytes: u64 = sites.map(|s| s.bytes).sum();
        let bpc = board.global_bytes_per_cycle();
        return if bpc > 0.0 {
            (bytes as f64 / bpc).ceil() as u64
        } else {
            0
        };
    };
    if g.dram.is_some() {
        return dram_cycles(board, g, Some(p), sites);
    }
    let n = g.count.max(1);
    let bank_bpc = g.bandwidth_mbps / board.kernel_clock_mhz;
    if bank_bpc.is_nan() || bank_bpc <= 0.0 {
        return 0;
    }
    // Bytes per bank; a spread site adds its bytes / n to every bank (kept as a separate
    // total so that whole bytes stay exact).
    let mut per_bank = vec![0u64; n as usize];
    let mut spread = 0u64;
    for s in sites {
        match p.bank_of(s.arg, n) {
            Some(b) => per_bank[b as usize] += s.bytes,
            None => spread += s.bytes,
        }
    }
    let spread_share = spread as f64 / n as f64;
    per_bank
        .iter()
        .map(|&b| ((b as f64 + spread_share) / bank_bpc).ceil() as u64)
        .max()
        .unwrap_or(0)
}

/// Rules D1-D7 over the banks of `g`: interleaved (`placement` `None`: every site spreads
/// over the banks in chunks of at most the interleaving granularity) or placed by hand (B5);
/// memory cycles = the slowest bank's time at the kernel clock.
fn dram_cycles(
    board: &Board,
    g: &crate::board::MemoryBankGroup,
    placement: Option<&BankPlacement>,
    sites: impl Iterator<Item = SiteTraffic>,
) -> u64 {
    let Some(d) = g.dram.as_ref() else {
        return 0;
    };
    let n = g.count.max(1);
    let word = g.width_bytes.max(1) as u64;
    let mut per_bank: Vec<Vec<dram::Stream>> = vec![Vec::new(); n as usize];
    for s in sites.filter(|s| s.bytes > 0) {
        let bank = placement.and_then(|p| p.bank_of(s.arg, n));
        let burst = s.burst_bytes.max(word);
        match bank {
            Some(b) => per_bank[b as usize].push(dram::Stream {
                bytes: s.bytes as f64,
                write: s.write,
                chunk: burst,
                strided: s.strided,
            }),
            None => {
                // Burst-interleaved: a chunk never spans two banks.
                let chunk = if n > 1 {
                    burst.min(d.interleave_bytes.max(word))
                } else {
                    burst
                };
                for v in per_bank.iter_mut() {
                    v.push(dram::Stream {
                        bytes: s.bytes as f64 / n as f64,
                        write: s.write,
                        chunk,
                        strided: s.strided,
                    });
                }
            }
        }
    }
    let fmax = board.kernel_clock_mhz;
    per_bank
        .iter()
        .map(|v| {
            let t = dram::bank_time(d, word, fmax, v);
            (t.total_ns * fmax / 1000.0).ceil() as u64
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_banks() -> Board {
        Board::default_board()
    }

    fn rd(arg: Option<u32>, bytes: u64) -> SiteTraffic {
        SiteTraffic::read(arg, bytes, 1024)
    }

    #[test]
    fn interleaved_is_rule_b1() {
        let b = two_banks();
        let bpc = b.global_bytes_per_cycle();
        let c = memory_cycles(
            &b,
            None,
            [rd(Some(0), 1 << 20), rd(Some(1), 1 << 20)].into_iter(),
        );
        assert_eq!(c, ((2u64 << 20) as f64 / bpc).ceil() as u64);
    }

    #[test]
    fn separate_banks_match_interleaved_same_bank_doubles() {
        let b = two_banks();
        let sites = || [rd(Some(0), 1u64 << 20), rd(Some(1), 1u64 << 20)].into_iter();
        let inter = memory_cycles(&b, None, sites());
        let sep = BankPlacement::new(&b, "default", vec![1, 2]).unwrap();
        let same = BankPlacement::new(&b, "default", vec![1, 1]).unwrap();
        let sep_c = memory_cycles(&b, Some(&sep), sites());
        let same_c = memory_cycles(&b, Some(&same), sites());
        assert!(sep_c.abs_diff(inter) <= 1, "{sep_c} vs {inter}");
        assert!(same_c.abs_diff(2 * inter) <= 1, "{same_c} vs {inter}");
        // AUTO and an out-of-range bank both go to bank 0, like bank 1.
        let auto = BankPlacement::new(&b, "default", vec![0, 9]).unwrap();
        assert_eq!(memory_cycles(&b, Some(&auto), sites()), same_c);
        // Unknown buffers spread evenly: like interleaved.
        let unknown = memory_cycles(&b, Some(&same), [rd(None, 2u64 << 20)].into_iter());
        assert!(unknown.abs_diff(inter) <= 1);
    }

    #[test]
    fn memory_type_names() {
        let b = two_banks();
        let kind = b.global_memory[0].kind.clone();
        assert_eq!(BankPlacement::new(&b, &kind, vec![]).unwrap().group, 0);
        assert_eq!(
            BankPlacement::new(&b, &kind.to_ascii_lowercase(), vec![])
                .unwrap()
                .group,
            0
        );
        assert!(BankPlacement::new(&b, "QDR9", vec![]).is_none());
    }
}
