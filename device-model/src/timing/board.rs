//! Board figures as the timing model and the static analysis see them: one board for both.

use crate::board::{Board, MemoryBankGroup};
use fpgacl_kernel_compiler::analysis::BoardParams;

impl Board {
    /// The figures the static analysis (`aoc` report) needs, taken from this board, so that the
    /// II of a loop with a global memory dependency and the timing of its execution use the
    /// same latency: kernel clock, the first bank group's latency, word size and burst size.
    /// The default board gives `BoardParams::default()` (global latency 155 cycles).
    pub fn analysis_params(&self) -> BoardParams {
        let g = self.default_bank_group();
        BoardParams {
            name: self.name.clone(),
            fmax_mhz: self.kernel_clock_mhz,
            global_latency_cycles: g.map(|g| g.latency_cycles).unwrap_or(155),
            mem_word_bytes: g.map(|g| g.width_bytes).unwrap_or(64),
            max_burst_words: g.map(|g| g.max_burst_words).unwrap_or(16),
            family: self.family,
        }
    }

    /// The bank group buffers live in by default (the first one).
    pub fn default_bank_group(&self) -> Option<&MemoryBankGroup> {
        self.global_memory.first()
    }

    /// Global memory bytes the board can move per kernel clock cycle, all banks together:
    /// `global_bandwidth_mbps / kernel_clock_mhz` (MB/s over MHz = bytes per cycle).
    /// 25600 MB/s at 294 MHz = 87.07 bytes/cycle.
    pub fn global_bytes_per_cycle(&self) -> f64 {
        if self.kernel_clock_mhz > 0.0 {
            self.global_bandwidth_mbps() / self.kernel_clock_mhz
        } else {
            0.0
        }
    }

    /// Width of one global memory word (burst beat) in bytes; 64 when the board has no memory.
    pub fn mem_word_bytes(&self) -> u64 {
        self.default_bank_group()
            .map(|g| g.width_bytes.max(1) as u64)
            .unwrap_or(64)
    }

    /// Largest burst in memory words; 16 when the board has no memory.
    pub fn max_burst_words(&self) -> u64 {
        self.default_bank_group()
            .map(|g| g.max_burst_words.max(1) as u64)
            .unwrap_or(16)
    }

    /// Round-trip latency of a global memory read in kernel cycles.
    pub fn global_latency_cycles(&self) -> u64 {
        self.default_bank_group()
            .map(|g| g.latency_cycles as u64)
            .unwrap_or(155)
    }

    /// Nanoseconds that `cycles` kernel clock cycles take at the board's fmax:
    /// `cycles * 1000 / kernel_clock_mhz`, rounded to the nearest ns.
    pub fn cycles_to_ns(&self, cycles: u64) -> u64 {
        if !(self.kernel_clock_mhz.is_finite() && self.kernel_clock_mhz > 0.0) {
            return 0;
        }
        (cycles as f64 * 1000.0 / self.kernel_clock_mhz).round() as u64
    }

    /// Kernel clock cycles in `ns` nanoseconds at the board's fmax (rounded down):
    /// `ns * kernel_clock_mhz / 1000`.
    pub fn ns_to_cycles(&self, ns: u64) -> u64 {
        if !(self.kernel_clock_mhz.is_finite() && self.kernel_clock_mhz > 0.0) {
            return 0;
        }
        (ns as f64 * self.kernel_clock_mhz / 1000.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_board_agrees_with_the_analysis_reference() {
        let b = Board::default_board();
        assert_eq!(b.analysis_params(), BoardParams::default());
        assert!((b.global_bytes_per_cycle() - 25600.0 / 294.0).abs() < 1e-9);
        assert_eq!(b.cycles_to_ns(294), 1000);
        assert_eq!(b.ns_to_cycles(1000), 294);
        assert_eq!(b.mem_word_bytes(), 64);
        assert_eq!(b.max_burst_words(), 16);
    }
}
