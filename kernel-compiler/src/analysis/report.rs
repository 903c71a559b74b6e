//! The analysis report data model (serialisable; stored in `.aocx` and `profile.mon`).

use super::latency::OpClass;
use super::BoardParams;
use crate::ir::{AddrSpace, LoopId, SiteId, SiteKind};
use crate::source::Loc;
use serde::{Deserialize, Serialize};

/// The report of a whole module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub board: BoardParams,
    pub kernels: Vec<KernelReport>,
}

impl Report {
    /// The report of a kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&KernelReport> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// NDRange or single work-item (the guide's rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KernelKind {
    NdRange,
    SingleWorkItem,
}

/// One kernel's summary, loops, access sites and local memories.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelReport {
    pub name: String,
    pub loc: Loc,
    pub kind: KernelKind,
    pub autorun: bool,
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub max_work_group_size: Option<u32>,
    pub compute_units: [u32; 3],
    /// `num_simd_work_items`, 1 when absent.
    pub simd: u32,
    pub max_global_work_dim: Option<u32>,
    /// Loops in source order (fully unrolled ones included).
    pub loops: Vec<LoopReport>,
    /// Access sites of the kernel, by site id.
    pub sites: Vec<SiteReport>,
    pub local_memories: Vec<LocalMemReport>,
    /// Estimated latency of the kernel's pipeline outside loops (cycles from a work-item's
    /// entry to its exit, loops counted once).
    pub pipeline_latency: f64,
    pub warnings: Vec<String>,
}

impl KernelReport {
    /// The loop report at a source line (first match).
    pub fn loop_at_line(&self, line: u32) -> Option<&LoopReport> {
        self.loops.iter().find(|l| l.loc.line == line)
    }
    /// The report of a loop.
    pub fn loop_by_id(&self, id: LoopId) -> Option<&LoopReport> {
        self.loops.iter().find(|l| l.id == id)
    }
    /// Sites at a source line.
    pub fn sites_at_line(&self, line: u32) -> Vec<&SiteReport> {
        self.sites.iter().filter(|s| s.loc.line == line).collect()
    }
}

/// How a loop is unrolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnrollStatus {
    /// Kept as a loop.
    NotUnrolled,
    /// `#pragma unroll 1`.
    Disabled,
    /// Fully unrolled because of `#pragma unroll` (or `#pragma unroll N` with N >= trips).
    FullPragma,
    /// Fully unrolled automatically (small constant trip count).
    FullAuto,
    /// Partially unrolled by this factor.
    Partial(u32),
    /// `#pragma unroll` without a factor on a loop whose trip count is unknown: kept as a loop.
    FullRequestedUnknownBounds,
}

impl UnrollStatus {
    /// The loop no longer exists in the pipeline.
    pub fn is_full(self) -> bool {
        matches!(self, UnrollStatus::FullPragma | UnrollStatus::FullAuto)
    }
    /// Copies of the body per pipelined iteration.
    pub fn factor(self) -> u32 {
        match self {
            UnrollStatus::Partial(n) => n,
            _ => 1,
        }
    }
}

/// Why a loop's II is what it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum IiReason {
    /// A loop with subloops issues at most every 2 cycles.
    PipelineStructure,
    /// Loop-carried data dependency through a variable.
    DataDependency { variable: String, loc: Loc },
    /// Loop-carried memory dependency between a store and a later iteration's load.
    MemoryDependency {
        space: AddrSpace,
        object: String,
        load: Loc,
        store: Loc,
    },
    /// `#pragma ii N`.
    Pragma(u32),
}

/// A subloop across which outer iterations execute one at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SerialRegion {
    pub subloop: LoopId,
    pub subloop_name: String,
    pub subloop_loc: Loc,
    /// "Data dependency on variable sum" style cause.
    pub cause: IiReason,
}

/// One operation on the critical path and its share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contributor {
    pub op: OpClass,
    pub name: String,
    pub locs: Vec<Loc>,
    pub latency: f64,
    /// Share of the critical path, percent (rounded down).
    pub percent: u32,
}

/// One loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopReport {
    pub id: LoopId,
    pub parent: Option<LoopId>,
    /// `Block1`, `Block2`, ... for loops kept in the pipeline; empty for fully unrolled ones.
    pub name: String,
    pub loc: Loc,
    pub trip_count: Option<u64>,
    pub unroll: UnrollStatus,
    /// Iterations overlap in the pipeline (single work-item loops; false for NDRange loops,
    /// fully unrolled loops and `disable_loop_pipelining`).
    pub pipelined: bool,
    /// The loop is in an NDRange kernel (work-items, not iterations, fill the pipeline).
    pub ndrange: bool,
    /// Initiation interval (cycles between successive iterations); 0 for fully unrolled loops.
    pub ii: u32,
    pub reasons: Vec<IiReason>,
    pub serialized: Vec<SerialRegion>,
    /// Largest critical path contributors of the recurrence that sets II.
    pub critical_path: Vec<Contributor>,
    /// II 1 reached only by lowering fmax (integer recurrence packed into one cycle).
    pub fmax_limited: bool,
    /// Estimated latency of one iteration (pipeline depth of the body), cycles.
    pub iteration_latency: f64,
    /// Extra detail lines.
    pub details: Vec<String>,
}

/// LSU types (the guide's "Load-Store Unit Types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LsuType {
    BurstCoalesced,
    Prefetching,
    Streaming,
    SemiStreaming,
    /// Pipelined (e.g. a global infrequent access).
    Pipelined,
    ConstantPipelined,
    AtomicPipelined,
    LocalPipelined,
}

impl LsuType {
    /// The name the compiler's report uses.
    pub fn name(self) -> &'static str {
        match self {
            LsuType::BurstCoalesced => "Burst-coalesced",
            LsuType::Prefetching => "Prefetching",
            LsuType::Streaming => "Streaming",
            LsuType::SemiStreaming => "Semi-streaming",
            LsuType::Pipelined => "Pipelined",
            LsuType::ConstantPipelined => "Constant-pipelined",
            LsuType::AtomicPipelined => "Atomic-pipelined",
            LsuType::LocalPipelined => "Local-pipelined",
        }
    }
}

/// LSU modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LsuModifier {
    Cached,
    WriteAck,
    NonAligned,
    NeverStall,
    /// Global infrequent (a pipelined LSU for an access of a single work-item outside loops).
    Infrequent,
}

impl LsuModifier {
    pub fn name(self) -> &'static str {
        match self {
            LsuModifier::Cached => "cached",
            LsuModifier::WriteAck => "write-ack",
            LsuModifier::NonAligned => "non-aligned",
            LsuModifier::NeverStall => "never-stall",
            LsuModifier::Infrequent => "global-infrequent",
        }
    }
}

/// How the address of an access moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AccessPattern {
    /// Same address every time.
    Invariant,
    /// Affine in the driving variable (work-item id or innermost pipelined loop) with this
    /// stride in bytes.
    Strided { stride: i64 },
    /// Depends on loaded data or otherwise unknown.
    DataDependent,
    /// Not a memory access (channel, pipe).
    Stream,
}

/// One access site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteReport {
    pub id: SiteId,
    pub loc: Loc,
    pub kind: SiteKind,
    pub space: AddrSpace,
    pub target: String,
    pub width: u32,
    pub in_loop: Option<LoopId>,
    /// LSU type; `None` for channels and pipes.
    pub lsu: Option<LsuType>,
    pub modifiers: Vec<LsuModifier>,
    /// Width of the statically coalesced access this site is part of.
    pub coalesced_width: Option<u32>,
    /// Other sites merged into the same coalesced access.
    pub coalesced_with: Vec<SiteId>,
    /// Accesses (of all the sites in `coalesced_with` and this one) merged into the one wide
    /// access per work-item or iteration; 0 when not statically coalesced.
    #[serde(default)]
    pub coalesced_accesses: u32,
    /// This site's accesses among them (its unrolled copies): they count as one request.
    #[serde(default)]
    pub coalesced_copies: u32,
    /// Number of hardware copies of the LSU (unrolled loops).
    pub copies: u32,
    pub pattern: AccessPattern,
    /// Stride in bytes between consecutive accesses, when affine.
    pub stride_bytes: Option<i64>,
    /// Latency of one access through the LSU (cycles; global: board latency + LSU overhead).
    pub latency_cycles: f64,
    /// Local memory this site accesses (index into `KernelReport::local_memories`).
    pub local_memory: Option<usize>,
}

/// One local memory system (or private array implemented in RAM).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalMemReport {
    pub name: String,
    pub space: AddrSpace,
    pub loc: Option<Loc>,
    /// Bytes of the variable (0 when unknown).
    pub size: u32,
    pub banks: u32,
    pub bank_width: u32,
    pub replicates: u32,
    /// 1 (single-pumped) or 2 (double-pumped).
    pub pump: u8,
    pub private_copies: u32,
    pub read_ports: u32,
    pub write_ports: u32,
    pub stall_free: bool,
    /// Implemented size: copies x replicates x size.
    pub implemented_bytes: u64,
    pub sites: Vec<SiteId>,
    /// The banks that are not stall-free, with their ports and sites (empty when stall-free).
    #[serde(default)]
    pub arbitrated_banks: Vec<super::localmem::ArbitratedBank>,
}
