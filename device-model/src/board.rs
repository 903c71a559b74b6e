//! The board model: the emulated FPGA card as data.
//!
//! A [`Board`] describes what a Board Support Package fixes on real hardware: the global memory
//! banks (type, count, interface width, bandwidth, latency, burst size), the kernel clock (fmax),
//! the host link (PCIe) bandwidth, local memory limits and the global memory size. The runtime
//! reports it through `clGetDeviceInfo`; the timing model (issue 5) takes every bandwidth,
//! latency and clock figure from it.
//!
//! The built-in default board ([`Board::default_board`]) has 25600 MB/s of total global memory
//! bandwidth (the figure the Intel FPGA SDK for OpenCL Best Practices Guide uses in its profiler
//! walk-through) and a 294 MHz kernel clock (the guide's `vector_add` example), over two DDR4
//! banks. Other boards come from JSON files ([`Board::from_json_file`], [`BoardSet`]).

pub use fpgacl_kernel_compiler::analysis::latency::Family;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One kind of global memory interface on the board (e.g. "two DDR4 banks").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryBankGroup {
    /// Memory technology, e.g. `DDR4`, `HBM2`, `QDR`.
    pub kind: String,
    /// Number of banks of this kind (selected with `CL_CHANNEL_n_INTELFPGA` / interleaving).
    pub count: u32,
    /// Width of one bank's interface in bytes (the burst word the LSUs see).
    pub width_bytes: u32,
    /// Peak bandwidth of ONE bank in MB/s (1 MB = 10^6 bytes).
    pub bandwidth_mbps: f64,
    /// Round-trip latency of a read in kernel clock cycles.
    pub latency_cycles: u32,
    /// Largest burst an LSU can issue, in interface words.
    pub max_burst_words: u32,
    /// Bytes of this memory kind (all banks together).
    pub size_bytes: u64,
    /// DRAM timing of each bank (rules D1-D7, `timing::dram`); `None`: the bank moves its
    /// peak `bandwidth_mbps` (rule B1), as on the built-in default board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dram: Option<crate::timing::dram::DramTiming>,
}

/// `CL_DEVICE_MAX_WORK_GROUP_SIZE` (and each `CL_DEVICE_MAX_WORK_ITEM_SIZES`) as Intel's FPGA
/// runtime reports it: the device imposes no limit of its own; a kernel's limit comes from its
/// attributes (`reqd_work_group_size`, `max_work_group_size`) or, for a kernel with barriers
/// and neither attribute, the offline compiler's default of 256 work-items (Best Practices
/// Guide, "Specifying a Work-Group Size").
pub const INTEL_MAX_WORK_GROUP_SIZE: u64 = fpgacl_kernel_compiler::ir::DEVICE_MAX_WORK_GROUP_SIZE;

/// On-chip RAM of the built-in board's FPGA, the limit of a kernel's `__local` memory: an
/// Arria 10 GX 1150 has 2,713 M20K blocks of 20 Kbit (20,480 bits) each, 6,945,280 bytes.
/// (Local memory is built from these RAM blocks, rounded up to their dimensions, guide
/// "Local Memory"; a design also needs RAM for other things, so a real one fits less.)
pub const A10_GX1150_M20K_BYTES: u64 = 2713 * 20_480 / 8;

/// An emulated FPGA board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Short name (the part of `CL_DEVICE_NAME` before " : ", selected by `FPGACL_BOARD`).
    pub name: String,
    /// Human-readable description.
    pub description: String,
    /// Global memory interfaces; the first one is the default for buffers.
    pub global_memory: Vec<MemoryBankGroup>,
    /// Kernel clock (fmax) in MHz.
    pub kernel_clock_mhz: f64,
    /// Host <-> device bandwidth in MB/s.
    pub pcie_bandwidth_mbps: f64,
    /// Local memory one work-group may use, in bytes (`CL_DEVICE_LOCAL_MEM_SIZE`).
    pub local_mem_bytes: u64,
    /// Largest work-group size (`CL_DEVICE_MAX_WORK_GROUP_SIZE`).
    pub max_work_group_size: u64,
    /// Largest single allocation in bytes (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`).
    pub max_mem_alloc_bytes: u64,
    /// FPGA family (`"Stratix V"`, `"Arria 10"`, `"Stratix 10"`, `"Agilex 7"`): the
    /// analysis' floating-point latency table. Default: Arria 10.
    #[serde(default)]
    pub family: Family,
    /// Other names the board is selected by (Intel BSP names, short names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Where the board's figures come from (product briefs, JEDEC, BSP documentation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
}

/// The boards shipped with fpgacl (`device-model/boards/*.json`), in listing order.
const BUILTIN_BOARDS: &[&str] = &[
    include_str!("../boards/p385a_sch_ax115.json"),
    include_str!("../boards/p520_max_sg280h.json"),
    include_str!("../boards/de5net_a7.json"),
    include_str!("../boards/pac_a10.json"),
    include_str!("../boards/pac_s10_dc.json"),
    include_str!("../boards/a10gx.json"),
    include_str!("../boards/s10gx.json"),
];

/// Why a board file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error("cannot read board file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("board file {path} is not valid: {message}")]
    Parse { path: String, message: String },
    #[error("board {name:?} is not defined (known boards: {known})")]
    Unknown { name: String, known: String },
    #[error("board {name:?} is inconsistent: {message}")]
    Invalid { name: String, message: String },
}

impl Board {
    /// The built-in board: an Arria 10 style card with 4 GiB of DDR4 in two banks of 12800 MB/s
    /// each (25600 MB/s in total, the Best Practices Guide's figure), 64-byte interfaces, a
    /// 294 MHz kernel clock and a PCIe Gen3 x8 host link.
    pub fn default_board() -> Board {
        Board {
            name: "fpgacl_a10".into(),
            description: "fpgacl emulated Arria 10 style FPGA".into(),
            global_memory: vec![MemoryBankGroup {
                kind: "DDR4".into(),
                count: 2,
                width_bytes: 64,
                bandwidth_mbps: 12800.0,
                // The analysis' reference latency: a burst-coalesced load then takes 159 cycles
                // and the guide's `unoptimized4` loop gets its II of 324.
                latency_cycles: 155,
                max_burst_words: 16,
                size_bytes: 4 << 30,
                dram: None,
            }],
            kernel_clock_mhz: 294.0,
            pcie_bandwidth_mbps: 7880.0,
            local_mem_bytes: A10_GX1150_M20K_BYTES,
            max_work_group_size: INTEL_MAX_WORK_GROUP_SIZE,
            max_mem_alloc_bytes: 1 << 30,
            family: Family::Arria10,
            aliases: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// Whether `name` selects this board (its name or one of its aliases, case-insensitive).
    pub fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// This board with the kernel clock a user measured (`-clock=<MHz>`,
    /// `FPGACL_KERNEL_CLOCK_MHZ`): every cycle figure is at this fmax. Global memory latency
    /// stays the same in nanoseconds (its cycles scale with the clock); bandwidths are
    /// unchanged. Non-positive or non-finite clocks leave the board as it is.
    pub fn with_kernel_clock(&self, mhz: f64) -> Board {
        let mut b = self.clone();
        if mhz.is_finite() && mhz > 0.0 && mhz != self.kernel_clock_mhz {
            for g in &mut b.global_memory {
                g.latency_cycles = ((g.latency_cycles as f64) * mhz / self.kernel_clock_mhz)
                    .round()
                    .max(1.0) as u32;
            }
            b.kernel_clock_mhz = mhz;
        }
        b
    }

    /// Total global memory bandwidth over all banks, in MB/s.
    pub fn global_bandwidth_mbps(&self) -> f64 {
        self.global_memory
            .iter()
            .map(|g| g.bandwidth_mbps * g.count as f64)
            .sum()
    }

    /// Total global memory size in bytes.
    pub fn global_mem_bytes(&self) -> u64 {
        self.global_memory.iter().map(|g| g.size_bytes).sum()
    }

    /// Checks that the numbers make sense (positive clocks and bandwidths, at least one bank).
    pub fn validate(&self) -> Result<(), BoardError> {
        let bad = |m: &str| {
            Err(BoardError::Invalid {
                name: self.name.clone(),
                message: m.to_string(),
            })
        };
        if self.name.is_empty() {
            return bad("empty name");
        }
        if self.global_memory.is_empty() {
            return bad("no global memory");
        }
        for g in &self.global_memory {
            if g.count == 0 || g.width_bytes == 0 || g.max_burst_words == 0 {
                return bad("a memory bank group has zero banks, width or burst size");
            }
            if !(g.bandwidth_mbps.is_finite() && g.bandwidth_mbps > 0.0) {
                return bad("memory bandwidth must be positive");
            }
            if let Some(d) = &g.dram {
                d.validate().map_err(|m| BoardError::Invalid {
                    name: self.name.clone(),
                    message: m,
                })?;
            }
        }
        if !(self.kernel_clock_mhz.is_finite() && self.kernel_clock_mhz > 0.0) {
            return bad("kernel clock must be positive");
        }
        if !(self.pcie_bandwidth_mbps.is_finite() && self.pcie_bandwidth_mbps > 0.0) {
            return bad("PCIe bandwidth must be positive");
        }
        if self.max_work_group_size == 0 {
            return bad("max_work_group_size must be positive");
        }
        Ok(())
    }

    /// Parses one board (a JSON object) or a [`BoardSet`] file and returns the board named
    /// `name`, or the only/first board when `name` is `None`.
    pub fn from_json_file(path: &Path, name: Option<&str>) -> Result<Board, BoardError> {
        let set = BoardSet::from_json_file(path)?;
        match name {
            Some(n) => set.get(n),
            None => Ok(set.boards[0].clone()),
        }
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::default_board()
    }
}

/// Largest board file read (board files are a few kilobytes).
pub const MAX_BOARD_FILE_BYTES: u64 = 16 << 20;

/// A list of boards (the built-in one plus any loaded from files), selectable by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardSet {
    pub boards: Vec<Board>,
}

impl Default for BoardSet {
    /// The built-in registry: the default board, then the boards shipped in
    /// `device-model/boards/` (Intel BSP names; `fpgacl aoc -list-boards`).
    fn default() -> Self {
        let mut boards = vec![Board::default_board()];
        for text in BUILTIN_BOARDS {
            // Checked by the `builtin_boards_parse_and_validate` test.
            if let Ok(set) = BoardSet::from_json_str(text) {
                boards.extend(set.boards);
            }
        }
        BoardSet { boards }
    }
}

impl BoardSet {
    /// Reads a JSON file holding either one board object or `{"boards": [...]}`.
    pub fn from_json_file(path: &Path) -> Result<BoardSet, BoardError> {
        let p = path.display().to_string();
        let io = |e: std::io::Error| BoardError::Io {
            path: p.clone(),
            source: e,
        };
        // Only regular files: opening a FIFO (or a device) would block context creation or
        // read without end.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        if meta.len() > MAX_BOARD_FILE_BYTES {
            return Err(io(std::io::Error::other(format!(
                "larger than {MAX_BOARD_FILE_BYTES} bytes"
            ))));
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        Self::from_json_str(&text).map_err(|message| BoardError::Parse { path: p, message })
    }

    /// Parses JSON text holding either one board object or `{"boards": [...]}`.
    pub fn from_json_str(text: &str) -> Result<BoardSet, String> {
        let set = match serde_json::from_str::<BoardSet>(text) {
            Ok(s) => s,
            Err(e1) => match serde_json::from_str::<Board>(text) {
                Ok(b) => BoardSet { boards: vec![b] },
                Err(e2) => return Err(format!("not a board list ({e1}) nor a board ({e2})")),
            },
        };
        if set.boards.is_empty() {
            return Err("no boards in file".into());
        }
        for b in &set.boards {
            b.validate().map_err(|e| e.to_string())?;
        }
        Ok(set)
    }

    /// The board called `name`.
    pub fn get(&self, name: &str) -> Result<Board, BoardError> {
        self.boards
            .iter()
            .find(|b| b.name == name)
            .or_else(|| self.boards.iter().find(|b| b.is_named(name)))
            .cloned()
            .ok_or_else(|| BoardError::Unknown {
                name: name.to_string(),
                known: self
                    .boards
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Resolves a board selection as the runtime receives it (e.g. from `FPGACL_BOARD`): empty
    /// or `None` gives the default board; a name is looked up among the built-in boards; a
    /// value that names an existing file (or ends in `.json`) is loaded as a board file, and
    /// `file.json:name` picks one board of a file.
    pub fn select(selection: Option<&str>) -> Result<Board, BoardError> {
        let sel = match selection.map(str::trim) {
            None | Some("") => return Ok(Board::default_board()),
            Some(s) => s,
        };
        if let Some((file, name)) = sel.rsplit_once(':') {
            if file.ends_with(".json") {
                return Board::from_json_file(Path::new(file), Some(name));
            }
        }
        if sel.ends_with(".json") || Path::new(sel).is_file() {
            return Board::from_json_file(Path::new(sel), None);
        }
        BoardSet::default().get(sel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("fpgacl-board-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("board.json");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.map(|s| s.success()).unwrap_or(false) {
            eprintln!("mkfifo not available: skipped");
            return;
        }
        let sel = fifo.display().to_string();
        let err = BoardSet::select(Some(&sel)).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn default_board_has_guide_figures() {
        let b = Board::default_board();
        assert_eq!(b.global_bandwidth_mbps(), 25600.0);
        assert_eq!(b.kernel_clock_mhz, 294.0);
        assert_eq!(b.global_mem_bytes(), 4 << 30);
        b.validate().unwrap();
    }

    #[test]
    fn json_round_trip_and_selection() {
        let mut other = Board::default_board();
        other.name = "small".into();
        other.kernel_clock_mhz = 200.0;
        let set = BoardSet {
            boards: vec![Board::default_board(), other.clone()],
        };
        let text = serde_json::to_string_pretty(&set).unwrap();
        let back = BoardSet::from_json_str(&text).unwrap();
        assert_eq!(back.get("small").unwrap(), other);
        assert!(matches!(back.get("nope"), Err(BoardError::Unknown { .. })));
        let one = serde_json::to_string(&other).unwrap();
        assert_eq!(
            BoardSet::from_json_str(&one).unwrap().boards,
            vec![other.clone()]
        );

        let dir = std::env::temp_dir().join(format!("fpgacl-board-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("boards.json");
        std::fs::write(&f, &text).unwrap();
        let sel = format!("{}:small", f.display());
        assert_eq!(BoardSet::select(Some(&sel)).unwrap(), other);
        assert_eq!(
            BoardSet::select(Some(f.to_str().unwrap())).unwrap().name,
            "fpgacl_a10"
        );
        assert_eq!(BoardSet::select(None).unwrap().name, "fpgacl_a10");
        assert!(BoardSet::select(Some("unknown_board")).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn builtin_boards_parse_and_validate() {
        assert_eq!(BUILTIN_BOARDS.len(), 7);
        for text in BUILTIN_BOARDS {
            let set = BoardSet::from_json_str(text).expect("a shipped board parses");
            for b in &set.boards {
                assert!(!b.sources.is_empty(), "{} cites its sources", b.name);
                assert!(!b.description.is_empty());
            }
        }
        let all = BoardSet::default();
        assert_eq!(all.boards.len(), 8);
        // Intel BSP names and the short names of the issue select the boards.
        for (sel, name, family, banks, mbps) in [
            (
                "p385a_sch_ax115",
                "p385a_sch_ax115",
                Family::Arria10,
                2,
                17064.0,
            ),
            ("385a", "p385a_sch_ax115", Family::Arria10, 2, 17064.0),
            (
                "p520_max_sg280h",
                "p520_max_sg280h",
                Family::Stratix10,
                4,
                19200.0,
            ),
            ("520N", "p520_max_sg280h", Family::Stratix10, 4, 19200.0),
            ("de5net_a7", "de5net_a7", Family::StratixV, 2, 12800.0),
            ("pac_a10", "pac_a10", Family::Arria10, 2, 19200.0),
            ("pac_s10_dc", "pac_s10_dc", Family::Stratix10, 4, 19200.0),
            ("d5005", "pac_s10_dc", Family::Stratix10, 4, 19200.0),
            ("a10_ref", "a10gx", Family::Arria10, 1, 17064.0),
            ("a10gx", "a10gx", Family::Arria10, 1, 17064.0),
            ("s10_ref", "s10gx", Family::Stratix10, 1, 19200.0),
            ("s10gx", "s10gx", Family::Stratix10, 1, 19200.0),
        ] {
            let b = BoardSet::select(Some(sel)).unwrap_or_else(|e| panic!("{sel}: {e}"));
            assert_eq!(b.name, name, "{sel}");
            assert_eq!(b.family, family, "{sel}");
            assert_eq!(b.global_memory[0].count, banks, "{sel}");
            assert_eq!(b.global_memory[0].bandwidth_mbps, mbps, "{sel}");
        }
        // The default board is unchanged (the guide's figures).
        assert_eq!(all.boards[0], Board::default_board());
    }

    #[test]
    fn a_measured_clock_rescales_the_latency_cycles() {
        let b = Board::default_board().with_kernel_clock(147.0);
        assert_eq!(b.kernel_clock_mhz, 147.0);
        // 155 cycles at 294 MHz = 527 ns = 77.5 -> 78 cycles at 147 MHz.
        assert_eq!(b.global_memory[0].latency_cycles, 78);
        assert_eq!(b.global_bandwidth_mbps(), 25600.0);
        assert_eq!(
            Board::default_board().with_kernel_clock(0.0),
            Board::default_board()
        );
    }

    #[test]
    fn invalid_boards_are_rejected() {
        let mut b = Board::default_board();
        b.kernel_clock_mhz = 0.0;
        let text = serde_json::to_string(&b).unwrap();
        assert!(BoardSet::from_json_str(&text).is_err());
        assert!(BoardSet::from_json_str("{").is_err());
    }
}
