//! Derived metrics of [`SiteCounters`], as the Intel FPGA Dynamic Profiler defines them.
//!
//! Each metric has exactly one formula, stated on its method. A metric whose denominator is zero
//! is `None` ("n/a"), never NaN or infinity. Percentages are in 0..=100 (not clamped unless the
//! method says so). MB means 10^6 bytes, as in the guide's figures.

use crate::model::SiteCounters;

fn pct(num: u64, den: u64) -> Option<f64> {
    if den == 0 {
        None
    } else {
        Some(num as f64 * 100.0 / den as f64)
    }
}

impl SiteCounters {
    /// Stall%: share of the profiled time the access stalled the pipeline.
    ///
    /// `stall% = 100 * stall_cycles / active_cycles`
    ///
    /// 20% or more is a "high stall" in the guide.
    pub fn stall_pct(&self) -> Option<f64> {
        pct(self.stall_cycles, self.active_cycles)
    }

    /// Occupancy%: share of the profiled time a valid work-item (or loop iteration) executed
    /// the access, whether or not its predicate enabled it.
    ///
    /// `occupancy% = 100 * (fired_cycles + predicated_cycles) / active_cycles`
    ///
    /// Stall% + Occupancy% close to 100% marks the stall source; a low Stall% with low
    /// Occupancy% marks a victim.
    pub fn occupancy_pct(&self) -> Option<f64> {
        pct(
            self.fired_cycles.saturating_add(self.predicated_cycles),
            self.active_cycles,
        )
    }

    /// Activity%: share of the profiled time the access was enabled (predicate true) and
    /// acted on its data. Never more than Occupancy%.
    ///
    /// `activity% = 100 * fired_cycles / active_cycles`
    pub fn activity_pct(&self) -> Option<f64> {
        pct(self.fired_cycles, self.active_cycles)
    }

    /// Average bandwidth the access used from global memory, in MB/s, over the profiled time,
    /// at kernel clock `clock_mhz`.
    ///
    /// `bandwidth = bytes_fetched / active_cycles * clock_mhz` (bytes per cycle times
    /// 10^6 cycles per second gives MB/s)
    ///
    /// `None` when `active_cycles` is 0 or the clock is not a positive finite number.
    pub fn bandwidth_mbps(&self, clock_mhz: f64) -> Option<f64> {
        if self.active_cycles == 0 || !(clock_mhz.is_finite() && clock_mhz > 0.0) {
            return None;
        }
        Some(self.bytes_fetched as f64 / self.active_cycles as f64 * clock_mhz)
    }

    /// Bandwidth efficiency: share of the bytes fetched from global memory that the kernel
    /// used.
    ///
    /// `efficiency% = min(100, 100 * bytes_requested / bytes_fetched)`
    ///
    /// Clamped to 100 because requests served by a private cache are used without being
    /// fetched again.
    pub fn efficiency_pct(&self) -> Option<f64> {
        pct(self.bytes_requested, self.bytes_fetched).map(|p| p.min(100.0))
    }

    /// Average burst size in bytes.
    ///
    /// `average burst = burst_bytes / bursts`
    pub fn average_burst_bytes(&self) -> Option<f64> {
        if self.bursts == 0 {
            None
        } else {
            Some(self.burst_bytes as f64 / self.bursts as f64)
        }
    }

    /// Average burst size in memory words of `word_bytes` bytes (the unit of the GUI's
    /// "Average Burst Size=7.6 (Max Burst=16)").
    ///
    /// `average burst (words) = burst_bytes / bursts / word_bytes`
    pub fn average_burst_words(&self, word_bytes: u32) -> Option<f64> {
        if word_bytes == 0 {
            return None;
        }
        self.average_burst_bytes().map(|b| b / word_bytes as f64)
    }

    /// Cache hit%: share of the requests that hit the LSU's private cache.
    ///
    /// `cache hit% = 100 * cache_hits / (cache_hits + cache_misses)`
    ///
    /// `None` when the site has no cache (no hits and no misses).
    pub fn cache_hit_pct(&self) -> Option<f64> {
        pct(
            self.cache_hits,
            self.cache_hits.saturating_add(self.cache_misses),
        )
    }

    /// Unaligned access%: share of the requests not aligned to the memory word.
    ///
    /// `unaligned% = 100 * unaligned_requests / requests`
    pub fn unaligned_pct(&self) -> Option<f64> {
        pct(self.unaligned_requests, self.requests)
    }
}

/// Share of the board's bandwidth used, in percent.
///
/// `utilisation% = 100 * used_mbps / board_mbps`; `None` when `board_mbps` is not positive.
pub fn bandwidth_share_pct(used_mbps: f64, board_mbps: f64) -> Option<f64> {
    if board_mbps > 0.0 && board_mbps.is_finite() && used_mbps.is_finite() {
        Some(used_mbps * 100.0 / board_mbps)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    /// The guide's "No Stalls, High Occupancy Percentage, and Low Bandwidth Efficiency"
    /// figure: vector_add does 2 loads + 1 store of 4 bytes every cycle (II 1) at 294 MHz:
    /// 12 bytes/cycle x 294 MHz = 3528 MB/s, 14% of the board's 25600 MB/s.
    #[test]
    fn vector_add_bandwidth_figure() {
        let cycles = 1_000_000u64;
        let site = |id| SiteCounters {
            site: id,
            fired_cycles: cycles,
            active_cycles: cycles,
            requests: cycles,
            bytes_requested: 4 * cycles,
            bytes_fetched: 4 * cycles,
            ..Default::default()
        };
        let sites = [site(0), site(1), site(2)];
        let per_site: Vec<f64> = sites
            .iter()
            .map(|s| s.bandwidth_mbps(294.0).unwrap())
            .collect();
        for bw in &per_site {
            assert!(close(*bw, 1176.0), "{bw}");
        }
        let total: f64 = per_site.iter().sum();
        assert!(close(total, 3528.0), "{total}");
        let share = bandwidth_share_pct(total, 25600.0).unwrap();
        assert_eq!(share.round(), 14.0);
        assert!(close(share, 13.78125));
        for s in &sites {
            assert_eq!(s.stall_pct(), Some(0.0));
            assert_eq!(s.occupancy_pct(), Some(100.0));
            assert_eq!(s.efficiency_pct(), Some(100.0));
        }
    }

    #[test]
    fn stall_source_sums_to_hundred() {
        // A stall source: valid every cycle, fires 30 of 100, stalls 70.
        let s = SiteCounters {
            fired_cycles: 30,
            stall_cycles: 70,
            active_cycles: 100,
            ..Default::default()
        };
        assert_eq!(s.stall_pct(), Some(70.0));
        assert_eq!(s.occupancy_pct(), Some(30.0));
        assert!(close(
            s.stall_pct().unwrap() + s.occupancy_pct().unwrap(),
            100.0
        ));
    }

    #[test]
    fn predication_lowers_activity_not_occupancy() {
        // The guide's `if (some_rare_condition) x = src[addr];`: valid every cycle,
        // enabled in 5 of 100.
        let s = SiteCounters {
            fired_cycles: 5,
            predicated_cycles: 95,
            active_cycles: 100,
            ..Default::default()
        };
        assert_eq!(s.occupancy_pct(), Some(100.0));
        assert_eq!(s.activity_pct(), Some(5.0));
        assert!(s.activity_pct() <= s.occupancy_pct());
    }

    #[test]
    fn efficiency_burst_cache_unaligned() {
        let s = SiteCounters {
            requests: 100,
            bytes_requested: 400,
            bytes_fetched: 1600,
            bursts: 5,
            burst_bytes: 2432,
            max_burst_bytes: 1024,
            cache_hits: 30,
            cache_misses: 70,
            unaligned_requests: 20,
            active_cycles: 200,
            ..Default::default()
        };
        assert_eq!(s.efficiency_pct(), Some(25.0));
        assert!(close(s.average_burst_bytes().unwrap(), 486.4));
        // 64-byte memory words: 486.4 / 64 = 7.6 words, as in the guide's tooltip example.
        assert!(close(s.average_burst_words(64).unwrap(), 7.6));
        assert_eq!(s.cache_hit_pct(), Some(30.0));
        assert_eq!(s.unaligned_pct(), Some(20.0));
        assert!(close(s.bandwidth_mbps(100.0).unwrap(), 800.0));
    }

    #[test]
    fn efficiency_clamped_when_cache_serves() {
        let s = SiteCounters {
            bytes_requested: 800,
            bytes_fetched: 400,
            ..Default::default()
        };
        assert_eq!(s.efficiency_pct(), Some(100.0));
    }

    #[test]
    fn zero_denominators_are_none() {
        let s = SiteCounters::zero(3);
        assert_eq!(s.stall_pct(), None);
        assert_eq!(s.occupancy_pct(), None);
        assert_eq!(s.activity_pct(), None);
        assert_eq!(s.bandwidth_mbps(300.0), None);
        assert_eq!(s.efficiency_pct(), None);
        assert_eq!(s.average_burst_bytes(), None);
        assert_eq!(s.average_burst_words(64), None);
        assert_eq!(s.cache_hit_pct(), None);
        assert_eq!(s.unaligned_pct(), None);
        let busy = SiteCounters {
            active_cycles: 10,
            bytes_fetched: 10,
            ..Default::default()
        };
        assert_eq!(busy.bandwidth_mbps(0.0), None);
        assert_eq!(busy.bandwidth_mbps(f64::NAN), None);
        assert_eq!(bandwidth_share_pct(1.0, 0.0), None);
    }

    #[test]
    fn accumulate_sums_and_maxes() {
        let mut a = SiteCounters {
            site: 1,
            fired_cycles: 1,
            stall_cycles: 2,
            max_burst_bytes: 64,
            ..Default::default()
        };
        let b = SiteCounters {
            site: 9,
            fired_cycles: 10,
            stall_cycles: u64::MAX,
            max_burst_bytes: 32,
            cache_hits: 4,
            ..Default::default()
        };
        a.accumulate(&b);
        assert_eq!(a.site, 1);
        assert_eq!(a.fired_cycles, 11);
        assert_eq!(a.stall_cycles, u64::MAX);
        assert_eq!(a.max_burst_bytes, 64);
        assert_eq!(a.cache_hits, 4);
    }
}
