//! Local memory arbitration (timing rules L1-L4): accesses to a local memory bank that is not
//! stall-free contend for its ports, the loop issues at a higher effective II and the contending
//! sites show stall; stall-free memories never stall. Tolerances are stated per assertion.

mod timing_util;

use fpgacl_device_model::timing::Bound;
use fpgacl_device_model::*;
use timing_util::*;

/// Four stores to one bank in an II-1 loop (arbitrated: a double-pumped bank takes at most
/// three writes), the same with three stores (stall-free, double-pumped), and four stores of
/// which two are predicated to one iteration in four.
const KERNELS: &str = "kernel void arb4(global int* restrict out, int n) {\n\
  local int a[256];\n\
  for (int i = 0; i < n; i++) {\n\
    a[i & 255] = i;\n\
    a[(i + 1) & 255] = i + 1;\n\
    a[(i + 2) & 255] = i + 2;\n\
    a[(i + 3) & 255] = i + 3;\n\
  }\n\
  out[0] = a[5];\n\
}\n\
kernel void free3(global int* restrict out, int n) {\n\
  local int a[256];\n\
  for (int i = 0; i < n; i++) {\n\
    a[i & 255] = i;\n\
    a[(i + 1) & 255] = i + 1;\n\
    a[(i + 2) & 255] = i + 2;\n\
  }\n\
  out[0] = a[5];\n\
}\n\
kernel void arb_pred(global int* restrict out, int n) {\n\
  local int a[256];\n\
  for (int i = 0; i < n; i++) {\n\
    a[i & 255] = i;\n\
    a[(i + 1) & 255] = i + 1;\n\
    if ((i & 3) == 0) {\n\
      a[(i + 2) & 255] = i + 2;\n\
      a[(i + 3) & 255] = i + 3;\n\
    }\n\
  }\n\
  out[0] = a[5];\n\
}\n";

const N: i32 = 20000;

fn run_task(k: &Kit, name: &str) -> (RunReport, fpgacl_device_model::timing::KernelTiming) {
    let out = buf(&[0i32; 4]);
    k.run(&LaunchSpec::task(
        k.index(name),
        vec![ArgBinding::buffer(&out), val(N)],
    ))
}

#[test]
fn arbitrated_stores_stall_and_lengthen_the_loop() {
    let k = kit(KERNELS, 1);
    // The analysis: arb4's memory is arbitrated (one bank, 4 write ports, 2 physical ports);
    // free3's is stall-free and has no arbitrated bank.
    let arb = &k.kreport("arb4").local_memories[0];
    assert!(!arb.stall_free);
    assert_eq!(arb.arbitrated_banks.len(), 1);
    assert_eq!(arb.arbitrated_banks[0].ports, 2);
    let free = &k.kreport("free3").local_memories[0];
    assert!(free.stall_free);
    assert!(free.arbitrated_banks.is_empty());
    // The aoc-style report names the arbitrated bank, its ports and the contending lines
    // (the four stores in the loop and the load after it).
    let text = fpgacl_kernel_compiler::analysis::render::render(&k.module.sources, &k.report);
    assert!(
        text.contains(
            "bank 0: 5 port access(es) arbitrated over 2 physical ports (lines 4, 5, 6, 7, 9)"
        ),
        "{text}"
    );
    let ii = k.kreport("arb4").loop_at_line(3).unwrap().ii;
    assert_eq!(ii, 1);

    let (_, t4) = run_task(&k, "arb4");
    let (_, t3) = run_task(&k, "free3");
    eprintln!("arb4 {t4:#?}\nfree3 {t3:#?}");
    let fill4 = fpgacl_device_model::timing::compute::fill_once(k.kreport("arb4"));
    let fill3 = fpgacl_device_model::timing::compute::fill_once(k.kreport("free3"));
    // Stall-free: n iterations at II 1 plus the fill (exact), no stall anywhere.
    assert_eq!(t3.bound, Bound::Compute);
    assert_eq!(t3.local_stall_cycles, 0);
    assert_eq!(t3.cycles, N as u64 + fill3);
    for s in &t3.sites {
        assert_eq!(s.stall_cycles, 0, "{s:?}");
    }
    // Arbitrated: 4 stores per iteration through 2 ports = 2 cycles per iteration (L2/L3):
    // n extra cycles (exact), the loop's effective II is 2.
    assert_eq!(t4.bound, Bound::LocalMemory);
    assert_eq!(t4.local_stall_cycles, N as u64);
    assert_eq!(t4.cycles, 2 * N as u64 + fill4);
    near(
        "arbitrated / stall-free duration",
        t4.cycles as f64 / t3.cycles as f64,
        2.0,
        0.01,
    );
    // Every store in the loop is a source (equal requests): stall 50% + occupancy 50% = 100%
    // within 1 point (the fill).
    for line in 4..=7 {
        let s = k.site_at(&t4, line, true);
        assert_eq!(s.stall_cycles, N as u64, "line {line}");
        near("stall%", s.stall_pct().unwrap(), 50.0, 0.01);
        let sum = s.stall_pct().unwrap() + s.occupancy_pct().unwrap();
        assert!((99.0..=100.0).contains(&sum), "line {line}: {sum}");
    }
    // The load after the loop (kernel level) is not contended: no stall.
    assert_eq!(k.site_at(&t4, 9, false).stall_cycles, 0);
    // The global store has no local stall either.
    assert_eq!(k.site_at(&t4, 9, true).stall_cycles, 0);
}

/// Rule L2 uses executed counts: two stores that fire one iteration in four add half a request
/// per iteration: 2.5 requests / 2 ports = 1.25 cycles per iteration, 0.25 n extra cycles. The
/// two unpredicated stores are the sources (stall = the loop's extra cycles), the predicated
/// ones victims in proportion to their requests (1/4).
#[test]
fn arbitration_stall_follows_executed_requests() {
    let k = kit(KERNELS, 1);
    assert!(!k.kreport("arb_pred").local_memories[0].stall_free);
    let (_, t) = run_task(&k, "arb_pred");
    eprintln!("{t:#?}");
    let n = N as u64;
    assert_eq!(t.local_stall_cycles, n / 4);
    let fill = fpgacl_device_model::timing::compute::fill_once(k.kreport("arb_pred"));
    assert_eq!(t.cycles, n + n / 4 + fill);
    // arb_pred starts at line 20 of KERNELS.
    for line in [23, 24] {
        assert_eq!(k.site_at(&t, line, true).stall_cycles, n / 4, "line {line}");
    }
    for line in [26, 27] {
        let s = k.site_at(&t, line, true);
        assert_eq!(s.stall_cycles, n / 16, "line {line}");
        assert_eq!(s.fired_cycles, n / 4, "line {line}");
    }
}

/// NDRange: four stores, a barrier and a load per work-item on one bank of a local array
/// (arbitrated), one work-item per cycle: the stores need 2 cycles per work-item; the
/// stall-free variant with two stores (one bank double-pumped) runs at one work-item per cycle.
#[test]
fn ndrange_arbitration_and_determinism() {
    let src = "__attribute__((reqd_work_group_size(64,1,1)))\n\
kernel void st4(global int* restrict out) {\n\
  local int a[256];\n\
  int l = get_local_id(0);\n\
  a[l] = l;\n\
  a[l + 64] = l;\n\
  a[l + 128] = l;\n\
  a[l + 192] = l;\n\
  barrier(CLK_LOCAL_MEM_FENCE);\n\
  out[get_global_id(0)] = a[255 - l];\n\
}\n\
__attribute__((reqd_work_group_size(64,1,1)))\n\
kernel void st2(global int* restrict out) {\n\
  local int a[256];\n\
  int l = get_local_id(0);\n\
  a[l] = l;\n\
  a[l + 64] = l;\n\
  barrier(CLK_LOCAL_MEM_FENCE);\n\
  out[get_global_id(0)] = a[255 - l];\n\
}\n";
    let k = kit(src, 2);
    let m4 = &k.kreport("st4").local_memories[0];
    let m2 = &k.kreport("st2").local_memories[0];
    eprintln!("{m4:#?}\n{m2:#?}");
    assert!(m2.stall_free && m2.arbitrated_banks.is_empty());
    let n = 64 * 256u64;
    let run = |name: &str| {
        let out = buf(&vec![0i32; n as usize]);
        k.run(&LaunchSpec::ndrange_1d(
            k.index(name),
            n,
            Some(64),
            vec![ArgBinding::buffer(&out)],
        ))
        .1
    };
    let t2 = run("st2");
    assert_eq!(t2.local_stall_cycles, 0);
    for s in &t2.sites {
        assert_eq!(s.stall_cycles, 0, "{s:?}");
    }
    if m4.stall_free {
        panic!("four stores to one bank should be arbitrated: {m4:#?}");
    }
    let t4 = run("st4");
    let t4b = run("st4");
    assert_eq!(t4, t4b, "determinism");
    // One bank (the analysis finds no banking for these offsets), 2 ports, five sites at
    // kernel level: the four stores before the barrier need 2 cycles per work-item against the
    // 1 cycle issue budget: n extra cycles (exact); the load after the barrier is another
    // pipeline stage (another work-group) and needs half a cycle: no stall (rule L2 regions).
    assert_eq!(m4.banks, 1);
    assert_eq!(m4.arbitrated_banks[0].ports, 2);
    assert_eq!(m4.arbitrated_banks[0].sites.len(), 5);
    assert_eq!(t4.local_stall_cycles, n);
    assert_eq!(t4.bound, Bound::LocalMemory);
    for line in 5..=8 {
        let s = k.site_at(&t4, line, true);
        assert_eq!(s.stall_cycles, n, "line {line}");
    }
    assert_eq!(k.site_at(&t4, 10, false).stall_cycles, 0);
    assert_eq!(t4.cycles, t2.cycles + n, "{} vs {}", t4.cycles, t2.cycles);
}

/// Rule L5: a channel producer whose loop stores 4 times per iteration into one arbitrated
/// bank issues at an effective II of 2, in its clock too, so the FIFO timestamps show it: its
/// fast consumer (II 1) waits 1 of every 2 cycles at its read. The stall-free variant (3 stores)
/// keeps both at II 1 and the read does not stall. The producer's own figures are those of
/// rule L3 (as untimed).
#[test]
fn timed_channel_partner_sees_the_effective_ii() {
    let src = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
channel int c __attribute__((depth(16)));\n\
kernel void prod4(global int* restrict out, int n) {\n\
  local int a[256];\n\
  for (int i = 0; i < n; i++) {\n\
    a[i & 255] = i;\n\
    a[(i + 1) & 255] = i;\n\
    a[(i + 2) & 255] = i;\n\
    a[(i + 3) & 255] = i;\n\
    write_channel_intel(c, i);\n\
  }\n\
  out[0] = a[5];\n\
}\n\
kernel void prod3(global int* restrict out, int n) {\n\
  local int a[256];\n\
  for (int i = 0; i < n; i++) {\n\
    a[i & 255] = i;\n\
    a[(i + 1) & 255] = i;\n\
    a[(i + 2) & 255] = i;\n\
    write_channel_intel(c, i);\n\
  }\n\
  out[0] = a[5];\n\
}\n\
kernel void cons(global int* restrict dst, int n) {\n\
  int s = 0;\n\
  for (int i = 0; i < n; i++)\n\
    s += read_channel_intel(c);\n\
  dst[0] = s;\n\
}\n";
    // One program instance per pair: each pair starts at cycle 0 on a fresh device timeline.
    let k = kit(src, 1);
    let k3 = kit(src, 1);
    assert!(!k.kreport("prod4").local_memories[0].stall_free);
    assert!(k.kreport("prod3").local_memories[0].stall_free);
    let n = 4000u64;
    let pair = |k: &Kit, producer: &str| {
        let out = buf(&[0i32; 4]);
        let dst = buf(&[0i32; 4]);
        let time = |name: &str, args: Vec<ArgBinding>| k.run_timed_task(name, args, 0).1;
        std::thread::scope(|s| {
            let p = s.spawn(|| time(producer, vec![ArgBinding::buffer(&out), val(n as i32)]));
            let c = s.spawn(|| time("cons", vec![ArgBinding::buffer(&dst), val(n as i32)]));
            (p.join().unwrap(), c.join().unwrap())
        })
    };
    let read = |t: &fpgacl_device_model::timing::KernelTiming| {
        let s = k
            .module
            .sites
            .iter()
            .find(|s| s.kind == fpgacl_kernel_compiler::ir::SiteKind::ChannelRead)
            .unwrap();
        *t.site(s.id.0).unwrap()
    };
    let (p4, c4) = pair(&k, "prod4");
    let (p3, c3) = pair(&k3, "prod3");
    eprintln!(
        "prod4 {} cycles, local stall {}; cons {} cycles, read {:?}",
        p4.cycles,
        p4.local_stall_cycles,
        c4.cycles,
        read(&c4)
    );
    eprintln!(
        "prod3 {} cycles; cons {} cycles, read {:?}",
        p3.cycles,
        c3.cycles,
        read(&c3)
    );
    // The producer: n extra cycles of arbitration (L3), exactly as when run untimed.
    assert_eq!(p4.local_stall_cycles, n);
    assert_eq!(p3.local_stall_cycles, 0);
    let fill4 = fpgacl_device_model::timing::compute::fill_once(k.kreport("prod4"));
    assert_eq!(p4.cycles, 2 * n + fill4);
    // The consumer sees a value every 2 cycles: read stall about n (1 of 2 cycles), stall% +
    // occupancy% ~ 100% (within 1 point); with the stall-free producer, no read stall beyond
    // the first value (tolerance 2 cycles).
    let r4 = read(&c4);
    near("read stall", r4.stall_cycles as f64, n as f64, 0.01);
    let sum = r4.stall_pct().unwrap() + r4.occupancy_pct().unwrap();
    assert!((99.0..=100.0).contains(&sum), "{sum}");
    assert!(read(&c3).stall_cycles <= 2, "{:?}", read(&c3));
    near(
        "consumer duration ratio",
        c4.cycles as f64 / c3.cycles as f64,
        2.0,
        0.01,
    );
}

/// The guide's `local_pipelined` LSU example (Load-Store Units section), with `lmem[li + i]` in
/// a 1028-element array instead of `lmem[li - i]` (which the emulator rightly reports out of
/// bounds for `li < i`): four unrolled stores, a barrier, four unrolled loads: one arbitrated
/// bank with 2 ports (the
/// report's 4R/4W). Each barrier region puts 4 accesses per work-item on it: 2 cycles per
/// work-item, so n extra cycles; the regions overlap on different work-groups (L2).
#[test]
fn guide_local_pipelined_example() {
    let src = "__attribute((reqd_work_group_size(1024,1,1)))\n\
kernel void local_pipelined (global int* restrict in, global int* restrict out) {\n\
    local int lmem[1028];\n\
    int gi = get_global_id(0);\n\
    int li = get_local_id(0);\n\
    int res = in[gi];\n\
    for (int i = 0; i < 4; i++) {\n\
        lmem[li + i] = res;\n\
        res >>= 1;\n\
    }\n\
    barrier(CLK_GLOBAL_MEM_FENCE);\n\
    res = 0;\n\
    for (int i = 0; i < 4; i++) {\n\
        res ^= lmem[li + i];\n\
    }\n\
    out[gi] = res;\n\
}\n";
    let k = kit(src, 2);
    let m = &k.kreport("local_pipelined").local_memories[0];
    assert!(!m.stall_free);
    assert_eq!((m.read_ports, m.write_ports), (4, 4));
    let n = 16 * 1024u64;
    let input = buf(&vec![7i32; n as usize]);
    let out = buf(&vec![0i32; n as usize]);
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("local_pipelined"),
        n,
        Some(1024),
        vec![ArgBinding::buffer(&input), ArgBinding::buffer(&out)],
    ));
    eprintln!("{t:#?}");
    assert_eq!(t.local_stall_cycles, n);
    assert_eq!(t.bound, Bound::LocalMemory);
    // The duration: the compute cycles (n work-items + the pipeline fill, paid again at each
    // work-group's barrier, rule C5) + n.
    assert_eq!(t.cycles, t.compute_cycles + n);
    // The store (4 copies) and the load (4 copies) are each the source of their region: n
    // stall cycles each and n fired cycles (4n executions over 4 copies): stall + fired is the
    // whole duration but the fill (stall% + occupancy% = 2n / (2n + fill), 92% here).
    for (line, store) in [(8, true), (14, false)] {
        let s = k.site_at(&t, line, store);
        assert_eq!(s.stall_cycles, n, "line {line}");
        assert_eq!(s.fired_cycles, n, "line {line}");
        assert_eq!(
            s.stall_cycles + s.fired_cycles,
            t.cycles - (t.compute_cycles - n)
        );
    }
}
