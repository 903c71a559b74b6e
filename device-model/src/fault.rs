//! Errors of kernel execution: launch validation errors and kernel faults.

use std::fmt;

/// Where a fault happened in the kernel source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePos {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// The memory an access targeted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemRegion {
    Null,
    Private,
    Local,
    Constant,
    /// Memory bound to kernel argument `index` (a global or constant buffer).
    Arg {
        index: u32,
    },
    /// A pointer whose region number is not valid at all.
    Invalid {
        region: u64,
    },
}

impl fmt::Display for MemRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemRegion::Null => write!(f, "NULL"),
            MemRegion::Private => write!(f, "private memory"),
            MemRegion::Local => write!(f, "local memory"),
            MemRegion::Constant => write!(f, "program constant data"),
            MemRegion::Arg { index } => write!(f, "argument {index}"),
            MemRegion::Invalid { region } => write!(f, "invalid pointer region {region}"),
        }
    }
}

/// What went wrong in a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An access outside the memory object (or a NULL / invalid pointer).
    OutOfBounds {
        region: MemRegion,
        /// Byte offset into the memory object (negative below its start).
        offset: i64,
        size: u64,
        /// Size of the memory object accessed.
        limit: u64,
        write: bool,
    },
    /// A store to read-only memory (constant data).
    ReadOnly { region: MemRegion, offset: i64 },
    /// An atomic on an address not aligned to its size.
    MisalignedAtomic {
        region: MemRegion,
        offset: i64,
        size: u64,
    },
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// Signed integer division overflow (`MIN / -1`).
    DivisionOverflow,
    /// Some work-items of a group reached a barrier that others did not reach (or reached a
    /// different barrier, or finished).
    BarrierDivergence { detail: String },
    /// A channel array index outside the array.
    ChannelIndex {
        channel: String,
        index: i64,
        count: u32,
    },
    /// A pipe operation on an argument that is not bound to a pipe.
    BadPipe { arg: u64 },
    /// The kernel was blocked on a channel or pipe that nothing can unblock; the runtime
    /// aborted it.
    Deadlock { fifo: String, write: bool },
    /// The program instance was shut down while the kernel ran.
    Shutdown,
    /// The runtime asked the kernel to stop (`Activity::abort`).
    Aborted,
    /// The kernel ran longer than `FPGACL_KERNEL_TIMEOUT_S` (host time) and was stopped.
    Timeout { millis: u64 },
    /// Control reached an `unreachable` point.
    Unreachable,
}

/// A kernel stopped by a fault: everything the runtime prints and maps to a negative event
/// status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelFault {
    pub kernel: String,
    pub kind: FaultKind,
    /// Source position of the faulting instruction, when known.
    pub pos: Option<SourcePos>,
    /// Name of the buffer / argument / variable accessed, when known (`A`, `local memory`).
    pub target: Option<String>,
    /// Global id of the faulting work-item (or compute id of an autorun kernel).
    pub work_item: [u64; 3],
}

impl fmt::Display for KernelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel '{}'", self.kernel)?;
        if let Some(p) = &self.pos {
            write!(f, " at {p}")?;
        }
        write!(
            f,
            " (work-item {},{},{}): ",
            self.work_item[0], self.work_item[1], self.work_item[2]
        )?;
        let tgt = |f: &mut fmt::Formatter<'_>, r: &MemRegion| -> fmt::Result {
            match &self.target {
                Some(t) => write!(f, "'{t}' ({r})"),
                None => write!(f, "{r}"),
            }
        };
        match &self.kind {
            FaultKind::OutOfBounds {
                region,
                offset,
                size,
                limit,
                write,
            } => {
                let what = if *write { "write" } else { "read" };
                if *region == MemRegion::Null {
                    write!(
                        f,
                        "{what} of {size} bytes through a NULL pointer (offset {offset})"
                    )
                } else {
                    write!(
                        f,
                        "out-of-bounds {what} of {size} bytes at offset {offset} of "
                    )?;
                    tgt(f, region)?;
                    write!(f, " of {limit} bytes")
                }
            }
            FaultKind::ReadOnly { region, offset } => {
                write!(f, "write to read-only ")?;
                tgt(f, region)?;
                write!(f, " at offset {offset}")
            }
            FaultKind::MisalignedAtomic {
                region,
                offset,
                size,
            } => {
                write!(f, "misaligned {size}-byte atomic at offset {offset} of ")?;
                tgt(f, region)
            }
            FaultKind::DivisionByZero => write!(f, "integer division by zero"),
            FaultKind::DivisionOverflow => write!(f, "integer division overflow (MIN / -1)"),
            FaultKind::BarrierDivergence { detail } => write!(f, "barrier divergence: {detail}"),
            FaultKind::ChannelIndex {
                channel,
                index,
                count,
            } => write!(
                f,
                "channel index {index} outside channel array '{channel}' of {count}"
            ),
            FaultKind::BadPipe { arg } => {
                write!(
                    f,
                    "pipe operation on argument {arg}, which is not a bound pipe"
                )
            }
            FaultKind::Deadlock { fifo, write } => write!(
                f,
                "deadlock: blocked {} '{fifo}' and nothing can unblock it",
                if *write { "writing" } else { "reading" }
            ),
            FaultKind::Shutdown => write!(f, "stopped because its program was released"),
            FaultKind::Aborted => write!(f, "stopped at the runtime's request"),
            FaultKind::Timeout { millis } => write!(
                f,
                "stopped by the watchdog: still running after {:.3} s (FPGACL_KERNEL_TIMEOUT_S)",
                *millis as f64 / 1000.0
            ),
            FaultKind::Unreachable => write!(f, "reached unreachable code"),
        }
    }
}

impl std::error::Error for KernelFault {}

/// A launch the executor refuses before running anything (the runtime maps these to CL error
/// codes: see each variant).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// `CL_INVALID_KERNEL`.
    #[error("no kernel with index {0}")]
    NoSuchKernel(u32),
    /// `CL_INVALID_WORK_DIMENSION`.
    #[error("work dimension {0} is not 1, 2 or 3")]
    WorkDim(u32),
    /// `CL_INVALID_GLOBAL_WORK_SIZE`.
    #[error("invalid global work size: {0}")]
    GlobalSize(String),
    /// `CL_INVALID_WORK_GROUP_SIZE`.
    #[error("invalid work-group size: {0}")]
    WorkGroupSize(String),
    /// `CL_INVALID_KERNEL_ARGS` (missing) / `CL_INVALID_ARG_VALUE` / `CL_INVALID_ARG_SIZE`.
    #[error("argument {index}: {message}")]
    Arg { index: u32, message: String },
    /// `CL_OUT_OF_RESOURCES`: local memory beyond the board limit.
    #[error("local memory of {needed} bytes exceeds the board's {limit} bytes")]
    LocalMemory { needed: u64, limit: u64 },
    /// `CL_OUT_OF_RESOURCES`: the private memory of the work-items of a group that live at the
    /// same time is beyond [`fpgacl_kernel_compiler::ir::MAX_GROUP_PRIVATE_BYTES`].
    #[error(
        "the private memory of a work-group of {items} work-items ({needed} bytes) exceeds the \
         limit of {limit} bytes"
    )]
    PrivateMemory { items: u64, needed: u64, limit: u64 },
    /// The kernel is an autorun kernel (it cannot be enqueued).
    #[error("kernel '{0}' is autorun and cannot be enqueued")]
    Autorun(String),
    /// The program instance has been shut down.
    #[error("the program instance was shut down")]
    ShutDown,
}

/// Failure of [`crate::ProgramInstance::run`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// Rejected before any work-item ran.
    #[error(transparent)]
    Launch(#[from] LaunchError),
    /// Stopped by a fault while running.
    #[error("{0}")]
    Fault(Box<KernelFault>),
}

/// The IR could not be prepared for execution (a compiler bug, reported at program load).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("kernel '{kernel}': invalid IR: {message}")]
pub struct DecodeError {
    pub kernel: String,
    pub message: String,
}

/// What an out-of-bounds access does (`FPGACL_OOB`).
///
/// `Report` (the default): like hardware, an out-of-bounds read returns a value (0 here) and an
/// out-of-bounds write goes nowhere (it is dropped: no other memory changes); the kernel goes
/// on and every distinct access site is reported once per run ([`OobSite`]). `Fault`
/// (`FPGACL_OOB=fault`): the first out-of-bounds access stops the kernel with a
/// [`FaultKind::OutOfBounds`] fault.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OobMode {
    #[default]
    Report,
    Fault,
}

impl OobMode {
    /// The mode `FPGACL_OOB` asks for: `fault` (also `strict`, `1`) or `report` (default; any
    /// other value is reported once on stderr and ignored).
    pub fn from_env() -> OobMode {
        match std::env::var("FPGACL_OOB") {
            Ok(v) => OobMode::parse(&v).unwrap_or_else(|| {
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| {
                    eprintln!(
                        "fpgacl: FPGACL_OOB={:?} is not 'report' or 'fault'; using 'report'",
                        v
                    )
                });
                OobMode::Report
            }),
            Err(_) => OobMode::Report,
        }
    }

    /// Parses a `FPGACL_OOB` value.
    pub fn parse(v: &str) -> Option<OobMode> {
        match v.trim().to_ascii_lowercase().as_str() {
            "" | "report" | "warn" | "0" => Some(OobMode::Report),
            "fault" | "strict" | "1" => Some(OobMode::Fault),
            _ => None,
        }
    }
}

/// One out-of-bounds access site of a run in [`OobMode::Report`]: the access did not stop the
/// kernel (a read returned 0, a write was dropped). `work_item`, `offset` are those of the
/// first such access in work-item order (lowest global id, dimension 2 first), so the report
/// does not depend on the number of host threads; `count` is how many times the site accessed
/// out of bounds in the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OobSite {
    pub kernel: String,
    /// Source position of the access, when known.
    pub pos: Option<SourcePos>,
    /// Name of the buffer / argument / variable accessed, when known.
    pub target: Option<String>,
    pub region: MemRegion,
    pub write: bool,
    /// Bytes of one access.
    pub size: u64,
    /// Size of the memory object accessed.
    pub limit: u64,
    /// Byte offset of the first such access (negative below the object's start).
    pub offset: i64,
    /// Global id of the first work-item that accessed out of bounds (compute id for autorun).
    pub work_item: [u64; 3],
    pub count: u64,
    /// The decoded operation's index (identifies the site within its kernel).
    pub op: u32,
}

impl OobSite {
    /// Sums `other` (the same site in another part of the same run) into `self`, keeping the
    /// first access in work-item order.
    pub fn merge(&mut self, other: &OobSite) {
        self.count = self.count.saturating_add(other.count);
        let key = |w: &[u64; 3]| [w[2], w[1], w[0]];
        if key(&other.work_item) < key(&self.work_item) {
            self.work_item = other.work_item;
            self.offset = other.offset;
        }
    }
}

impl fmt::Display for OobSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel '{}'", self.kernel)?;
        if let Some(p) = &self.pos {
            write!(f, " at {p}")?;
        }
        let what = if self.write { "write" } else { "read" };
        write!(
            f,
            " (work-item {},{},{}): out-of-bounds {what} of {} bytes ",
            self.work_item[0], self.work_item[1], self.work_item[2], self.size
        )?;
        if self.region == MemRegion::Null {
            write!(f, "through a NULL pointer (offset {})", self.offset)?;
        } else {
            if self.offset.unsigned_abs() >= 1 << 40 {
                write!(f, "at offset {} (pointer offset overflow) of ", self.offset)?;
            } else {
                write!(f, "at offset {} of ", self.offset)?;
            }
            match &self.target {
                Some(t) => write!(f, "'{t}' ({})", self.region)?,
                None => write!(f, "{}", self.region)?,
            }
            write!(f, " of {} bytes", self.limit)?;
        }
        let n = self.count;
        let s = if n == 1 { "" } else { "s" };
        if self.write {
            write!(f, "; dropped ({n} such write{s} in this run)")
        } else {
            write!(f, "; returned 0 ({n} such read{s} in this run)")
        }
    }
}
