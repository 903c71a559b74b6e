//! The board the device reports: `fpgacl_device_model::Board`, selected by `FPGACL_BOARD`.

pub use fpgacl_device_model::{Board, BoardSet};

/// The board chosen by `FPGACL_BOARD` (a built-in name, a JSON board file, or `file.json:name`;
/// unset means the built-in default). An unusable selection is reported once on stderr and the
/// default board is used.
///
/// `FPGACL_KERNEL_CLOCK_MHZ` (a positive number of MHz) sets the kernel clock a user
/// measured for their design ([`Board::with_kernel_clock`]); an invalid value is reported and
/// ignored.
pub fn board_from_env() -> Board {
    let sel = std::env::var("FPGACL_BOARD").ok();
    let board = match BoardSet::select(sel.as_deref()) {
        Ok(b) => b,
        Err(e) => {
            log::warn!("fpgacl: FPGACL_BOARD: {e}; using the default board");
            Board::default_board()
        }
    };
    match std::env::var("FPGACL_KERNEL_CLOCK_MHZ") {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse::<f64>() {
            Ok(mhz) if mhz.is_finite() && mhz > 0.0 => board.with_kernel_clock(mhz),
            _ => {
                eprintln!(
                    "fpgacl: FPGACL_KERNEL_CLOCK_MHZ: '{v}' is not a clock in MHz; using {} MHz",
                    board.kernel_clock_mhz
                );
                board
            }
        },
        _ => board,
    }
}

/// The board a program runs on: `device` (already at `FPGACL_KERNEL_CLOCK_MHZ` when set) at
/// the kernel clock the program was built for with `-clock=<MHz>` (kept in the build options
/// and so in the `.aocx`). The environment variable overrides the option: with it set, the
/// device's board is used as it is.
pub fn program_board(device: &Board, options: &str) -> Board {
    let env_clock = std::env::var("FPGACL_KERNEL_CLOCK_MHZ")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .is_some_and(|mhz| mhz.is_finite() && mhz > 0.0);
    if env_clock {
        return device.clone();
    }
    match fpgacl_kernel_compiler::options::BuildOptions::parse(options)
        .ok()
        .and_then(|o| o.clock_mhz())
    {
        Some(mhz) => device.with_kernel_clock(mhz),
        None => device.clone(),
    }
}

/// `CL_DEVICE_NAME` of a board: "<board> : <description> (<bandwidth> MB/s)".
pub fn device_name(b: &Board) -> String {
    format!(
        "{} : {} ({} MB/s)",
        b.name,
        b.description,
        b.global_bandwidth_mbps().round() as u64
    )
}

/// Number of global memory banks (`CL_CHANNEL_n_INTELFPGA` selects among them).
pub fn bank_count(b: &Board) -> u32 {
    b.global_memory.iter().map(|g| g.count).sum::<u32>().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_board_name_splits_at_colon() {
        let b = Board::default_board();
        let name = device_name(&b);
        let (board, rest) = name.split_once(" : ").unwrap();
        assert_eq!(board, "fpgacl_a10");
        assert!(rest.contains("25600 MB/s"), "{rest}");
        assert!(b.max_mem_alloc_bytes <= b.global_mem_bytes());
        assert_eq!(bank_count(&b), 2);
    }
}
