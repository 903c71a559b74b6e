//! Worker threads end with their queue (its own test binary: it counts the process's threads).

use std::sync::Arc;
use std::time::Duration;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::queue::CommandOrder;
use fpgacl_runtime::{platform, Context, Queue};

/// The tests count the process's threads: they run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The process's thread count.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

fn out_of_order_queue(c: &Arc<Context>) -> Arc<Queue> {
    Queue::new(
        c,
        &platform().devices[0],
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        Vec::new(),
    )
    .unwrap()
}

#[test]
fn released_queues_stop_their_worker_threads() {
    let _serial = serial();
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let before = threads();
    for _ in 0..50 {
        let q = out_of_order_queue(&c);
        let e = q
            .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
            .unwrap();
        e.wait();
    }
    // Workers notice their queue is gone asynchronously.
    let mut now = threads();
    for _ in 0..200 {
        if now <= before + 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        now = threads();
    }
    assert!(now <= before + 2, "{before} threads before, {now} after");
}

#[test]
fn a_flood_of_transfers_does_not_start_a_thread_each() {
    let _serial = serial();
    use fpgacl_runtime::memory::ops;
    use fpgacl_runtime::Mem;
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let q = out_of_order_queue(&c);
    let m = Mem::new_buffer(&c, 0, 1 << 16, 0).unwrap();
    let src = vec![1u8; 1 << 16];
    let before = threads();
    let mut peak = before;
    for _ in 0..2000 {
        ops::write_buffer(&q, &m, false, 0, 1 << 16, src.as_ptr() as usize, &[]).unwrap();
        peak = peak.max(threads());
    }
    q.finish().unwrap();
    assert!(peak <= before + 8, "{before} threads before, peak {peak}");
}

#[test]
fn out_of_order_channel_partners_run_concurrently() {
    let _serial = serial();
    use fpgacl_runtime::program::launch::enqueue_kernel;
    use fpgacl_runtime::{Kernel, Mem, Program};
    let src = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int ch __attribute__((depth(0)));
__kernel void consumer(__global int *out, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += read_channel_intel(ch);
    out[0] = s;
}
__kernel void producer(int n) {
    for (int i = 0; i < n; i++) write_channel_intel(ch, i);
}
"#;
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let q = out_of_order_queue(&c);
    let p = Program::with_source(&c, vec![src.to_string()]).unwrap();
    p.build("").unwrap();
    let (cons, prod) = (
        Kernel::new(&p, "consumer").unwrap(),
        Kernel::new(&p, "producer").unwrap(),
    );
    let m = Mem::new_buffer(&c, 0, 4, 0).unwrap();
    let h = Arc::as_ptr(&m) as usize;
    let r = |_| Ok(m.clone());
    let n = 1000i32.to_ne_bytes();
    cons.set_arg(0, 8, Some(&h.to_ne_bytes()), &r).unwrap();
    cons.set_arg(1, 4, Some(&n), &r).unwrap();
    prod.set_arg(0, 4, Some(&n), &r).unwrap();
    let one = [1usize];
    // The consumer is enqueued first: it can only finish if the producer runs alongside it.
    let ec = enqueue_kernel(
        &q,
        &cons,
        CL_COMMAND_TASK,
        1,
        None,
        Some(&one),
        Some(&one),
        &[],
    )
    .unwrap();
    let ep = enqueue_kernel(
        &q,
        &prod,
        CL_COMMAND_TASK,
        1,
        None,
        Some(&one),
        Some(&one),
        &[],
    )
    .unwrap();
    assert_eq!(ep.wait(), CL_COMPLETE);
    assert_eq!(ec.wait(), CL_COMPLETE);
    let mut out = [0u8; 4];
    ops_read(&q, &m, &mut out);
    assert_eq!(i32::from_ne_bytes(out), (0..1000).sum::<i32>());
}

fn ops_read(q: &Arc<Queue>, m: &Arc<fpgacl_runtime::Mem>, out: &mut [u8]) {
    fpgacl_runtime::memory::ops::read_buffer(
        q,
        m,
        true,
        0,
        out.len(),
        out.as_mut_ptr() as usize,
        &[],
    )
    .unwrap();
}
