//! Compile time of the compiling backend (issue 12: under 50 ms for a 300-line program).
//!
//! Compiles the dense generated 300-line kernel (`exec::jit::sample_300_line_kernel`; with
//! `BLOCKS`, the same kernel with that many 6-line blocks instead of 48) `N` times (default 7) and prints, per compilation, the CPU time of the compiling thread and the
//! wall time, then the medians. Also prints the same for the OpenCL C front end and the decode
//! step, for scale.
//!
//! `cargo run --release -p fpgacl-device-model --example jit_compile_time [N [BLOCKS]]`

use fpgacl_device_model::exec::{decode::decode, jit};
use fpgacl_kernel_compiler::SourceFile;

/// CPU time of the calling thread in ns (Linux), `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7)
        .max(1);
    let src = match std::env::args().nth(2).and_then(|a| a.parse().ok()) {
        Some(blocks) => jit::sample_kernel(blocks),
        None => jit::sample_300_line_kernel(),
    };
    let files = [SourceFile {
        name: "big.cl".into(),
        text: src.clone(),
    }];
    let (mut fe_cpu, mut cpu, mut wall) = (vec![], vec![], vec![]);
    let mut summary = String::new();
    for i in 0..n {
        let c0 = thread_cpu_ns();
        let out = fpgacl_kernel_compiler::build(&files, "").expect("options");
        let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
        let code = decode(&m, &m.kernels[0]).expect("decodes");
        let c1 = thread_cpu_ns();
        let k = jit::compile(&code, &m, &m.kernels[0]).expect("compiles");
        let c2 = thread_cpu_ns();
        let ms = |a: Option<u64>, b: Option<u64>| {
            a.zip(b)
                .map(|(a, b)| (b - a) as f64 / 1e6)
                .unwrap_or(f64::NAN)
        };
        let (f, c, w) = (ms(c0, c1), ms(c1, c2), k.compile_time.as_secs_f64() * 1e3);
        println!("run {i}: front end + decode {f:.1} ms CPU; jit {c:.1} ms CPU, {w:.1} ms wall");
        fe_cpu.push(f);
        cpu.push(c);
        wall.push(w);
        summary = format!(
            "{} source lines, {} ops, {} register slots -> {} bytes of native code ({} tier)",
            src.lines().count(),
            code.ops.len(),
            code.num_slots,
            k.code_bytes,
            if k.fast_tier { "fast" } else { "optimising" }
        );
    }
    println!("{summary}");
    println!(
        "median of {n}: front end + decode {:.1} ms CPU; jit compile {:.1} ms CPU, {:.1} ms wall",
        median(&mut fe_cpu),
        median(&mut cpu),
        median(&mut wall)
    );
}
