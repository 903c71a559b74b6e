//! Kernels written in OpenCL C, compiled by `fpgacl_kernel_compiler::build` and executed.

mod timing_util;

use fpgacl_device_model::*;
use parking_lot::Mutex;
use std::sync::Arc;
use timing_util::compile;

pub fn instance(src: &str, threads: usize) -> (ProgramInstance, Arc<Mutex<Vec<u8>>>) {
    let out = Arc::new(Mutex::new(Vec::new()));
    let inst = ProgramInstance::new(
        compile(src),
        &Board::default_board(),
        ExecConfig {
            threads,
            printf: PrintfSink::Capture(out.clone()),
            // These tests check the strict mode's faults (tests/oob.rs: report mode).
            oob: Some(OobMode::Fault),
            ..Default::default()
        },
    )
    .expect("decodes");
    (inst, out)
}

pub fn buf<T: Copy>(data: &[T]) -> Arc<DeviceMemory> {
    let n = std::mem::size_of_val(data);
    let m = DeviceMemory::new(n).unwrap();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, n) };
    m.write(0, bytes).unwrap();
    Arc::new(m)
}

pub fn read<T: Copy + Default>(m: &DeviceMemory, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: plain data.
    let bytes = unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>())
    };
    m.read(0, bytes).unwrap();
    v
}

fn kidx(inst: &ProgramInstance, name: &str) -> u32 {
    inst.module()
        .kernels
        .iter()
        .position(|k| k.name == name)
        .unwrap() as u32
}

#[test]
fn vector_add_from_source() {
    let (inst, _) = instance(
        "__kernel void vector_add(__global const float *x, __global const float *y, __global float *z) {\n\
           int i = get_global_id(0);\n\
           z[i] = x[i] + y[i];\n\
         }\n",
        2,
    );
    let n = 1000;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
    let (ma, mb, mc) = (buf(&a), buf(&b), buf(&vec![0f32; n]));
    inst.run(&LaunchSpec::ndrange_1d(
        kidx(&inst, "vector_add"),
        n as u64,
        None,
        vec![
            ArgBinding::buffer(&ma),
            ArgBinding::buffer(&mb),
            ArgBinding::buffer(&mc),
        ],
    ))
    .unwrap();
    assert_eq!(
        read::<f32>(&mc, n),
        (0..n).map(|i| 3.0 * i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn local_reduction_with_barriers() {
    let src = r#"
__kernel void reduce(__global const int *in, __global int *out, __local int *scratch) {
    int lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
__kernel void reduce_fixed(__global const int *in, __global int *out) {
    __local int tmp[32];
    int lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int s = 0;
        for (int i = 0; i < 32; i++) s += tmp[i];
        out[get_group_id(0)] = s;
    }
}
"#;
    for threads in [1, 2] {
        let (inst, _) = instance(src, threads);
        let data: Vec<i32> = (0..1024).map(|i| (i * 7) % 101 - 50).collect();
        let min = buf(&data);
        let mout = buf(&[0i32; 32]);
        inst.run(&LaunchSpec::ndrange_1d(
            kidx(&inst, "reduce"),
            1024,
            Some(32),
            vec![
                ArgBinding::buffer(&min),
                ArgBinding::buffer(&mout),
                ArgBinding::Local(32 * 4),
            ],
        ))
        .unwrap();
        let expect: Vec<i32> = data.chunks(32).map(|c| c.iter().sum()).collect();
        assert_eq!(read::<i32>(&mout, 32), expect);
        let mout2 = buf(&[0i32; 32]);
        inst.run(&LaunchSpec::ndrange_1d(
            kidx(&inst, "reduce_fixed"),
            1024,
            Some(32),
            vec![ArgBinding::buffer(&min), ArgBinding::buffer(&mout2)],
        ))
        .unwrap();
        assert_eq!(read::<i32>(&mout2, 32), expect);
    }
}

#[test]
fn single_work_item_accumulator_and_vectors() {
    let src = r#"
__kernel void acc(__global const float *restrict a, __global float *restrict out, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += a[i] * 0.5f;
    out[0] = sum;
}
__kernel void vec(__global const float4 *a, __global float4 *b, __global int4 *c) {
    int i = get_global_id(0);
    float4 v = a[i];
    b[i] = v.wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f) + 1.0f;
    c[i] = v > (float4)(2.0f) ;
}
"#;
    let (inst, _) = instance(src, 1);
    let data: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let ma = buf(&data);
    let mo = buf(&[0f32; 1]);
    inst.run(&LaunchSpec::task(
        kidx(&inst, "acc"),
        vec![
            ArgBinding::buffer(&ma),
            ArgBinding::buffer(&mo),
            ArgBinding::Value(100i32.to_le_bytes().to_vec()),
        ],
    ))
    .unwrap();
    let mut s = 0f32;
    for x in &data {
        s += x * 0.5;
    }
    assert_eq!(read::<f32>(&mo, 1)[0], s);
    let v: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let (mv, mb, mc) = (buf(&v), buf(&[0f32; 8]), buf(&[0i32; 8]));
    inst.run(&LaunchSpec::ndrange_1d(
        kidx(&inst, "vec"),
        2,
        None,
        vec![
            ArgBinding::buffer(&mv),
            ArgBinding::buffer(&mb),
            ArgBinding::buffer(&mc),
        ],
    ))
    .unwrap();
    assert_eq!(
        read::<f32>(&mb, 8),
        vec![4.0, 5.0, 4.0, 1.0, 8.0, 13.0, 16.0, 17.0]
    );
    assert_eq!(read::<i32>(&mc, 8), vec![0, 0, 0, -1, -1, -1, -1, -1]);
}

#[test]
fn channels_from_source_producer_consumer() {
    let src = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0 __attribute__((depth(4)));
__kernel void producer(int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(c0, i * i);
}
__kernel void consumer(__global int *out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = read_channel_intel(c0);
}
"#;
    let (inst, _) = instance(src, 1);
    let inst = Arc::new(inst);
    let n = 200i32;
    let out = buf(&vec![0i32; n as usize]);
    let (i2, o2) = (inst.clone(), out.clone());
    let kc = kidx(&inst, "consumer");
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![
                ArgBinding::buffer(&o2),
                ArgBinding::Value(n.to_le_bytes().to_vec()),
            ],
        ))
    });
    inst.run(&LaunchSpec::task(
        kidx(&inst, "producer"),
        vec![ArgBinding::Value(n.to_le_bytes().to_vec())],
    ))
    .unwrap();
    t.join().unwrap().unwrap();
    assert_eq!(
        read::<i32>(&out, n as usize),
        (0..n).map(|i| i * i).collect::<Vec<_>>()
    );
}

#[test]
fn printf_and_out_of_bounds_from_source() {
    let src = r#"
__kernel void hello(__global int *a) {
    int i = get_global_id(0);
    printf("item %d of %d: %5.2f ok\n", i, (int)get_global_size(0), i * 0.5f);
    a[i] = i;
}
"#;
    let (inst, out) = instance(src, 2);
    let m = buf(&[0i32; 4]);
    let k = kidx(&inst, "hello");
    inst.run(&LaunchSpec::ndrange_1d(
        k,
        4,
        Some(2),
        vec![ArgBinding::buffer(&m)],
    ))
    .unwrap();
    assert_eq!(
        String::from_utf8(out.lock().clone()).unwrap(),
        "item 0 of 4:  0.00 ok\nitem 1 of 4:  0.50 ok\nitem 2 of 4:  1.00 ok\nitem 3 of 4:  1.50 ok\n"
    );
    out.lock().clear();
    match inst.run(&LaunchSpec::ndrange_1d(
        k,
        8,
        Some(2),
        vec![ArgBinding::buffer(&m)],
    )) {
        Err(RunError::Fault(f)) => {
            let msg = f.to_string();
            assert!(
                msg.contains("k.cl:5:") && msg.contains("'a'") && msg.contains("offset 16"),
                "{msg}"
            );
        }
        r => panic!("{r:?}"),
    }
}

/// printf output streams line by line in a fixed order: the lines of a group in work-item order
/// (plain kernels) or in barrier rounds, groups in group order, whatever the number of
/// worker threads; a line split over several printf calls stays whole.
#[test]
fn printf_lines_in_group_order_with_any_thread_count() {
    let src = r#"
__kernel void lines(int n) {
    int i = get_global_id(0);
    for (int k = 0; k < n; k++) {
        printf("g%d ", (int)get_group_id(0));
        printf("i%d k%d\n", i, k);
    }
    printf("tail %d", i);
}
__kernel void rounds(int n) {
    int l = get_local_id(0);
    for (int k = 0; k < n; k++) {
        printf("r%d g%d l%d\n", k, (int)get_group_id(0), l);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
"#;
    let (groups, local, n) = (40u64, 4u64, 3i32);
    let mut plain = String::new();
    for g in 0..groups {
        for l in 0..local {
            let i = g * local + l;
            for k in 0..n {
                plain.push_str(&format!("g{g} i{i} k{k}\n"));
            }
            plain.push_str(&format!("tail {i}"));
        }
    }
    let mut rounds = String::new();
    for g in 0..groups {
        for k in 0..n {
            for l in 0..local {
                rounds.push_str(&format!("r{k} g{g} l{l}\n"));
            }
        }
    }
    for threads in [1, 4] {
        let (inst, out) = instance(src, threads);
        for (name, want) in [("lines", &plain), ("rounds", &rounds)] {
            out.lock().clear();
            let k = kidx(&inst, name);
            inst.run(&LaunchSpec::ndrange_1d(
                k,
                groups * local,
                Some(local),
                vec![ArgBinding::Value(n.to_le_bytes().to_vec())],
            ))
            .unwrap();
            assert_eq!(
                &String::from_utf8(out.lock().clone()).unwrap(),
                want,
                "{name}, {threads} threads"
            );
        }
    }
}

#[test]
fn autorun_compute_units_channel_arrays_structs_from_source() {
    let src = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
typedef struct { int id; float v; } item;
channel item to_cu[2] __attribute__((depth(8)));
channel item from_cu[2] __attribute__((depth(8)));

__attribute__((max_global_work_dim(0)))
__attribute__((autorun))
__attribute__((num_compute_units(2)))
__kernel void worker() {
    int cu = get_compute_id(0);
    while (1) {
        item it = read_channel_intel(to_cu[cu]);
        it.v = it.v * 2.0f + (float)cu;
        write_channel_intel(from_cu[cu], it);
    }
}

__kernel void feed(__global const float *in, int n) {
    for (int i = 0; i < n; i++) {
        item it;
        it.id = i;
        it.v = in[i];
        write_channel_intel(to_cu[i & 1], it);
    }
}

__kernel void drain(__global float *out, __global int *ids, int n) {
    for (int i = 0; i < n; i++) {
        item it = read_channel_intel(from_cu[i & 1]);
        out[i] = it.v;
        ids[i] = it.id;
    }
}
"#;
    let (inst, _) = instance(src, 1);
    assert_eq!(inst.autorun_status().len(), 2);
    let inst = Arc::new(inst);
    let n = 64i32;
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let min = buf(&input);
    let (mout, mids) = (buf(&vec![0f32; n as usize]), buf(&vec![0i32; n as usize]));
    let kd = kidx(&inst, "drain");
    let (i2, o2, d2) = (inst.clone(), mout.clone(), mids.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kd,
            vec![
                ArgBinding::buffer(&o2),
                ArgBinding::buffer(&d2),
                ArgBinding::Value(n.to_le_bytes().to_vec()),
            ],
        ))
    });
    inst.run(&LaunchSpec::task(
        kidx(&inst, "feed"),
        vec![
            ArgBinding::buffer(&min),
            ArgBinding::Value(n.to_le_bytes().to_vec()),
        ],
    ))
    .unwrap();
    t.join().unwrap().unwrap();
    let expect: Vec<f32> = (0..n).map(|i| i as f32 * 2.0 + (i & 1) as f32).collect();
    assert_eq!(read::<f32>(&mout, n as usize), expect);
    assert_eq!(read::<i32>(&mids, n as usize), (0..n).collect::<Vec<_>>());
    inst.shutdown();
}

#[test]
fn pipes_and_nonblocking_channels_from_source() {
    let src = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int nb __attribute__((depth(2)));

__kernel void pipe_producer(__global const int *in, write_only pipe int __attribute__((blocking)) p, int n) {
    for (int i = 0; i < n; i++)
        write_pipe(p, &in[i]);
}
__kernel void pipe_consumer(read_only pipe int __attribute__((blocking)) p, __global int *out, int n) {
    for (int i = 0; i < n; i++) {
        int v;
        read_pipe(p, &v);
        out[i] = v + 1;
    }
}
__kernel void nb_producer(int n) {
    int i = 0;
    while (i < n) {
        bool ok = write_channel_nb_intel(nb, i);
        if (ok) i++;
    }
}
__kernel void nb_consumer(__global int *out, __global int *misses, int n) {
    int i = 0, miss = 0;
    while (i < n) {
        bool valid;
        int v = read_channel_nb_intel(nb, &valid);
        if (valid) { out[i] = v; i++; } else { miss++; }
    }
    misses[0] = miss;
}
"#;
    let (inst, _) = instance(src, 1);
    let inst = Arc::new(inst);
    let n = 100i32;
    let nv = || ArgBinding::Value(n.to_le_bytes().to_vec());
    // pipes: consumer enqueued first on its own thread
    let pipe = Arc::new(PipeFifo::new("p", 4, 4));
    let input: Vec<i32> = (0..n).map(|i| i * 5).collect();
    let (min, mout) = (buf(&input), buf(&vec![0i32; n as usize]));
    let kc = kidx(&inst, "pipe_consumer");
    let (i2, o2, p2) = (inst.clone(), mout.clone(), pipe.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![
                ArgBinding::Pipe(p2),
                ArgBinding::buffer(&o2),
                ArgBinding::Value(100i32.to_le_bytes().to_vec()),
            ],
        ))
    });
    inst.run(&LaunchSpec::task(
        kidx(&inst, "pipe_producer"),
        vec![
            ArgBinding::buffer(&min),
            ArgBinding::Pipe(pipe.clone()),
            nv(),
        ],
    ))
    .unwrap();
    t.join().unwrap().unwrap();
    assert_eq!(
        read::<i32>(&mout, n as usize),
        (0..n).map(|i| i * 5 + 1).collect::<Vec<_>>()
    );
    // non-blocking channel endpoints on both sides
    let (mout, mmiss) = (buf(&vec![0i32; n as usize]), buf(&[0i32; 1]));
    let kc = kidx(&inst, "nb_consumer");
    let (i2, o2, m2) = (inst.clone(), mout.clone(), mmiss.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![
                ArgBinding::buffer(&o2),
                ArgBinding::buffer(&m2),
                ArgBinding::Value(100i32.to_le_bytes().to_vec()),
            ],
        ))
    });
    let t0 = std::time::Instant::now();
    while inst.activity().report().kernels.is_empty() && t0.elapsed().as_secs() < 5 {
        std::thread::yield_now();
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    inst.run(&LaunchSpec::task(kidx(&inst, "nb_producer"), vec![nv()]))
        .unwrap();
    t.join().unwrap().unwrap();
    assert_eq!(read::<i32>(&mout, n as usize), (0..n).collect::<Vec<_>>());
    assert!(
        read::<i32>(&mmiss, 1)[0] > 0,
        "the consumer started first and must have missed"
    );
}

#[test]
fn loop_counters_for_nested_loops_from_source() {
    let src = r#"
__kernel void nest(__global int *out, int n, int m) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < m) { s += i * j; j++; }
        do { s ^= 1; } while (s < 0);
    }
    out[0] = s;
}
"#;
    let (inst, _) = instance(src, 1);
    let m = buf(&[0i32; 1]);
    let k = kidx(&inst, "nest");
    let f = &inst.module().kernels[k as usize];
    assert_eq!(f.loops.len(), 3);
    let r = inst
        .run(&LaunchSpec::task(
            k,
            vec![
                ArgBinding::buffer(&m),
                ArgBinding::Value(5i32.to_le_bytes().to_vec()),
                ArgBinding::Value(3i32.to_le_bytes().to_vec()),
            ],
        ))
        .unwrap();
    let c = &r.counters;
    // outer for: 6 header visits, entered once; inner while: entered 5 times, 4 visits each;
    // do-while: entered 5 times, its body header visited once per entry.
    let by_parent = |parent: Option<u32>| {
        f.loops
            .iter()
            .filter(move |l| l.parent.map(|p| p.0) == parent)
            .map(|l| l.id.0 as usize)
    };
    let outer = by_parent(None).next().unwrap();
    assert_eq!((c.loop_iterations[outer], c.loop_entries[outer]), (6, 1));
    let inner: Vec<usize> = by_parent(Some(outer as u32)).collect();
    assert_eq!(inner.len(), 2);
    let mut got: Vec<(u64, u64)> = inner
        .iter()
        .map(|&l| (c.loop_iterations[l], c.loop_entries[l]))
        .collect();
    got.sort();
    assert_eq!(got, vec![(5, 5), (20, 5)]);
}

#[test]
fn endless_loop_can_be_aborted_and_shut_down() {
    let src = r#"
__kernel void spin(__global int *out) {
    int i = 0;
    while (out[0] == 0) { i++; }
    out[1] = i;
}
"#;
    let (inst, _) = instance(src, 2);
    let inst = Arc::new(inst);
    let m = buf(&[0i32; 2]);
    let k = kidx(&inst, "spin");
    let (i2, m2) = (inst.clone(), m.clone());
    let t = std::thread::spawn(move || i2.run(&LaunchSpec::task(k, vec![ArgBinding::buffer(&m2)])));
    let act = inst.activity().clone();
    let t0 = std::time::Instant::now();
    let id = loop {
        if let Some(kr) = act.report().kernels.first() {
            break kr.id;
        }
        assert!(t0.elapsed().as_secs() < 5);
        std::thread::yield_now();
    };
    // running, not blocked: a deadlock abort does not touch it, an explicit abort does
    assert!(act.abort_blocked().is_empty());
    assert!(act.abort(id));
    match t.join().unwrap() {
        Err(RunError::Fault(f)) => assert_eq!(f.kind, FaultKind::Aborted),
        r => panic!("{r:?}"),
    }
    let (i2, m2) = (inst.clone(), m.clone());
    let t = std::thread::spawn(move || i2.run(&LaunchSpec::task(k, vec![ArgBinding::buffer(&m2)])));
    let t0 = std::time::Instant::now();
    while act.report().kernels.is_empty() {
        assert!(t0.elapsed().as_secs() < 10, "the kernel did not start");
        std::thread::yield_now();
    }
    inst.shutdown();
    match t.join().unwrap() {
        Err(RunError::Fault(f)) => assert_eq!(f.kind, FaultKind::Shutdown),
        r => panic!("{r:?}"),
    }
}

#[test]
fn max_global_work_dim_zero_rejects_ndrange() {
    let src =
        "__attribute__((max_global_work_dim(0))) __kernel void t(__global int *a) { a[0] = 1; }\n";
    let (inst, _) = instance(src, 1);
    let m = buf(&[0i32; 4]);
    let e = inst
        .run(&LaunchSpec::ndrange_1d(
            0,
            4,
            None,
            vec![ArgBinding::buffer(&m)],
        ))
        .unwrap_err();
    assert!(
        matches!(e, RunError::Launch(LaunchError::GlobalSize(_))),
        "{e}"
    );
    inst.run(&LaunchSpec::task(0, vec![ArgBinding::buffer(&m)]))
        .unwrap();
    assert_eq!(read::<i32>(&m, 1), vec![1]);
}

#[test]
fn burst_counters_follow_strides() {
    let src = r#"
__kernel void strided(__global const float *in, __global float *out, int stride) {
    int i = get_global_id(0);
    out[i] = in[i * stride];
}
"#;
    let (inst, _) = instance(src, 2);
    let n = 1024usize;
    let input = buf(&vec![1f32; n * 32]);
    let out = buf(&vec![0f32; n]);
    let run = |stride: i32| {
        inst.run(&LaunchSpec::ndrange_1d(
            0,
            n as u64,
            Some(256),
            vec![
                ArgBinding::buffer(&input),
                ArgBinding::buffer(&out),
                ArgBinding::Value(stride.to_le_bytes().to_vec()),
            ],
        ))
        .unwrap()
        .counters
    };
    let site = |c: &Counters, kind: fpgacl_kernel_compiler::ir::SiteKind| {
        let s = inst.module().sites.iter().find(|s| s.kind == kind).unwrap();
        c.sites[s.id.0 as usize]
    };
    use fpgacl_kernel_compiler::ir::SiteKind::{Load, Store};
    // the store: 256 contiguous floats per group = 16 words of 64 bytes = one maximal burst
    let c1 = run(1);
    let st = site(&c1, Store);
    assert_eq!((st.words, st.bursts, st.max_burst), (64, 4, 16));
    assert_eq!(site(&c1, Load), st);
    // stride of 16 floats: one new word per access, bursts capped at 16 words
    let ld = site(&run(16), Load);
    assert_eq!((ld.words, ld.bursts, ld.max_burst), (1024, 64, 16));
    // stride of 32 floats: every access starts a burst of one word
    let ld = site(&run(32), Load);
    assert_eq!((ld.words, ld.bursts, ld.max_burst), (1024, 1024, 1));
    assert_eq!(ld.sequential, 0);
}
