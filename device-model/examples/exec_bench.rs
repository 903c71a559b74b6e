//! Executor throughput on hand-built IR: vector add over 2^20 work-items (NDRange, 1 and N
//! worker threads) and a single work-item loop of 2^20 iterations.
//!
//! `cargo run --release -p fpgacl-device-model --example exec_bench [both|compiled|hand|channel|serial]`
//!
//! `serial`: the per-value cost of a channel operation alone (no waits, no second core): a
//! producer writes 2^20 values into a channel of that depth, then a consumer reads them, on
//! one thread (steady under `valgrind --tool=callgrind` for instruction counts).

#[path = "../tests/common/mod.rs"]
mod common;
use common::*;
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::ir::*;
use std::time::Instant;

fn vector_add(mb: &mut ModB) -> u32 {
    let k = mb.m.kernels.len() as u32;
    let sa = mb.site(k, SiteKind::Load, AddrSpace::Global, "a", 3);
    let sb = mb.site(k, SiteKind::Load, AddrSpace::Global, "b", 3);
    let sc = mb.site(k, SiteKind::Store, AddrSpace::Global, "c", 3);
    let mut b = FnB::new("vector_add");
    let a = b.arg_buffer("a", 4);
    let bb = b.arg_buffer("b", 4);
    let c = b.arg_buffer("c", 4);
    let i = b.gid(0);
    let pa = b.index(a, i, 4);
    let x = b.load(F32, pa, AddrSpace::Global, Some(sa));
    let pb = b.index(bb, i, 4);
    let y = b.load(F32, pb, AddrSpace::Global, Some(sb));
    let s = b.bin(BinOp::Add, F32, x, y);
    let pc = b.index(c, i, 4);
    b.store(F32, s, pc, AddrSpace::Global, Some(sc));
    mb.kernel(b.finish())
}

fn accumulate(mb: &mut ModB) -> u32 {
    let k = mb.m.kernels.len() as u32;
    let sa = mb.site(k, SiteKind::Load, AddrSpace::Global, "a", 5);
    let mut b = FnB::new("accumulate");
    b.f.single_work_item = true;
    let a = b.arg_buffer("a", 4);
    let out = b.arg_buffer("out", 4);
    let n = b.arg_value("n", I32);
    let i = b.int(0);
    let sum = b.float(0.0);
    let header = b.block();
    let body = b.block();
    let exit = b.block();
    b.jump(header);
    b.switch_to(header);
    let c = b.cmp(CmpOp::Lt, I32, i, n);
    b.branch(c, body, exit);
    b.switch_to(body);
    let pa = b.index(a, i, 4);
    let x = b.load(F32, pa, AddrSpace::Global, Some(sa));
    let s2 = b.bin(BinOp::Add, F32, sum, x);
    b.push(Inst::Mov {
        dst: sum,
        src: s2,
        lanes: 1,
    });
    let one = b.int(1);
    let i2 = b.bin(BinOp::Add, I32, i, one);
    b.push(Inst::Mov {
        dst: i,
        src: i2,
        lanes: 1,
    });
    b.jump(header);
    b.switch_to(exit);
    b.store(F32, sum, out, AddrSpace::Global, None);
    let mut f = b.finish();
    f.loops.push(LoopInfo {
        id: LoopId(0),
        kind: LoopKind::For,
        loc: loc(4),
        header,
        parent: None,
        pragmas: LoopPragmas::default(),
        const_trip_count: None,
    });
    f.blocks[header.0 as usize].loop_header = Some(LoopId(0));
    for blk in [header, body] {
        f.blocks[blk.0 as usize].in_loop = Some(LoopId(0));
    }
    mb.kernel(f)
}

fn best_of<F: FnMut() -> f64>(n: usize, mut f: F) -> f64 {
    (0..n).map(|_| f()).fold(f64::INFINITY, f64::min)
}

/// CPU time of this process in seconds (user + system, all threads), from /proc; the machine
/// may be shared, so the CPU time is the fairer throughput measure.
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let tail = s.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = tail.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

const SOURCE: &str = r#"
__kernel void vector_add(__global const float *x, __global const float *y, __global float *restrict z) {
    int i = get_global_id(0);
    z[i] = x[i] + y[i];
}
__kernel void accumulate(__global const float *restrict a, __global float *restrict out, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += a[i];
    out[0] = sum;
}
"#;

fn compiled() -> ModB {
    let out = fpgacl_kernel_compiler::build(
        &[fpgacl_kernel_compiler::SourceFile {
            name: "bench.cl".into(),
            text: SOURCE.into(),
        }],
        "",
    )
    .expect("options");
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    ModB { m: (*m).clone() }
}

const CHANNEL_SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
#ifndef DEPTH
#define DEPTH 64
#endif
channel int c __attribute__((depth(DEPTH)));
__kernel void producer(int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(c, i);
}
__kernel void consumer(__global int *out, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += read_channel_intel(c);
    out[0] = s;
}
"#;

/// Producer and consumer kernels on two threads through a depth-64 channel.
fn channel_bench(n: usize) {
    let out = fpgacl_kernel_compiler::build(
        &[fpgacl_kernel_compiler::SourceFile {
            name: "chan.cl".into(),
            text: CHANNEL_SOURCE.into(),
        }],
        "",
    )
    .expect("options");
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    let (inst, _) = ModB { m: (*m).clone() }.instance(1);
    let inst = std::sync::Arc::new(inst);
    let mo = buf_from(&[0i32; 1]);
    let nb = || ArgBinding::Value((n as i32).to_le_bytes().to_vec());
    let c0 = cpu_secs();
    let t0 = Instant::now();
    let (i2, o2) = (inst.clone(), mo.clone());
    let nb2 = nb();
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(1, vec![ArgBinding::buffer(&o2), nb2]))
    });
    inst.run(&LaunchSpec::task(0, vec![nb()])).unwrap();
    t.join().unwrap().unwrap();
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_secs() - c0;
    println!(
        "channel producer/consumer 2^20 elements: wall {:.1} ms ({:.1} M elements/s), CPU {:.1} ms",
        secs * 1e3,
        n as f64 / secs / 1e6,
        cpu * 1e3
    );
}

/// The producer, then the consumer, on this thread through a channel as deep as `n`.
fn channel_serial(n: usize) {
    let out = fpgacl_kernel_compiler::build(
        &[fpgacl_kernel_compiler::SourceFile {
            name: "chan.cl".into(),
            text: CHANNEL_SOURCE.into(),
        }],
        &format!("-DDEPTH={n}"),
    )
    .expect("options");
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    let (inst, _) = ModB { m: (*m).clone() }.instance(1);
    let mo = buf_from(&[0i32; 1]);
    let nb = || ArgBinding::Value((n as i32).to_le_bytes().to_vec());
    for round in 0..3 {
        let c0 = Instant::now();
        inst.run(&LaunchSpec::task(0, vec![nb()])).unwrap();
        let c1 = Instant::now();
        inst.run(&LaunchSpec::task(1, vec![ArgBinding::buffer(&mo), nb()]))
            .unwrap();
        let c2 = Instant::now();
        println!(
            "channel serial round {round}: {n} values, write {:.1} ns/value, read {:.1} ns/value (wall)",
            (c1 - c0).as_nanos() as f64 / n as f64,
            (c2 - c1).as_nanos() as f64 / n as f64
        );
    }
}

fn main() {
    let n = 1usize << 20;
    let which = std::env::args().nth(1).unwrap_or_else(|| "both".into());
    if which == "serial" {
        let n = std::env::var("CHSERIAL_N")
            .ok()
            .and_then(|v| v.parse().ok());
        channel_serial(n.unwrap_or(1 << 20));
        return;
    }
    if which == "channel" || which == "both" {
        channel_bench(n);
        if which == "channel" {
            return;
        }
    }
    if which != "hand" {
        println!("-- compiled from OpenCL C --");
        let mb = compiled();
        bench(&mb, 0, 1, n);
    }
    if which != "compiled" {
        println!("-- hand-built IR --");
        let mut mb = ModB::new();
        let kv = vector_add(&mut mb);
        let ka = accumulate(&mut mb);
        bench(&mb, kv, ka, n);
    }
}

fn bench(mb: &ModB, kv: u32, ka: u32, n: usize) {
    let threads = std::thread::available_parallelism()
        .map(|x| x.get())
        .unwrap_or(1);
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let (ma, mbb, mc) = (buf_from(&a), buf_from(&a), buf_from(&vec![0f32; n]));
    let mo = buf_from(&[0f32; 1]);
    for t in [1, threads] {
        let (inst, _) = ModB { m: mb.m.clone() }.instance(t);
        let spec = LaunchSpec::ndrange_1d(
            kv,
            n as u64,
            None,
            vec![
                ArgBinding::buffer(&ma),
                ArgBinding::buffer(&mbb),
                ArgBinding::buffer(&mc),
            ],
        );
        let c0 = cpu_secs();
        let secs = best_of(10, || {
            let t0 = Instant::now();
            inst.run(&spec).unwrap();
            t0.elapsed().as_secs_f64()
        });
        let cpu = (cpu_secs() - c0) / 10.0;
        println!(
            "vector_add 2^20 work-items, {t} thread(s): best wall {:.2} ms ({:.1} M work-items/s), \
             mean CPU {:.2} ms ({:.1} M work-items per CPU-second)",
            secs * 1e3,
            n as f64 / secs / 1e6,
            cpu * 1e3,
            n as f64 / cpu / 1e6
        );
    }
    let (inst, _) = ModB { m: mb.m.clone() }.instance(1);
    let spec = LaunchSpec::task(
        ka,
        vec![
            ArgBinding::buffer(&ma),
            ArgBinding::buffer(&mo),
            ArgBinding::Value((n as i32).to_le_bytes().to_vec()),
        ],
    );
    let c0 = cpu_secs();
    let secs = best_of(10, || {
        let t0 = Instant::now();
        inst.run(&spec).unwrap();
        t0.elapsed().as_secs_f64()
    });
    let cpu = (cpu_secs() - c0) / 10.0;
    println!(
        "single work-item loop 2^20 iterations: best wall {:.2} ms ({:.1} M iterations/s), \
         mean CPU {:.2} ms ({:.1} M iterations per CPU-second)",
        secs * 1e3,
        n as f64 / secs / 1e6,
        cpu * 1e3,
        n as f64 / cpu / 1e6
    );
}
