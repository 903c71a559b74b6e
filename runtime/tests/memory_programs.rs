//! Buffer commands, sub-buffers, lifetimes, programs and kernel launches through the runtime.
#![allow(clippy::cloned_ref_to_slice_refs)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fpgacl_runtime::cl::*;
use fpgacl_runtime::memory::ops::{self, RectArgs};
use fpgacl_runtime::program::launch::enqueue_kernel;
use fpgacl_runtime::program::Kernel;
use fpgacl_runtime::queue::CommandOrder;
use fpgacl_runtime::{platform, Context, Event, Mem, Program, Queue};

fn setup() -> (Arc<Context>, Arc<Queue>) {
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let q = Queue::new(&c, &platform().devices[0], 0, Vec::new()).unwrap();
    (c, q)
}

fn read_all(q: &Arc<Queue>, m: &Arc<Mem>) -> Vec<u8> {
    let mut v = vec![0u8; m.size];
    ops::read_buffer(q, m, true, 0, m.size, v.as_mut_ptr() as usize, &[]).unwrap();
    v
}

#[test]
fn read_write_copy_fill_and_their_errors() {
    let (c, q) = setup();
    let data: Vec<u8> = (0..=255).collect();
    let a = Mem::new_buffer(&c, CL_MEM_COPY_HOST_PTR, 256, data.as_ptr() as usize).unwrap();
    let b = Mem::new_buffer(&c, 0, 256, 0).unwrap();
    assert_eq!(read_all(&q, &a), data);
    ops::copy_buffer(&q, &a, &b, 16, 32, 64, &[]).unwrap();
    ops::fill_buffer(&q, &b, &[0xAB, 0xCD], 0, 8, &[]).unwrap();
    let got = read_all(&q, &b);
    assert_eq!(&got[..8], &[0xAB, 0xCD, 0xAB, 0xCD, 0xAB, 0xCD, 0xAB, 0xCD]);
    assert_eq!(&got[32..96], &data[16..80]);
    let p = data.as_ptr() as usize;
    assert_eq!(
        ops::write_buffer(&q, &a, true, 250, 8, p, &[]).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        ops::write_buffer(&q, &a, true, 0, 8, 0, &[]).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        ops::copy_buffer(&q, &a, &a, 0, 8, 16, &[]).err(),
        Some(CL_MEM_COPY_OVERLAP)
    );
    assert_eq!(
        ops::fill_buffer(&q, &b, &[1, 2, 3], 0, 6, &[]).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        ops::fill_buffer(&q, &b, &[1, 2], 1, 4, &[]).err(),
        Some(CL_INVALID_VALUE)
    );
    let ro = Mem::new_buffer(&c, CL_MEM_HOST_READ_ONLY, 16, 0).unwrap();
    assert_eq!(
        ops::write_buffer(&q, &ro, true, 0, 4, p, &[]).err(),
        Some(CL_INVALID_OPERATION)
    );
    let c2 = Context::new(platform().devices.clone(), Vec::new(), None);
    let foreign = Mem::new_buffer(&c2, 0, 16, 0).unwrap();
    assert_eq!(
        ops::copy_buffer(&q, &a, &foreign, 0, 0, 4, &[]).err(),
        Some(CL_INVALID_CONTEXT)
    );
}

#[test]
fn buffer_creation_rules() {
    let (c, _q) = setup();
    let host = [0u8; 64];
    let p = host.as_ptr() as usize;
    assert_eq!(
        Mem::new_buffer(&c, 0, 0, 0).err(),
        Some(CL_INVALID_BUFFER_SIZE)
    );
    assert_eq!(
        Mem::new_buffer(&c, 0, 2 << 30, 0).err(),
        Some(CL_INVALID_BUFFER_SIZE)
    );
    assert_eq!(
        Mem::new_buffer(&c, CL_MEM_COPY_HOST_PTR, 64, 0).err(),
        Some(CL_INVALID_HOST_PTR)
    );
    assert_eq!(
        Mem::new_buffer(&c, 0, 64, p).err(),
        Some(CL_INVALID_HOST_PTR)
    );
    assert_eq!(
        Mem::new_buffer(&c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        Mem::new_buffer(&c, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, p).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        Mem::new_buffer(&c, 1 << 30, 64, 0).err(),
        Some(CL_INVALID_VALUE)
    );
    let banked = Mem::new_buffer(&c, CL_CHANNEL_2_INTELFPGA, 64, 0).unwrap();
    assert_eq!(banked.bank, 2);
}

#[test]
fn use_host_ptr_maps_return_the_host_memory_and_sync() {
    let (c, q) = setup();
    let mut host = vec![7u8; 256];
    let m = Mem::new_buffer(&c, CL_MEM_USE_HOST_PTR, 256, host.as_mut_ptr() as usize).unwrap();
    // Change device contents, then map: the host memory must show them.
    ops::fill_buffer(&q, &m, &[9], 0, 256, &[]).unwrap();
    let (ptr, _) = ops::map_buffer(&q, &m, true, CL_MAP_READ | CL_MAP_WRITE, 128, 64, &[]).unwrap();
    assert_eq!(ptr, host.as_ptr() as usize + 128);
    assert_eq!(m.map_count(), 1);
    assert_eq!(host[128], 9);
    host[130] = 42;
    assert_eq!(
        ops::unmap(&q, &m, ptr + 1, &[]).err(),
        Some(CL_INVALID_VALUE)
    );
    ops::unmap(&q, &m, ptr, &[]).unwrap().wait();
    assert_eq!(m.map_count(), 0);
    assert_eq!(read_all(&q, &m)[130], 42);
    // Plain buffers map in place.
    let plain = Mem::new_buffer(&c, 0, 64, 0).unwrap();
    let (p2, _) =
        ops::map_buffer(&q, &plain, true, CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, &[]).unwrap();
    assert_eq!(p2, plain.device_ptr(0).unwrap());
    assert_eq!(
        ops::map_buffer(
            &q,
            &plain,
            true,
            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
            0,
            4,
            &[]
        )
        .err(),
        Some(CL_INVALID_VALUE)
    );
}

#[test]
fn rect_copies_and_sub_buffers() {
    let (c, q) = setup();
    let src: Vec<u8> = (0..=255).collect();
    let m = Mem::new_buffer(&c, 0, 256, 0).unwrap();
    // Write a 4x3 block from a host image of row pitch 16 into the buffer with row pitch 8.
    let a = RectArgs {
        buffer_origin: [2, 1, 0],
        host_origin: [4, 2, 0],
        region: [4, 3, 1],
        buffer_row_pitch: 8,
        buffer_slice_pitch: 0,
        host_row_pitch: 16,
        host_slice_pitch: 0,
    };
    ops::rw_buffer_rect(&q, &m, true, true, &a, src.as_ptr() as usize, &[]).unwrap();
    let got = read_all(&q, &m);
    for y in 0..3 {
        for x in 0..4 {
            assert_eq!(got[(1 + y) * 8 + 2 + x], src[(2 + y) * 16 + 4 + x]);
        }
    }
    let sub = Mem::new_sub_buffer(&m, 0, 128, 64).unwrap();
    assert_eq!(
        Mem::new_sub_buffer(&m, 0, 100, 8).err(),
        Some(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    );
    assert_eq!(
        Mem::new_sub_buffer(&m, 0, 128, 200).err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        Mem::new_sub_buffer(&sub, 0, 0, 8).err(),
        Some(CL_INVALID_MEM_OBJECT)
    );
    ops::fill_buffer(&q, &sub, &[5], 0, 64, &[]).unwrap();
    let all = read_all(&q, &m);
    assert!(all[128..192].iter().all(|&b| b == 5));
    // Overlap between a sub-buffer and its parent is detected.
    assert_eq!(
        ops::copy_buffer(&q, &m, &sub, 130, 0, 8, &[]).err(),
        Some(CL_MEM_COPY_OVERLAP)
    );
}

#[test]
fn a_pending_command_keeps_its_buffer_alive() {
    let (c, q) = setup();
    let freed = Arc::new(AtomicBool::new(false));
    let gate = Event::new_user(&c);
    let mut out = vec![0u8; 16];
    let ev = {
        let m = Mem::new_buffer(&c, 0, 16, 0).unwrap();
        let f = freed.clone();
        m.add_destructor(Box::new(move || f.store(true, Ordering::SeqCst)));
        ops::fill_buffer(&q, &m, &[3], 0, 16, &[gate.clone()]).unwrap();
        ops::read_buffer(&q, &m, false, 0, 16, out.as_mut_ptr() as usize, &[]).unwrap()
        // the caller's reference to the buffer is dropped here
    };
    std::thread::sleep(Duration::from_millis(10));
    assert!(!freed.load(Ordering::SeqCst));
    gate.set_user_status(CL_COMPLETE).unwrap();
    assert_eq!(ev.wait(), CL_COMPLETE);
    assert_eq!(out, vec![3u8; 16]);
    q.finish().unwrap();
    let t0 = Instant::now();
    while !freed.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        freed.load(Ordering::SeqCst),
        "buffer not freed after its commands ended"
    );
}

const SRC: &str = r#"
__kernel void add(__global int *a, int b) {
    a[get_global_id(0)] += b;
}
__kernel void local_sum(__global int *out, __local int *tmp) {
    tmp[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        int s = 0;
        for (int i = 0; i < get_local_size(0); i++) s += tmp[i];
        out[get_group_id(0)] = s;
    }
}
"#;

#[test]
fn build_set_args_and_run_a_kernel() {
    let (c, q) = setup();
    let p = Program::with_source(&c, vec![SRC.to_string()]).unwrap();
    assert_eq!(
        Kernel::new(&p, "add").err(),
        Some(CL_INVALID_PROGRAM_EXECUTABLE)
    );
    assert_eq!(p.build("-bogus-option"), Err(CL_INVALID_BUILD_OPTIONS));
    p.build("").unwrap();
    assert_eq!(Kernel::new(&p, "nope").err(), Some(CL_INVALID_KERNEL_NAME));
    let k = Kernel::new(&p, "add").unwrap();
    // A program with kernels cannot be rebuilt.
    assert_eq!(p.build(""), Err(CL_INVALID_OPERATION));

    let init: Vec<i32> = (0..64).collect();
    let m = Mem::new_buffer(&c, CL_MEM_COPY_HOST_PTR, 256, init.as_ptr() as usize).unwrap();
    let h = Arc::as_ptr(&m) as usize;
    let resolve = |x: usize| {
        if x == h {
            Ok(m.clone())
        } else {
            Err(CL_INVALID_MEM_OBJECT)
        }
    };
    let hb = h.to_ne_bytes();
    assert_eq!(
        k.set_arg(2, 4, Some(&[0; 4]), &resolve),
        Err(CL_INVALID_ARG_INDEX)
    );
    assert_eq!(
        k.set_arg(0, 4, Some(&hb), &resolve),
        Err(CL_INVALID_ARG_SIZE)
    );
    assert_eq!(
        k.set_arg(1, 8, Some(&[0; 8]), &resolve),
        Err(CL_INVALID_ARG_SIZE)
    );
    assert_eq!(k.set_arg(1, 4, None, &resolve), Err(CL_INVALID_ARG_VALUE));
    k.set_arg(0, 8, Some(&hb), &resolve).unwrap();
    let one = [64usize];
    assert_eq!(
        enqueue_kernel(
            &q,
            &k,
            CL_COMMAND_NDRANGE_KERNEL,
            1,
            None,
            Some(&one),
            None,
            &[]
        )
        .err(),
        Some(CL_INVALID_KERNEL_ARGS)
    );
    k.set_arg(1, 4, Some(&5i32.to_ne_bytes()), &resolve)
        .unwrap();
    let ev = enqueue_kernel(
        &q,
        &k,
        CL_COMMAND_NDRANGE_KERNEL,
        1,
        None,
        Some(&one),
        Some(&[16]),
        &[],
    )
    .unwrap();
    assert_eq!(ev.wait(), CL_COMPLETE);
    let out = read_all(&q, &m);
    let vals: Vec<i32> = out
        .chunks(4)
        .map(|b| i32::from_ne_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(vals, (5..69).collect::<Vec<_>>());

    // __local arguments take a size and no value.
    let ls = Kernel::new(&p, "local_sum").unwrap();
    ls.set_arg(0, 8, Some(&hb), &resolve).unwrap();
    assert_eq!(
        ls.set_arg(1, 16, Some(&[0; 16]), &resolve),
        Err(CL_INVALID_ARG_VALUE)
    );
    ls.set_arg(1, 8 * 4, None, &resolve).unwrap();
    let g = [32usize];
    enqueue_kernel(
        &q,
        &ls,
        CL_COMMAND_NDRANGE_KERNEL,
        1,
        None,
        Some(&g),
        Some(&[8]),
        &[],
    )
    .unwrap()
    .wait();
    let out = read_all(&q, &m);
    assert_eq!(i32::from_ne_bytes(out[0..4].try_into().unwrap()), 8);
    assert_eq!(i32::from_ne_bytes(out[12..16].try_into().unwrap()), 8);
}

#[test]
fn failed_builds_have_a_log_and_binaries_round_trip() {
    let (c, _q) = setup();
    let bad = Program::with_source(&c, vec!["__kernel void f() { int x = ; }\n".into()]).unwrap();
    assert_eq!(bad.build(""), Err(CL_BUILD_PROGRAM_FAILURE));
    let st = bad.state();
    assert_eq!(st.status, CL_BUILD_ERROR);
    assert!(st.log.contains(":1:"), "log without a location: {}", st.log);

    let good = Program::with_source(&c, vec![SRC.to_string()]).unwrap();
    good.build("-DUNUSED=1").unwrap();
    let bin = good.binary();
    assert!(!bin.is_empty());
    let devs = platform().devices.clone();
    let (p2, status) = Program::with_binaries(&c, devs.clone(), &[&bin]);
    assert_eq!(status, vec![CL_SUCCESS]);
    let p2 = p2.unwrap();
    p2.build("").unwrap();
    assert!(Kernel::new(&p2, "add").is_ok());
    let (p3, status) = Program::with_binaries(&c, devs, &[b"not an aocx"]);
    assert_eq!(
        (p3.err(), status),
        (Some(CL_INVALID_BINARY), vec![CL_INVALID_BINARY])
    );
}

#[test]
fn a_channel_deadlock_is_diagnosed_while_the_host_waits() {
    let (c, q) = setup();
    let src = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int ch __attribute__((depth(0)));
__kernel void consumer(__global int *out) {
    out[0] = read_channel_intel(ch);
}
"#;
    let p = Program::with_source(&c, vec![src.to_string()]).unwrap();
    p.build("").unwrap();
    let k = Kernel::new(&p, "consumer").unwrap();
    let m = Mem::new_buffer(&c, 0, 4, 0).unwrap();
    let h = Arc::as_ptr(&m) as usize;
    k.set_arg(0, 8, Some(&h.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();
    let ev = q.clone();
    let e = fpgacl_runtime::program::launch::enqueue_kernel(
        &ev,
        &k,
        CL_COMMAND_TASK,
        1,
        None,
        Some(&[1]),
        Some(&[1]),
        &[],
    )
    .unwrap();
    let t0 = Instant::now();
    let status = e.wait();
    assert!(status < 0, "deadlocked kernel completed with {status}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // The queue is usable afterwards.
    let after = q
        .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
        .unwrap();
    assert_eq!(after.wait(), CL_COMPLETE);
}

#[test]
fn profiling_reports_emulated_device_time() {
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let q = Queue::new(
        &c,
        &platform().devices[0],
        CL_QUEUE_PROFILING_ENABLE,
        Vec::new(),
    )
    .unwrap();
    let times = |e: &Arc<Event>| -> Vec<u64> {
        [
            CL_PROFILING_COMMAND_QUEUED,
            CL_PROFILING_COMMAND_SUBMIT,
            CL_PROFILING_COMMAND_START,
            CL_PROFILING_COMMAND_END,
        ]
        .iter()
        .map(|p| e.profiling_info(*p).unwrap())
        .collect()
    };
    // A 1 MiB write takes latency + bytes / PCIe bandwidth of emulated time.
    let m = Mem::new_buffer(&c, 0, 1 << 20, 0).unwrap();
    let src = vec![1u8; 1 << 20];
    let w = ops::write_buffer(&q, &m, true, 0, 1 << 20, src.as_ptr() as usize, &[]).unwrap();
    let t = times(&w);
    assert!(t.windows(2).all(|p| p[0] <= p[1]), "{t:?}");
    let board = &platform().devices[0].board;
    let expect = ops::HOST_TRANSFER_LATENCY_NS
        + ((1u64 << 20) as f64 * 1000.0 / board.pcie_bandwidth_mbps).round() as u64;
    assert_eq!(t[3] - t[2], expect);
    // A kernel's duration comes from the timing model and is the same on every run.
    let p = Program::with_source(&c, vec![SRC.to_string()]).unwrap();
    p.build("").unwrap();
    let k = Kernel::new(&p, "add").unwrap();
    let h = Arc::as_ptr(&m) as usize;
    k.set_arg(0, 8, Some(&h.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();
    k.set_arg(1, 4, Some(&1i32.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();
    let g = [(1usize << 20) / 4];
    let mut durations = Vec::new();
    let mut last_end = t[3];
    for _ in 0..2 {
        let e = enqueue_kernel(
            &q,
            &k,
            CL_COMMAND_NDRANGE_KERNEL,
            1,
            None,
            Some(&g),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(e.wait(), CL_COMPLETE);
        let kt = times(&e);
        assert!(kt.windows(2).all(|p| p[0] <= p[1]), "{kt:?}");
        assert!(kt[2] >= last_end, "in-order: starts after the previous end");
        last_end = kt[3];
        durations.push(kt[3] - kt[2]);
    }
    assert!(durations[0] > 0);
    assert_eq!(durations[0], durations[1]);
}

#[test]
fn a_burst_of_kernels_on_one_in_order_queue_finalises_without_confirming() {
    // Every launch but the first waits for the one before it on its in-order queue, so none
    // can share bandwidth with it: each run is final at once (rule B4's condition 5), not
    // after a confirming sample (0.1 ms each; 300 tiny kernels took 76 ms instead of 7).
    let (c, q) = setup();
    let p = Program::with_source(&c, vec![SRC.to_string()]).unwrap();
    p.build("").unwrap();
    let k = Kernel::new(&p, "add").unwrap();
    let m = Mem::new_buffer(&c, 0, 256, 0).unwrap();
    let h = Arc::as_ptr(&m) as usize;
    k.set_arg(0, 8, Some(&h.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();
    k.set_arg(1, 4, Some(&1i32.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();
    let ledger = &platform().devices[0].bandwidth;
    let before = ledger.confirmations();
    let n = 40;
    let g = [64usize];
    let events: Vec<Arc<Event>> = (0..n)
        .map(|_| {
            enqueue_kernel(
                &q,
                &k,
                CL_COMMAND_NDRANGE_KERNEL,
                1,
                None,
                Some(&g),
                None,
                &[],
            )
            .unwrap()
        })
        .collect();
    assert!(events.iter().all(|e| e.wait() == CL_COMPLETE));
    assert_eq!(read_all(&q, &m)[0], n as u8);
    // Exactly 0 when this test runs alone in its process (nextest); `cargo test` may run
    // other kernels on the same device meanwhile.
    let confirmed = ledger.confirmations() - before;
    assert!(confirmed < n / 2, "{confirmed} of {n} runs confirmed");
}

#[test]
fn in_order_commands_whose_events_are_released_still_order_the_next_ones() {
    // Fills without a kept event (as with a NULL event pointer) are released as soon as they
    // end. The next fill still starts at the previous one's END, and clFinish moves the host's
    // position to the last END: the times do not depend on whether an event was already gone.
    let (c, q) = setup();
    let m = Mem::new_buffer(&c, 0, 1 << 20, 0).unwrap();
    for _ in 0..5 {
        let queued: Vec<u64> = (0..3)
            .map(|_| {
                let e = ops::fill_buffer(&q, &m, &[1, 2, 3, 4], 0, 1 << 20, &[]).unwrap();
                let t = e.times();
                // Ended and released before the next enqueue (no wait: the host's position
                // stays where it was).
                while !e.is_done() {
                    std::thread::yield_now();
                }
                drop(e);
                t[0]
            })
            .collect();
        q.finish().unwrap();
        let after = ops::fill_buffer(&q, &m, &[1, 2, 3, 4], 0, 1 << 20, &[]).unwrap();
        after.wait();
        let t = after.times();
        // Each 1 MiB fill takes the same emulated time d: the fourth starts 3 d after the first.
        let d = t[3] - t[2];
        assert!(d > 0);
        assert!(
            t[2] >= queued[0] + 3 * d,
            "the fourth fill started at {} (first queued at {}, duration {d})",
            t[2],
            queued[0]
        );
        assert!(
            t[0] >= queued[0] + 3 * d,
            "clFinish did not reach the last END: {t:?}"
        );
    }
}
