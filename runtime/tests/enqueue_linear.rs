//! Issue 12 item 2: a long burst of tiny kernels on one in-order queue before one `finish`
//! costs O(1) bookkeeping per launch. Not timed: the assertions count what the run ledger
//! visits and holds, what the profiling session tracks, and that no run of the burst waited
//! for a confirming sample (each used to wait 0.1 ms, far longer on a loaded machine), and
//! check the result (every launch ran once, in order). A watchdog turns a hang into a failure.
//!
//! One test per file: the ledger and the profiling session are process-wide, so nothing else
//! may launch kernels meanwhile (also under `cargo test`).

use std::sync::Arc;
use std::time::Duration;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::memory::ops;
use fpgacl_runtime::program::launch::enqueue_kernel;
use fpgacl_runtime::program::Kernel;
use fpgacl_runtime::{platform, Context, Event, Mem, Program, Queue};

const SRC: &str = r#"
__kernel void tick(__global int *restrict counter, int step)
{
    counter[0] = counter[0] * 3 + step;
}
"#;

/// Launches in the burst.
const N: usize = 20_000;

#[test]
fn a_burst_of_launches_costs_bounded_bookkeeping_per_launch() {
    // Profiling on (as `fpgacl profile` runs a host): the session follows every launch.
    let dir = std::env::temp_dir().join(format!("fpgacl-enq-linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("profile.mon");
    std::env::set_var("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    std::env::set_var("FPGACL_PROFILE_OUT", &out);

    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if done_rx.recv_timeout(Duration::from_secs(600)).is_err() {
            eprintln!("enqueue_linear: the burst did not finish in 600 s");
            std::process::abort();
        }
    });

    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let session = fpgacl_runtime::profiling::current().expect("profiling session");
    let q = Queue::new(
        &c,
        &platform().devices[0],
        CL_QUEUE_PROFILING_ENABLE,
        Vec::new(),
    )
    .unwrap();
    let p = Program::with_source(&c, vec![SRC.to_string()]).unwrap();
    p.build("").unwrap();
    let k = Kernel::new(&p, "tick").unwrap();
    let m = Mem::new_buffer(&c, 0, 4, 0).unwrap();
    let zero = 0i32.to_ne_bytes();
    ops::write_buffer(&q, &m, true, 0, 4, zero.as_ptr() as usize, &[]).unwrap();
    let h = Arc::as_ptr(&m) as usize;
    k.set_arg(0, 8, Some(&h.to_ne_bytes()), &|_| Ok(m.clone()))
        .unwrap();

    let ledger = &platform().devices[0].bandwidth;
    let (confirmed0, visited0) = (ledger.confirmations(), ledger.entries_visited());
    // The first launch waits for a user event, so the whole burst is queued before anything
    // runs, whatever the machine's load (a host quiet for `bandwidth::QUIET` between two
    // calls would otherwise let runs finalise while it is still enqueuing).
    let gate = Event::new_user(&c);
    let mut want = 0u32;
    for i in 0..N {
        let step = (i % 7) as i32;
        want = want.wrapping_mul(3).wrapping_add(step as u32);
        k.set_arg(1, 4, Some(&step.to_ne_bytes()), &|_| Ok(m.clone()))
            .unwrap();
        let wait = if i == 0 {
            vec![gate.clone()]
        } else {
            Vec::new()
        };
        // The event is dropped at once (a NULL event pointer in C).
        let _call = fpgacl_runtime::clock::host_call();
        enqueue_kernel(&q, &k, CL_COMMAND_TASK, 1, None, Some(&[1]), None, &wait).unwrap();
    }
    assert_eq!(
        ledger.entry_counts().0,
        N,
        "every launch queued, none started"
    );
    gate.set_user_status(CL_COMPLETE).unwrap();
    q.finish().unwrap();
    let mut got = [0u8; 4];
    ops::read_buffer(&q, &m, true, 0, 4, got.as_mut_ptr() as usize, &[]).unwrap();
    assert_eq!(
        u32::from_ne_bytes(got),
        want,
        "every launch ran once, in order"
    );

    // Every run but the first finalised alone (launches behind it on its in-order queue
    // wait for its event): none waited for a confirming sample.
    let confirmed = ledger.confirmations() - confirmed0;
    assert_eq!(confirmed, 0, "{confirmed} of {N} runs confirmed");
    // The evaluations visited a bounded number of entries per launch (a few started runs),
    // never the queued launches: a ledger that scanned them would visit about N^2 / 2.
    let visited = ledger.entries_visited() - visited0;
    assert!(
        visited <= 40 * N as u64,
        "{visited} ledger entries visited for {N} launches"
    );
    // Nothing queued or running is left behind; the session forgot every run it wrote.
    let (waiting, started, _) = ledger.entry_counts();
    assert_eq!(waiting, 0);
    assert!(started <= 2, "{started} started runs kept");
    assert_eq!(
        session.running_len(),
        0,
        "runs in flight left in the session"
    );

    drop((k, p, m, q, c));
    let _ = done_tx.send(());
    let _ = std::fs::remove_dir_all(&dir);
}
