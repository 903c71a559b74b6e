//! Rules D1-D7: a mechanistic DRAM model of one global memory bank (one DIMM / EMIF
//! controller), replacing "bandwidth = peak" for boards whose memory declares its DRAM timing
//! (`MemoryBankGroup::dram`). Boards without it (the built-in default board, the guide's
//! figures) keep rule B1's peak.
//!
//! The controller serves the streams of a run (one per global access site) round-robin, one
//! chunk per stream per round: a chunk is the stream's LSU burst (average burst bytes), at
//! most the interleaving granularity when the bank group is burst-interleaved. Per bank, in
//! nanoseconds (all parameters from JEDEC speed bins and Intel EMIF documentation, cited in
//! `MODEL.md` and in the board files):
//!
//! - **D1 data**: `words x t_word`, `t_word = width_bytes / (bus_bytes x data rate)` (a 64-byte
//!   word is one BL8 burst of a 64-bit DIMM: 4 memory clocks).
//! - **D2 read/write turnaround**: a round that holds chunks of both directions turns the bus
//!   around twice: read->write `2 tCK` (JEDEC: read-to-write command spacing
//!   `CL + BL/2 + 2 - CWL` leaves 2 idle clocks on the data bus) and write->read
//!   `tWTR + CL x tCK` (the write-to-read spacing `CWL + BL/2 + tWTR` plus the read latency).
//!   Rounds with both directions = `min(max read chunks of a stream, max write chunks)`.
//! - **D3 row conflicts**: a chunk that must open a row (it follows another stream's chunk, or
//!   its own stream strides a row or more between accesses) finds that row's bank busy with
//!   the previous chunk with probability `1 / bank sets` (bank sets = banks / bank groups:
//!   Intel's DDR4 address ordering `Row-Bank-Col-BG` spreads a chunk over the bank groups of
//!   one bank index); then precharge + activate (`tRP + tRCD`) are exposed. Otherwise the
//!   controller opens the row while the previous chunk transfers (hidden).
//! - **D4 activation rate**: a bank accepts at most 4 activates per `tFAW`: time >=
//!   activates x `tFAW / 4` (activates: every row-opening chunk, and one per `row_bytes` of a
//!   sequential stream).
//! - **D5 refresh**: the DRAM is unavailable `tRFC` every `tREFI`: time / (1 - tRFC / tREFI).
//! - **D6 kernel-side port**: the bank's port in the kernel clock domain moves one word per
//!   kernel cycle: time >= words x 1000 / fmax (bandwidth rises with fmax only until the
//!   DRAM side is the limit).
//! - **D7 bank time** = `max(D6, max(D1 + D2 + D3, D4) / (1 - refresh))`.

use serde::{Deserialize, Serialize};

/// DRAM timing of the memory behind one bank group (JEDEC figures of the board's speed bin).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DramTiming {
    /// Speed bin, e.g. `DDR4-2133P` (documentation only).
    pub standard: String,
    /// Data rate in MT/s (2133.33 for DDR4-2133).
    pub data_rate_mts: f64,
    /// Bytes per transfer of the DIMM's data bus (8 for a 64-bit DIMM).
    pub bus_bytes: u32,
    /// Internal banks per rank (DDR4: 16, DDR3: 8).
    pub banks: u32,
    /// Bank groups (DDR4: 4, DDR3: 1).
    pub bank_groups: u32,
    /// Row (page) bytes of one rank across the bus (8 KB for x8 and x16 DDR3/DDR4 DIMMs).
    pub row_bytes: u64,
    /// CAS (read) latency in memory clocks.
    pub cl: u32,
    /// CAS write latency in memory clocks.
    pub cwl: u32,
    /// Activate to read/write, ns.
    pub t_rcd_ns: f64,
    /// Precharge, ns.
    pub t_rp_ns: f64,
    /// Write to read turnaround after the write data (tWTR_L on DDR4), ns.
    pub t_wtr_ns: f64,
    /// Four-activate window, ns.
    pub t_faw_ns: f64,
    /// Refresh cycle time for the chips' density, ns.
    pub t_rfc_ns: f64,
    /// Average refresh interval, ns.
    pub t_refi_ns: f64,
    /// Burst-interleaving granularity across the group's banks, bytes (`interleaved_bytes` of
    /// the BSP's `board_spec.xml`).
    pub interleave_bytes: u64,
}

impl DramTiming {
    /// Memory clock period in ns: two transfers per clock.
    pub fn t_ck_ns(&self) -> f64 {
        2000.0 / self.data_rate_mts
    }

    /// D1: ns to transfer one word of `word` bytes.
    pub fn t_word_ns(&self, word: u64) -> f64 {
        word as f64 * 1000.0 / (self.bus_bytes.max(1) as f64 * self.data_rate_mts)
    }

    /// D2: bus idle time of one read->write plus one write->read turnaround, ns.
    pub fn turnaround_ns(&self) -> f64 {
        2.0 * self.t_ck_ns() + self.t_wtr_ns + self.cl as f64 * self.t_ck_ns()
    }

    /// D3: bank sets (banks / bank groups): the chance that a row-opening chunk hits the bank
    /// the previous chunk uses is one over this.
    pub fn bank_sets(&self) -> f64 {
        (self.banks.max(1) / self.bank_groups.max(1)).max(1) as f64
    }

    /// D5: the share of time the DRAM is not refreshing.
    pub fn refresh_factor(&self) -> f64 {
        if self.t_refi_ns > 0.0 {
            (1.0 - self.t_rfc_ns / self.t_refi_ns).clamp(0.05, 1.0)
        } else {
            1.0
        }
    }

    /// Checks that the figures make sense.
    pub fn validate(&self) -> Result<(), String> {
        let pos = |v: f64| v.is_finite() && v > 0.0;
        let nonneg = |v: f64| v.is_finite() && v >= 0.0;
        if !pos(self.data_rate_mts) || self.bus_bytes == 0 || self.banks == 0 {
            return Err("dram: data rate, bus bytes and banks must be positive".into());
        }
        if self.bank_groups == 0 || self.row_bytes == 0 || self.interleave_bytes == 0 {
            return Err(
                "dram: bank groups, row bytes and interleave bytes must be positive".into(),
            );
        }
        if ![
            self.t_rcd_ns,
            self.t_rp_ns,
            self.t_wtr_ns,
            self.t_faw_ns,
            self.t_rfc_ns,
        ]
        .into_iter()
        .all(nonneg)
            || !pos(self.t_refi_ns)
            || self.t_rfc_ns >= self.t_refi_ns
        {
            return Err("dram: timings must be non-negative and tRFC < tREFI".into());
        }
        Ok(())
    }
}

/// One stream (global access site) as one bank sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stream {
    /// Bytes the stream moves on this bank.
    pub bytes: f64,
    /// A write stream (stores); loads and atomics read.
    pub write: bool,
    /// Bytes per chunk (the stream's LSU burst, capped by the interleaving granularity).
    pub chunk: u64,
    /// Consecutive chunks of the stream are a row or more apart (each opens a row).
    pub strided: bool,
}

/// The terms of D1-D7 for one bank, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BankTime {
    pub data_ns: f64,
    pub turnaround_ns: f64,
    pub conflict_ns: f64,
    pub activate_ns: f64,
    pub refresh_factor: f64,
    pub port_ns: f64,
    /// D7.
    pub total_ns: f64,
}

/// D1-D7: the time one bank needs for `streams`, ns; `word` = the bank's word bytes, `fmax`
/// the kernel clock (MHz).
pub fn bank_time(d: &DramTiming, word: u64, fmax_mhz: f64, streams: &[Stream]) -> BankTime {
    let word = word.max(1);
    let active: Vec<&Stream> = streams.iter().filter(|s| s.bytes > 0.0).collect();
    if active.is_empty() {
        return BankTime {
            refresh_factor: d.refresh_factor(),
            ..BankTime::default()
        };
    }
    let words: f64 = active.iter().map(|s| s.bytes / word as f64).sum();
    let chunks = |s: &Stream| (s.bytes / s.chunk.max(word) as f64).max(1.0);
    // D1
    let data_ns = words * d.t_word_ns(word);
    // D2
    let max_dir = |w: bool| {
        active
            .iter()
            .filter(|s| s.write == w)
            .map(|s| chunks(s))
            .fold(0.0f64, f64::max)
    };
    let mixed_rounds = max_dir(false).min(max_dir(true));
    let turnaround_ns = mixed_rounds * d.turnaround_ns();
    // D3: row-opening chunks.
    let several = active.len() >= 2;
    let opening: f64 = active
        .iter()
        .filter(|s| several || s.strided)
        .map(|s| chunks(s))
        .sum();
    let conflict_ns = opening / d.bank_sets() * (d.t_rp_ns + d.t_rcd_ns);
    // D4
    let activates: f64 = active
        .iter()
        .map(|s| {
            if several || s.strided {
                chunks(s)
            } else {
                (s.bytes / d.row_bytes as f64).ceil()
            }
        })
        .sum();
    let activate_ns = activates * d.t_faw_ns / 4.0;
    // D5
    let refresh_factor = d.refresh_factor();
    // D6
    let port_ns = if fmax_mhz > 0.0 {
        words * 1000.0 / fmax_mhz
    } else {
        0.0
    };
    // D7
    let dram = (data_ns + turnaround_ns + conflict_ns).max(activate_ns) / refresh_factor;
    BankTime {
        data_ns,
        turnaround_ns,
        conflict_ns,
        activate_ns,
        refresh_factor,
        port_ns,
        total_ns: dram.max(port_ns),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DDR4-2133P of the 385A (4 Gb x8 chips).
    pub fn ddr4_2133() -> DramTiming {
        DramTiming {
            standard: "DDR4-2133P".into(),
            data_rate_mts: 2133.0,
            bus_bytes: 8,
            banks: 16,
            bank_groups: 4,
            row_bytes: 8192,
            cl: 15,
            cwl: 11,
            t_rcd_ns: 14.06,
            t_rp_ns: 14.06,
            t_wtr_ns: 7.5,
            t_faw_ns: 21.0,
            t_rfc_ns: 260.0,
            t_refi_ns: 7800.0,
            interleave_bytes: 1024,
        }
    }

    fn s(bytes: f64, write: bool, chunk: u64) -> Stream {
        Stream {
            bytes,
            write,
            chunk,
            strided: false,
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6 * b.abs().max(1.0), "{a} vs {b}");
    }

    #[test]
    fn one_read_stream_pays_refresh_only() {
        // 1 MiB read in 1 KiB chunks: 16,384 words x 64 / (8 x 2133) us = 61,455.2 ns of data;
        // 128 rows of 8 KiB, 128 x 21 / 4 = 672 ns of activates (below the data time);
        // refresh 1 - 260/7800 = 0.96667.
        let d = ddr4_2133();
        let t = bank_time(&d, 64, 400.0, &[s(1048576.0, false, 1024)]);
        close(t.data_ns, 16384.0 * 64.0 * 1000.0 / (8.0 * 2133.0));
        close(t.turnaround_ns, 0.0);
        close(t.conflict_ns, 0.0);
        close(t.activate_ns, 672.0);
        close(t.total_ns, t.data_ns / (1.0 - 260.0 / 7800.0));
        // Efficiency 96.7%.
        close(t.data_ns / t.total_ns, 1.0 - 1.0 / 30.0);
    }

    #[test]
    fn copy_pays_turnaround_and_conflicts_per_round() {
        // Copy: 1 read + 1 write stream of 1 KiB chunks. Per round: data 32 words x 3.75059 =
        // 120.019 ns; turnaround 2 tCK + 7.5 + 15 tCK = 17 x 0.937647 + 7.5 = 23.440 ns;
        // conflicts 2 chunks / 4 bank sets x 28.12 = 14.06 ns. Efficiency =
        // 120.019 / 157.519 x 0.96667 = 73.65%.
        let d = ddr4_2133();
        let n = 1000.0 * 1024.0;
        let t = bank_time(&d, 64, 400.0, &[s(n, false, 1024), s(n, true, 1024)]);
        let tck = 2000.0 / 2133.0;
        close(t.turnaround_ns, 1000.0 * (17.0 * tck + 7.5));
        close(t.conflict_ns, 2000.0 / 4.0 * 28.12);
        let round = 32.0 * 64.0 * 1000.0 / (8.0 * 2133.0) + 17.0 * tck + 7.5 + 14.06;
        let eff = t.data_ns / t.total_ns;
        close(
            eff,
            32.0 * 64.0 * 1000.0 / (8.0 * 2133.0) / round * (29.0 / 30.0),
        );
        assert!((eff - 0.7365).abs() < 5e-4, "{eff}");
    }

    #[test]
    fn a_third_stream_raises_the_efficiency() {
        // Add: 2 reads + 1 write: per round 48 words (180.03 ns), one turnaround pair
        // (23.44 ns), 3/4 x 28.12 = 21.09 ns of conflicts: 180.03 / 224.56 x 0.96667 = 77.50%.
        let d = ddr4_2133();
        let n = 1000.0 * 1024.0;
        let copy = bank_time(&d, 64, 400.0, &[s(n, false, 1024), s(n, true, 1024)]);
        let add = bank_time(
            &d,
            64,
            400.0,
            &[s(n, false, 1024), s(n, false, 1024), s(n, true, 1024)],
        );
        let e_copy = copy.data_ns / copy.total_ns;
        let e_add = add.data_ns / add.total_ns;
        assert!((e_add - 0.7750).abs() < 5e-4, "{e_add}");
        assert!(e_add > e_copy);
        // Reads only, 4 streams: no turnaround, 4/4 x 28.12 conflicts per 64 words
        // (240.04 ns): 240.04 / 268.16 x 0.96667 = 86.53%.
        let reads = vec![s(n, false, 1024); 4];
        let r = bank_time(&d, 64, 400.0, &reads);
        close(r.turnaround_ns, 0.0);
        assert!((r.data_ns / r.total_ns - 0.8653).abs() < 5e-4);
    }

    #[test]
    fn short_bursts_fall_to_half_of_peak() {
        // Copy with 256-byte chunks (4 words): per round 8 words = 30.005 ns, turnaround
        // 23.440, conflicts 14.06: 30.005 / 67.505 x 0.96667 = 42.97%.
        let d = ddr4_2133();
        let n = 4000.0 * 256.0;
        let t = bank_time(&d, 64, 400.0, &[s(n, false, 256), s(n, true, 256)]);
        let e = t.data_ns / t.total_ns;
        assert!((e - 0.4297).abs() < 5e-4, "{e}");
    }

    #[test]
    fn strided_stream_is_activate_bound() {
        // One 64-byte word per row: every chunk opens a row. 1000 chunks: data 3750.6 ns,
        // conflicts 1000/4 x 28.12 = 7030 ns, activates 1000 x 21/4 = 5250 ns:
        // (3750.6 + 7030) / 0.96667.
        let d = ddr4_2133();
        let t = bank_time(
            &d,
            64,
            400.0,
            &[Stream {
                bytes: 64000.0,
                write: false,
                chunk: 64,
                strided: true,
            }],
        );
        close(t.activate_ns, 5250.0);
        close(t.conflict_ns, 7030.0);
        close(t.total_ns, (t.data_ns + 7030.0) / (29.0 / 30.0));
    }

    #[test]
    fn the_kernel_port_limits_below_the_controller_clock() {
        // One word per kernel cycle: at 200 MHz a bank moves 12,800 MB/s at most, below the
        // DDR4-2133 bank's 17,064 x 0.96667 = 16,495 MB/s; at 400 MHz the DRAM limits.
        let d = ddr4_2133();
        let n = 1048576.0;
        let slow = bank_time(&d, 64, 200.0, &[s(n, false, 1024)]);
        close(slow.total_ns, 16384.0 * 1000.0 / 200.0);
        let fast = bank_time(&d, 64, 400.0, &[s(n, false, 1024)]);
        let faster = bank_time(&d, 64, 600.0, &[s(n, false, 1024)]);
        close(fast.total_ns, faster.total_ns);
        assert!(fast.total_ns > fast.port_ns);
    }
}
