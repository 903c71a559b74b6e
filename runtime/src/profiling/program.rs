//! The `Program` frame of a built program: its sources and its static report, converted from
//! the kernel compiler's analysis (`fpgacl_kernel_compiler::analysis`) to the profile format.
//!
//! Identifiers: access sites keep the module-wide `SiteId` (the device model's counters are
//! indexed by it). Loop ids of the analysis are per kernel, so they are renumbered into one
//! program-wide sequence: kernel by kernel, in kernel order, loop id + the number of loops of the
//! kernels before it ([`LoopNumbering`]).

use fpgacl_device_model::Board;
use fpgacl_kernel_compiler::analysis::{
    self, BoardParams, IiReason, KernelKind as AKind, LsuModifier, Report, UnrollStatus,
};
use fpgacl_kernel_compiler::ir::{AddrSpace, Module, SiteKind};
use fpgacl_kernel_compiler::SourceMap;
use fpgacl_profile_format as pf;

/// The analysis' board parameters for a device board: the same figures the runtime's timing
/// model uses (`Board::analysis_params`), so the report's II and the run's timing agree.
pub fn analysis_board(board: &Board) -> BoardParams {
    board.analysis_params()
}

/// The profile's description of a device board: one [`pf::MemoryBank`] per bank.
pub fn profile_board(board: &Board) -> pf::Board {
    let mut banks = Vec::new();
    for g in &board.global_memory {
        let memory_type = memory_type(&g.kind);
        for i in 0..g.count.max(1) {
            banks.push(pf::MemoryBank {
                name: format!("{memory_type}{i}"),
                memory_type: memory_type.clone(),
                width_bytes: g.width_bytes,
                bandwidth_mbps: g.bandwidth_mbps,
            });
        }
    }
    pf::Board {
        name: board.name.clone(),
        fmax_mhz: board.kernel_clock_mhz,
        global_memory: banks,
        pcie_bandwidth_mbps: board.pcie_bandwidth_mbps,
    }
}

/// `"DDR4"` -> `"DDR"`, `"HBM2"` -> `"HBM"`: the profiler's heading names the technology.
fn memory_type(kind: &str) -> String {
    let t = kind.trim_end_matches(|c: char| c.is_ascii_digit());
    if t.is_empty() {
        kind.to_string()
    } else {
        t.to_string()
    }
}

/// Program-wide loop ids: `base[k] + LoopId` for kernel `k`.
#[derive(Clone, Debug, Default)]
pub struct LoopNumbering {
    base: Vec<u32>,
}

impl LoopNumbering {
    /// Numbering for the kernels of `module`.
    pub fn new(module: &Module) -> Self {
        let mut base = Vec::with_capacity(module.kernels.len());
        let mut next = 0u32;
        for k in &module.kernels {
            base.push(next);
            next = next.saturating_add(k.loops.len() as u32);
        }
        LoopNumbering { base }
    }

    /// The program-wide id of loop `l` of kernel `k`.
    pub fn id(&self, k: usize, l: u32) -> u32 {
        self.base.get(k).copied().unwrap_or(0).saturating_add(l)
    }
}

/// Name of a program in the profile: its first source file (`<source>` for text given to
/// `clCreateProgramWithSource`).
pub fn program_name(module: &Module) -> String {
    module
        .sources
        .files
        .first()
        .map(|f| f.name.clone())
        .unwrap_or_else(|| "<program>".to_string())
}

/// The static analysis of `module` for `board`.
pub fn analyze(module: &Module, board: &Board) -> Report {
    analysis::analyze(module, &analysis_board(board))
}

/// The whole `Program` frame of `module`, with `report` = [`analyze`]`(module, board)`.
pub fn program_record(id: u32, module: &Module, board: &Board, report: &Report) -> pf::Program {
    pf::Program {
        id,
        name: program_name(module),
        sources: module
            .sources
            .files
            .iter()
            .map(|f| pf::SourceFile {
                name: f.name.clone(),
                text: f.text.clone(),
            })
            .collect(),
        report: static_report(
            module,
            report,
            &board
                .global_memory
                .first()
                .map_or_else(|| "DDR".to_string(), |g| memory_type(&g.kind)),
        ),
    }
}

/// Converts the analysis report of `module` to the profile's static report.
/// `global_memory` names the memory technology global accesses go to (e.g. `"DDR"`).
pub fn static_report(module: &Module, report: &Report, global_memory: &str) -> pf::StaticReport {
    let src = &module.sources;
    let numbering = LoopNumbering::new(module);
    let mut out = pf::StaticReport::default();
    for (ki, k) in report.kernels.iter().enumerate() {
        out.kernels.push(pf::KernelInfo {
            name: k.name.clone(),
            file: src.name(k.loc.file).to_string(),
            line: k.loc.line,
            kind: match k.kind {
                AKind::NdRange => pf::KernelKind::NdRange,
                AKind::SingleWorkItem => pf::KernelKind::SingleWorkItem,
            },
            autorun: k.autorun,
            reqd_work_group_size: k.reqd_work_group_size,
            compute_units: k.compute_units,
            simd: k.simd.max(1),
            max_global_work_dim: k.max_global_work_dim,
        });
        for l in &k.loops {
            out.loops.push(pf::LoopInfo {
                id: numbering.id(ki, l.id.0),
                parent: l.parent.map(|p| numbering.id(ki, p.0)),
                kernel: k.name.clone(),
                file: src.name(l.loc.file).to_string(),
                line: l.loc.line,
                column: l.loc.col,
                trip_count: l.trip_count,
                unroll: match l.unroll {
                    UnrollStatus::FullPragma | UnrollStatus::FullAuto => pf::Unroll::Full,
                    UnrollStatus::Partial(n) => pf::Unroll::Partial(n),
                    _ => pf::Unroll::None,
                },
                ii: l.ii,
                ii_reason: l
                    .reasons
                    .iter()
                    .map(|r| reason_text(src, r))
                    .collect::<Vec<_>>()
                    .join("; "),
                serialized: !l.serialized.is_empty(),
                critical_path: l
                    .critical_path
                    .iter()
                    .map(|c| {
                        let lines: Vec<String> =
                            c.locs.iter().map(|x| x.line.to_string()).collect();
                        let file = c.locs.first().map(|x| src.name(x.file)).unwrap_or("");
                        format!("{}% {} ({}:{})", c.percent, c.name, file, lines.join(","))
                    })
                    .collect(),
            });
        }
        for s in &k.sites {
            let (kind, memory) = site_kind(s.kind, s.space);
            out.sites.push(pf::AccessSite {
                id: s.id.0,
                kernel: k.name.clone(),
                file: src.name(s.loc.file).to_string(),
                line: s.loc.line,
                column: s.loc.col,
                kind,
                memory,
                memory_system: (memory == pf::MemorySpace::Global)
                    .then(|| global_memory.to_string()),
                target: (!s.target.is_empty()).then(|| s.target.clone()),
                lsu: s.lsu.map(|t| t.name().to_string()).unwrap_or_default(),
                modifiers: s
                    .modifiers
                    .iter()
                    .map(|m: &LsuModifier| m.name().to_string())
                    .collect(),
                coalesced: s.coalesced_width.is_some_and(|w| w > s.width),
                width_bytes: s.coalesced_width.unwrap_or(s.width).max(s.width),
                enclosing_loop: s.in_loop.map(|l| numbering.id(ki, l.0)),
            });
        }
    }
    out.sites.sort_by_key(|s| s.id);
    out
}

/// The profile's kind and memory space of an IR access site.
pub fn site_kind(kind: SiteKind, space: AddrSpace) -> (pf::AccessKind, pf::MemorySpace) {
    let memory = match space {
        AddrSpace::Global => pf::MemorySpace::Global,
        AddrSpace::Local => pf::MemorySpace::Local,
        AddrSpace::Constant => pf::MemorySpace::Constant,
        AddrSpace::Private => pf::MemorySpace::Private,
    };
    match kind {
        SiteKind::Load => (pf::AccessKind::Load, memory),
        SiteKind::Store => (pf::AccessKind::Store, memory),
        SiteKind::Atomic => (pf::AccessKind::Atomic, memory),
        SiteKind::ChannelRead => (pf::AccessKind::ChannelRead, pf::MemorySpace::Channel),
        SiteKind::ChannelWrite => (pf::AccessKind::ChannelWrite, pf::MemorySpace::Channel),
        SiteKind::PipeRead => (pf::AccessKind::PipeRead, pf::MemorySpace::Pipe),
        SiteKind::PipeWrite => (pf::AccessKind::PipeWrite, pf::MemorySpace::Pipe),
    }
}

/// One line of text for an II reason, in the compiler report's words.
fn reason_text(src: &SourceMap, r: &IiReason) -> String {
    match r {
        IiReason::PipelineStructure => {
            "pipeline structure: a loop with subloops launches iterations at least 2 cycles apart"
                .to_string()
        }
        IiReason::DataDependency { variable, loc } => format!(
            "data dependency on variable {variable} ({}:{})",
            src.name(loc.file),
            loc.line
        ),
        IiReason::MemoryDependency {
            space,
            object,
            load,
            store,
        } => format!(
            "memory dependency on {} memory {object}: load ({}:{}) after store ({}:{})",
            match space {
                AddrSpace::Global => "global",
                AddrSpace::Local => "local",
                AddrSpace::Private => "private",
                AddrSpace::Constant => "constant",
            },
            src.name(load.file),
            load.line,
            src.name(store.file),
            store.line
        ),
        IiReason::Pragma(n) => format!("#pragma ii {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_kernel_compiler::SourceFile;

    fn module(src: &str) -> Module {
        let out = fpgacl_kernel_compiler::build(
            &[SourceFile {
                name: "k.cl".into(),
                text: src.into(),
            }],
            "",
        )
        .expect("options");
        let m = out
            .module
            .unwrap_or_else(|| panic!("build failed:\n{}", out.log));
        (*m).clone()
    }

    #[test]
    fn vector_add_program_frame() {
        let m = module(
            "__kernel void add(__global const float *a, __global const float *b, __global float *c) {\n\
             int i = get_global_id(0);\n\
             c[i] = a[i] + b[i];\n}\n\
             __kernel void acc(__global float *a, int n) {\n\
             float s = 0;\n\
             for (int i = 0; i < n; i++) { s += a[i]; }\n\
             for (int j = 0; j < n; j++) { a[j] = s; }\n}\n",
        );
        let board = Board::default_board();
        let p = program_record(3, &m, &board, &analyze(&m, &board));
        assert_eq!(p.id, 3);
        assert_eq!(p.name, "k.cl");
        assert_eq!(p.sources.len(), 1);
        assert!(p.sources[0].text.contains("c[i] = a[i] + b[i]"));
        let r = &p.report;
        assert_eq!(r.kernels.len(), 2);
        assert_eq!(r.kernels[0].kind, pf::KernelKind::NdRange);
        assert_eq!(r.kernels[1].kind, pf::KernelKind::SingleWorkItem);
        let add_sites: Vec<_> = r.sites.iter().filter(|s| s.kernel == "add").collect();
        assert_eq!(add_sites.len(), 3);
        assert!(add_sites.iter().all(|s| s.line == 3 && s.file == "k.cl"));
        assert_eq!(
            add_sites
                .iter()
                .filter(|s| s.kind == pf::AccessKind::Load)
                .count(),
            2
        );
        assert!(add_sites
            .iter()
            .all(|s| s.memory == pf::MemorySpace::Global));
        assert!(add_sites.iter().all(|s| !s.lsu.is_empty()));
        // loop ids unique in the program, sites in loops refer to them
        let ids: Vec<u32> = r.loops.iter().map(|l| l.id).collect();
        assert_eq!(ids.len(), 2);
        assert_ne!(ids[0], ids[1]);
        for s in r.sites.iter().filter(|s| s.kernel == "acc") {
            let l = s.enclosing_loop.expect("in a loop");
            assert!(ids.contains(&l));
            assert_eq!(p.find_loop(l).map(|l| l.line), Some(s.line));
        }
        // site ids are the module's site ids
        for s in &r.sites {
            assert!((s.id as usize) < m.sites.len());
        }
    }

    #[test]
    fn board_conversion() {
        let b = Board::default_board();
        let pb = profile_board(&b);
        assert_eq!(pb.name, b.name);
        assert_eq!(pb.global_memory.len(), 2);
        assert_eq!(pb.global_memory[0].memory_type, "DDR");
        assert_eq!(pb.global_memory[1].name, "DDR1");
        assert!((pb.total_bandwidth_mbps() - 25600.0).abs() < 1e-6);
        let ab = analysis_board(&b);
        assert_eq!(ab.global_latency_cycles, 155);
        assert_eq!(ab.fmax_mhz, b.kernel_clock_mhz);
    }
}
