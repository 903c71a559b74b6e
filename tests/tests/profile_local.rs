//! Local memory arbitration end to end (timing rules L1-L4, `device-model/src/timing/MODEL.md`):
//! the `task_loop` C host runs through the ICD loader with the Intel profiling environment on a
//! variant of its kernel that also writes each value into a local array; `profile.mon` must
//! carry the arbitration stall of the local store when the array is arbitrated, none when it
//! is stall-free, and the emulated run must be longer by exactly the stall.

use fpgacl_profile_format::{read_profile, AccessKind, MemorySpace, Profile};
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, scratch_dir,
    Linkage, DEFAULT_TIMEOUT,
};

const N: u64 = 20000;

/// `task_loop` (same results as `kernels/task_loop.cl`: II 4 from the hash recurrence) with
/// `STORES` unrolled stores of each value into a local array. The `& 255` address is not
/// affine, so the array has one bank.
fn kernel(stores: u32) -> String {
    format!(
        "__kernel void task_loop(__global const int *restrict a, __global int *restrict out, int n)\n\
{{\n\
    __local int h[256];\n\
    int sum = 0;\n\
    uint squares = 0, hash = 0x811C9DC5u;\n\
    for (int i = 0; i < n; ++i) {{\n\
        int v = a[i];\n\
        #pragma unroll\n\
        for (int j = 0; j < {stores}; ++j)\n\
            h[(i + j) & 255] = v;\n\
        sum += v;\n\
        squares += (uint)(v * v);\n\
        hash = rotate(hash ^ (uint)v, 5u) * 16777619u;\n\
    }}\n\
    out[0] = sum + h[7] - h[7];\n\
    out[1] = (int)squares;\n\
    out[2] = (int)hash;\n\
}}\n"
    )
}

fn run(stores: u32) -> Profile {
    let _ = fpgacl_lib_dir();
    let ex = example("task_loop").expect("task_loop example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(&format!("profile-local-{stores}"));
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let src = dir.join(format!("task_loop_local{stores}.cl"));
    std::fs::write(&src, kernel(stores)).unwrap();
    let mut cmd = example_command(&bin, "task_loop", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .arg(&src)
        .env("LOOP_N", N.to_string())
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run task_loop");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!p.truncated, "{:?}", p.warnings);
    p
}

/// (duration in cycles, stall cycles of the local store, its fired cycles, active cycles).
fn local_store(p: &Profile) -> (u64, u64, u64, u64) {
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 1, "{:?}", p.records);
    let run = runs[0];
    let prog = p.program(run.program).expect("program");
    let stores: Vec<_> = run
        .sites
        .iter()
        .filter(|s| {
            let a = prog.site(s.site).expect("site");
            a.kind == AccessKind::Store && a.memory == MemorySpace::Local
        })
        .collect();
    assert_eq!(stores.len(), 1, "one local store site: {:?}", run.sites);
    let s = stores[0];
    (
        run.end_cycle - run.start_cycle,
        s.stall_cycles,
        s.fired_cycles,
        s.active_cycles,
    )
}

#[test]
fn arbitrated_local_store_stalls_in_the_profile() {
    // 3 stores per iteration: one double-pumped bank serves them (stall-free).
    let free = run(3);
    // 10 stores per iteration through the 2 ports of an arbitrated bank: 5 cycles per
    // iteration against the loop's II of 4: one extra cycle per iteration (rule L3).
    let arb = run(10);
    let (d3, stall3, _, _) = local_store(&free);
    let (d10, stall10, fired10, active10) = local_store(&arb);
    eprintln!("stall-free: {d3} cycles; arbitrated: {d10} cycles, store stall {stall10}");
    assert_eq!(stall3, 0);
    // The unrolled site is one site of 10 copies: the whole extra time is its stall.
    assert_eq!(stall10, N);
    // The store site fires once per iteration per copy: N x 10 executions over 10 copies.
    assert_eq!(fired10, N);
    assert_eq!(active10, d10);
    // The arbitrated run is longer by exactly the stall (same fill): 4n + fill vs 5n + fill.
    assert_eq!(d10 - d3, N, "{d3} vs {d10}");
    assert!(d3 >= 4 * N, "II 4: {d3}");
    // Stall% of the store: n / (5n + fill), 20% within 0.1 point.
    let pct = 100.0 * stall10 as f64 / active10 as f64;
    assert!((pct - 20.0).abs() < 0.1, "{pct}");
}
