//! A demonstration profile shaped like a real recording, for tests, the example binary and
//! benchmarks: the guide's vector_add kernel (three runs, three global accesses on one line),
//! a producer/consumer pair through a channel where the consumer's loop has II 4 so the
//! producer's channel write stalls, memory transfers, and an autorun kernel with three
//! captures. [`large_profile`] makes the same program with any number of kernel runs.

use std::path::Path;

use fpgacl_profile_format::*;

/// vector_add.cl of the demo.
pub const VECTOR_ADD_CL: &str = "\
// vector_add.cl: the Best Practices Guide's example kernel
__kernel void vector_add(__global const float *restrict a,
                         __global const float *restrict b,
                         __global float *restrict c) {
  int gid = get_global_id(0);
  c[gid] = a[gid] + b[gid];
}
";

/// pipeline.cl of the demo: a producer and a consumer connected by channel c0.
pub const PIPELINE_CL: &str = "\
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float c0 __attribute__((depth(8)));

__kernel void producer(__global const float *restrict src, int n) {
  for (int i = 0; i < n; i++) {
    float v = src[i];
    write_channel_intel(c0, v * 2.0f);
  }
}

__kernel void consumer(__global float *restrict dst, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; i++) {
    float v = read_channel_intel(c0);
    acc = acc * 0.5f + v;
    dst[i] = acc;
  }
}
";

/// streamer.cl of the demo: an autorun kernel.
pub const STREAMER_CL: &str = "\
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c1;
channel int c2;

__attribute__((autorun)) __attribute__((max_global_work_dim(0)))
__kernel void streamer(void) {
  while (1) {
    int x = read_channel_intel(c1);
    if (x & 1)
      write_channel_intel(c2, x);
  }
}
";

/// Kernel clock of the demo board, MHz (the guide's figure).
pub const FMAX_MHZ: f64 = 294.0;

fn cycles_to_ns(c: u64) -> u64 {
    (c as f64 * 1000.0 / FMAX_MHZ).round() as u64
}

/// The demo board: 294 MHz, two DDR banks of 12800 MB/s (25600 MB/s in all).
pub fn board() -> Board {
    let bank = |name: &str| MemoryBank {
        name: name.into(),
        memory_type: "DDR".into(),
        width_bytes: 64,
        bandwidth_mbps: 12800.0,
    };
    Board {
        name: "fpgacl_a10_ref".into(),
        fmax_mhz: FMAX_MHZ,
        global_memory: vec![bank("DDR0"), bank("DDR1")],
        pcie_bandwidth_mbps: 6400.0,
    }
}

/// The demo header (fixed date so renders are reproducible).
pub fn header() -> Header {
    Header::new(
        "0.1.0",
        board(),
        vec!["./demo_host".into(), "demo.aocx".into()],
        4242,
        "2025-03-01T14:02:11.532+00:00",
        1_740_837_731_532_000_000,
    )
}

#[allow(clippy::too_many_arguments)]
fn site(
    id: u32,
    kernel: &str,
    file: &str,
    line: u32,
    column: u32,
    kind: AccessKind,
    memory: MemorySpace,
    target: &str,
    lsu: &str,
    enclosing_loop: Option<u32>,
) -> AccessSite {
    let global = memory == MemorySpace::Global;
    AccessSite {
        id,
        kernel: kernel.into(),
        file: file.into(),
        line,
        column,
        kind,
        memory,
        memory_system: global.then(|| "DDR".into()),
        target: Some(target.into()),
        lsu: lsu.into(),
        modifiers: Vec::new(),
        coalesced: global && kernel == "vector_add",
        width_bytes: 4,
        enclosing_loop,
    }
}

fn kernel(name: &str, file: &str, line: u32, kind: KernelKind, autorun: bool) -> KernelInfo {
    KernelInfo {
        name: name.into(),
        file: file.into(),
        line,
        kind,
        autorun,
        reqd_work_group_size: None,
        compute_units: [1, 1, 1],
        simd: 1,
        max_global_work_dim: autorun.then_some(0),
    }
}

fn lp(id: u32, kernel: &str, file: &str, line: u32, ii: u32, reason: &str) -> LoopInfo {
    LoopInfo {
        id,
        parent: None,
        kernel: kernel.into(),
        file: file.into(),
        line,
        column: 3,
        trip_count: None,
        unroll: Unroll::None,
        ii,
        ii_reason: reason.into(),
        serialized: false,
        critical_path: Vec::new(),
    }
}

/// The demo program (id 1) with its three source files and static report.
pub fn program() -> Program {
    use AccessKind::*;
    use MemorySpace::*;
    let bc = "Burst-coalesced";
    Program {
        id: 1,
        name: "demo.aocx".into(),
        sources: vec![
            SourceFile {
                name: "vector_add.cl".into(),
                text: VECTOR_ADD_CL.into(),
            },
            SourceFile {
                name: "pipeline.cl".into(),
                text: PIPELINE_CL.into(),
            },
            SourceFile {
                name: "streamer.cl".into(),
                text: STREAMER_CL.into(),
            },
        ],
        report: StaticReport {
            kernels: vec![
                kernel("vector_add", "vector_add.cl", 2, KernelKind::NdRange, false),
                kernel(
                    "producer",
                    "pipeline.cl",
                    4,
                    KernelKind::SingleWorkItem,
                    false,
                ),
                kernel(
                    "consumer",
                    "pipeline.cl",
                    11,
                    KernelKind::SingleWorkItem,
                    false,
                ),
                kernel(
                    "streamer",
                    "streamer.cl",
                    6,
                    KernelKind::SingleWorkItem,
                    true,
                ),
            ],
            loops: vec![
                lp(0, "producer", "pipeline.cl", 5, 1, ""),
                lp(
                    1,
                    "consumer",
                    "pipeline.cl",
                    13,
                    4,
                    "loop-carried dependency on acc through a floating-point add",
                ),
                lp(2, "streamer", "streamer.cl", 7, 1, ""),
            ],
            sites: vec![
                site(
                    0,
                    "vector_add",
                    "vector_add.cl",
                    6,
                    12,
                    Load,
                    Global,
                    "a",
                    bc,
                    None,
                ),
                site(
                    1,
                    "vector_add",
                    "vector_add.cl",
                    6,
                    21,
                    Load,
                    Global,
                    "b",
                    bc,
                    None,
                ),
                site(
                    2,
                    "vector_add",
                    "vector_add.cl",
                    6,
                    3,
                    Store,
                    Global,
                    "c",
                    bc,
                    None,
                ),
                site(
                    3,
                    "producer",
                    "pipeline.cl",
                    6,
                    15,
                    Load,
                    Global,
                    "src",
                    bc,
                    Some(0),
                ),
                site(
                    4,
                    "producer",
                    "pipeline.cl",
                    7,
                    5,
                    ChannelWrite,
                    Channel,
                    "c0",
                    "Channel",
                    Some(0),
                ),
                site(
                    5,
                    "consumer",
                    "pipeline.cl",
                    14,
                    15,
                    ChannelRead,
                    Channel,
                    "c0",
                    "Channel",
                    Some(1),
                ),
                site(
                    6,
                    "consumer",
                    "pipeline.cl",
                    16,
                    5,
                    Store,
                    Global,
                    "dst",
                    bc,
                    Some(1),
                ),
                site(
                    7,
                    "streamer",
                    "streamer.cl",
                    8,
                    13,
                    ChannelRead,
                    Channel,
                    "c1",
                    "Channel",
                    Some(2),
                ),
                site(
                    8,
                    "streamer",
                    "streamer.cl",
                    10,
                    7,
                    ChannelWrite,
                    Channel,
                    "c2",
                    "Channel",
                    Some(2),
                ),
            ],
        },
    }
}

/// Counters of one memory site: `fired` accesses of 4 bytes in `active` cycles.
fn mem(site: u32, active: u64, fired: u64, stall: u64, fetched_per_req: u64) -> SiteCounters {
    let bytes_requested = 4 * fired;
    let bytes_fetched = fetched_per_req * fired;
    let burst = 486; // ~7.6 words of 64 bytes, as in the guide's tooltip example
    SiteCounters {
        site,
        fired_cycles: fired,
        stall_cycles: stall,
        predicated_cycles: 0,
        active_cycles: active,
        requests: fired,
        bytes_requested,
        bytes_fetched,
        bursts: bytes_fetched.div_ceil(burst),
        burst_bytes: bytes_fetched,
        max_burst_bytes: 1024,
        cache_hits: 0,
        cache_misses: 0,
        unaligned_requests: 0,
    }
}

/// Counters of one channel site.
fn chan(site: u32, active: u64, fired: u64, stall: u64, predicated: u64) -> SiteCounters {
    SiteCounters {
        site,
        fired_cycles: fired,
        stall_cycles: stall,
        predicated_cycles: predicated,
        active_cycles: active,
        requests: fired,
        ..Default::default()
    }
}

/// A vector_add run of `items` work-items starting at `start_ns`; `store_stall` extra cycles
/// stalled on the store (memory contention).
pub fn vector_add_run(
    run_id: u64,
    queue: u64,
    start_ns: u64,
    items: u64,
    store_stall: u64,
) -> KernelRun {
    let active = items + 120 + store_stall;
    let start_cycle = (start_ns as f64 * FMAX_MHZ / 1000.0) as u64;
    KernelRun {
        run_id,
        device: 0,
        queue,
        kernel: "vector_add".into(),
        program: 1,
        start_ns,
        end_ns: start_ns + cycles_to_ns(active),
        start_cycle,
        end_cycle: start_cycle + active,
        work_dim: 1,
        global_size: [items, 1, 1],
        local_size: [256, 1, 1],
        global_offset: [0, 0, 0],
        sites: vec![
            mem(0, active, items, store_stall / 8, 4),
            mem(1, active, items, store_stall / 8, 4),
            mem(2, active, items, store_stall, 4),
        ],
    }
}

/// The producer and consumer runs of `n` iterations, started together on queues 1 and 2.
pub fn pipeline_runs(first_id: u64, start_ns: u64, n: u64) -> [KernelRun; 2] {
    let ii = 4;
    let active = n * ii + 200;
    let start_cycle = (start_ns as f64 * FMAX_MHZ / 1000.0) as u64;
    let mk = |run_id, queue, kernel: &str, delay: u64, sites| KernelRun {
        run_id,
        device: 0,
        queue,
        kernel: kernel.into(),
        program: 1,
        start_ns: start_ns + cycles_to_ns(delay),
        end_ns: start_ns + cycles_to_ns(delay + active),
        start_cycle: start_cycle + delay,
        end_cycle: start_cycle + delay + active,
        work_dim: 1,
        global_size: [1, 1, 1],
        local_size: [1, 1, 1],
        global_offset: [0, 0, 0],
        sites,
    };
    // The producer could write every cycle but the consumer takes one item every 4 cycles:
    // the write stalls ~3 cycles in 4 (stall source); the load of src waits behind it
    // (victim: low stall, low occupancy).
    let producer = mk(
        first_id,
        1,
        "producer",
        0,
        vec![
            mem(3, active, n, n / 50, 4),
            chan(4, active, n, active - n - n / 40, 0),
        ],
    );
    // The consumer's channel read fires once per iteration of its II-4 loop.
    let consumer = mk(
        first_id + 1,
        2,
        "consumer",
        300,
        vec![chan(5, active, n, n / 60, 0), mem(6, active, n, 0, 4)],
    );
    [producer, consumer]
}

/// The `k`-th autorun capture of the streamer (counters since the previous capture).
pub fn streamer_capture(k: u64, capture_ns: u64) -> AutorunCapture {
    let active = 10_000 + 3_000 * k;
    // The third capture sees the downstream reader of c2 slow down: the write stalls.
    let stall = [300, 800, 5_600][(k % 3) as usize];
    let fired_write = (active - stall) / 8;
    AutorunCapture {
        device: 0,
        kernel: "streamer".into(),
        program: 1,
        compute_unit: [0, 0, 0],
        capture_ns,
        sites: vec![
            chan(7, active, active - stall, stall / 10, 0),
            chan(8, active, fired_write, stall, active - stall - fired_write),
        ],
        cleared: true,
    }
}

/// The records of the demo, in time order.
pub fn records() -> Vec<Record> {
    let mut v = Vec::new();
    let tr = |dir, bytes: u64, start: u64| {
        Record::MemTransfer(MemTransfer {
            device: 0,
            queue: 0,
            direction: dir,
            bytes,
            start_ns: start,
            end_ns: start + bytes * 1000 / 6400, // 6400 MB/s PCIe
        })
    };
    let items = 262_144;
    v.push(tr(TransferDirection::Write, 1 << 20, 20_000));
    v.push(Record::AutorunCapture(streamer_capture(0, 30_000)));
    v.push(tr(TransferDirection::Write, 1 << 20, 190_000));
    v.push(Record::KernelRun(vector_add_run(1, 0, 360_000, items, 0)));
    v.push(tr(TransferDirection::Read, 1 << 20, 1_260_000));
    v.push(Record::KernelRun(vector_add_run(
        2, 0, 1_500_000, items, 180_000,
    )));
    v.push(Record::AutorunCapture(streamer_capture(1, 2_000_000)));
    v.push(Record::KernelRun(vector_add_run(3, 1, 2_600_000, items, 0)));
    v.push(tr(TransferDirection::Write, 1 << 18, 3_500_000));
    let [p, c] = pipeline_runs(4, 3_560_000, 65_536);
    v.push(Record::KernelRun(p));
    v.push(Record::KernelRun(c));
    v.push(Record::AutorunCapture(streamer_capture(2, 4_300_000)));
    v.push(tr(TransferDirection::Read, 1 << 18, 4_480_000));
    v
}

/// The whole demo profile.
pub fn demo_profile() -> Profile {
    Profile {
        header: header(),
        programs: vec![program()],
        records: records(),
        truncated: false,
        warnings: Vec::new(),
    }
}

/// The demo profile with terminal control sequences in every name a viewer prints: the
/// vector_add kernel is renamed with an OSC title change, its source file with an OSC 52
/// clipboard write (as `#line` can set it), a source line gains a blink sequence and the host
/// command line a C1 CSI. For the escape-sequence tests of every viewer.
pub fn hostile_profile() -> Profile {
    const KERNEL: &str = "vector_add\x1b]0;pwned\x07";
    const FILE: &str = "\x1b]52;c;ZXZpbA==\x07evil.cl";
    let mut p = demo_profile();
    p.header.command_line.push("\u{9b}2J\x1b[5mblink".into());
    let rename = |k: &mut String| {
        if k == "vector_add" {
            *k = KERNEL.into();
        }
    };
    for prog in &mut p.programs {
        let old = prog.sources[0].name.clone();
        let refile = |f: &mut String| {
            if *f == old {
                *f = FILE.into();
            }
        };
        prog.sources[0].name = FILE.into();
        prog.sources[0].text =
            prog.sources[0]
                .text
                .replacen('\n', " // \x1b[5m\x1b]0;title\x07\u{9d}\n", 1);
        for k in &mut prog.report.kernels {
            rename(&mut k.name);
            refile(&mut k.file);
        }
        for l in &mut prog.report.loops {
            rename(&mut l.kernel);
            refile(&mut l.file);
        }
        for a in &mut prog.report.sites {
            rename(&mut a.kernel);
            refile(&mut a.file);
        }
    }
    for r in &mut p.records {
        match r {
            Record::KernelRun(k) => rename(&mut k.kernel),
            Record::Snapshot(s) => rename(&mut s.run.kernel),
            Record::AutorunCapture(c) => rename(&mut c.kernel),
            Record::MemTransfer(_) => {}
            Record::OutOfBounds(o) => rename(&mut o.kernel),
            Record::HostGap(g) => rename(&mut g.command),
        }
    }
    p
}

/// Writes the demo profile to `path` with the format's writer.
pub fn write_demo(path: &Path) -> Result<(), WriteError> {
    let w = ProfileWriter::create(path, &header())?;
    w.write_program(&program())?;
    w.write_records(&records())?;
    w.flush()
}

/// A profile with `n` records: vector_add runs on two queues (overlapping), producer/consumer
/// pairs every 10th record, a transfer every 7th, an autorun capture every 1000th.
pub fn large_records(n: u64) -> impl Iterator<Item = Record> {
    (0..n).map(|i| {
        let t = 100_000 + i * 50_000;
        if i % 1000 == 999 {
            Record::AutorunCapture(streamer_capture(i, t))
        } else if i % 7 == 6 {
            Record::MemTransfer(MemTransfer {
                device: 0,
                queue: 0,
                direction: TransferDirection::Write,
                bytes: 65_536,
                start_ns: t,
                end_ns: t + 10_240,
            })
        } else if i % 10 == 3 {
            let [p, _] = pipeline_runs(i, t, 4_096 + i % 97);
            Record::KernelRun(p)
        } else if i % 10 == 4 {
            let [_, c] = pipeline_runs(i, t - 50_000, 4_096 + (i - 1) % 97);
            Record::KernelRun(c)
        } else {
            Record::KernelRun(vector_add_run(
                i,
                i % 2,
                t,
                8_192 + (i % 13) * 512,
                (i % 5) * 600,
            ))
        }
    })
}

/// [`large_records`] as a whole profile.
pub fn large_profile(n: u64) -> Profile {
    Profile {
        header: header(),
        programs: vec![program()],
        records: large_records(n).collect(),
        truncated: false,
        warnings: Vec::new(),
    }
}

/// Writes [`large_profile`] to `path` with the format's writer, in batches.
pub fn write_large(path: &Path, n: u64) -> Result<(), WriteError> {
    let w = ProfileWriter::create(path, &header())?;
    w.write_program(&program())?;
    let mut batch = Vec::with_capacity(4096);
    for r in large_records(n) {
        batch.push(r);
        if batch.len() == 4096 {
            w.write_records(&batch)?;
            batch.clear();
        }
    }
    w.write_records(&batch)?;
    w.flush()
}
