//! Out-of-bounds accesses in the default report mode (`OobMode::Report`): reads give 0, writes
//! are dropped, the kernel goes on and each site is reported once per run with the first
//! work-item and a count; pointer arithmetic that overflows the offset field is out of bounds.

mod timing_util;

use fpgacl_device_model::*;
use parking_lot::Mutex;
use std::sync::Arc;
use timing_util::compile;

fn instance(src: &str, threads: usize, oob: OobMode) -> ProgramInstance {
    ProgramInstance::new(
        compile(src),
        &Board::default_board(),
        ExecConfig {
            threads,
            printf: PrintfSink::Capture(Arc::new(Mutex::new(Vec::new()))),
            oob: Some(oob),
            ..Default::default()
        },
    )
    .expect("decodes")
}

fn buf<T: Copy>(data: &[T]) -> Arc<DeviceMemory> {
    let n = std::mem::size_of_val(data);
    let m = DeviceMemory::new(n).unwrap();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, n) };
    m.write(0, bytes).unwrap();
    Arc::new(m)
}

fn read_i32(m: &DeviceMemory, n: usize) -> Vec<i32> {
    let mut b = vec![0u8; n * 4];
    m.read(0, &mut b).unwrap();
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn kidx(inst: &ProgramInstance, name: &str) -> u32 {
    inst.module()
        .kernels
        .iter()
        .position(|k| k.name == name)
        .unwrap() as u32
}

/// A stencil that reads `a[i-1]` and `a[i+1]` before checking the border, in local and in
/// global memory (the pattern of public FPGA benchmarks).
const STENCIL: &str = r#"
__kernel void stencil(__global const int *a, __global int *out) {
    __local int prev[16];
    int l = get_local_id(0);
    int i = get_global_id(0);
    prev[l] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int left = prev[l - 1];
    int right = a[i + 1];
    int n = get_global_size(0);
    out[i] = (l > 0 ? left : 0) + (i < n - 1 ? right : 0);
}
"#;

#[test]
fn stencil_reads_out_of_bounds_return_zero_and_are_reported_once_per_site() {
    let n = 64usize;
    let input: Vec<i32> = (1..=n as i32).collect();
    for threads in [1, 2] {
        let inst = instance(STENCIL, threads, OobMode::Report);
        let a = buf(&input);
        let out = buf(&vec![0i32; n]);
        let k = kidx(&inst, "stencil");
        let r = inst
            .run(&LaunchSpec::ndrange_1d(
                k,
                n as u64,
                Some(16),
                vec![ArgBinding::buffer(&a), ArgBinding::buffer(&out)],
            ))
            .expect("out-of-bounds reads do not stop the kernel");
        let got = read_i32(&out, n);
        for i in 0..n {
            let l = i % 16;
            let left = if l > 0 { input[i - 1] } else { 0 };
            let right = if i < n - 1 { input[i + 1] } else { 0 };
            assert_eq!(got[i], left + right, "element {i}");
        }
        // Two sites: prev[l - 1] once per group (4 groups), a[i + 1] once (the last item).
        assert_eq!(r.oob.len(), 2, "{:?}", r.oob);
        let local = &r.oob[0];
        assert_eq!(local.pos.as_ref().unwrap().line, 8);
        assert_eq!(local.region, MemRegion::Local);
        assert_eq!(local.target.as_deref(), Some("prev"));
        assert_eq!((local.offset, local.size, local.write), (-4, 4, false));
        assert_eq!(local.count, 4);
        assert_eq!(local.work_item, [0, 0, 0], "first in work-item order");
        let global = &r.oob[1];
        assert_eq!(global.pos.as_ref().unwrap().line, 9);
        assert_eq!(global.region, MemRegion::Arg { index: 0 });
        assert_eq!(global.target.as_deref(), Some("a"));
        assert_eq!((global.offset, global.limit, global.count), (256, 256, 1));
        assert_eq!(global.work_item, [63, 0, 0]);
        let msg = local.to_string();
        assert!(
            msg.contains("k.cl:8:")
                && msg.contains("'prev' (local memory)")
                && msg.contains("offset -4")
                && msg.contains("returned 0 (4 such reads"),
            "{msg}"
        );
    }
}

#[test]
fn strict_mode_keeps_the_fault() {
    let inst = instance(STENCIL, 1, OobMode::Fault);
    let a = buf(&[1i32; 16]);
    let out = buf(&[0i32; 16]);
    match inst.run(&LaunchSpec::ndrange_1d(
        kidx(&inst, "stencil"),
        16,
        Some(16),
        vec![ArgBinding::buffer(&a), ArgBinding::buffer(&out)],
    )) {
        Err(RunError::Fault(f)) => {
            let m = f.to_string();
            assert!(
                m.contains("out-of-bounds read of 4 bytes at offset -4 of 'prev' (local memory)"),
                "{m}"
            );
        }
        r => panic!("expected a fault: {r:?}"),
    }
}

#[test]
fn out_of_bounds_writes_are_dropped_and_touch_no_other_memory() {
    let src = r#"
__kernel void w(__global int *a, __global int *b, int n) {
    int i = get_global_id(0);
    a[i + n] = 7;
    b[i] = 1;
}
"#;
    let inst = instance(src, 2, OobMode::Report);
    let a = buf(&[0i32; 8]);
    let b = buf(&[0i32; 8]);
    let r = inst
        .run(&LaunchSpec::ndrange_1d(
            kidx(&inst, "w"),
            8,
            Some(4),
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&b),
                ArgBinding::Value(4i32.to_le_bytes().to_vec()),
            ],
        ))
        .unwrap();
    assert_eq!(read_i32(&a, 8), vec![0, 0, 0, 0, 7, 7, 7, 7]);
    assert_eq!(read_i32(&b, 8), vec![1; 8]);
    assert_eq!(r.oob.len(), 1);
    let s = &r.oob[0];
    assert!(s.write);
    assert_eq!((s.count, s.offset, s.work_item), (4, 32, [4, 0, 0]));
    assert!(s.to_string().contains("dropped (4 such writes"), "{s}");
}

#[test]
fn pointer_offset_overflow_is_out_of_bounds() {
    // a[(long)1 << 38] (byte offset 2^40) and a pointer moved by 2^40 through an integer must
    // not reach a[0] nor the next argument's buffer.
    let src = r#"
__kernel void big_index(__global int *a, __global int *b) {
    a[(long)1 << 38] = 42;
    long k = (long)1 << 62;
    a[k] = 43;
    a[k * 2] = 44;
}
__kernel void via_int(__global int *a, __global int *b) {
    __global int *p = (__global int *)((ulong)a + (1ul << 40));
    *p = 42;
    __global int *q = (__global int *)((ulong)a - 8);
    *q = 43;
    b[1] = a[(long)1 << 38];
}
"#;
    for (kernel, sites) in [("big_index", 3), ("via_int", 3)] {
        let inst = instance(src, 1, OobMode::Report);
        let a = buf(&[0i32; 4]);
        let b = buf(&[0i32; 4]);
        let r = inst
            .run(&LaunchSpec::task(
                kidx(&inst, kernel),
                vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b)],
            ))
            .unwrap();
        assert_eq!(read_i32(&a, 4), vec![0; 4], "{kernel}: a untouched");
        assert_eq!(read_i32(&b, 4), vec![0; 4], "{kernel}: b untouched");
        assert_eq!(r.oob.len(), sites, "{kernel}: {:?}", r.oob);
        for s in &r.oob {
            // (An integer moved below the address borrows into the region number: still
            // out of bounds, of another region.)
            if kernel == "big_index" {
                assert_eq!(s.region, MemRegion::Arg { index: 0 }, "{kernel}: {s}");
            }
        }
        // Strict mode: the first such access faults.
        let inst = instance(src, 1, OobMode::Fault);
        let r = inst.run(&LaunchSpec::task(
            kidx(&inst, kernel),
            vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b)],
        ));
        assert!(
            matches!(&r, Err(RunError::Fault(f)) if matches!(f.kind, FaultKind::OutOfBounds { .. })),
            "{kernel}: {r:?}"
        );
    }
}

#[test]
fn async_copies_of_32_mib_are_bulk_and_exact() {
    // 8 Mi ints (32 MiB) through local memory with async_work_group_copy (contiguous) and
    // back with async_work_group_strided_copy, plus a prefetch.
    let src = r#"
__kernel void copy(__global const int *src, __global int *dst, __local int *tmp, int chunk) {
    size_t g = get_group_id(0);
    prefetch(src + g * chunk, chunk);
    event_t e = async_work_group_copy(tmp, src + g * chunk, (size_t)chunk, 0);
    wait_group_events(1, &e);
    e = async_work_group_strided_copy(dst + g * chunk, tmp, (size_t)chunk, (size_t)1, 0);
    wait_group_events(1, &e);
}
__kernel void gather(__global const int *src, __global int *dst, __local int *tmp, int stride) {
    size_t g = get_group_id(0);
    size_t n = get_local_size(0);
    event_t e = async_work_group_strided_copy(tmp, src + g, n, (size_t)stride, 0);
    wait_group_events(1, &e);
    dst[g * n + get_local_id(0)] = tmp[get_local_id(0)];
}
"#;
    let n = 8usize << 20;
    let chunk = 8192usize;
    let input: Vec<i32> = (0..n as i32)
        .map(|x| x.wrapping_mul(2654435761u32 as i32))
        .collect();
    let inst = instance(src, 2, OobMode::Fault);
    let a = buf(&input);
    let d = buf(&vec![0i32; n]);
    let t0 = std::time::Instant::now();
    let r = inst
        .run(&LaunchSpec::ndrange_1d(
            kidx(&inst, "copy"),
            (n / chunk * 64) as u64,
            Some(64),
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&d),
                ArgBinding::Local(chunk * 4),
                ArgBinding::Value((chunk as i32).to_le_bytes().to_vec()),
            ],
        ))
        .unwrap();
    eprintln!("32 MiB async copy there and back: {:?}", t0.elapsed());
    assert!(read_i32(&d, n) == input, "copy differs");
    // Counters: one fire per element and 4 bytes each, per copy site.
    let fired: u64 = r.counters.sites.iter().map(|s| s.fires).sum();
    assert_eq!(fired, 2 * n as u64);
    // Strided gather: group g reads src[g], src[g + stride], ...
    let stride = 512usize;
    let groups = stride;
    let lsize = 512usize;
    let d2 = buf(&vec![0i32; groups * lsize]);
    inst.run(&LaunchSpec::ndrange_1d(
        kidx(&inst, "gather"),
        (groups * lsize) as u64,
        Some(lsize as u64),
        vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&d2),
            ArgBinding::Local(lsize * 4),
            ArgBinding::Value((stride as i32).to_le_bytes().to_vec()),
        ],
    ))
    .unwrap();
    let got = read_i32(&d2, groups * lsize);
    for g in [0usize, 1, 300, groups - 1] {
        for j in [0usize, 1, lsize / 2, lsize - 1] {
            assert_eq!(
                got[g * lsize + j],
                input[g + j * stride],
                "group {g} item {j}"
            );
        }
    }
}
