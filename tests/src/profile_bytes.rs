//! Profile bytes for byte-for-byte comparisons between runs.

use fpgacl_profile_format::frame::{decode_payload, encode_frame, FrameKind};
use fpgacl_profile_format::Record;

/// The file after its header frame (prefix: 12 bytes; frame: kind u8, len u32, crc u32,
/// payload; SCHEMA.md).
pub fn after_header(bytes: &[u8]) -> &[u8] {
    assert!(bytes.len() > 21, "profile too short");
    assert_eq!(bytes[12], 1, "the first frame is the header");
    let len = u32::from_le_bytes(bytes[13..17].try_into().unwrap()) as usize;
    &bytes[21 + len..]
}

/// The frames after the header with the documented nondeterministic record field, a host
/// gap's wall-clock `gap_ns`, set to 0 (the frame re-encoded; every other byte as written).
pub fn deterministic_body(bytes: &[u8]) -> Vec<u8> {
    let mut rest = after_header(bytes);
    let mut out = Vec::with_capacity(rest.len());
    while rest.len() >= 9 {
        let len = u32::from_le_bytes(rest[1..5].try_into().unwrap()) as usize;
        let (frame, tail) = rest.split_at((9 + len).min(rest.len()));
        match (rest[0], decode_payload::<Record>(&frame[9..])) {
            (3, Ok(Record::HostGap(mut g))) => {
                g.gap_ns = 0;
                encode_frame(FrameKind::Record, &Record::HostGap(g), &mut out).unwrap();
            }
            _ => out.extend_from_slice(frame),
        }
        rest = tail;
    }
    out.extend_from_slice(rest);
    out
}

/// `fpgacl profile -q -o <out_file> -- <bin>` in `dir` with `FPGACL_THREADS=<threads>`, the
/// library under test, and none of the environment that would redirect or change the profile.
pub fn profile_command(
    bin: &std::path::Path,
    dir: &std::path::Path,
    out_file: &std::path::Path,
    threads: &str,
) -> std::process::Command {
    let mut cmd = std::process::Command::new(crate::fpgacl_cli());
    cmd.arg("profile")
        .arg("-q")
        .arg("-o")
        .arg(out_file)
        .arg("--")
        .arg(bin)
        .current_dir(dir)
        .env("FPGACL_THREADS", threads)
        .env("FPGACL_LIB_DIR", crate::fpgacl_lib_dir())
        .env_remove("ACL_RUNTIME_PROFILING_ACTIVE")
        .env_remove("FPGACL_PROFILE_OUT")
        .env_remove("FPGACL_AUTORUN_CUMULATIVE")
        .env_remove("OCL_ICD_VENDORS");
    cmd
}
