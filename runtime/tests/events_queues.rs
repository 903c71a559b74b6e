//! Event graph and queue semantics, driven through the runtime API with custom command work.
#![allow(clippy::cloned_ref_to_slice_refs)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::event::wait_for_events;
use fpgacl_runtime::memory::ops;
use fpgacl_runtime::queue::{CommandOrder, Work};
use fpgacl_runtime::{platform, Context, Event, Queue};

fn ctx() -> Arc<Context> {
    Context::new(platform().devices.clone(), Vec::new(), None)
}

fn queue(c: &Arc<Context>, props: cl_command_queue_properties) -> Arc<Queue> {
    Queue::new(c, &platform().devices[0], props, Vec::new()).unwrap()
}

fn push(log: &Arc<Mutex<Vec<u32>>>, v: u32) -> Option<Work> {
    let log = log.clone();
    Some(Box::new(move || {
        log.lock().unwrap().push(v);
        Ok(())
    }))
}

#[test]
fn in_order_queue_runs_in_submission_order() {
    let c = ctx();
    let q = queue(&c, 0);
    let log = Arc::new(Mutex::new(Vec::new()));
    let gate = Event::new_user(&c);
    // The first command waits for the user event; the rest must wait behind it.
    q.enqueue(
        CL_COMMAND_MARKER,
        &[gate.clone()],
        CommandOrder::Normal,
        push(&log, 0),
    )
    .unwrap();
    let mut last = None;
    for i in 1..50 {
        last = Some(
            q.enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, push(&log, i))
                .unwrap(),
        );
    }
    std::thread::sleep(Duration::from_millis(20));
    assert!(log.lock().unwrap().is_empty());
    assert_eq!(last.as_ref().unwrap().status(), CL_QUEUED);
    gate.set_user_status(CL_COMPLETE).unwrap();
    q.finish().unwrap();
    assert_eq!(*log.lock().unwrap(), (0..50).collect::<Vec<_>>());
}

#[test]
fn out_of_order_commands_run_concurrently() {
    let c = ctx();
    let q = queue(&c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    // Two commands that can only finish if they run at the same time.
    let b = Arc::new(Barrier::new(2));
    let mk = |b: &Arc<Barrier>| -> Option<Work> {
        let b = b.clone();
        Some(Box::new(move || {
            b.wait();
            Ok(())
        }))
    };
    let e1 = q
        .enqueue(CL_COMMAND_TASK, &[], CommandOrder::Normal, mk(&b))
        .unwrap();
    let e2 = q
        .enqueue(CL_COMMAND_TASK, &[], CommandOrder::Normal, mk(&b))
        .unwrap();
    wait_for_events(&[e1, e2]).unwrap();
}

#[test]
fn commands_of_two_queues_overlap() {
    let c = ctx();
    let (q1, q2) = (queue(&c, 0), queue(&c, 0));
    let b = Arc::new(Barrier::new(2));
    let b1 = b.clone();
    let e1 = q1
        .enqueue(
            CL_COMMAND_TASK,
            &[],
            CommandOrder::Normal,
            Some(Box::new(move || {
                b1.wait();
                Ok(())
            })),
        )
        .unwrap();
    let e2 = q2
        .enqueue(
            CL_COMMAND_TASK,
            &[],
            CommandOrder::Normal,
            Some(Box::new(move || {
                b.wait();
                Ok(())
            })),
        )
        .unwrap();
    wait_for_events(&[e1, e2]).unwrap();
}

#[test]
fn failed_user_event_propagates_through_the_graph() {
    let c = ctx();
    let (q1, q2) = (
        queue(&c, 0),
        queue(&c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
    );
    let u = Event::new_user(&c);
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let a = q1
        .enqueue(
            CL_COMMAND_TASK,
            &[u.clone()],
            CommandOrder::Normal,
            Some(Box::new(move || {
                r.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })),
        )
        .unwrap();
    // Depends on `a` across queues; and an in-order successor of `a`.
    let b = q2
        .enqueue(CL_COMMAND_MARKER, &[a.clone()], CommandOrder::Normal, None)
        .unwrap();
    let a2 = q1
        .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    b.add_callback(CL_COMPLETE, Box::new(move |st| s.lock().unwrap().push(st)))
        .unwrap();
    u.set_user_status(-1234).unwrap();
    assert_eq!(a.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(b.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    // Queue order is not a wait list: the in-order successor still runs.
    assert_eq!(a2.wait(), CL_COMPLETE);
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "a command with a failed dependency ran"
    );
    assert_eq!(
        *seen.lock().unwrap(),
        vec![CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST]
    );
    assert_eq!(
        wait_for_events(&[u.clone(), a]),
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    );
    // A user event's status is set once, to COMPLETE or an error.
    assert_eq!(u.set_user_status(CL_COMPLETE), Err(CL_INVALID_OPERATION));
    assert_eq!(
        Event::new_user(&c).set_user_status(CL_RUNNING),
        Err(CL_INVALID_VALUE)
    );
}

#[test]
fn long_failed_chains_do_not_recurse() {
    let c = ctx();
    let q = queue(&c, 0);
    let u = Event::new_user(&c);
    let mut last = q
        .enqueue(CL_COMMAND_MARKER, &[u.clone()], CommandOrder::Normal, None)
        .unwrap();
    for _ in 0..100_000 {
        last = q
            .enqueue(CL_COMMAND_MARKER, &[last], CommandOrder::Normal, None)
            .unwrap();
    }
    u.set_user_status(-1).unwrap();
    assert_eq!(last.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

#[test]
fn callbacks_fire_for_each_status_in_order() {
    let c = ctx();
    let q = queue(&c, 0);
    let u = Event::new_user(&c);
    let e = q
        .enqueue(CL_COMMAND_TASK, &[u.clone()], CommandOrder::Normal, None)
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    for trig in [CL_COMPLETE, CL_RUNNING, CL_SUBMITTED] {
        let s = seen.clone();
        e.add_callback(trig, Box::new(move |st| s.lock().unwrap().push(st)))
            .unwrap();
    }
    assert_eq!(
        e.add_callback(CL_QUEUED, Box::new(|_| {})),
        Err(CL_INVALID_VALUE)
    );
    assert!(seen.lock().unwrap().is_empty());
    u.set_user_status(CL_COMPLETE).unwrap();
    assert_eq!(e.wait(), CL_COMPLETE);
    // The callback of the final status may run just after waiters wake.
    for _ in 0..100 {
        if seen.lock().unwrap().len() == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        *seen.lock().unwrap(),
        vec![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE]
    );
    // Registered after the fact: called at once with the status it asked for.
    let s = seen.clone();
    e.add_callback(CL_SUBMITTED, Box::new(move |st| s.lock().unwrap().push(st)))
        .unwrap();
    assert_eq!(seen.lock().unwrap().last(), Some(&CL_SUBMITTED));
}

#[test]
fn profiling_times_are_ordered_and_only_when_enabled() {
    let c = ctx();
    let q = queue(&c, CL_QUEUE_PROFILING_ENABLE);
    let e = q
        .enqueue(
            CL_COMMAND_TASK,
            &[],
            CommandOrder::Normal,
            Some(Box::new(|| {
                // Emulated time: the work's reported duration, not the host time it took.
                std::thread::sleep(Duration::from_millis(2));
                fpgacl_runtime::queue::report_duration(1234);
                Ok(())
            })),
        )
        .unwrap();
    assert_eq!(e.wait(), CL_COMPLETE);
    let t: Vec<u64> = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
    ]
    .iter()
    .map(|p| e.profiling_info(*p).unwrap())
    .collect();
    assert!(t.windows(2).all(|w| w[0] <= w[1]), "{t:?}");
    assert_eq!(t[3] - t[2], 1234, "{t:?}");
    // A command that depends on it starts no earlier than its emulated end.
    let next = q
        .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
        .unwrap();
    next.wait();
    assert!(next.profiling_info(CL_PROFILING_COMMAND_START).unwrap() >= t[3]);
    assert_eq!(e.profiling_info(0x7fff), Err(CL_INVALID_VALUE));
    let q0 = queue(&c, 0);
    let e0 = q0
        .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
        .unwrap();
    e0.wait();
    assert_eq!(
        e0.profiling_info(CL_PROFILING_COMMAND_START),
        Err(CL_PROFILING_INFO_NOT_AVAILABLE)
    );
    let u = Event::new_user(&c);
    u.set_user_status(CL_COMPLETE).unwrap();
    assert_eq!(
        u.profiling_info(CL_PROFILING_COMMAND_END),
        Err(CL_PROFILING_INFO_NOT_AVAILABLE)
    );
}

#[test]
fn commands_released_by_one_user_event_start_together() {
    // Two queues, one command each, both waiting for one user event. The first one's
    // CL_SUBMITTED callback holds the releasing thread for 30 ms before the second is
    // released: on the emulated timeline both are still submitted and started when the
    // event ended, so the profile does not depend on host scheduling.
    let c = ctx();
    let (q1, q2) = (
        queue(&c, CL_QUEUE_PROFILING_ENABLE),
        queue(&c, CL_QUEUE_PROFILING_ENABLE),
    );
    let u = Event::new_user(&c);
    let task = || -> Option<Work> {
        Some(Box::new(|| {
            fpgacl_runtime::queue::report_duration(5_000);
            Ok(())
        }))
    };
    let e1 = q1
        .enqueue(CL_COMMAND_TASK, &[u.clone()], CommandOrder::Normal, task())
        .unwrap();
    let e2 = q2
        .enqueue(CL_COMMAND_TASK, &[u.clone()], CommandOrder::Normal, task())
        .unwrap();
    for e in [&e1, &e2] {
        e.add_callback(
            CL_SUBMITTED,
            Box::new(|_| std::thread::sleep(Duration::from_millis(30))),
        )
        .unwrap();
    }
    std::thread::sleep(Duration::from_millis(5));
    u.set_user_status(CL_COMPLETE).unwrap();
    wait_for_events(&[e1.clone(), e2.clone()]).unwrap();
    let t = |e: &Event, p| e.profiling_info(p).unwrap();
    for p in [CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START] {
        assert_eq!(t(&e1, p), t(&e2, p), "profiling info {p:#x}");
    }
    assert!(t(&e1, CL_PROFILING_COMMAND_START) >= t(&e1, CL_PROFILING_COMMAND_QUEUED));
    assert_eq!(
        t(&e2, CL_PROFILING_COMMAND_END) - t(&e2, CL_PROFILING_COMMAND_START),
        5_000
    );
}

#[test]
fn barrier_and_marker_order_an_out_of_order_queue() {
    let c = ctx();
    let q = queue(&c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let u = Event::new_user(&c);
    let before = q
        .enqueue(CL_COMMAND_TASK, &[u.clone()], CommandOrder::Normal, None)
        .unwrap();
    let marker = ops::marker(&q, false, &[]).unwrap();
    let barrier = ops::marker(&q, true, &[]).unwrap();
    let after = q
        .enqueue(CL_COMMAND_TASK, &[], CommandOrder::Normal, None)
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert!(!marker.is_done() && !barrier.is_done() && !after.is_done());
    u.set_user_status(CL_COMPLETE).unwrap();
    q.finish().unwrap();
    assert!(before.is_done() && marker.is_done() && after.is_done());
    // A marker with a wait list only waits for that list.
    let u2 = Event::new_user(&c);
    let gated = q
        .enqueue(CL_COMMAND_TASK, &[u2.clone()], CommandOrder::Normal, None)
        .unwrap();
    let free = Event::new_user(&c);
    free.set_user_status(CL_COMPLETE).unwrap();
    let m2 = ops::marker(&q, false, &[free]).unwrap();
    assert_eq!(m2.wait(), CL_COMPLETE);
    assert!(!gated.is_done());
    u2.set_user_status(CL_COMPLETE).unwrap();
    q.finish().unwrap();
}

#[test]
fn wait_lists_must_share_the_queue_context() {
    let (c1, c2) = (ctx(), ctx());
    let q = queue(&c1, 0);
    let foreign = Event::new_user(&c2);
    assert_eq!(
        q.enqueue(
            CL_COMMAND_MARKER,
            &[foreign.clone()],
            CommandOrder::Normal,
            None
        )
        .err(),
        Some(CL_INVALID_CONTEXT)
    );
    let own = Event::new_user(&c1);
    assert_eq!(wait_for_events(&[own, foreign]), Err(CL_INVALID_CONTEXT));
}

#[test]
fn failing_work_sets_its_error_status() {
    let c = ctx();
    let q = queue(&c, 0);
    let e = q
        .enqueue(
            CL_COMMAND_TASK,
            &[],
            CommandOrder::Normal,
            Some(Box::new(|| Err(CL_OUT_OF_RESOURCES))),
        )
        .unwrap();
    assert_eq!(e.wait(), CL_OUT_OF_RESOURCES);
    let panics = q
        .enqueue(
            CL_COMMAND_TASK,
            &[],
            CommandOrder::Normal,
            Some(Box::new(|| panic!("boom"))),
        )
        .unwrap();
    assert!(panics.wait() < 0);
    // The queue keeps working after failures.
    let ok = q
        .enqueue(CL_COMMAND_MARKER, &[], CommandOrder::Normal, None)
        .unwrap();
    assert_eq!(ok.wait(), CL_COMPLETE);
}
