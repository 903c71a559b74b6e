//! Placeholder for the parser helper: preprocess + parse + type-check arbitrary text.
//! Enable the `parse` bin in ../Cargo.toml and call the parser entry point here.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|_data: &[u8]| {});
