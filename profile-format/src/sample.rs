//! Deterministic sample content (a board, the guide's vector_add program, records), for tests,
//! benchmarks, fuzzing and viewers' fixtures. Not used by the runtime.

use crate::model::*;

/// The kernel source of the sample program (the guide's vector_add / `add` example, with a
/// channel pair to give the sample stream sites).
pub const VECTOR_ADD_CL: &str = "\
__kernel void vector_add(__global const int *a, __global const int *b,
                         __global int *c) {
  int gid = get_global_id(0);
  c[gid] = a[gid] + b[gid];
}

channel int c0;

__attribute__((autorun)) __attribute__((max_global_work_dim(0)))
__kernel void streamer() {
  while (1) {
    int v = read_channel_intel(c0);
    write_channel_intel(c0, v + 1);
  }
}
";

/// A board like the guide's example: 294 MHz kernel clock, 25600 MB/s of DDR in two banks.
pub fn board() -> Board {
    Board {
        name: "fpgacl_ref_a10".to_string(),
        fmax_mhz: 294.0,
        global_memory: vec![
            MemoryBank {
                name: "DDR0".to_string(),
                memory_type: "DDR".to_string(),
                width_bytes: 64,
                bandwidth_mbps: 12800.0,
            },
            MemoryBank {
                name: "DDR1".to_string(),
                memory_type: "DDR".to_string(),
                width_bytes: 64,
                bandwidth_mbps: 12800.0,
            },
        ],
        pcie_bandwidth_mbps: 6400.0,
    }
}

/// A header for the sample board with fixed (deterministic) times.
pub fn header() -> Header {
    Header::new(
        env!("CARGO_PKG_VERSION"),
        board(),
        vec!["./host".to_string(), "vector_add.aocx".to_string()],
        4242,
        "2025-01-01T00:00:00.000+00:00",
        1_735_689_600_000_000_000,
    )
}

#[allow(clippy::too_many_arguments)]
fn site(
    id: u32,
    kernel: &str,
    line: u32,
    column: u32,
    kind: AccessKind,
    memory: MemorySpace,
    lsu: &str,
    enclosing_loop: Option<u32>,
) -> AccessSite {
    let global = memory == MemorySpace::Global;
    AccessSite {
        id,
        kernel: kernel.to_string(),
        file: "vector_add.cl".to_string(),
        line,
        column,
        kind,
        memory,
        memory_system: global.then(|| "DDR".to_string()),
        target: Some(
            match id {
                0 => "a",
                1 => "b",
                2 => "c",
                _ => "c0",
            }
            .to_string(),
        ),
        lsu: lsu.to_string(),
        modifiers: Vec::new(),
        coalesced: false,
        width_bytes: 4,
        enclosing_loop,
    }
}

/// The sample program: vector_add (3 global sites) and the autorun streamer (2 channel sites
/// in a loop).
pub fn program() -> Program {
    Program {
        id: 0,
        name: "vector_add.aocx".to_string(),
        sources: vec![SourceFile {
            name: "vector_add.cl".to_string(),
            text: VECTOR_ADD_CL.to_string(),
        }],
        report: StaticReport {
            kernels: vec![
                KernelInfo {
                    name: "vector_add".to_string(),
                    file: "vector_add.cl".to_string(),
                    line: 1,
                    kind: KernelKind::NdRange,
                    autorun: false,
                    reqd_work_group_size: None,
                    compute_units: [1, 1, 1],
                    simd: 1,
                    max_global_work_dim: None,
                },
                KernelInfo {
                    name: "streamer".to_string(),
                    file: "vector_add.cl".to_string(),
                    line: 10,
                    kind: KernelKind::SingleWorkItem,
                    autorun: true,
                    reqd_work_group_size: None,
                    compute_units: [1, 1, 1],
                    simd: 1,
                    max_global_work_dim: Some(0),
                },
            ],
            loops: vec![LoopInfo {
                id: 0,
                parent: None,
                kernel: "streamer".to_string(),
                file: "vector_add.cl".to_string(),
                line: 11,
                column: 3,
                trip_count: None,
                unroll: Unroll::None,
                ii: 1,
                ii_reason: String::new(),
                serialized: false,
                critical_path: Vec::new(),
            }],
            sites: vec![
                site(
                    0,
                    "vector_add",
                    4,
                    12,
                    AccessKind::Load,
                    MemorySpace::Global,
                    "Burst-coalesced",
                    None,
                ),
                site(
                    1,
                    "vector_add",
                    4,
                    21,
                    AccessKind::Load,
                    MemorySpace::Global,
                    "Burst-coalesced",
                    None,
                ),
                site(
                    2,
                    "vector_add",
                    4,
                    10,
                    AccessKind::Store,
                    MemorySpace::Global,
                    "Burst-coalesced",
                    None,
                ),
                site(
                    3,
                    "streamer",
                    12,
                    13,
                    AccessKind::ChannelRead,
                    MemorySpace::Channel,
                    "Channel",
                    Some(0),
                ),
                site(
                    4,
                    "streamer",
                    13,
                    5,
                    AccessKind::ChannelWrite,
                    MemorySpace::Channel,
                    "Channel",
                    Some(0),
                ),
            ],
        },
    }
}

/// Deterministic counters of a vector_add run of `items` work-items, varied by `seed`.
pub fn vector_add_sites(items: u64, seed: u64) -> Vec<SiteCounters> {
    (0..3u32)
        .map(|i| {
            let stall =
                (seed.wrapping_mul(2654435761).wrapping_add(i as u64 * 97)) % (items / 4 + 1);
            SiteCounters {
                site: i,
                fired_cycles: items,
                stall_cycles: stall,
                predicated_cycles: 0,
                active_cycles: items + stall + 40,
                requests: items,
                bytes_requested: 4 * items,
                bytes_fetched: 4 * items + 64 * (seed % 3),
                bursts: items / 16 + 1,
                burst_bytes: 4 * items,
                max_burst_bytes: 1024,
                cache_hits: 0,
                cache_misses: 0,
                unaligned_requests: (seed + i as u64) % 5,
            }
        })
        .collect()
}

/// The `n`-th sample record: mostly vector_add kernel runs, every 10th a memory transfer,
/// every 50th an autorun capture, every 100th a snapshot. Times increase with `n`.
pub fn record(n: u64) -> Record {
    let t = n * 10_000;
    let items = 1024 + (n % 7) * 256;
    let run = |end: u64| KernelRun {
        run_id: n,
        device: 0,
        queue: 1 + n % 2,
        kernel: "vector_add".to_string(),
        program: 0,
        start_ns: t,
        end_ns: end,
        start_cycle: t * 294 / 1000,
        end_cycle: end * 294 / 1000,
        work_dim: 1,
        global_size: [items, 1, 1],
        local_size: [64, 1, 1],
        global_offset: [0, 0, 0],
        sites: vector_add_sites(items, n),
    };
    match n % 100 {
        99 => Record::Snapshot(Snapshot {
            taken_ns: t + 2_000,
            run: run(t + 2_000),
        }),
        m if m % 50 == 49 => Record::AutorunCapture(AutorunCapture {
            device: 0,
            kernel: "streamer".to_string(),
            program: 0,
            compute_unit: [0, 0, 0],
            capture_ns: t,
            sites: vec![
                SiteCounters {
                    site: 3,
                    fired_cycles: 900 + n % 13,
                    stall_cycles: 100,
                    active_cycles: 1000 + n % 13,
                    requests: 900 + n % 13,
                    bytes_requested: 4 * (900 + n % 13),
                    ..SiteCounters::zero(3)
                },
                SiteCounters {
                    site: 4,
                    fired_cycles: 900 + n % 13,
                    active_cycles: 1000 + n % 13,
                    requests: 900 + n % 13,
                    bytes_requested: 4 * (900 + n % 13),
                    ..SiteCounters::zero(4)
                },
            ],
            cleared: true,
        }),
        m if m % 10 == 9 => Record::MemTransfer(MemTransfer {
            device: 0,
            queue: 1,
            direction: match (n / 10) % 3 {
                0 => TransferDirection::Write,
                1 => TransferDirection::Read,
                _ => TransferDirection::Copy,
            },
            bytes: items * 4,
            start_ns: t,
            end_ns: t + 700,
        }),
        _ => Record::KernelRun(run(t + 3_500 + items)),
    }
}
