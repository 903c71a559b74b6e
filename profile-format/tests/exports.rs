//! Exports: JSON (lossless + summary), Intel text lines, Chrome trace lanes.

use fpgacl_profile_format::exports::*;
use fpgacl_profile_format::*;

fn profile(records: Vec<Record>) -> Profile {
    Profile {
        header: sample::header(),
        programs: vec![sample::program()],
        records,
        truncated: false,
        warnings: vec![],
    }
}

fn run(kernel: &str, start: u64, end: u64, sites: Vec<SiteCounters>) -> KernelRun {
    KernelRun {
        run_id: start,
        device: 0,
        queue: 3,
        kernel: kernel.to_string(),
        program: 0,
        start_ns: start,
        end_ns: end,
        start_cycle: start / 1000 * 294,
        end_cycle: end / 1000 * 294,
        work_dim: 1,
        global_size: [1024, 1, 1],
        local_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        sites,
    }
}

fn counters(site: u32, base: u64) -> SiteCounters {
    SiteCounters {
        site,
        fired_cycles: base,
        stall_cycles: base + 1,
        predicated_cycles: base + 2,
        active_cycles: base + 3,
        requests: base + 4,
        bytes_requested: base + 5,
        bytes_fetched: base + 6,
        bursts: base + 7,
        burst_bytes: base + 8,
        max_burst_bytes: base + 9,
        cache_hits: base + 10,
        cache_misses: base + 11,
        unaligned_requests: base + 12,
    }
}

fn text(p: &Profile) -> String {
    let mut out = Vec::new();
    write_intel_text(p, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn intel_text_lines() {
    let p = profile(vec![
        // Sites given out of order: written sorted by site id.
        Record::KernelRun(run(
            "vector_add",
            1000,
            5000,
            vec![counters(1, 100), counters(0, 0)],
        )),
        Record::MemTransfer(MemTransfer {
            device: 0,
            queue: 3,
            direction: TransferDirection::Read,
            bytes: 4096,
            start_ns: 6000,
            end_ns: 7000,
        }),
        Record::MemTransfer(MemTransfer {
            device: 1,
            queue: 4,
            direction: TransferDirection::Write,
            bytes: 1,
            start_ns: 1,
            end_ns: 2,
        }),
        Record::MemTransfer(MemTransfer {
            device: 0,
            queue: 3,
            direction: TransferDirection::Copy,
            bytes: 1,
            start_ns: 3,
            end_ns: 4,
        }),
        Record::Snapshot(Snapshot {
            taken_ns: 2500,
            run: run("vector_add", 1000, 2500, vec![]),
        }),
        Record::AutorunCapture(AutorunCapture {
            device: 0,
            kernel: "streamer".into(),
            program: 0,
            compute_unit: [0, 0, 0],
            capture_ns: 30_000,
            sites: vec![counters(3, 7)],
            cleared: false,
        }),
    ]);
    let t = text(&p);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[0],
        "0,3,vector_add,1000,5000,-1,26,\
         0,1,2,3,4,5,6,7,8,9,10,11,12,\
         100,101,102,103,104,105,106,107,108,109,110,111,112"
    );
    assert_eq!(lines[1], "0,3,.mem_transfer_read,6000,7000");
    assert_eq!(lines[2], "1,4,.mem_transfer_write,1,2");
    assert_eq!(lines[3], "0,3,.mem_transfer_copy,3,4");
    assert_eq!(lines[4], "0,3,vector_add,1000,0,-1,0");
    assert_eq!(
        lines[5],
        "0,0,streamer,0,30000,-1,13,7,8,9,10,11,12,13,14,15,16,17,18,19"
    );
    assert_eq!(lines.len(), 6);

    // A comma in a name cannot split a record.
    let p = profile(vec![Record::KernelRun(run("a,b\nc", 0, 1, vec![]))]);
    assert_eq!(text(&p), "0,3,a_b_c,0,1,-1,0\n");
}

#[test]
fn json_is_lossless_and_has_a_summary() {
    let records: Vec<Record> = (0..200).map(sample::record).collect();
    let p = profile(records.clone());
    let mut out = Vec::new();
    write_json(&p, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["format"], "fpgacl-profile");
    assert_eq!(v["json_version"], 1);
    let back: Vec<Record> = serde_json::from_value(v["records"].clone()).unwrap();
    assert_eq!(back, records);
    let header: Header = serde_json::from_value(v["header"].clone()).unwrap();
    assert_eq!(header, p.header);
    let programs: Vec<Program> = serde_json::from_value(v["programs"].clone()).unwrap();
    assert_eq!(programs, p.programs);

    let s = &v["summary"];
    assert_eq!(s["clock_mhz"], 294.0);
    assert_eq!(s["board_bandwidth_mbps"], 25600.0);
    let k = &s["kernels"][0];
    assert_eq!(k["kernel"], "vector_add");
    assert_eq!(k["runs"].as_u64().unwrap(), p.kernel_runs().count() as u64);
    let sites = k["sites"].as_array().unwrap();
    assert_eq!(sites.len(), 3);
    let agg = p.aggregate_kernel_sites(0, "vector_add");
    assert_eq!(sites[0]["line"], 4);
    assert_eq!(sites[0]["kind"], "Load");
    assert_eq!(sites[0]["memory"], "Global");
    assert_eq!(
        sites[0]["stall_pct"].as_f64().unwrap(),
        agg[0].stall_pct().unwrap()
    );
    assert_eq!(
        sites[2]["bandwidth_mbps"].as_f64().unwrap(),
        agg[2].bandwidth_mbps(294.0).unwrap()
    );
    // No cache on these sites: the metric is null, not NaN.
    assert!(sites[0]["cache_hit_pct"].is_null());
    let a = &s["autorun"][0];
    assert_eq!(a["kernel"], "streamer");
    assert_eq!(a["captures"], 2);
    assert_eq!(a["capture_times_ns"][0], 490_000);
    let t = s["transfers"].as_array().unwrap();
    let total: u64 = t.iter().map(|x| x["count"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, p.transfers().count());

    let mut pretty = Vec::new();
    write_json_pretty(&p, &mut pretty).unwrap();
    let v2: serde_json::Value = serde_json::from_slice(&pretty).unwrap();
    assert_eq!(v, v2);
}

#[test]
fn chrome_trace_lanes() {
    let p = profile(vec![
        Record::KernelRun(run("k", 0, 10_000, vec![])),
        // Overlaps the first run of k: needs a second lane.
        Record::KernelRun(run("k", 5_000, 12_000, vec![])),
        // After both: back in the first lane.
        Record::KernelRun(run("k", 20_000, 21_000, vec![])),
        Record::KernelRun(run("other", 1_000, 2_000, vec![])),
        Record::MemTransfer(MemTransfer {
            device: 0,
            queue: 3,
            direction: TransferDirection::Write,
            bytes: 64,
            start_ns: 0,
            end_ns: 500,
        }),
        Record::Snapshot(Snapshot {
            taken_ns: 7_000,
            run: run("k", 5_000, 7_000, vec![]),
        }),
        Record::AutorunCapture(AutorunCapture {
            device: 1,
            kernel: "streamer".into(),
            program: 0,
            compute_unit: [0, 0, 0],
            capture_ns: 30_000,
            sites: vec![],
            cleared: true,
        }),
    ]);
    let mut out = Vec::new();
    write_chrome_trace(&p, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let ev = v["traceEvents"].as_array().unwrap();
    let lane_name = |tid: &serde_json::Value| -> String {
        ev.iter()
            .find(|e| e["ph"] == "M" && e["name"] == "thread_name" && &e["tid"] == tid)
            .map(|e| e["args"]["name"].as_str().unwrap().to_string())
            .unwrap()
    };
    let runs: Vec<&serde_json::Value> = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "kernel")
        .collect();
    assert_eq!(runs.len(), 4);
    let k: Vec<(f64, String)> = runs
        .iter()
        .filter(|e| e["name"] == "k")
        .map(|e| (e["ts"].as_f64().unwrap(), lane_name(&e["tid"])))
        .collect();
    assert_eq!(
        k,
        vec![
            (0.0, "kernel k".to_string()),
            (5.0, "kernel k #2".to_string()),
            (20.0, "kernel k".to_string())
        ]
    );
    let x = runs.iter().find(|e| e["name"] == "other").unwrap();
    assert_eq!(lane_name(&x["tid"]), "kernel other");
    assert_eq!(x["dur"].as_f64().unwrap(), 1.0);
    let t = ev.iter().find(|e| e["cat"] == "transfer").unwrap();
    assert_eq!(lane_name(&t["tid"]), "transfers write");
    assert_eq!(t["args"]["bytes"], 64);
    let snap = ev.iter().find(|e| e["cat"] == "snapshot").unwrap();
    assert_eq!(lane_name(&snap["tid"]), "kernel k");
    assert_eq!(snap["ph"], "i");
    assert_eq!(snap["ts"].as_f64().unwrap(), 7.0);
    let cap = ev.iter().find(|e| e["cat"] == "autorun").unwrap();
    assert_eq!(lane_name(&cap["tid"]), "autorun streamer");
    assert_eq!(cap["pid"], 1);
    assert_eq!(cap["args"]["cleared"], true);
    let procs: Vec<&str> = ev
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(procs, vec!["device 0", "device 1"]);
}

#[test]
fn intel_text_numbers_at_the_extremes() {
    let mut c = SiteCounters::zero(0);
    c.fired_cycles = u64::MAX;
    c.stall_cycles = 10;
    c.predicated_cycles = 9;
    let p = profile(vec![Record::KernelRun(run("k", 0, u64::MAX, vec![c]))]);
    assert_eq!(
        text(&p),
        format!(
            "0,3,k,0,{m},-1,13,{m},10,9,0,0,0,0,0,0,0,0,0,0\n",
            m = u64::MAX
        )
    );
}
