//! Worker threads end with their queue (its own test binary: it counts the process's threads).

use std::time::Duration;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::queue::CommandOrder;
use fpgacl_runtime::{platform, Context, Queue};

#[test]
fn released_queues_stop_their_worker_threads() {
    fn threads() -> usize {
        std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
    }
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let before = threads();
    for _ in 0..50 {
        let q = Queue::new(
            &c,
            &platform().devices[0],
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            Vec::new(),
        )
        .unwrap();
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
