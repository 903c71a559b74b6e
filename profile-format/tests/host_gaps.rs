//! Format 1.2's `HostGap` record: round trip, kept out of the device figures, in the JSON
//! summary, and older files (format 1.1, written before the record existed) still load.

use fpgacl_profile_format::frame::{encode_frame, prefix, FrameKind};
use fpgacl_profile_format::*;

fn gap(run_id: Option<u64>, command: &str, queued_ns: u64, gap_ns: u64) -> HostGap {
    HostGap {
        device: 0,
        queue: 0,
        run_id,
        command: command.into(),
        queued_ns,
        gap_ns,
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fpgacl-pf-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn host_gaps_round_trip_and_stay_out_of_device_figures() {
    let dir = scratch("hostgap");
    let path = dir.join("gaps.mon");
    let w = ProfileWriter::create(&path, &sample::header()).unwrap();
    w.write_program(&sample::program()).unwrap();
    let runs = [sample::record(0), sample::record(1)];
    let device_only = {
        let p = dir.join("device_only.mon");
        let w = ProfileWriter::create(&p, &sample::header()).unwrap();
        w.write_program(&sample::program()).unwrap();
        w.write_records(&runs).unwrap();
        w.flush().unwrap();
        read_profile(&p).unwrap()
    };
    // A gap far beyond the device timeline (10 s of host time) must not stretch it.
    let recs = vec![
        Record::HostGap(gap(Some(0), "k", 0, 1_000)),
        runs[0].clone(),
        Record::HostGap(gap(Some(1), "k", 5, 10_000_000_000)),
        runs[1].clone(),
    ];
    w.write_records(&recs).unwrap();
    w.flush().unwrap();
    let p = read_profile(&path).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.header.format_minor, 2);
    assert_eq!(p.records, recs);
    assert_eq!(p.host_gaps().count(), 2);
    assert_eq!(p.time_span_ns(), device_only.time_span_ns());
    assert_eq!(p.emulated_time_ns(), device_only.emulated_time_ns());
    let mut json = Vec::new();
    exports::write_json(&p, &mut json).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let gaps = &v["summary"]["host_gaps"];
    assert_eq!(gaps[0]["command"], "k");
    assert_eq!(gaps[0]["count"], 2);
    assert_eq!(gaps[0]["total_ns"], 10_000_001_000u64);
    assert_eq!(gaps[0]["max_ns"], 10_000_000_000u64);
    let mut before = Vec::new();
    exports::write_json(&device_only, &mut before).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&before).unwrap();
    assert_eq!(v["summary"]["kernels"], b["summary"]["kernels"]);
    assert_eq!(v["summary"]["total_time_ns"], b["summary"]["total_time_ns"]);
    // Intel's layout has no such line; the trace draws only the device timeline.
    let mut intel = Vec::new();
    exports::write_intel_text(&p, &mut intel).unwrap();
    assert_eq!(String::from_utf8(intel).unwrap().lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file as fpgacl 1.1 wrote it (prefix and header say minor 1, no `HostGap` record) loads
/// with this reader, without warnings and with every record.
#[test]
fn a_format_1_1_file_still_loads() {
    let dir = scratch("v11");
    let path = dir.join("old.mon");
    let mut header = sample::header();
    header.format_minor = 1;
    let mut bytes = prefix(1, 1).to_vec();
    encode_frame(FrameKind::Header, &header, &mut bytes).unwrap();
    encode_frame(FrameKind::Program, &sample::program(), &mut bytes).unwrap();
    let recs = [sample::record(0), sample::record(1)];
    for r in &recs {
        encode_frame(FrameKind::Record, r, &mut bytes).unwrap();
    }
    std::fs::write(&path, &bytes).unwrap();
    let p = read_profile(&path).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.header.format_minor, 1);
    assert_eq!(p.records, recs);
    assert_eq!(p.host_gaps().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
