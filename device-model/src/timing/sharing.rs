//! Rule B4: kernels whose runs overlap in emulated time share the board's global memory
//! bandwidth.
//!
//! A deterministic fluid model. Each run is first timed alone (rules C, M, B1-B2): its
//! pipeline time `P` (compute + channel stall cycles) and the bytes `F` it moves to and from
//! global memory. While it is active it wants `F / P` bytes per cycle (it spreads its traffic
//! evenly over its pipeline time). At every moment the board's bytes per cycle, minus what runs
//! whose timing is already final use (their recorded [`Segment`]s), are split max-min fair
//! ("water-filling") among the active runs: a run never gets more than it wants, and the runs
//! that want more than an equal share get equal shares. A run advances at `granted / F` of its
//! work per cycle and ends when all its bytes have moved, so alone it takes exactly
//! `max(P, F / board bytes per cycle)` (rule B2), and two equal memory-bound runs started
//! together each take twice as long as alone.
//!
//! [`share`] is a pure function of its inputs: the result does not depend on the order of the
//! runs given, and runs given a fixed profile keep it (so a run finalised earlier is never
//! changed by a later one). Rates are piecewise constant between events (a start, an end, a
//! boundary of a fixed segment), so the simulation costs O(events x (runs log runs + fixed
//! segments live at once)), once per kernel run.

/// A run to be timed: its place on the device timeline and its demand, from its timing alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demand {
    /// Emulated start, device cycles since the session origin.
    pub start: u64,
    /// Pipeline cycles alone (compute + channel stall, rules C and B2), at least 1.
    pub pipeline: u64,
    /// Bytes fetched from / written to global memory (rule M), all sites.
    pub bytes: u64,
}

/// A piece of a run's bandwidth use: `rate` bytes per cycle over `[from, to)` (absolute device
/// cycles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub from: f64,
    pub to: f64,
    pub rate: f64,
}

/// The shared timing of one [`Demand`].
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    /// Emulated end (absolute device cycles, not rounded).
    pub end: f64,
    /// Duration in whole cycles: never less than the run alone, `max(P, ceil(F / capacity))`.
    pub cycles: u64,
    /// The bandwidth the run was granted, piecewise constant (empty when it moves no bytes).
    pub segments: Vec<Segment>,
}

/// Slack for float noise when rounding an end to whole cycles.
const ROUND_SLACK: f64 = 1e-6;
/// A run whose remaining bytes are at most this fraction of its bytes has ended (float noise
/// between a run's own segments and the same rates replayed as fixed segments).
const END_SLACK: f64 = 1e-9;

/// The run's duration alone (rules B1-B2): `max(pipeline, ceil(bytes / capacity))`.
pub fn alone_cycles(d: &Demand, capacity: f64) -> u64 {
    let mem = if capacity > 0.0 {
        (d.bytes as f64 / capacity).ceil() as u64
    } else {
        0
    };
    d.pipeline.max(mem).max(1)
}

/// Max-min fair split of `avail` bytes per cycle among runs that want `want[i]`: a run gets
/// `min(want, level)`, the level chosen so the grants use `avail` when the wants exceed it.
/// Runs that want the same get exactly the same grant. `order` is scratch space.
fn water_fill(
    avail: f64,
    want: &[f64],
    active: &[usize],
    grant: &mut [f64],
    order: &mut Vec<usize>,
) {
    order.clear();
    order.extend_from_slice(active);
    order.sort_by(|&a, &b| want[a].total_cmp(&want[b]).then(a.cmp(&b)));
    let mut left = avail.max(0.0);
    let mut level = f64::INFINITY;
    let n = order.len();
    for (k, &i) in order.iter().enumerate() {
        let rest = (n - k) as f64;
        if want[i] * rest > left {
            level = left / rest;
            break;
        }
        left -= want[i];
    }
    for &i in active {
        grant[i] = want[i].min(level);
    }
}

/// Times `runs` sharing `capacity` bytes per cycle with each other and with `fixed` (the
/// recorded segments of runs whose timing is final). Returns one [`Shared`] per run, in the
/// order given.
///
/// The result of each run depends only on the runs (and fixed segments) active before its
/// end, and not on the order of `runs` except through ties between identical runs.
pub fn share(capacity: f64, fixed: &[Segment], runs: &[Demand]) -> Vec<Shared> {
    let n = runs.len();
    let mut out: Vec<Shared> = runs
        .iter()
        .map(|d| Shared {
            end: d.start as f64 + d.pipeline.max(1) as f64,
            cycles: alone_cycles(d, capacity),
            segments: Vec::new(),
        })
        .collect();
    if n == 0 || capacity <= 0.0 {
        return out;
    }
    // Relative time avoids losing precision on long sessions: origin = the earliest start.
    let origin = runs.iter().map(|d| d.start).min().unwrap_or(0);
    let rel = |abs: f64| abs - origin as f64;
    let start: Vec<f64> = runs.iter().map(|d| (d.start - origin) as f64).collect();
    let want: Vec<f64> = runs
        .iter()
        .map(|d| d.bytes as f64 / d.pipeline.max(1) as f64)
        .collect();
    let mut left: Vec<f64> = runs.iter().map(|d| d.bytes as f64).collect();
    // Runs that move no bytes take their pipeline time and no bandwidth.
    let mut done: Vec<bool> = runs.iter().map(|d| d.bytes == 0).collect();
    // Fixed segments in relative time, only those that end after the origin.
    let mut fixed: Vec<Segment> = fixed
        .iter()
        .filter(|s| s.to > s.from && s.rate > 0.0)
        .map(|s| Segment {
            from: rel(s.from),
            to: rel(s.to),
            rate: s.rate,
        })
        .filter(|s| s.to > 0.0)
        .collect();
    // A canonical order: the sum of the fixed rates does not depend on the caller's order.
    fixed.sort_by(|a, b| {
        a.from
            .total_cmp(&b.from)
            .then(a.to.total_cmp(&b.to))
            .then(a.rate.total_cmp(&b.rate))
    });
    // Sweep over the fixed segments: `live` holds those covering t (in `fixed` order, so the
    // sum below adds in a fixed order), `upcoming` the first that starts after t.
    let mut live: Vec<usize> = Vec::new();
    let mut upcoming = 0usize;
    let mut grant = vec![0.0f64; n];
    let mut active: Vec<usize> = Vec::with_capacity(n);
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut t = 0.0f64;
    // Every step passes an event (a start, a fixed boundary or an end), so this bounds the
    // loop; the guard only protects against float pathologies.
    let max_steps = 4 * (n + 2 * fixed.len()) + 16;
    for _ in 0..max_steps {
        if done.iter().all(|&d| d) {
            break;
        }
        active.clear();
        active.extend((0..n).filter(|&i| !done[i] && start[i] <= t));
        while upcoming < fixed.len() && fixed[upcoming].from <= t {
            if fixed[upcoming].to > t {
                live.push(upcoming);
            }
            upcoming += 1;
        }
        live.retain(|&j| fixed[j].to > t);
        let used: f64 = live.iter().map(|&j| fixed[j].rate).sum();
        for g in grant.iter_mut() {
            *g = 0.0;
        }
        water_fill(capacity - used, &want, &active, &mut grant, &mut order);
        // The next event.
        let mut next = f64::INFINITY;
        for i in 0..n {
            if !done[i] && start[i] > t {
                next = next.min(start[i]);
            }
        }
        if let Some(s) = fixed.get(upcoming) {
            next = next.min(s.from);
        }
        for &j in &live {
            next = next.min(fixed[j].to);
        }
        let finish = |i: usize, left: &[f64]| {
            if grant[i] > 0.0 {
                t + left[i] / grant[i]
            } else {
                f64::INFINITY
            }
        };
        for &i in &active {
            next = next.min(finish(i, &left));
        }
        if !next.is_finite() {
            break;
        }
        for &i in &active {
            // Float noise: a remainder of a billionth of the run's bytes ends it here.
            let ends_now = finish(i, &left) <= next
                || left[i] - grant[i] * (next - t) <= runs[i].bytes as f64 * END_SLACK;
            if grant[i] > 0.0 && next > t {
                let segs = &mut out[i].segments;
                let (from, to) = (t + origin as f64, next + origin as f64);
                match segs.last_mut() {
                    Some(last) if last.to == from && last.rate == grant[i] => last.to = to,
                    _ => segs.push(Segment {
                        from,
                        to,
                        rate: grant[i],
                    }),
                }
            }
            if ends_now {
                left[i] = 0.0;
                done[i] = true;
                out[i].end = next + origin as f64;
            } else {
                left[i] = (left[i] - grant[i] * (next - t)).max(0.0);
            }
        }
        t = next;
    }
    for (i, d) in runs.iter().enumerate() {
        if d.bytes == 0 {
            continue;
        }
        let dur = out[i].end - d.start as f64;
        let cycles = (dur - ROUND_SLACK).ceil().max(0.0) as u64;
        out[i].cycles = cycles.max(alone_cycles(d, capacity));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default board: 25600 MB/s at 294 MHz.
    const CAP: f64 = 25600.0 / 294.0;

    fn d(start: u64, pipeline: u64, bytes: u64) -> Demand {
        Demand {
            start,
            pipeline,
            bytes,
        }
    }

    fn near(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol * b.abs().max(1.0), "{a} vs {b}");
    }

    /// Bytes a run moved according to its segments.
    fn moved(s: &Shared) -> f64 {
        s.segments.iter().map(|g| (g.to - g.from) * g.rate).sum()
    }

    #[test]
    fn a_run_alone_takes_its_rule_b2_time() {
        // memory bound: 8 MiB at 87.07 B/cycle
        let m = d(1000, 1 << 16, 8 << 20);
        let r = share(CAP, &[], &[m]);
        assert_eq!(r[0].cycles, alone_cycles(&m, CAP));
        assert_eq!(r[0].cycles, ((8u64 << 20) as f64 / CAP).ceil() as u64);
        near(moved(&r[0]), (8u64 << 20) as f64, 1e-9);
        // compute bound: wants less than the board
        let c = d(5, 100_000, 1_000_000);
        let r = share(CAP, &[], &[c]);
        assert_eq!(r[0].cycles, 100_000);
        assert_eq!(r[0].segments.len(), 1);
        near(r[0].segments[0].rate, 10.0, 1e-12);
        // no bytes: pipeline time, no bandwidth
        let z = d(7, 42, 0);
        let r = share(CAP, &[], &[z]);
        assert_eq!((r[0].cycles, r[0].segments.len()), (42, 0));
    }

    #[test]
    fn two_equal_memory_bound_runs_each_take_twice_as_long() {
        let m = d(0, 1 << 16, 8 << 20);
        let alone = alone_cycles(&m, CAP);
        let r = share(CAP, &[], &[m, m]);
        // identical runs get identical results, bit for bit (whichever is given first)
        assert_eq!(r[0], r[1]);
        for s in &r {
            assert!(
                s.cycles == 2 * alone || s.cycles + 1 == 2 * alone,
                "{} vs {alone}",
                s.cycles
            );
            assert_eq!(s.segments.len(), 1);
            near(s.segments[0].rate, CAP / 2.0, 1e-12);
        }
        // together they use the board's bandwidth, not more
        let total: f64 = r.iter().map(moved).sum();
        let span = r[0].end.max(r[1].end);
        assert!(total / span <= CAP * (1.0 + 1e-12));
        near(total / span, CAP, 1e-9);
    }

    #[test]
    fn a_compute_bound_run_slows_a_memory_bound_one_by_what_it_uses() {
        // compute bound: 10 B/cycle over 1e6 cycles; memory bound: wants 8 x the board
        let c = d(0, 1_000_000, 10_000_000);
        let m = d(0, 100_000, 100_000 * (8.0 * CAP) as u64);
        let r = share(CAP, &[], &[c, m]);
        // the compute-bound run gets all it wants: its time does not change
        assert_eq!(r[0].cycles, 1_000_000);
        // the memory-bound one gets the rest while the other runs
        let m_alone = alone_cycles(&m, CAP) as f64;
        let expect = m.bytes as f64 / (CAP - 10.0);
        assert!(expect < 1_000_000.0);
        near(r[1].cycles as f64, expect, 1e-6);
        assert!(
            r[1].cycles as f64 > m_alone * 1.1,
            "{} vs {m_alone}",
            r[1].cycles
        );
        // order of the runs does not matter
        let s = share(CAP, &[], &[m, c]);
        assert_eq!((s[0].cycles, s[1].cycles), (r[1].cycles, r[0].cycles));
    }

    #[test]
    fn staggered_starts_share_only_while_they_overlap() {
        // A alone for 1000 cycles, then B joins: both memory bound (want >> CAP)
        let big = 1_000_000u64;
        let a = d(0, 1, big);
        let b = d(1000, 1, big);
        let r = share(CAP, &[], &[a, b]);
        // A moved 1000 x CAP alone, then half rate until it is done
        let a_end = 1000.0 + (big as f64 - 1000.0 * CAP) / (CAP / 2.0);
        near(r[0].end, a_end, 1e-9);
        // B: half rate until A ends, then full rate
        let b_moved_shared = (a_end - 1000.0) * CAP / 2.0;
        let b_end = a_end + (big as f64 - b_moved_shared) / CAP;
        near(r[1].end, b_end, 1e-9);
        // together: the board's bytes per cycle over the whole span
        near(2.0 * big as f64 / r[1].end, CAP, 1e-9);
        // a run that starts after another ended is unaffected
        let late = d(r[0].end.ceil() as u64 + r[1].cycles + 10, 1, big);
        let r2 = share(CAP, &[], &[a, late]);
        assert_eq!(r2[0].cycles, alone_cycles(&a, CAP));
        assert_eq!(r2[1].cycles, alone_cycles(&late, CAP));
    }

    #[test]
    fn final_runs_keep_their_profile_and_give_the_same_result() {
        // A and B overlap; timing them together, or B after A was made final with A's
        // recorded segments, gives B the same end (the split is max-min fair).
        let a = d(0, 1, 3_000_000);
        let b = d(500, 40_000, 2_000_000);
        let c = d(20_000, 1, 1_000_000);
        let joint = share(CAP, &[], &[a, b, c]);
        let fixed_a = joint[0].segments.clone();
        let rest = share(CAP, &fixed_a, &[b, c]);
        near(rest[0].end, joint[1].end, 1e-9);
        near(rest[1].end, joint[2].end, 1e-9);
        // and with A and B final, C alone against their segments
        let mut fixed_ab = fixed_a.clone();
        fixed_ab.extend(joint[1].segments.iter().copied());
        let last = share(CAP, &fixed_ab, &[c]);
        near(last[0].end, joint[2].end, 1e-9);
        // a fixed run using the whole board holds a new run back until it ends
        let full = [Segment {
            from: 0.0,
            to: 10_000.0,
            rate: CAP,
        }];
        let r = share(CAP, &full, &[d(1000, 1, 1000)]);
        near(r[0].end, 10_000.0 + 1000.0 / CAP, 1e-9);
        // capacity is never exceeded at any moment
        let mut points: Vec<f64> = joint
            .iter()
            .flat_map(|s| s.segments.iter().map(|g| g.from))
            .collect();
        points.sort_by(f64::total_cmp);
        for p in points {
            let used: f64 = joint
                .iter()
                .flat_map(|s| s.segments.iter())
                .filter(|g| g.from <= p && p < g.to)
                .map(|g| g.rate)
                .sum();
            assert!(used <= CAP * (1.0 + 1e-12), "{used} at {p}");
        }
    }

    #[test]
    fn many_fixed_segments_are_swept_once() {
        // 20,000 final runs one after the other, each holding half the board for 10 cycles
        // (as under a long-running kernel that keeps old runs in the ledger); a run that
        // wants the whole board gets the other half while they last, then all of it.
        let fixed: Vec<Segment> = (0..20_000)
            .map(|k| Segment {
                from: 10.0 * k as f64,
                to: 10.0 * (k + 1) as f64,
                rate: CAP / 2.0,
            })
            .collect();
        let bytes = 150_000.0 * CAP;
        let r = share(CAP, &fixed, &[d(0, 1, bytes as u64)]);
        // 200,000 cycles at half the board move 100,000 x CAP; the rest at full rate
        let want = 200_000.0 + (bytes.floor() - 100_000.0 * CAP) / CAP;
        near(r[0].end, want, 1e-9);
        // reversed input order: the same result
        let rev: Vec<Segment> = fixed.iter().rev().copied().collect();
        assert_eq!(share(CAP, &rev, &[d(0, 1, bytes as u64)]), r);
    }

    #[test]
    fn result_is_deterministic() {
        let runs = [
            d(0, 3, 1_000_000),
            d(10, 500_000, 9_000_000),
            d(10, 3, 1_000_000),
        ];
        let a = share(CAP, &[], &runs);
        let b = share(CAP, &[], &runs);
        assert_eq!(a, b);
    }
}
