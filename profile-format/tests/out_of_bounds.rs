//! Format 1.1's `OutOfBounds` record: round trip, merging over runs, JSON, and the Intel text
//! layout (which has no such line).

use fpgacl_profile_format::*;

fn oob(run_id: u64, count: u64, write: bool) -> OutOfBounds {
    OutOfBounds {
        run_id,
        device: 0,
        kernel: "stencil".into(),
        program: 0,
        time_ns: 1000 + run_id,
        file: "stencil.cl".into(),
        line: 8,
        column: 16,
        work_item: [0, 0, 0],
        memory: "local memory".into(),
        target: "prev".into(),
        offset: -4,
        access_bytes: 4,
        object_bytes: 64,
        write,
        count,
    }
}

#[test]
fn out_of_bounds_records_round_trip_and_merge() {
    let dir = std::env::temp_dir().join(format!("fpgacl-pf-oob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("oob.mon");
    let w = ProfileWriter::create(&path, &sample::header()).unwrap();
    w.write_program(&sample::program()).unwrap();
    let recs = vec![
        sample::record(0),
        Record::OutOfBounds(oob(0, 4, false)),
        sample::record(1),
        Record::OutOfBounds(oob(1, 4, false)),
        Record::OutOfBounds(oob(1, 2, true)),
    ];
    w.write_records(&recs).unwrap();
    w.flush().unwrap();
    let p = read_profile(&path).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.header.format_minor, FORMAT_MINOR);
    assert_eq!(p.records, recs);
    let sites = p.out_of_bounds_sites();
    assert_eq!(sites.len(), 2);
    assert_eq!((sites[0].0.count, sites[0].1), (8, 2));
    assert_eq!((sites[1].0.count, sites[1].0.write), (2, true));
    let text = sites[0].0.to_string();
    assert!(
        text.contains("stencil.cl:8:16")
            && text.contains("'prev' (local memory)")
            && text.contains("offset -4")
            && text.contains("returned 0 (8 such reads)"),
        "{text}"
    );
    let mut json = Vec::new();
    exports::write_json(&p, &mut json).unwrap();
    let json = String::from_utf8(json).unwrap();
    assert!(json.contains("\"OutOfBounds\""), "{json}");
    let mut intel = Vec::new();
    exports::write_intel_text(&p, &mut intel).unwrap();
    let intel = String::from_utf8(intel).unwrap();
    assert_eq!(intel.lines().count(), 2, "only the two runs: {intel}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_writer_of_the_same_profile_is_refused_while_the_first_writes() {
    let dir = std::env::temp_dir().join(format!("fpgacl-pf-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("profile.mon");
    let first = ProfileWriter::create(&path, &sample::header()).unwrap();
    first.write_record(&sample::record(0)).unwrap();
    // Neither create (which would truncate) nor append may share the file.
    assert!(matches!(
        ProfileWriter::create(&path, &sample::header()),
        Err(WriteError::Locked { .. })
    ));
    assert!(matches!(
        ProfileWriter::append(&path),
        Err(WriteError::Locked { .. })
    ));
    first.write_record(&sample::record(1)).unwrap();
    drop(first);
    let p = read_profile(&path).unwrap();
    assert_eq!(p.records, vec![sample::record(0), sample::record(1)]);
    // Once the first writer is gone the file can be appended to.
    let again = ProfileWriter::append(&path).unwrap();
    again.write_record(&sample::record(2)).unwrap();
    drop(again);
    assert_eq!(read_profile(&path).unwrap().records.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}
