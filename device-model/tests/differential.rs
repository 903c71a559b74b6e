//! Differential test: the corpus in `tests/diff/corpus.cl` (36 kernels: integer and float
//! arithmetic, conversions, builtins, vectors, control flow, private/local memory, atomics,
//! structs) runs on fpgacl and on Oclgrind (`oclgrind-kernel`, when installed); outputs must be
//! equal, bit-exact for integer kernels and within a stated tolerance for kernels whose
//! floating-point functions have ULP bounds.

use fpgacl_device_model::*;
use fpgacl_kernel_compiler::SourceFile;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

const CORPUS: &str = include_str!("diff/corpus.cl");
const N: usize = 64;

fn inputs() -> Vec<u32> {
    let mut v: Vec<u32> = (0..N as u32)
        .map(|i| {
            let mut x = i.wrapping_mul(2654435761) ^ 0x9e37_79b9;
            x ^= x >> 15;
            x = x.wrapping_mul(0x85eb_ca6b);
            x ^ (x >> 13)
        })
        .collect();
    let edges = [
        0u32,
        1,
        0xffff_ffff,
        0x8000_0000,
        0x7fff_ffff,
        2,
        100,
        0xffff_ff00,
    ];
    v[..edges.len()].copy_from_slice(&edges);
    v
}

/// Tolerance (absolute difference of the 32-bit output words) for kernels whose results go
/// through functions with ULP bounds; every other kernel must match exactly.
fn tolerance(kernel: &str) -> u64 {
    match kernel {
        "float_exp_log" | "float_trig" | "hypot_atan2_cbrt" => 8,
        "float_pow" => 16,
        "geometric" => 64,
        _ => 0,
    }
}

fn run_fpgacl(threads: usize) -> Vec<(String, Vec<u32>)> {
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: "corpus.cl".into(),
            text: CORPUS.into(),
        }],
        "",
    )
    .expect("options");
    let module = out
        .module
        .unwrap_or_else(|| panic!("corpus does not build:\n{}", out.log));
    let inst = ProgramInstance::new(
        module.clone(),
        &Board::default_board(),
        ExecConfig {
            threads,
            ..Default::default()
        },
    )
    .expect("decodes");
    let input = inputs();
    let mut results = Vec::new();
    for (k, f) in module.kernels.iter().enumerate() {
        let min = DeviceMemory::new(N * 4).unwrap();
        let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
        min.write(0, &bytes).unwrap();
        let mout = Arc::new(DeviceMemory::new(N * 4).unwrap());
        let min = Arc::new(min);
        inst.run(&LaunchSpec::ndrange_1d(
            k as u32,
            N as u64,
            Some(16),
            vec![ArgBinding::buffer(&min), ArgBinding::buffer(&mout)],
        ))
        .unwrap_or_else(|e| panic!("kernel {}: {e}", f.name));
        let mut ob = vec![0u8; N * 4];
        mout.read(0, &mut ob).unwrap();
        results.push((
            f.name.clone(),
            ob.chunks(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect(),
        ));
    }
    results
}

fn oclgrind_available() -> bool {
    Command::new("oclgrind-kernel")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn run_oclgrind(dir: &PathBuf, kernel: &str) -> Result<Vec<u32>, String> {
    let vals: Vec<String> = inputs().iter().map(|v| v.to_string()).collect();
    let sim = format!(
        "corpus.cl\n{kernel}\n{N} 1 1\n16 1 1\n\n<size={} uint>\n{}\n<size={} uint fill=0 dump>\n",
        N * 4,
        vals.join(" "),
        N * 4
    );
    let sim_path = dir.join(format!("{kernel}.sim"));
    std::fs::write(&sim_path, sim).map_err(|e| e.to_string())?;
    let o = Command::new("oclgrind-kernel")
        .arg(&sim_path)
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&o.stdout);
    let mut out = vec![None; N];
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("out[") {
            if let Some((i, v)) = rest.split_once("] = ") {
                if let (Ok(i), Ok(v)) = (i.parse::<usize>(), v.trim().parse::<u32>()) {
                    if i < N {
                        out[i] = Some(v);
                    }
                }
            }
        }
    }
    out.into_iter()
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(|| {
            format!(
                "no complete dump from oclgrind for {kernel}: {}{}",
                text,
                String::from_utf8_lossy(&o.stderr)
            )
        })
}

#[test]
fn corpus_matches_oclgrind_and_is_thread_count_independent() {
    let ours = run_fpgacl(1);
    assert!(ours.len() >= 30, "corpus has {} kernels", ours.len());
    let ours4 = run_fpgacl(4);
    assert_eq!(ours, ours4, "results depend on the worker count");
    if !oclgrind_available() {
        eprintln!("oclgrind-kernel not installed: reference comparison skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("fpgacl-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("corpus.cl"), CORPUS).unwrap();
    let names: Vec<String> = ours.iter().map(|(n, _)| n.clone()).collect();
    let refs: Vec<(String, Result<Vec<u32>, String>)> = std::thread::scope(|s| {
        let hs: Vec<_> = names
            .chunks(names.len().div_ceil(4))
            .map(|chunk| {
                let dir = &dir;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|k| (k.clone(), run_oclgrind(dir, k)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let input = inputs();
    let mut failures = Vec::new();
    for ((name, mine), (rname, theirs)) in ours.iter().zip(&refs) {
        assert_eq!(name, rname);
        let theirs = match theirs {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let tol = tolerance(name);
        for i in 0..N {
            let d = (mine[i] as i64 - theirs[i] as i64).unsigned_abs();
            if d > tol {
                failures.push(format!(
                    "{name}[{i}]: fpgacl {:#010x} oclgrind {:#010x} (in {:#010x})",
                    mine[i], theirs[i], input[i]
                ));
                break;
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failures.is_empty(), "differences:\n{}", failures.join("\n"));
}
