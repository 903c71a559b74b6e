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

#[test]
fn a_300_line_kernel_compiles_quickly() {
    let src = sample_300_line_kernel();
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
    // Barriers compile (work-items leave at a barrier and resume after it).
    let b = decode(&m, &m.kernels[0]).unwrap();
    let kb = compile(&b, &m, &m.kernels[0]).expect("a kernel with a barrier compiles");
    assert!(has_barriers(&kb));
    let a = decode(&m, &m.kernels[1]).unwrap();
    assert!(compile(&a, &m, &m.kernels[1]).is_ok());
    // Compiled on demand, once.
    assert!(a.jit.get(false).is_none());
    let k = prepare(&a, &m, &m.kernels[1], false, || Spec::plain(&m)).expect("compiles")
        as *const JitKernel;
    assert!(std::ptr::eq(a.jit.get(false).unwrap(), k));
    assert!(std::ptr::eq(
        prepare(&a, &m, &m.kernels[1], false, || Spec::plain(&m)).unwrap(),
        k
    ));
    assert!(!has_barriers(a.jit.get(false).unwrap()));
    // Images are not compiled (`image_kernels_run_on_the_interpreter`).
}

/// The compiled code resumes a work-item only at its start and after its barriers.
#[test]
fn resume_points_are_the_ops_after_the_barriers() {
    let m = module(
        "__kernel void b(__global int *x) {\n\
         __local int t[8];\n\
         t[get_local_id(0)] = x[0]; barrier(CLK_LOCAL_MEM_FENCE);\n\
         for (int i = 0; i < x[1]; i++) { t[i & 7] += i; barrier(CLK_LOCAL_MEM_FENCE); }\n\
         x[1] = t[0]; }\n",
    );
    let code = decode(&m, &m.kernels[0]).unwrap();
    let k = compile(&code, &m, &m.kernels[0]).expect("compiles");
    let after: Vec<u32> = code
        .ops
        .iter()
        .enumerate()
        .filter(|(_, op)| matches!(op, crate::exec::code::Op::Barrier(_)))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    assert_eq!(after.len(), 2);
    assert!(resumes_at(&k, 0));
    for &p in &after {
        assert!(resumes_at(&k, p), "{p}");
        assert!(!resumes_at(&k, p - 1) && !resumes_at(&k, p + 1));
    }
    assert!(!resumes_at(&k, code.ops.len() as u32));
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
fn the_backend_defaults_to_the_jit() {
    assert_eq!(parse_backend(None), Backend::Jit);
    assert_eq!(parse_backend(Some("")), Backend::Jit);
    assert_eq!(parse_backend(Some("jit")), Backend::Jit);
    assert_eq!(parse_backend(Some(" JIT ")), Backend::Jit);
    assert_eq!(parse_backend(Some("interp")), Backend::Interp);
    assert_eq!(parse_backend(Some("Interp")), Backend::Interp);
    // An unknown value is not fatal: the default, with a warning.
    assert_eq!(parse_backend(Some("llvm")), Backend::Jit);
    // FPGACL_BACKEND is not set by the test harness (unless a whole run selects a backend).
    if std::env::var_os("FPGACL_BACKEND").is_none() {
        assert_eq!(backend(), Backend::Jit);
        assert!(enabled());
    }
}

#[test]
fn a_panic_in_code_generation_falls_back_to_the_interpreter() {
    let m = module("__kernel void jit_test_panics(__global int *x) { x[0] = 1; }\n");
    let code = decode(&m, &m.kernels[0]).unwrap();
    let why = compile(&code, &m, &m.kernels[0]).unwrap_err();
    assert_eq!(why, "code generation panicked");
    assert!(prepare(&code, &m, &m.kernels[0], false, || Spec::plain(&m)).is_none());
    assert!(code.jit.get(false).is_none());
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

#[test]
fn sites_outside_loops_are_executed_once_per_work_item() {
    // Straight-line, conditional, loop (for and while, nested) and after-loop accesses: a
    // site is "once" exactly when the front end put it in no loop.
    let m = module(
        "__kernel void k(__global int *a, __global const int *b, int n) {\n\
         int i = get_global_id(0);\n\
         a[i] = b[i];\n\
         if (n > 3) a[i + 1] = 5;\n\
         for (int j = 0; j < n; j++) { a[j] += b[j]; for (int k = 0; k < 2; k++) a[k] = j; }\n\
         int w = 0; while (w < n) { w += b[w & 7] + 1; }\n\
         a[0] = w + b[1];\n}\n",
    );
    let code = decode(&m, &m.kernels[0]).expect("decodes");
    let once = translate::once_sites(&code, m.sites.len());
    let sites = translate::access_sites(&code);
    assert!(sites.len() >= 8, "{sites:?}");
    let mut looped = 0;
    for s in sites {
        let site = &m.sites[s as usize];
        assert_eq!(
            once[s as usize],
            site.in_loop.is_none(),
            "site {s} at line {}",
            site.loc.line
        );
        looped += site.in_loop.is_some() as u32;
    }
    assert!(looped >= 4);
}

#[test]
fn branches_that_stay_in_their_loop_when_false_are_found() {
    // A `for` loop tests "go on" (true stays in the loop); `if (c) break;` leaves the loop
    // when true, and so stays in it when false; an `if` outside loops is neither.
    let m = module(
        "__kernel void k(__global int *a, int n) {\n\
         int s = 0;\n\
         for (int j = 0; j < n; j++) s += a[j];\n\
         int w = 0;\n\
         while (1) { if (w >= n) break; w += a[w & 7] + 1; }\n\
         if (n > 3) s += w;\n\
         a[0] = s;\n}\n",
    );
    let code = decode(&m, &m.kernels[0]).expect("decodes");
    let flags = translate::body_on_false(&code);
    let branches: Vec<usize> = (0..code.ops.len())
        .filter(|&pc| {
            matches!(
                code.ops[pc],
                crate::exec::code::Op::Br { t, f, .. }
                    | crate::exec::code::Op::BrCmpS { t, f, .. }
                    | crate::exec::code::Op::BrCmpU { t, f, .. } if t != f
            )
        })
        .collect();
    assert!(branches.len() >= 3, "{branches:?}");
    let flagged = branches.iter().filter(|&&pc| flags[pc]).count();
    assert_eq!(
        flagged, 1,
        "only the break's branch: {branches:?} {flags:?}"
    );
}

/// Which loops run in chunks (`counted`): the innermost counted loops with affine addresses,
/// not loops with branches, divisions, gathers, other exit tests or a written induction
/// variable. Each kernel below has one loop.
#[test]
fn counted_loops_are_the_affine_innermost_ones() {
    use super::counted::{counted_loops, Aff};
    let m = module(
        "__kernel void mm(__global const float *a, __global const float *b, __global float *c, int n) {\n\
         int col = get_global_id(0), row = get_global_id(1); float s = 0.0f;\n\
         for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];\n\
         c[row * n + col] = s; }\n\
         __kernel void branchy(__global int *a, int n) {\n\
         for (int k = 0; k < n; k++) { if (a[k] > 3) a[k] = 0; } }\n\
         __kernel void divides(__global int *a, int n, int d) {\n\
         for (int k = 0; k < n; k++) a[k] = a[k] / d; }\n\
         __kernel void gather(__global int *a, __global const int *ix, int n) {\n\
         int s = 0; for (int k = 0; k < n; k++) s += a[ix[k]]; a[0] = s; }\n\
         __kernel void quadratic(__global int *a, int n) {\n\
         int s = 0; for (int k = 0; k < n; k++) s += a[k * k]; a[0] = s; }\n\
         __kernel void down(__global int *a, int n) {\n\
         int s = 0; for (int k = n; k > 0; k--) s += a[k]; a[0] = s; }\n\
         __kernel void vec(__global const float4 *p, __global float *o, int n) {\n\
         float4 s = (float4)(0.0f); for (int j = 0; j < n; j++) s += p[j]; o[0] = s.x + s.w; }\n",
    );
    let found = |name: &str| {
        let f = m.kernels.iter().find(|f| f.name == name).unwrap();
        let code = decode(&m, f).unwrap();
        let all: Vec<_> = counted_loops(&code, &|_, _, _| true)
            .into_iter()
            .flatten()
            .collect();
        assert!(all.len() <= 1, "{name}: {all:?}");
        all.into_iter().next()
    };
    let mm = found("mm").expect("matmul's loop runs in chunks");
    assert_eq!(mm.prog.accesses.len(), 2);
    assert!(mm.prog.accesses.iter().all(|a| a.size == 4 && !a.write));
    // a[row * n + k]: offset (Iv + row * n) * 4; b[k * n + col]: (Iv * n + col) * 4.
    assert!(mm.prog.terms.contains(&Aff::Iv));
    assert!(mm.prog.terms.iter().any(|t| matches!(t, Aff::Mul(..))));
    assert!(mm.prog.terms.iter().any(|t| matches!(t, Aff::MulC(_, 4))));
    for name in ["branchy", "divides", "gather", "quadratic", "down"] {
        assert_eq!(found(name), None, "{name} must not run in chunks");
    }
    let v = found("vec").expect("float4 loads through a pointer");
    assert_eq!(v.prog.accesses.len(), 1);
    assert_eq!(v.prog.accesses[0].size, 16);
    assert!(v.prog.terms.iter().any(|t| matches!(t, Aff::MulC(_, 16))));
    // A site counted some other way (not in a run) keeps the loop out.
    let f = &m.kernels[0];
    let code = decode(&m, f).unwrap();
    assert!(counted_loops(&code, &|_, _, _| false)
        .iter()
        .all(Option::is_none));
}

/// Which kernels run their work-items in chunks (`counted::straight_kernel`): straight-line
/// code with addresses affine in the ids of dimension 0.
#[test]
fn straight_kernels_with_affine_addresses_run_items_in_chunks() {
    use super::counted::{straight_kernel, Aff};
    let m = module(
        "__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {\n\
         int i = get_global_id(0); c[i] = a[i] + b[i]; }\n\
         __kernel void rows(__global float *c, int w) {\n\
         int y = get_global_id(1), x = get_local_id(0); c[y * w + x] = 1.0f; }\n\
         __kernel void branchy(__global int *a) { int i = get_global_id(0); if (a[i]) a[i] = 0; }\n\
         __kernel void gather(__global int *a, __global const int *ix) {\n\
         a[get_global_id(0)] = a[ix[get_global_id(0)]]; }\n\
         __kernel void looped(__global int *a, int n) { for (int k = 0; k < n; k++) a[k] = 0; }\n\
         __kernel void wide(__global int *a, int w) {\n\
         size_t i = get_global_id(0), j = get_global_id(1); a[j * w + i] = 1; }\n",
    );
    let straight = |name: &str| {
        let f = m.kernels.iter().find(|f| f.name == name).unwrap();
        straight_kernel(&decode(&m, f).unwrap(), &|_, _, _| true)
    };
    let v = straight("vadd").expect("vector add");
    assert_eq!(v.accesses.len(), 3);
    let id = |global: bool, dim: u32| Aff::Id { global, dim };
    assert!(v.terms.contains(&id(true, 0)));
    let r = straight("rows").expect("ids of dimensions 0 and 1");
    assert!(r.terms.contains(&id(true, 1)) && r.terms.contains(&id(false, 0)));
    for name in ["branchy", "gather", "looped"] {
        assert_eq!(straight(name), None, "{name}");
    }
    let w = straight("wide").expect("64-bit index arithmetic");
    assert!(w.terms.iter().any(Aff::is_64));
}
