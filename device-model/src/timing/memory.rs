//! Global memory traffic of one access site: bytes fetched in memory words, bursts, cache.
//!
//! **M0 exact**: the executor tracks, per site and work-group in the pipeline's issue order
//! (NDRange groups of several work-items: the k-th execution of the site by a work-item
//! follows the k-th execution by the previous work-items, for k < 1024, then execution order;
//! groups of one work-item, e.g. single work-item kernels: execution order), the memory
//! words each access newly touches (an access starting in the previous access's word or the
//! next one continues the burst; a burst ends at the board's maximum burst), the bursts
//! started and the longest burst (`SiteCounts::{words, bursts, max_burst}`). When these are
//! present (`words > 0`), fetched = words x W, bursts and max burst are taken as counted, and
//! the cache rule M5 uses the counted words. Rules M1-M3 below are the fallback for counts
//! without them.
//!
//! The executor counts per site, within each work-group in work-item order (loop iteration
//! order for single work-item kernels): accesses (`fires`), bytes, accesses whose address
//! directly follows the previous one (`sequential`) and accesses to the same address as the
//! previous one (`repeated`). From these and the static stride of the site:
//!
//! - **M1 runs**: `runs = fires - sequential - repeated` contiguous runs of
//!   `run bytes = (fires - repeated) x width / runs` (repeated accesses fetch nothing new: the
//!   LSU coalesces them with the previous access).
//! - **M2 sub-word strides**: a site whose effective stride is positive and at most one memory
//!   word but whose accesses are not contiguous (`sequential = 0`) walks consecutive words:
//!   it touches `ceil((fires - repeated) x s / W)` words of `W` bytes, in bursts of up to the
//!   board's maximum burst. The effective stride is the static stride times valid / fires: a
//!   predicated access that fires once every 20 work-items moves 20 strides between accesses.
//! - **M3 runs of words**: otherwise every run fetches `ceil(run bytes / W)` words as bursts of
//!   at most `max_burst_words`; a stride of several words gives one-word runs, hence one-word
//!   bursts.
//! - **M4 fetched** = words x W; efficiency = bytes requested / bytes fetched.
//! - **M5 cache** (LSUs with the `cached` modifier): an access that needs no new word is a hit:
//!   `hits = fires - words` (at least 0), `misses = fires - hits`.

use crate::counters::SiteCounts;

/// Memory traffic of one site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    pub bytes_fetched: u64,
    pub bursts: u64,
    pub burst_bytes: u64,
    pub max_burst_bytes: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
}

/// What the traffic of a site depends on besides its counts.
#[derive(Clone, Copy, Debug)]
pub struct SiteShape {
    /// Static stride in bytes between consecutive accesses, when affine.
    pub stride: Option<i64>,
    /// The LSU has a private cache.
    pub cached: bool,
    /// Memory word (burst beat) in bytes.
    pub word: u64,
    /// Largest burst in words.
    pub max_burst_words: u64,
    /// Work-items or iterations that passed the site (fired or predicated off).
    pub valid: u64,
    /// The site shares its burst tracker with the other sites of its statically coalesced
    /// access (rule M0'), whose counts are exact: words = 0 then means "no new word", not
    /// "not counted".
    pub shared_tracker: bool,
}

/// Traffic of a site from its counts (rules M1-M5).
pub fn traffic(c: &SiteCounts, shape: &SiteShape) -> Traffic {
    let word = shape.word.max(1);
    let maxb = shape.max_burst_words.max(1);
    let f = c.fires;
    if f == 0 {
        return Traffic::default();
    }
    if c.words == 0 && shape.shared_tracker {
        // M0': the group's other sites opened every word this site touched.
        return Traffic {
            cache_hits: if shape.cached { f } else { 0 },
            ..Traffic::default()
        };
    }
    if c.words > 0 {
        // M0
        let hits = if shape.cached {
            f.saturating_sub(c.words)
        } else {
            0
        };
        return Traffic {
            bytes_fetched: c.words * word,
            bursts: c.bursts.max(1),
            burst_bytes: c.words * word,
            max_burst_bytes: c.max_burst.clamp(1, maxb) * word,
            cache_hits: hits,
            cache_misses: if shape.cached { f - hits } else { 0 },
        };
    }
    let fresh = f.saturating_sub(c.repeated);
    let width = c.bytes as f64 / f as f64;
    let effective = shape
        .stride
        .map(|s| (s as f64 * shape.valid.max(f) as f64 / f as f64).round() as i64);
    let (words, bursts, max_words) = match effective {
        Some(s) if c.sequential == 0 && s > 0 && (s as u64) <= word && fresh > 0 => {
            // M2
            let words = (fresh as f64 * s as f64 / word as f64).ceil().max(1.0) as u64;
            (words, words.div_ceil(maxb), words.min(maxb))
        }
        _ => {
            // M1 + M3
            let runs = f
                .saturating_sub(c.sequential)
                .saturating_sub(c.repeated)
                .max(1);
            let run_bytes = fresh as f64 * width / runs as f64;
            let per_run = (run_bytes / word as f64).ceil().max(1.0) as u64;
            (
                runs * per_run,
                runs * per_run.div_ceil(maxb),
                per_run.min(maxb),
            )
        }
    };
    let (hits, misses) = if shape.cached {
        let hits = f.saturating_sub(words);
        (hits, f - hits)
    } else {
        (0, 0)
    };
    Traffic {
        bytes_fetched: words * word,
        bursts,
        burst_bytes: words * word,
        max_burst_bytes: max_words * word,
        cache_hits: hits,
        cache_misses: misses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(stride: Option<i64>) -> SiteShape {
        SiteShape {
            stride,
            cached: false,
            word: 64,
            max_burst_words: 16,
            valid: 0,
            shared_tracker: false,
        }
    }

    fn counts(fires: u64, sequential: u64, width: u64) -> SiteCounts {
        SiteCounts {
            fires,
            bytes: fires * width,
            sequential,
            ..Default::default()
        }
    }

    #[test]
    fn sequential_stream_fetches_what_it_uses() {
        // 4 groups of 256 work-items reading 4 bytes each: 4 runs of 1024 bytes.
        let t = traffic(&counts(1024, 1020, 4), &shape(Some(4)));
        assert_eq!(t.bytes_fetched, 4096);
        assert_eq!(t.bursts, 4);
        assert_eq!(t.max_burst_bytes, 1024);
    }

    #[test]
    fn strides_lower_efficiency_and_burst_size() {
        let sub = traffic(&counts(1024, 0, 4), &shape(Some(16)));
        assert_eq!(sub.bytes_fetched, 1024 * 16);
        assert_eq!(sub.max_burst_bytes, 1024);
        let wide = traffic(&counts(1024, 0, 4), &shape(Some(256)));
        assert_eq!(wide.bytes_fetched, 1024 * 64);
        assert_eq!(wide.bursts, 1024);
        assert_eq!(wide.max_burst_bytes, 64);
    }

    #[test]
    fn exact_counts_take_precedence() {
        let c = SiteCounts {
            words: 10,
            bursts: 3,
            max_burst: 5,
            ..counts(40, 0, 4)
        };
        let t = traffic(&c, &shape(Some(4)));
        assert_eq!(
            (t.bytes_fetched, t.bursts, t.max_burst_bytes),
            (640, 3, 320)
        );
    }

    #[test]
    fn predication_stretches_the_stride() {
        // One access in 20 of a 4-byte stride: 80 bytes apart, one word each.
        let t = traffic(
            &counts(100, 0, 4),
            &SiteShape {
                valid: 2000,
                ..shape(Some(4))
            },
        );
        assert_eq!(t.bytes_fetched, 100 * 64);
    }

    #[test]
    fn cache_hits_are_accesses_without_new_words() {
        let mut c = counts(100, 0, 4);
        c.repeated = 99;
        let t = traffic(
            &c,
            &SiteShape {
                cached: true,
                ..shape(None)
            },
        );
        assert_eq!(t.bytes_fetched, 64);
        assert_eq!((t.cache_hits, t.cache_misses), (99, 1));
    }
}
