//! Preprocess, parse, type-check and lower arbitrary text the way `build()` does, but without
//! its `catch_unwind`, so a panic in any stage aborts the run and is reported. Like `build()`,
//! the front end runs on a thread with a large stack (deep but bounded nesting is legal input).
//! Includes resolve against an empty map (an `#include` is an error, as a missing file is).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| pipeline::run(data));
