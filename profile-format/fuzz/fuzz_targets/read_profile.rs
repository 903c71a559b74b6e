//! Fuzzes the profile reader (and the exports and the append path over what it accepts).
//! The first input byte picks how the input becomes a candidate file; see
//! `fpgacl_profile_format::fuzzing`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = fpgacl_profile_format::fuzzing::file_from_input(data);
    fpgacl_profile_format::fuzzing::exercise(&file);
});
