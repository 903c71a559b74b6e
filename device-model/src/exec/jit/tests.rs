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
