//! Issue 5, "LSUs issue requests against the board's banks (interleaved or per the buffer's
//! bank flags)" (timing rule B5), end to end: the C host `memory_banks` runs through the ICD
//! loader; kernel times come from `CL_PROFILING_COMMAND_START/END` (emulated device time) on
//! the default board (two DDR4 banks of 12800 MB/s, 294 MHz: 43.5 bytes per cycle each).
//!
//! Expected figures: the copy moves 128 bytes per cycle at its II, so it is memory bound.
//! Built with `-no-interleaving=default`, reading and writing buffers both in bank 1 puts all
//! 8 bytes per element on one bank: twice the time of the read buffer in bank 1 and the write
//! buffer in bank 2 (4 bytes per element on each). Built interleaved, every buffer spreads over
//! both banks: the flags change nothing and the time equals the separated case. Tolerance 1%
//! (the pipeline fill and whole-cycle rounding, a few hundred cycles of ~96,000).

use std::collections::BTreeMap;

use fpgacl_tests::{assert_within, example, printed_figures, run_example, Linkage};

/// Runs the example once and returns its `key=value` figures.
fn run_once() -> BTreeMap<String, f64> {
    let ex = example("memory_banks").expect("example listed");
    let out = run_example(ex, &Linkage::IcdLoader);
    assert!(out.passed(), "memory_banks failed:\n{}", out.describe());
    let figures = printed_figures(
        &out.stdout,
        &[
            "copy_bytes",
            "ni_same_ns",
            "ni_split_ns",
            "ni_auto_ns",
            "kind_same_ns",
            "ni_prop_ns",
            "bin_same_ns",
            "il_same_ns",
            "il_split_ns",
        ],
    );
    eprintln!("{figures:#?}");
    figures
}

#[test]
fn manual_bank_partitioning_doubles_the_bandwidth_of_a_copy() {
    let f = run_once();
    let split = f["ni_split_ns"];
    // One bank for both buffers: twice as long as separate banks.
    assert_within(
        "same bank / separate banks",
        f["ni_same_ns"] / split,
        2.0,
        0.01,
    );
    // Separate banks use the whole board: 25600 MB/s (the interleaved figure).
    assert_within(
        "separate banks MB/s",
        f["copy_bytes"] / split * 1e3,
        25600.0,
        0.01,
    );
    // CL_MEM_CHANNEL_INTEL 2 (clCreateBufferWithPropertiesINTEL) is bank 2 like the flag.
    assert_eq!(
        f["ni_prop_ns"], split,
        "CL_MEM_CHANNEL_INTEL 2 is not bank 2"
    );
    // The option travels in the binary (.aocx): the program created from it keeps the banks.
    assert_eq!(
        f["bin_same_ns"], f["ni_same_ns"],
        "binary lost -no-interleaving"
    );
    // The memory type named (DDR4) instead of `default`: the same placement.
    assert_eq!(
        f["kind_same_ns"], f["ni_same_ns"],
        "-no-interleaving=DDR4 differs"
    );
    // AUTO is the first bank: like bank 1.
    assert_eq!(f["ni_auto_ns"], f["ni_same_ns"], "AUTO is not bank 1");
    // Interleaved: the flags change nothing, and the time is the separated one.
    assert_eq!(
        f["il_same_ns"], f["il_split_ns"],
        "interleaved: flags changed the time"
    );
    assert_within(
        "interleaved / separate banks",
        f["il_same_ns"] / split,
        1.0,
        0.01,
    );
    // Deterministic: a second process gives the same emulated times.
    let g = run_once();
    for k in ["ni_same_ns", "ni_split_ns", "il_same_ns"] {
        assert_eq!(f[k], g[k], "{k} differs between two runs");
    }
}
