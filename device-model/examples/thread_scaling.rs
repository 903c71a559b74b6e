//! Thread scaling of NDRange kernels without channels: the benchmark's matmul and mandelbrot
//! (host-examples/c/kernels/compute_bench.cl) run timed, as the runtime runs them (clock plan,
//! then the timing model's evaluation), with 1 and 2 worker threads, interleaved, on both
//! backends. Per configuration it prints the median wall time and process CPU time of the
//! launch and of the evaluation after it, the speed-up (wall 1 / wall 2) and the CPU ratio
//! (CPU 2 / CPU 1: the parallel overhead; wall times on a shared machine depend on its load,
//! CPU times much less).
//!
//! `cargo run --release -p fpgacl-device-model --example thread_scaling [REPS] [MATMUL_N] [MANDEL_N]`
//! (defaults 5, 256, 512; `SCALE_BACKENDS=interp,jit`, `SCALE_KERNELS=matmul,mandelbrot`;
//! `SCALE_THREADS=1` or `2` runs only that worker count; `SCALE_TRACE=1` prints each launch's
//! workers: groups run, when each finished and its CPU time, `RunReport::workers`).
//!
//! On a machine shared with other work, wall times measure the load more than fpgacl; run it
//! with real-time priority to take both cores for its duration (root; a few seconds):
//! `chrt -f 10 target/release/examples/thread_scaling 3`.

use fpgacl_device_model::timing::{self, EvalOptions};
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::SourceFile;
use std::sync::Arc;
use std::time::Instant;

/// CPU time of this process (all threads), seconds.
fn cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid out pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn buf_f32(data: &[f32]) -> Arc<DeviceMemory> {
    let m = DeviceMemory::new((data.len() * 4).max(1)).expect("memory");
    let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    m.write(0, &bytes).expect("write");
    Arc::new(m)
}

fn val_i32(v: i32) -> ArgBinding {
    ArgBinding::Value(v.to_le_bytes().to_vec())
}

struct Setup {
    module: Arc<fpgacl_kernel_compiler::ir::Module>,
    report: fpgacl_kernel_compiler::analysis::Report,
    board: Board,
}

/// One timed launch as the runtime makes it; (launch wall, launch CPU, eval wall, eval CPU).
fn launch(s: &Setup, inst: &ProgramInstance, kernel: &str, n: u64) -> [f64; 4] {
    let idx = s
        .module
        .kernels
        .iter()
        .position(|k| k.name == kernel)
        .expect("kernel") as u32;
    let nn = (n * n) as usize;
    let args = match kernel {
        "matmul" => {
            let a: Vec<f32> = (0..nn).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
            let b: Vec<f32> = (0..nn).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
            vec![
                ArgBinding::buffer(&buf_f32(&a)),
                ArgBinding::buffer(&buf_f32(&b)),
                ArgBinding::buffer(&buf_f32(&vec![0.0; nn])),
                val_i32(n as i32),
            ]
        }
        _ => vec![
            ArgBinding::buffer(&buf_f32(&vec![0.0; nn])),
            val_i32(n as i32),
            val_i32(256),
        ],
    };
    let spec = LaunchSpec {
        kernel: idx,
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [n, n, 1],
        local_size: Some([16, 16, 1]),
        args,
    };
    let krep = s.report.kernel(kernel).expect("kernel report");
    let model =
        timing::compute_model_for_launch(&s.module, krep, [16, 16, 1], n * n).expect("model");
    let (w0, c0) = (Instant::now(), cpu_secs());
    let r = inst.run_timed(&spec, &model.clock_plan(0)).expect("runs");
    let (w1, c1) = (Instant::now(), cpu_secs());
    if std::env::var_os("SCALE_TRACE").is_some() {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        let each: Vec<String> = r
            .workers
            .iter()
            .map(|w| {
                format!(
                    "{} groups, done at {:.1} ms, cpu {:.1} ms",
                    w.groups,
                    ms(w.done_at),
                    ms(w.cpu.unwrap_or_default())
                )
            })
            .collect();
        eprintln!(
            "  {kernel} {n}, {} thread(s), launch {:.1} ms: {}",
            r.threads,
            ms(r.host_time),
            each.join("; ")
        );
    }
    let opts = EvalOptions {
        end_tick: r.end_tick,
        ..Default::default()
    };
    let t = timing::evaluate(&s.module, krep, &s.board, &r, &opts).expect("evaluates");
    let (w2, c2) = (Instant::now(), cpu_secs());
    std::hint::black_box(t);
    [
        (w1 - w0).as_secs_f64(),
        c1 - c0,
        (w2 - w1).as_secs_f64(),
        c2 - c1,
    ]
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| a.get(i).and_then(|x| x.parse().ok()).unwrap_or(d);
    let reps = num(0, 5) as usize;
    let sizes = [("matmul", num(1, 256)), ("mandelbrot", num(2, 512))];
    let src = include_str!("../../host-examples/c/kernels/compute_bench.cl");
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: "compute_bench.cl".into(),
            text: src.into(),
        }],
        "",
    )
    .expect("options");
    let module = out.module.expect("builds");
    let board = Board::default_board();
    let report = fpgacl_kernel_compiler::analysis::analyze(&module, &board.analysis_params());
    let s = Setup {
        module,
        report,
        board,
    };
    let backends = std::env::var("SCALE_BACKENDS").unwrap_or("interp,jit".into());
    let kernels = std::env::var("SCALE_KERNELS").unwrap_or("matmul,mandelbrot".into());
    let only = std::env::var("SCALE_THREADS").unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "thread scaling, median of {reps} (interleaved 1/2 threads); load before: {}",
        load.trim()
    );
    println!(
        "{:<16} {:<7} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>10}",
        "kernel",
        "backend",
        "wall1 ms",
        "wall2 ms",
        "cpu1 ms",
        "cpu2 ms",
        "speedup",
        "cpu 2/1",
        "eval ms"
    );
    for (kernel, n) in sizes {
        if !kernels.split(',').any(|k| k == kernel) {
            continue;
        }
        for backend in [Backend::Interp, Backend::Jit] {
            let name = if backend == Backend::Interp {
                "interp"
            } else {
                "jit"
            };
            if !backends.split(',').any(|b| b == name) {
                continue;
            }
            let inst = |threads| {
                ProgramInstance::new(
                    s.module.clone(),
                    &s.board,
                    ExecConfig {
                        threads,
                        backend: Some(backend),
                        ..Default::default()
                    },
                )
                .expect("decodes")
            };
            let insts = [inst(1), inst(2)];
            // Kernels compile as the program loads: wait for them before measuring.
            for i in &insts {
                for k in 0..s.module.kernels.len() {
                    i.compiled(k as u32);
                }
            }
            let wanted =
                |t: usize| only.is_empty() || only.split(',').any(|x| x == (t + 1).to_string());
            // Warm up (JIT compile, first-launch tables).
            for (t, i) in insts.iter().enumerate() {
                if wanted(t) {
                    launch(&s, i, kernel, n);
                }
            }
            let mut m: [[Vec<f64>; 4]; 2] = Default::default();
            for _ in 0..reps {
                for (t, i) in insts.iter().enumerate() {
                    if !wanted(t) {
                        m[t].iter_mut().for_each(|v| v.push(f64::NAN));
                        continue;
                    }
                    let r = launch(&s, i, kernel, n);
                    for (k, v) in r.into_iter().enumerate() {
                        m[t][k].push(v);
                    }
                }
            }
            let md = |t: usize, k: usize| median(m[t][k].clone()) * 1e3;
            println!(
                "{:<16} {:<7} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>7.2}x {:>8.3} {:>10.2}",
                format!("{kernel} {n}"),
                name,
                md(0, 0),
                md(1, 0),
                md(0, 1),
                md(1, 1),
                md(0, 0) / md(1, 0),
                md(1, 1) / md(0, 1),
                md(0, 2).max(md(1, 2)),
            );
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load after: {}", load.trim());
}
