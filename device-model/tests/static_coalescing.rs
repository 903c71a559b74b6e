//! Rule M0' (`timing/MODEL.md`): accesses of unrolled copies (or of consecutive sites) whose
//! addresses tile one contiguous range per work-item are ONE wide LSU: one request per
//! work-item, `ceil(width / W)` memory words, and the bursts run across consecutive
//! work-items as for a plain `b[i] = a[i]`. Before the rule, each copy was tracked in its own
//! issue slot, so every copy of every work-item opened its own memory word (16 copies of 4
//! bytes: 16 words per work-item instead of 1, 16x the memory time).

mod timing_util;

use fpgacl_device_model::*;
use timing_util::*;

const SRC: &str = "#define VEC 16\n\
kernel void unrolled(global const float *restrict a, global float *restrict b) {\n\
  int i = get_global_id(0);\n\
  #pragma unroll\n\
  for (int k = 0; k < VEC; k++) {\n\
    b[i * VEC + k] = a[i * VEC + k] * 2.0f;\n\
  }\n\
}\n\
kernel void predicated(global const float *restrict a, global float *restrict b, int n) {\n\
  int i = get_global_id(0);\n\
  #pragma unroll\n\
  for (int k = 0; k < VEC; k++) {\n\
    if (i * VEC + k < n) b[i * VEC + k] = a[i * VEC + k] * 2.0f;\n\
  }\n\
}\n\
kernel void wide(global const float *restrict a, global float *restrict b) {\n\
  int i = get_global_id(0);\n\
  #pragma unroll\n\
  for (int k = 0; k < 32; k++) {\n\
    b[i * 32 + k] = a[i * 32 + k] + 1.0f;\n\
  }\n\
}\n\
kernel void vec(global const float4 *restrict a, global float4 *restrict b) {\n\
  int i = get_global_id(0);\n\
  b[i] = a[i] * 2.0f;\n\
}\n\
kernel void sites(global const float *restrict a, global float *restrict b) {\n\
  int i = get_global_id(0);\n\
  float x0 = a[4 * i];\n\
  float x1 = a[4 * i + 1];\n\
  float x2 = a[4 * i + 2];\n\
  float x3 = a[4 * i + 3];\n\
  b[i] = x0 + x1 + x2 + x3;\n\
}\n";

const ITEMS: u64 = 4096;
const GROUP: u64 = 256;

fn launch(k: &Kit, name: &str, per_item: u64, n: Option<i32>) -> (RunReport, timing::KernelTiming) {
    let a: Vec<f32> = (0..ITEMS * per_item).map(|i| i as f32).collect();
    let a = buf(&a);
    let out = if name == "sites" {
        ITEMS
    } else {
        ITEMS * per_item
    };
    let b = buf(&vec![0f32; out as usize]);
    let mut args = vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b)];
    if let Some(n) = n {
        args.push(val(n));
    }
    let spec = LaunchSpec::ndrange_1d(k.index(name), ITEMS, Some(GROUP), args);
    let r = k.run(&spec);
    drop((a, b));
    r
}

use fpgacl_device_model::timing;

/// 16 floats per work-item (64 B = one memory word) through one wide LSU per array.
#[test]
fn unrolled_copies_form_one_wide_access_per_work_item() {
    let k = kit(SRC, 2);
    let rep = k.kreport("unrolled");
    for s in rep.sites_at_line(6) {
        assert_eq!(s.coalesced_width, Some(64), "{s:?}");
        assert_eq!((s.coalesced_accesses, s.coalesced_copies), (16, 16));
    }
    let (_r, t) = launch(&k, "unrolled", 16, None);
    for store in [false, true] {
        let s = k.site_at(&t, 6, store);
        eprintln!("store {store}: {s:?}");
        // One request per work-item, one 64-byte word per work-item: efficiency 100%.
        assert_eq!(s.requests, ITEMS);
        assert_eq!(s.bytes_requested, ITEMS * 64);
        assert_eq!(s.bytes_fetched, ITEMS * 64);
        // Bursts of 16 words within each group of 256 work-items: 16 per group.
        assert_eq!(s.bursts, ITEMS / GROUP * 16);
        assert_eq!(s.max_burst_bytes, 1024);
        assert_eq!(s.fired_cycles, ITEMS);
    }
    // B1: 2 x 4096 x 64 bytes at 25600 MB/s / 294 MHz = 87.07 B/cycle: 6,022 cycles, memory
    // bound over the 4,096 issue cycles (+ fill). Before rule M0': 16x the bytes.
    let bpc = 25600.0 / 294.0;
    let mem = (2.0 * ITEMS as f64 * 64.0 / bpc).ceil() as u64;
    assert_eq!(mem, 6022);
    assert_eq!(t.memory_cycles, mem);
    assert_eq!(t.cycles, mem.max(t.compute_cycles));
}

/// Predicated copies (`if (k < n)`) still coalesce: the wide LSU masks the bytes.
#[test]
fn predicated_copies_still_coalesce() {
    let k = kit(SRC, 2);
    let rep = k.kreport("predicated");
    for s in rep.sites_at_line(13) {
        assert_eq!(s.coalesced_width, Some(64), "{s:?}");
    }
    let (_r, t) = launch(&k, "predicated", 16, Some((ITEMS * 16) as i32));
    let s = k.site_at(&t, 13, false);
    assert_eq!(s.requests, ITEMS);
    assert_eq!(s.bytes_fetched, ITEMS * 64);
}

/// 32 floats per work-item: 128 B, wider than the 64-byte word: 2 words per request.
#[test]
fn wider_than_a_word_costs_its_words() {
    let k = kit(SRC, 2);
    let rep = k.kreport("wide");
    for s in rep.sites_at_line(20) {
        assert_eq!(s.coalesced_width, Some(128), "{s:?}");
    }
    let (_r, t) = launch(&k, "wide", 32, None);
    let s = k.site_at(&t, 20, false);
    assert_eq!(s.requests, ITEMS);
    assert_eq!(s.bytes_fetched, ITEMS * 128);
    assert_eq!(s.max_burst_bytes, 1024);
}

/// A `float4` access is one 16-byte access already; four consecutive sites `a[4i + c]` are
/// one wide access too: 16 B per work-item, 4 work-items per word.
#[test]
fn vector_types_and_consecutive_sites() {
    let k = kit(SRC, 2);
    let (_r, t) = launch(&k, "vec", 4, None);
    let s = k.site_at(&t, 25, false);
    assert_eq!(s.requests, ITEMS);
    assert_eq!(s.bytes_fetched, ITEMS * 16);
    let rep = k.kreport("sites");
    let loads: Vec<_> = rep
        .sites
        .iter()
        .filter(|s| s.kind == fpgacl_kernel_compiler::ir::SiteKind::Load)
        .collect();
    assert_eq!(loads.len(), 4);
    for s in &loads {
        assert_eq!(s.coalesced_width, Some(16), "{s:?}");
        assert_eq!((s.coalesced_accesses, s.coalesced_copies), (4, 1));
    }
    let (_r, t) = launch(&k, "sites", 4, None);
    for s in &loads {
        eprintln!("{:?} {:?}", s, t.site(s.id.0));
    }
    let fetched: u64 = loads
        .iter()
        .map(|s| t.site(s.id.0).expect("site").bytes_fetched)
        .sum();
    // Together one 16-byte access per work-item: 4096 x 16 bytes (not 4 x 4096 x 16).
    assert_eq!(fetched, ITEMS * 16);
}
