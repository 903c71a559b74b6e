//! Aggregations over records that viewers rely on.

use fpgacl_profile_format::*;

fn cap(cu: [u32; 3], t: u64, fired: u64, cleared: bool) -> Record {
    Record::AutorunCapture(AutorunCapture {
        device: 0,
        kernel: "streamer".into(),
        program: 0,
        compute_unit: cu,
        capture_ns: t,
        sites: vec![SiteCounters {
            fired_cycles: fired,
            active_cycles: 10 * fired,
            ..SiteCounters::zero(3)
        }],
        cleared,
    })
}

fn profile(records: Vec<Record>) -> Profile {
    Profile {
        header: sample::header(),
        programs: vec![sample::program()],
        records,
        truncated: false,
        warnings: vec![],
    }
}

#[test]
fn autorun_totals_do_not_double_count_cumulative_captures() {
    // Compute unit 0: cumulative 5, 8 (includes the 5), then cleared at 12 (includes 8),
    // then a fresh window: 3 (cleared), then 4 uncleared (last).
    // Compute unit 1 (listed interleaved, out of time order): 100 then 150 cumulative.
    let p = profile(vec![
        cap([0, 0, 0], 10, 5, false),
        cap([1, 0, 0], 25, 150, false),
        cap([0, 0, 0], 20, 8, false),
        cap([1, 0, 0], 15, 100, false),
        cap([0, 0, 0], 30, 12, true),
        cap([0, 0, 0], 40, 3, true),
        cap([0, 0, 0], 50, 4, false),
    ]);
    let agg = p.aggregate_autorun_sites(0, "streamer");
    assert_eq!(agg.len(), 1);
    assert_eq!(agg[0].fired_cycles, 12 + 3 + 4 + 150);
    assert_eq!(agg[0].active_cycles, 10 * (12 + 3 + 4 + 150));
    assert!(p.aggregate_autorun_sites(1, "streamer").is_empty());
    assert!(p.aggregate_autorun_sites(0, "other").is_empty());

    // The JSON summary uses the same totals.
    let mut out = Vec::new();
    exports::write_json(&p, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let a = &v["summary"]["autorun"][0];
    assert_eq!(a["captures"], 7);
    assert_eq!(a["sites"][0]["counters"]["fired_cycles"], 169);
}

#[test]
fn kernel_totals_and_time_span() {
    let p = profile((0..100).map(sample::record).collect());
    let runs: Vec<&KernelRun> = p.kernel_runs().collect();
    let agg = p.aggregate_kernel_sites(0, "vector_add");
    for site in 0..3u32 {
        let want: u64 = runs
            .iter()
            .flat_map(|r| r.sites.iter())
            .filter(|s| s.site == site)
            .map(|s| s.stall_cycles)
            .sum();
        assert_eq!(agg[site as usize].stall_cycles, want);
    }
    let (a, b) = p.time_span_ns().unwrap();
    assert_eq!(a, 0);
    let last_end = runs.iter().map(|r| r.end_ns).max().unwrap();
    assert!(b >= last_end);
    assert_eq!(profile(vec![]).time_span_ns(), None);
}
