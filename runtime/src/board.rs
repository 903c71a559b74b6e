//! The board model the device reports (runtime-side copy).
//!
//! The device-model crate will own the board description (`fpgacl_device_model::board`); until
//! it does, the runtime keeps this small struct. Every `clGetDeviceInfo` answer that depends on
//! hardware (memory size, bandwidth, clock, limits) is derived from it, so swapping the source
//! only changes [`BoardInfo::from_env`].

/// Everything the host API reports about an emulated FPGA board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// Short board name: the part of `CL_DEVICE_NAME` before " : " (hosts derive their
    /// `.aocx` file name from it).
    pub name: String,
    /// Human-readable description (the part after " : ").
    pub description: String,
    /// Global memory (DDR) size in bytes.
    pub global_mem_bytes: u64,
    /// Number of global memory banks (selectable with the `CL_CHANNEL_n_INTELFPGA` flags).
    pub mem_banks: u32,
    /// Total global memory bandwidth in MB/s over all banks.
    pub mem_bandwidth_mbps: u64,
    /// Width of one memory bank's interface in bytes (burst word).
    pub mem_width_bytes: u32,
    /// Kernel clock (fmax) in MHz.
    pub kernel_clock_mhz: u32,
    /// Host <-> device (PCIe) bandwidth in MB/s.
    pub pcie_bandwidth_mbps: u64,
    /// Local memory per work-group in bytes.
    pub local_mem_bytes: u64,
    /// Largest work-group the device accepts.
    pub max_work_group_size: usize,
    /// Largest single allocation in bytes.
    pub max_mem_alloc_bytes: u64,
}

impl BoardInfo {
    /// The built-in default board: an Arria 10 style card with 4 GiB of DDR4 in two banks
    /// and 25600 MB/s of global memory bandwidth (the figure the Best Practices Guide uses),
    /// a 294 MHz kernel clock and a PCIe Gen3 x8 host link.
    pub fn default_board() -> Self {
        BoardInfo {
            name: "fpgacl_a10".into(),
            description: "fpgacl emulated Arria 10 style FPGA".into(),
            global_mem_bytes: 4 << 30,
            mem_banks: 2,
            mem_bandwidth_mbps: 25600,
            mem_width_bytes: 64,
            kernel_clock_mhz: 294,
            pcie_bandwidth_mbps: 7880,
            local_mem_bytes: 64 << 10,
            max_work_group_size: 2048,
            max_mem_alloc_bytes: 1 << 30,
        }
    }

    /// The board selected by `FPGACL_BOARD` (only the built-in board exists so far; an
    /// unknown name is reported once on stderr and the default is used).
    pub fn from_env() -> Self {
        let board = Self::default_board();
        if let Ok(want) = std::env::var("FPGACL_BOARD") {
            if !want.is_empty() && want != board.name {
                eprintln!(
                    "fpgacl: FPGACL_BOARD={want:?} is not a known board; using {}",
                    board.name
                );
            }
        }
        board
    }

    /// `CL_DEVICE_NAME`: "<board> : <description> (<bandwidth> MB/s)".
    pub fn device_name(&self) -> String {
        format!(
            "{} : {} ({} MB/s)",
            self.name, self.description, self.mem_bandwidth_mbps
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_board_name_splits_at_colon() {
        let b = BoardInfo::default_board();
        let name = b.device_name();
        let (board, rest) = name.split_once(" : ").unwrap();
        assert_eq!(board, "fpgacl_a10");
        assert!(rest.contains("25600 MB/s"));
        assert!(b.max_mem_alloc_bytes <= b.global_mem_bytes);
    }
}
