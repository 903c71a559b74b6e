//! Cross-crate end-to-end tests: real C host programs through the real ICD
//! loader and linked directly against `libfpgacl.so`.
//!
//! The helpers here find (and if needed build) `libfpgacl.so` for the same
//! cargo profile as the running test ([`fpgacl_lib_dir`]), write the
//! `fpgacl.icd` file the ICD loader reads ([`vendors_dir`]), compile the C
//! examples of `fpgacl-host-examples` and run them with a timeout, turning a
//! failure into a panic message that carries the program's whole output
//! ([`assert_example_passes`]).
//!
//! [`Implementation`] runs the same host program on fpgacl, PoCL or
//! Oclgrind; [`diff`] is the differential test that compares a corpus
//! kernel's outputs between two of them.

pub mod diff;
mod figures;
mod icd_file;
mod implementations;
mod locate;
mod profile_bytes;
mod run;

pub use figures::{assert_within, printed_figures};
pub use icd_file::{vendors_dir, write_icd_file};
pub use implementations::{oclgrind_icd_lib, oclgrind_vendors_dir, pocl_icd_file, Implementation};
pub use locate::{
    cargo_profile, fpgacl_cli, fpgacl_lib, fpgacl_lib_dir, profile_dir, workspace_root, LIB_DIR_ENV,
};
pub use profile_bytes::{after_header, deterministic_body, profile_command};
pub use run::{
    assert_example_passes, beside_cpu_hog, compile_example, direct_linkage, example_command,
    hermetic_command, run_example, run_with_timeout, scratch_dir, RunOutput, DEFAULT_TIMEOUT,
};

pub use fpgacl_host_examples::{example, Example, Linkage, EXAMPLES};
