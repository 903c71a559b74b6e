//! The writer encodes through serde, the reader decodes with bincode's derived `Decode`: both
//! must produce the same bytes for every model value.

use fpgacl_profile_format::*;

fn same<T: serde::Serialize + bincode::Encode>(v: &T) {
    let cfg = bincode::config::standard();
    let via_serde = bincode::serde::encode_to_vec(v, cfg).unwrap();
    let native = bincode::encode_to_vec(v, cfg).unwrap();
    assert_eq!(via_serde, native);
}

#[test]
fn serde_and_derived_encodings_are_identical() {
    same(&sample::header());
    same(&sample::program());
    for n in 0..300 {
        same(&sample::record(n));
    }
    let mut p = sample::program();
    p.report.loops[0].unroll = Unroll::Partial(4);
    p.report.loops[0].trip_count = Some(u64::MAX);
    p.report.loops[0].parent = Some(7);
    p.report.kernels[0].reqd_work_group_size = Some([64, 2, 1]);
    p.report.sites[0].modifiers = vec!["cached".into(), "non-aligned".into()];
    same(&p);
    p.report.loops[0].unroll = Unroll::Full;
    same(&p);
}

fn roundtrip_counters(c: SiteCounters) {
    let bytes = bincode::serde::encode_to_vec(c, bincode::config::standard()).unwrap();
    let back: SiteCounters = frame::decode_payload(&bytes).unwrap();
    assert_eq!(back, c);
    let run = Record::KernelRun(KernelRun {
        sites: vec![c, c],
        ..match sample::record(0) {
            Record::KernelRun(r) => r,
            _ => unreachable!(),
        }
    });
    let bytes = bincode::serde::encode_to_vec(&run, bincode::config::standard()).unwrap();
    let back: Record = frame::decode_payload(&bytes).unwrap();
    assert_eq!(back, run);
}

#[test]
fn hand_written_counter_decoding_matches_every_varint_width() {
    let widths = [
        0u64,
        1,
        250,
        251,
        255,
        65535,
        65536,
        u32::MAX as u64,
        1 << 32,
        u64::MAX,
    ];
    for (i, &v) in widths.iter().enumerate() {
        let w = widths[(i + 3) % widths.len()];
        roundtrip_counters(SiteCounters {
            site: (v.min(u32::MAX as u64)) as u32,
            fired_cycles: v,
            stall_cycles: w,
            predicated_cycles: v,
            active_cycles: w,
            requests: v,
            bytes_requested: w,
            bytes_fetched: v,
            bursts: w,
            burst_bytes: v,
            max_burst_bytes: w,
            cache_hits: v,
            cache_misses: w,
            unaligned_requests: v,
        });
    }
    // A site id beyond u32 is an error, not a truncation.
    let mut bytes =
        bincode::serde::encode_to_vec((u64::MAX, [0u64; 13]), bincode::config::standard()).unwrap();
    assert!(frame::decode_payload::<SiteCounters>(&bytes).is_err());
    bytes.truncate(5);
    assert!(frame::decode_payload::<SiteCounters>(&bytes).is_err());
}

proptest::proptest! {
    #[test]
    fn counters_roundtrip(v in proptest::collection::vec(proptest::num::u64::ANY, 14)) {
        roundtrip_counters(SiteCounters {
            site: v[0] as u32,
            fired_cycles: v[1],
            stall_cycles: v[2],
            predicated_cycles: v[3],
            active_cycles: v[4],
            requests: v[5] >> (v[0] % 64),
            bytes_requested: v[6] >> (v[1] % 64),
            bytes_fetched: v[7] >> (v[2] % 64),
            bursts: v[8] >> (v[3] % 64),
            burst_bytes: v[9] >> (v[4] % 64),
            max_burst_bytes: v[10] >> (v[5] % 64),
            cache_hits: v[11] >> (v[6] % 64),
            cache_misses: v[12] >> (v[7] % 64),
            unaligned_requests: v[13] >> (v[8] % 64),
        });
    }
}
