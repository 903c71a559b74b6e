//! The `profile.mon` data model: what a profiling session records.
//!
//! A file holds one [`Header`], then any number of [`Program`]s (kernel sources and the static
//! report of the compiled kernels) and [`Record`]s (things that happened while the host ran), in
//! the order they happened. [`crate::Profile`] is the whole file read back.
//!
//! Times: every `*_ns` field of a record is nanoseconds on the emulated timeline, measured from
//! the start of the host program (the profiling session), so runs, transfers and captures of one
//! file share one clock. `*_cycle` fields are device kernel-clock cycles since the same origin.
//!
//! Identifiers: a [`Program`] has an `id` unique in the file; access sites and loops have ids
//! unique within their program. Records name their program by id, and their counters name sites
//! by id.
//!
//! Compatibility rule (see `SCHEMA.md`): types here are encoded with bincode, which is not
//! self-describing. A *minor* format version may only append new variants at the end of the
//! enums ([`Record`] in particular); a change to any existing struct or variant requires a
//! *major* version bump.

use bincode::{Decode, Encode};
use serde::{Deserialize, Serialize};

/// Format major version written by this crate. A reader refuses files with a larger major.
pub const FORMAT_MAJOR: u16 = 1;
/// Format minor version written by this crate. Readers accept any minor of their major.
pub const FORMAT_MINOR: u16 = 2;

/// First frame of every file: who wrote it, on which (emulated) board, for which host run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct Header {
    /// Format major version of the file (also stored unencoded right after the magic).
    pub format_major: u16,
    /// Format minor version of the file.
    pub format_minor: u16,
    /// Version of fpgacl that wrote the file, e.g. `"0.1.0"`.
    pub fpgacl_version: String,
    /// The emulated accelerator board.
    pub board: Board,
    /// Host program command line, program name first.
    pub command_line: Vec<String>,
    /// Process id of the host program.
    pub pid: u32,
    /// Wall-clock start time of the host program, human readable (RFC 3339, local offset),
    /// e.g. `"2025-03-01T14:02:11.532+01:00"`.
    pub start_time: String,
    /// Wall-clock start time of the host program as nanoseconds since the Unix epoch.
    pub start_unix_ns: u64,
}

impl Header {
    /// A header for the current format version with the given content.
    pub fn new(
        fpgacl_version: impl Into<String>,
        board: Board,
        command_line: Vec<String>,
        pid: u32,
        start_time: impl Into<String>,
        start_unix_ns: u64,
    ) -> Self {
        Header {
            format_major: FORMAT_MAJOR,
            format_minor: FORMAT_MINOR,
            fpgacl_version: fpgacl_version.into(),
            board,
            command_line,
            pid,
            start_time: start_time.into(),
            start_unix_ns,
        }
    }
}

impl Header {
    /// A header for the calling process, taken now: its command line, pid, and the current
    /// wall-clock time (local offset) as both RFC 3339 text and Unix nanoseconds.
    pub fn for_this_process(board: Board) -> Self {
        let now = chrono::Local::now();
        let unix_ns = now
            .timestamp_nanos_opt()
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(0);
        Header::new(
            env!("CARGO_PKG_VERSION"),
            board,
            std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            std::process::id(),
            now.to_rfc3339_opts(chrono::SecondsFormat::Millis, false),
            unix_ns,
        )
    }
}

/// The accelerator board the kernels ran on (emulated).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct Board {
    /// Board name as shown in the profiler's summary, e.g. `"fpgacl_a10_ref"`.
    pub name: String,
    /// Kernel clock frequency in MHz; converts cycles to time and bytes/cycle to MB/s.
    pub fmax_mhz: f64,
    /// Global memory banks (interfaces).
    pub global_memory: Vec<MemoryBank>,
    /// Host <-> device (PCIe) bandwidth in MB/s (1 MB = 10^6 bytes).
    pub pcie_bandwidth_mbps: f64,
}

impl Board {
    /// Total theoretical global memory bandwidth of the board in MB/s (sum over all banks).
    pub fn total_bandwidth_mbps(&self) -> f64 {
        self.global_memory.iter().map(|b| b.bandwidth_mbps).sum()
    }

    /// Theoretical global memory bandwidth per memory type (`"DDR"`, `"QDR"`, ...), in MB/s,
    /// in order of first appearance; this is the summary heading "Global Memory BW (DDR)".
    pub fn bandwidth_by_type(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = Vec::new();
        for bank in &self.global_memory {
            match out.iter_mut().find(|(t, _)| *t == bank.memory_type) {
                Some((_, bw)) => *bw += bank.bandwidth_mbps,
                None => out.push((bank.memory_type.clone(), bank.bandwidth_mbps)),
            }
        }
        out
    }
}

/// One global memory bank (interface) of the board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct MemoryBank {
    /// Bank name, e.g. `"DDR0"`.
    pub name: String,
    /// Memory technology, e.g. `"DDR"`, `"QDR"`, `"HBM"`.
    pub memory_type: String,
    /// Width of one memory word (one bus transfer) in bytes.
    pub width_bytes: u32,
    /// Theoretical peak bandwidth of the bank in MB/s (1 MB = 10^6 bytes).
    pub bandwidth_mbps: f64,
}

/// A program loaded by the host: kernel sources and the static report of its kernels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct Program {
    /// Identifier unique in the file; records refer to it.
    pub id: u32,
    /// Program name, e.g. the `.aocx` or main `.cl` file name.
    pub name: String,
    /// Kernel source files as compiled.
    pub sources: Vec<SourceFile>,
    /// The static (compile-time) report.
    pub report: StaticReport,
}

impl Program {
    /// The access site with this id, if any.
    pub fn site(&self, id: u32) -> Option<&AccessSite> {
        self.report.sites.iter().find(|s| s.id == id)
    }

    /// The loop with this id, if any.
    pub fn find_loop(&self, id: u32) -> Option<&LoopInfo> {
        self.report.loops.iter().find(|l| l.id == id)
    }

    /// The source file with this name, if any.
    pub fn source(&self, file: &str) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.name == file)
    }
}

/// One kernel source file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct SourceFile {
    /// File name as the compiler saw it (used by `file` fields of the report).
    pub name: String,
    /// Full text of the file.
    pub text: String,
}

/// The static analysis of a program: kernels, loops and memory/channel access sites.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct StaticReport {
    /// Kernels of the program.
    pub kernels: Vec<KernelInfo>,
    /// Loops of all kernels.
    pub loops: Vec<LoopInfo>,
    /// Memory and channel access sites of all kernels.
    pub sites: Vec<AccessSite>,
}

/// How a kernel is launched and pipelined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Encode, Decode)]
pub enum KernelKind {
    /// Work-items of an NDRange flow through the pipeline (`clEnqueueNDRangeKernel`).
    NdRange,
    /// One work-item whose loop iterations are pipelined (a "task").
    SingleWorkItem,
}

/// Static facts about one kernel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct KernelInfo {
    /// Kernel function name.
    pub name: String,
    /// Source file of the kernel definition.
    pub file: String,
    /// 1-based line of the kernel definition.
    pub line: u32,
    /// NDRange or single work-item.
    pub kind: KernelKind,
    /// Declared `__attribute__((autorun))`: starts with the device, never enqueued.
    pub autorun: bool,
    /// `reqd_work_group_size(x, y, z)`, if declared.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `num_compute_units(x, y, z)`; `[1, 1, 1]` when not declared.
    pub compute_units: [u32; 3],
    /// `num_simd_work_items(n)`; 1 when not declared.
    pub simd: u32,
    /// `max_global_work_dim(n)`, if declared (0 means a task / autorun candidate).
    pub max_global_work_dim: Option<u32>,
}

/// Loop unrolling as the compiler applied it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Encode, Decode)]
pub enum Unroll {
    /// Not unrolled.
    None,
    /// Fully unrolled (the loop no longer exists in the pipeline).
    Full,
    /// Partially unrolled by this factor.
    Partial(u32),
}

/// Static facts about one loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct LoopInfo {
    /// Identifier unique in the program; access sites refer to it.
    pub id: u32,
    /// Enclosing loop id, if nested.
    pub parent: Option<u32>,
    /// Kernel the loop belongs to.
    pub kernel: String,
    /// Source file.
    pub file: String,
    /// 1-based line of the loop statement.
    pub line: u32,
    /// 1-based column of the loop statement.
    pub column: u32,
    /// Trip count, when known at compile time.
    pub trip_count: Option<u64>,
    /// Unrolling applied.
    pub unroll: Unroll,
    /// Initiation interval of the pipelined loop, in cycles.
    pub ii: u32,
    /// Why II is not 1 (empty when it is 1), e.g. a loop-carried memory dependency.
    pub ii_reason: String,
    /// Iterations cannot overlap (serial execution, e.g. an inner loop serialising an outer one).
    pub serialized: bool,
    /// Operations on the critical path that set the II, human readable,
    /// e.g. `"load a[i] (vector_add.cl:5)"`.
    pub critical_path: Vec<String>,
}

/// What an access site does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Encode, Decode)]
pub enum AccessKind {
    /// Memory load.
    Load,
    /// Memory store.
    Store,
    /// Intel channel read (`read_channel_intel`).
    ChannelRead,
    /// Intel channel write (`write_channel_intel`).
    ChannelWrite,
    /// OpenCL 2.0 pipe read (`read_pipe`).
    PipeRead,
    /// OpenCL 2.0 pipe write (`write_pipe`).
    PipeWrite,
    /// Atomic read-modify-write.
    Atomic,
}

impl AccessKind {
    /// True for accesses that read (loads, channel/pipe reads).
    pub fn is_read(self) -> bool {
        matches!(
            self,
            AccessKind::Load | AccessKind::ChannelRead | AccessKind::PipeRead
        )
    }

    /// Short lowercase name, e.g. `"load"`, `"channel read"`.
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::ChannelRead => "channel read",
            AccessKind::ChannelWrite => "channel write",
            AccessKind::PipeRead => "pipe read",
            AccessKind::PipeWrite => "pipe write",
            AccessKind::Atomic => "atomic",
        }
    }
}

/// The memory (or stream) an access site touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Encode, Decode)]
pub enum MemorySpace {
    /// `__global` memory (board DDR/QDR/HBM).
    Global,
    /// `__local` on-chip memory.
    Local,
    /// `__constant` memory (constant cache).
    Constant,
    /// Intel channel.
    Channel,
    /// OpenCL 2.0 pipe.
    Pipe,
    /// Private memory (registers or private RAM).
    Private,
}

impl MemorySpace {
    /// Short lowercase name, e.g. `"global"`.
    pub fn as_str(self) -> &'static str {
        match self {
            MemorySpace::Global => "global",
            MemorySpace::Local => "local",
            MemorySpace::Constant => "constant",
            MemorySpace::Channel => "channel",
            MemorySpace::Pipe => "pipe",
            MemorySpace::Private => "private",
        }
    }
}

/// One memory or channel access in the source, with its load-store unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct AccessSite {
    /// Identifier unique in the program; counters refer to it.
    pub id: u32,
    /// Kernel the access belongs to.
    pub kernel: String,
    /// Source file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// Load, store, channel/pipe read/write or atomic.
    pub kind: AccessKind,
    /// Memory space or stream kind.
    pub memory: MemorySpace,
    /// Memory system serving a global access (`"DDR"`, `"QDR"`, ...); `None` otherwise.
    pub memory_system: Option<String>,
    /// Name of the channel or pipe for stream accesses; the variable name for memory accesses
    /// when known.
    pub target: Option<String>,
    /// LSU type as the compiler's report names it, e.g. `"Burst-coalesced"`, `"Pipelined"`,
    /// `"Streaming"`, `"Prefetching"`, `"Semi-streaming"`, `"Atomic-pipelined"`.
    pub lsu: String,
    /// LSU modifiers, e.g. `"cached"`, `"non-aligned"`, `"write-ack"`, `"never-stall"`.
    pub modifiers: Vec<String>,
    /// Statically coalesced: several consecutive accesses merged into this one wide access.
    pub coalesced: bool,
    /// Width of one access in bytes.
    pub width_bytes: u32,
    /// Innermost enclosing loop id, if inside a loop.
    pub enclosing_loop: Option<u32>,
}

/// Direction of a host <-> device memory transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Encode, Decode)]
pub enum TransferDirection {
    /// Device to host (`clEnqueueReadBuffer` and friends).
    Read,
    /// Host to device (`clEnqueueWriteBuffer` and friends).
    Write,
    /// Device to device (`clEnqueueCopyBuffer` and friends).
    Copy,
}

impl TransferDirection {
    /// `"read"`, `"write"` or `"copy"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TransferDirection::Read => "read",
            TransferDirection::Write => "write",
            TransferDirection::Copy => "copy",
        }
    }
}

/// Performance counters of one access site over a time window.
///
/// All cycle counts are kernel-clock cycles of the pipeline that contains the site, restricted
/// to the profiling window. In each cycle of `active_cycles` the site is in exactly one of:
/// fired (a valid, enabled access completed), predicated (a valid work-item passed with the
/// predicate off), stalled (the site could not accept or complete its access), or idle (no
/// valid work-item). Derived percentages are in `metrics.rs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, Encode)]
pub struct SiteCounters {
    /// Access site id within the record's program.
    pub site: u32,
    /// Cycles in which a valid, enabled access was issued (the site "fired").
    pub fired_cycles: u64,
    /// Cycles in which the site stalled the pipeline.
    pub stall_cycles: u64,
    /// Cycles in which a valid work-item passed the site with its predicate off.
    pub predicated_cycles: u64,
    /// Cycles the enclosing pipeline was active in the window: the denominator of the
    /// percentages.
    pub active_cycles: u64,
    /// Number of accesses (requests) the site issued.
    pub requests: u64,
    /// Bytes the kernel asked for (used): `requests x width`.
    pub bytes_requested: u64,
    /// Bytes actually moved from/to global memory to serve those requests.
    pub bytes_fetched: u64,
    /// Number of memory bursts issued.
    pub bursts: u64,
    /// Sum of the sizes of all bursts, in bytes.
    pub burst_bytes: u64,
    /// Largest burst, in bytes.
    pub max_burst_bytes: u64,
    /// Requests served by the LSU's private cache.
    pub cache_hits: u64,
    /// Requests that missed the LSU's private cache.
    pub cache_misses: u64,
    /// Requests not aligned to the memory word.
    pub unaligned_requests: u64,
}

impl SiteCounters {
    /// Counters of `site` with every count zero.
    pub fn zero(site: u32) -> Self {
        SiteCounters {
            site,
            ..Default::default()
        }
    }

    /// Adds `other`'s counts into `self` (sums; `max_burst_bytes` takes the maximum), e.g. to
    /// aggregate a site over several runs. The site id of `self` is kept. Saturates instead of
    /// overflowing.
    pub fn accumulate(&mut self, other: &SiteCounters) {
        self.fired_cycles = self.fired_cycles.saturating_add(other.fired_cycles);
        self.stall_cycles = self.stall_cycles.saturating_add(other.stall_cycles);
        self.predicated_cycles = self
            .predicated_cycles
            .saturating_add(other.predicated_cycles);
        self.active_cycles = self.active_cycles.saturating_add(other.active_cycles);
        self.requests = self.requests.saturating_add(other.requests);
        self.bytes_requested = self.bytes_requested.saturating_add(other.bytes_requested);
        self.bytes_fetched = self.bytes_fetched.saturating_add(other.bytes_fetched);
        self.bursts = self.bursts.saturating_add(other.bursts);
        self.burst_bytes = self.burst_bytes.saturating_add(other.burst_bytes);
        self.max_burst_bytes = self.max_burst_bytes.max(other.max_burst_bytes);
        self.cache_hits = self.cache_hits.saturating_add(other.cache_hits);
        self.cache_misses = self.cache_misses.saturating_add(other.cache_misses);
        self.unaligned_requests = self
            .unaligned_requests
            .saturating_add(other.unaligned_requests);
    }
}

/// One execution of an enqueued kernel (`clEnqueueNDRangeKernel` / `clEnqueueTask`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct KernelRun {
    /// Identifier of the run, unique in the session (snapshots of a run share it).
    pub run_id: u64,
    /// Device index in the platform.
    pub device: u32,
    /// Command queue identifier (unique in the session).
    pub queue: u64,
    /// Kernel function name.
    pub kernel: String,
    /// Program the kernel belongs to ([`Program::id`]).
    pub program: u32,
    /// Emulated start time, ns since host start.
    pub start_ns: u64,
    /// Emulated end time, ns since host start.
    pub end_ns: u64,
    /// Emulated start, device cycles since host start.
    pub start_cycle: u64,
    /// Emulated end, device cycles since host start.
    pub end_cycle: u64,
    /// Number of used dimensions (1..=3; 1 for tasks).
    pub work_dim: u32,
    /// Global work size per dimension (unused dimensions are 1).
    pub global_size: [u64; 3],
    /// Local work size per dimension (unused dimensions are 1).
    pub local_size: [u64; 3],
    /// Global work offset per dimension.
    pub global_offset: [u64; 3],
    /// Counters per access site; empty when the run was recorded without counters
    /// (`ACL_PROFILE_TIMER` timing only).
    pub sites: Vec<SiteCounters>,
}

impl KernelRun {
    /// Emulated duration in ns (0 if the end precedes the start).
    pub fn duration_ns(&self) -> u64 {
        self.end_ns.saturating_sub(self.start_ns)
    }

    /// Emulated duration in device cycles (0 if the end precedes the start).
    pub fn duration_cycles(&self) -> u64 {
        self.end_cycle.saturating_sub(self.start_cycle)
    }
}

/// A host <-> device (or device <-> device) memory transfer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct MemTransfer {
    /// Device index in the platform.
    pub device: u32,
    /// Command queue identifier.
    pub queue: u64,
    /// Read, write or copy.
    pub direction: TransferDirection,
    /// Bytes transferred.
    pub bytes: u64,
    /// Emulated start time, ns since host start.
    pub start_ns: u64,
    /// Emulated end time, ns since host start.
    pub end_ns: u64,
}

impl MemTransfer {
    /// Emulated duration in ns (0 if the end precedes the start).
    pub fn duration_ns(&self) -> u64 {
        self.end_ns.saturating_sub(self.start_ns)
    }
}

/// Counters of a kernel that was still running, read by `clGetProfileInfoIntelFPGA`.
///
/// `run` holds the run as far as it had got: `run.end_ns`/`run.end_cycle` are the snapshot
/// point and `run.sites` the counters accumulated up to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct Snapshot {
    /// When the snapshot was taken, ns since host start (emulated timeline).
    pub taken_ns: u64,
    /// The partial run.
    pub run: KernelRun,
}

/// Counters of an autorun kernel's compute unit, read by `clGetProfileDataDeviceIntelFPGA`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub struct AutorunCapture {
    /// Device index in the platform.
    pub device: u32,
    /// Autorun kernel name.
    pub kernel: String,
    /// Program the kernel belongs to.
    pub program: u32,
    /// Compute unit id (x, y, z) for `num_compute_units` kernels; `[0, 0, 0]` otherwise.
    pub compute_unit: [u32; 3],
    /// Capture time, ns since host start; the profiler labels the capture with it.
    pub capture_ns: u64,
    /// Counters per access site since the previous capture of this compute unit that cleared
    /// them (or since the kernel started).
    pub sites: Vec<SiteCounters>,
    /// The counters were reset after this readback (the clear-after-readback flag of
    /// `clGetProfileDataDeviceIntelFPGA`): the next capture of this compute unit counts a fresh
    /// window. When false, the next capture includes this one's counts.
    pub cleared: bool,
}

/// Something that happened while the host ran. Appended to the file as it happens.
///
/// New variants may be appended in a minor format version; never reorder or change existing
/// ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Encode, Decode)]
pub enum Record {
    /// A finished kernel run.
    KernelRun(KernelRun),
    /// A memory transfer (recorded with `ACL_PROFILE_TIMER=1`).
    MemTransfer(MemTransfer),
    /// A snapshot of a running kernel.
    Snapshot(Snapshot),
    /// An autorun kernel capture.
    AutorunCapture(AutorunCapture),
    /// An out-of-bounds access site of a kernel run that did not stop it (format 1.1).
    OutOfBounds(OutOfBounds),
    /// The host's own wall-clock time before it enqueued a command (format 1.2).
    HostGap(HostGap),
}

/// The host's own time before it enqueued a command (format 1.2): what the host program did
/// between OpenCL commands (its computation, sleeps, other API calls), measured on the wall
/// clock apart from the device timeline. Written right before its command's record (the
/// `KernelRun`, or the `MemTransfer` with `ACL_PROFILE_TIMER=1`), only when that record is.
///
/// `gap_ns` is wall-clock time and so differs from run to run (like the header's date and
/// pid); every other field is deterministic. It never enters a device figure: kernel and
/// transfer times, `Profile::emulated_time_ns` and the time span ignore it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Encode, Decode)]
pub struct HostGap {
    /// Device index in the platform.
    pub device: u32,
    /// Command queue identifier.
    pub queue: u64,
    /// The kernel run it precedes ([`KernelRun::run_id`]); `None` for a transfer.
    pub run_id: Option<u64>,
    /// What the command is: the kernel's name, or the transfer's direction
    /// (`"read"`, `"write"`, `"copy"`).
    pub command: String,
    /// The command's QUEUED time: the host's position on the device timeline when it enqueued
    /// it (ns since host start; deterministic). The TUI draws the gap's marker there.
    pub queued_ns: u64,
    /// Host wall-clock ns from the return of its previous `clEnqueue*` call to this enqueue,
    /// leaving out the time it was blocked in waits (`clFinish`, `clWaitForEvents`, blocking
    /// transfers); 0 for the host's first command (its set-up and program builds before it
    /// are not counted). Nondeterministic.
    pub gap_ns: u64,
}

/// An out-of-bounds access site of a finished kernel run (fpgacl's default, as on hardware:
/// the read returned 0 / the write was dropped and the kernel went on). One record per site
/// and direction per run, written right after the run's `KernelRun`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Encode, Decode)]
pub struct OutOfBounds {
    /// The run ([`KernelRun::run_id`]).
    pub run_id: u64,
    pub device: u32,
    pub kernel: String,
    /// Program of the kernel ([`Program::id`]).
    pub program: u32,
    /// The run's emulated end, ns since host start.
    pub time_ns: u64,
    /// Source position of the access.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// Global id of the first work-item (in work-item order) that accessed out of bounds.
    pub work_item: [u64; 3],
    /// The memory accessed: `"local memory"`, `"argument 1"`, `"private memory"`, `"NULL"`...
    pub memory: String,
    /// The variable or argument accessed, when known (else empty).
    pub target: String,
    /// Byte offset of the first such access in the memory object (negative below it).
    pub offset: i64,
    /// Bytes of one access.
    pub access_bytes: u64,
    /// Size of the memory object in bytes.
    pub object_bytes: u64,
    /// A store (dropped) rather than a load (returned 0).
    pub write: bool,
    /// Out-of-bounds accesses of this site in the run.
    pub count: u64,
}

impl std::fmt::Display for OutOfBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.write { "write" } else { "read" };
        write!(
            f,
            "kernel '{}' at {}:{}:{} (work-item {},{},{}): out-of-bounds {what} of {} bytes at offset {} of ",
            self.kernel,
            self.file,
            self.line,
            self.column,
            self.work_item[0],
            self.work_item[1],
            self.work_item[2],
            self.access_bytes,
            self.offset
        )?;
        if self.target.is_empty() {
            write!(f, "{}", self.memory)?;
        } else {
            write!(f, "'{}' ({})", self.target, self.memory)?;
        }
        let s = if self.count == 1 { "" } else { "s" };
        write!(
            f,
            " of {} bytes; {} ({} such {what}{s})",
            self.object_bytes,
            if self.write { "dropped" } else { "returned 0" },
            self.count
        )
    }
}

impl Record {
    /// Start time of the record on the emulated timeline, ns since host start (snapshot and
    /// capture time for those).
    pub fn time_ns(&self) -> u64 {
        match self {
            Record::KernelRun(r) => r.start_ns,
            Record::MemTransfer(t) => t.start_ns,
            Record::Snapshot(s) => s.taken_ns,
            Record::AutorunCapture(c) => c.capture_ns,
            Record::OutOfBounds(o) => o.time_ns,
            Record::HostGap(g) => g.queued_ns,
        }
    }
}
