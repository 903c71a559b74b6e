//! Unit tests of the compiling backend (the end-to-end comparison with the interpreter is
//! `device-model/tests/jit_backend.rs`).

use super::super::decode::decode;
use super::*;
use fpgacl_kernel_compiler::SourceFile;

fn module(src: &str) -> std::sync::Arc<Module> {
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: "t.cl".into(),
            text: src.into(),
        }],
        "",
    )
    .expect("options");
    out.module
        .unwrap_or_else(|| panic!("build failed:\n{}", out.log))
}

/// A kernel of about 300 source lines: 48 blocks of arithmetic, branches and a loop each.
pub fn long_kernel() -> String {
    let mut s = String::from(
        "__kernel void big(__global const float *a, __global float *b, __global int *c, int n) {\n\
         int i = get_global_id(0);\n\
         float x = a[i];\n\
         int k = c[i];\n",
    );
    for j in 0..48 {
        s += &format!(
            "    x = x * {j}.5f + a[(i + {j}) % n];\n\
             \x20   if (x > {j}.0f) {{ k += (int)x ^ {j}; }} else {{ k -= {j} * k; }}\n\
             \x20   for (int t{j} = 0; t{j} < (k & 3); t{j}++) {{ x += (float)t{j}; }}\n\
             \x20   c[(i + {j}) % n] = k;\n\
             \x20   b[(i * {j}) % n] = x;\n\
             \x20   k = k / ({j} + 1) + (k >> 2);\n"
        );
    }
    s += "    b[i] = x + (float)k;\n}\n";
    s
}

#[test]
fn a_300_line_kernel_compiles_quickly() {
    let src = long_kernel();
    assert!(src.lines().count() >= 290, "{} lines", src.lines().count());
    let m = module(&src);
    let code = decode(&m, &m.kernels[0]).expect("decodes");
    // CPU time of this thread (ns on CPU, Linux): the wall time is meaningless on a shared
    // machine.
    let on_cpu = || -> Option<u64> {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    let c0 = on_cpu();
    let k = compile(&code, &m, &m.kernels[0]).expect("compiles");
    let cpu = on_cpu().zip(c0).map(|(b, a)| (b - a) as f64 / 1e6);
    eprintln!(
        "300-line kernel: {} ops, {} slots -> {} bytes of native code in {:.1} ms wall, \
         {cpu:.1?} ms CPU",
        code.ops.len(),
        code.num_slots,
        k.code_bytes,
        k.compile_time.as_secs_f64() * 1e3
    );
    assert!(k.code_bytes > 0);
    // The target is 50 ms on an idle machine; this bound only catches blow-ups on a shared one.
    assert!(k.compile_time.as_secs() < 5, "{:?}", k.compile_time);
}

#[test]
fn what_is_not_compiled_says_why() {
    let m = module(
        "__kernel void b(__global int *x, __local int *t) {\n\
         t[get_local_id(0)] = x[0]; barrier(CLK_LOCAL_MEM_FENCE); x[1] = t[0]; }\n\
         __kernel void a(__global int *x) { x[get_global_id(0)] += 1; }\n",
    );
    let b = decode(&m, &m.kernels[0]).unwrap();
    let why = compile(&b, &m, &m.kernels[0]).unwrap_err();
    assert!(why.contains("barrier"), "{why}");
    let a = decode(&m, &m.kernels[1]).unwrap();
    assert!(compile(&a, &m, &m.kernels[1]).is_ok());
    let mut a2 = a.clone();
    attach(&mut a2, &m, &m.kernels[1]);
    assert!(a2.jit.is_some());
    let mut b2 = b.clone();
    attach(&mut b2, &m, &m.kernels[0]);
    assert!(b2.jit.is_none());
}

#[test]
fn image_kernels_run_on_the_interpreter() {
    let m = module(
        "__kernel void k(__read_only image2d_t img, __global float4 *o) {\n\
         o[0] = read_imagef(img, (int2)(0, 0)); }\n",
    );
    let k = decode(&m, &m.kernels[0]).unwrap();
    let why = compile(&k, &m, &m.kernels[0]).unwrap_err();
    assert!(why.contains("image"), "{why}");
}

#[test]
fn the_backend_defaults_to_the_interpreter() {
    // FPGACL_BACKEND is not set by the test harness.
    if std::env::var_os("FPGACL_BACKEND").is_none() {
        assert_eq!(backend(), Backend::Interp);
        assert!(!enabled());
    }
}

/// Runs `n` work-items of kernel 0 (`(global const int *a, global int *b)`) on the compiled
/// backend on `board`; returns the site counters and the accesses counted out of line.
fn run_counted(src: &str, board: &crate::Board, n: u64) -> (Vec<crate::SiteCounts>, u64) {
    use crate::{ArgBinding, DeviceMemory, ExecConfig, LaunchSpec, ProgramInstance};
    use std::sync::atomic::Ordering::Relaxed;
    let m = module(src);
    let inst = ProgramInstance::new(
        m,
        board,
        ExecConfig {
            threads: 1,
            backend: Some(Backend::Jit),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(inst.compiled(0));
    let a = std::sync::Arc::new(DeviceMemory::new(n as usize * 4).unwrap());
    let b = std::sync::Arc::new(DeviceMemory::new(n as usize * 4).unwrap());
    let before = helpers::COUNT_CALLS.load(Relaxed);
    let r = inst
        .run(&LaunchSpec::ndrange_1d(
            0,
            n,
            Some(16),
            vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b)],
        ))
        .unwrap();
    (
        r.counters.sites,
        helpers::COUNT_CALLS.load(Relaxed) - before,
    )
}

#[test]
fn plain_accesses_are_counted_inline() {
    let src = "__kernel void k(__global const int *a, __global int *b) {\n\
               int i = get_global_id(0); b[i] = a[i] + a[0]; }\n";
    let (sites, calls) = run_counted(src, &crate::Board::default_board(), 256);
    assert_eq!(calls, 0, "no access left the compiled code");
    assert_eq!(sites.iter().map(|s| s.fires).sum::<u64>(), 3 * 256);
    assert!(sites.iter().any(|s| s.sequential == 240 && s.bursts > 0));
    // Words that are not a power of two: every access goes through `Machine::count`.
    let mut odd = crate::Board::default_board();
    odd.global_memory[0].width_bytes = 24;
    let (sites, calls) = run_counted(src, &odd, 256);
    assert_eq!(calls, 3 * 256);
    assert_eq!(sites.iter().map(|s| s.fires).sum::<u64>(), 3 * 256);
}
