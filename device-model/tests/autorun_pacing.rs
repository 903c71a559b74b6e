//! Pacing of autorun kernels: an execution that moves data restarts at once, one that moves
//! nothing (only failed non-blocking operations) backs off so an idle instance stays near-idle.

mod timing_util;

use fpgacl_device_model::*;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use timing_util::*;

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0 __attribute__((depth(4)));
channel int c1 __attribute__((depth(4)));
channel int a_in __attribute__((depth(4)));
channel int a_out __attribute__((depth(4)));
channel int idle_in __attribute__((depth(4)));
channel int idle_out __attribute__((depth(4)));
__kernel void prod(__global const int *restrict s, int n) { for (int i = 0; i < n; i++) write_channel_intel(c0, s[i]); }
__kernel void mid(int n) { for (int i = 0; i < n; i++) write_channel_intel(c1, read_channel_intel(c0) * 3); }
__kernel void cons(__global int *restrict d, int n) { for (int i = 0; i < n; i++) d[i] = read_channel_intel(c1); }
__attribute__((max_global_work_dim(0))) __attribute__((autorun))
__kernel void auto1(void) { write_channel_intel(a_out, read_channel_intel(a_in) * 3); }
__kernel void aprod(__global const int *restrict s, int n) { for (int i = 0; i < n; i++) write_channel_intel(a_in, s[i]); }
__kernel void acons(__global int *restrict d, int n) { for (int i = 0; i < n; i++) d[i] = read_channel_intel(a_out); }
__attribute__((max_global_work_dim(0))) __attribute__((autorun))
__kernel void poller(void) {
    bool v = false;
    int x = read_channel_nb_intel(idle_in, &v);
    if (v) write_channel_intel(idle_out, x);
}
"#;

/// The tests measure the CPU time of the whole process: under `cargo test` (one process, tests
/// on parallel threads) each takes this lock, so no other test's autorun kernels run in its
/// window (`cargo nextest` runs each test in a process of its own).
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn instance() -> Arc<ProgramInstance> {
    Arc::new(kit(SRC, 1).inst)
}

fn kidx(inst: &ProgramInstance, name: &str) -> u32 {
    inst.module()
        .kernels
        .iter()
        .position(|k| k.name == name)
        .unwrap() as u32
}

fn read_ints(m: &DeviceMemory, n: usize) -> Vec<i32> {
    let mut b = vec![0u8; n * 4];
    m.read(0, &mut b).unwrap();
    b.chunks(4)
        .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn status(inst: &ProgramInstance, name: &str) -> AutorunStatus {
    inst.autorun_status()
        .into_iter()
        .find(|s| s.kernel == name)
        .unwrap()
}

/// Runs `producer -> middle -> consumer` over `n` items (the middle stage enqueued, or the
/// autorun kernel when `middle` is `None`); checks the output; returns the wall time.
fn pipeline(
    inst: &Arc<ProgramInstance>,
    p: &str,
    middle: Option<&str>,
    c: &str,
    n: usize,
) -> Duration {
    let src: Vec<i32> = (0..n as i32).collect();
    let sbuf = buf(&src);
    let dbuf = buf(&vec![0; n]);
    let nn = ArgBinding::Value((n as i32).to_ne_bytes().to_vec());
    let t0 = Instant::now();
    std::thread::scope(|s| {
        let cons = {
            let spec = LaunchSpec::task(kidx(inst, c), vec![ArgBinding::buffer(&dbuf), nn.clone()]);
            s.spawn(move || inst.run(&spec).expect("consumer"))
        };
        let mid = middle.map(|m| {
            let spec = LaunchSpec::task(kidx(inst, m), vec![nn.clone()]);
            s.spawn(move || inst.run(&spec).expect("middle"))
        });
        let spec = LaunchSpec::task(kidx(inst, p), vec![ArgBinding::buffer(&sbuf), nn.clone()]);
        inst.run(&spec).expect("producer");
        if let Some(m) = mid {
            m.join().unwrap();
        }
        cons.join().unwrap();
    });
    let wall = t0.elapsed();
    let want: Vec<i32> = src.iter().map(|x| x * 3).collect();
    assert_eq!(read_ints(&dbuf, n), want);
    wall
}

/// QA's reproducer: one item per autorun execution, each execution's blocking read finds data
/// and its write finds room. Such executions used to be taken for spinning and slept 1 ms each
/// (10,000 items: 7.3 s against 29 ms enqueued).
#[test]
fn fed_autorun_pipeline_takes_no_backoff() {
    let _serial = serial();
    let inst = instance();
    let n = 4000;
    let enqueued = pipeline(&inst, "prod", Some("mid"), "cons", n);
    let autorun = pipeline(&inst, "aprod", None, "acons", n);
    let st = status(&inst, "auto1");
    eprintln!(
        "{n} items: enqueued middle {:?}, autorun middle {:?}, autorun runs {}, back-offs {}",
        enqueued, autorun, st.runs, st.backoffs
    );
    assert!(st.runs >= n as u64, "{} runs", st.runs);
    // Every execution moved two elements: none backs off (the count cannot be timing-flaky;
    // the wall times above are printed, not asserted: a loaded machine stretches the
    // per-item hand-offs of the autorun pipeline far more than the enqueued one's).
    assert_eq!(st.backoffs, 0);
}

/// An autorun kernel polling a channel nobody feeds moves nothing: it backs off after every
/// execution (about one execution per millisecond instead of a busy loop).
#[test]
fn idle_autorun_poller_backs_off() {
    let _serial = serial();
    let inst = instance();
    let cpu0 = process_cpu_seconds();
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    let st = status(&inst, "poller");
    let secs = t0.elapsed().as_secs_f64();
    let cpu = process_cpu_seconds() - cpu0;
    eprintln!(
        "idle poller: {} runs, {} back-offs, {cpu:.3} s CPU in {secs:.3} s",
        st.runs, st.backoffs
    );
    // Near-idle: far below one busy core (the idle `auto1` instance blocks in its read).
    assert!(cpu < secs * 0.5, "{cpu} s CPU in {secs} s");
    // Paced: an idle execution either took 1 ms or more, or sleeps at least 1 ms after it;
    // so at most ~1 execution per ms, whatever the machine's load (how many of them slept
    // depends on the load: printed, not asserted).
    assert!(
        st.runs as f64 <= secs * 1000.0 + 10.0,
        "{} runs in {secs} s",
        st.runs
    );
    assert!(st.runs >= 10, "the poller runs: {} runs", st.runs);
}

/// User + system CPU time of this process (Linux `/proc/self/stat`, clock ticks of 10 ms).
fn process_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat(5) (utime, stime) are at 11 and 12 after the comm field.
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// Issue 15 item 8: 200 autorun compute units blocked in their reads (nothing feeds them)
/// stay off the CPU while the host sleeps: their reads park (no spinning or yielding) and
/// wake only on a channel operation, on shutdown or every 200 ms. (Polling compute units are
/// paced by the back-off of `idle_autorun_poller_backs_off`; many of them still cost CPU
/// through the non-blocking decisions of rule F-nb, which scan every timed execution.)
#[test]
fn two_hundred_idle_autorun_compute_units_stay_off_the_cpu() {
    let _serial = serial();
    const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int in_b[200] __attribute__((depth(4)));
channel int out __attribute__((depth(4)));
__attribute__((max_global_work_dim(0))) __attribute__((autorun))
__attribute__((num_compute_units(200)))
__kernel void blocked(void) { write_channel_intel(out, read_channel_intel(in_b[get_compute_id(0)])); }
"#;
    let t_build = Instant::now();
    let inst = kit(SRC, 1).inst;
    assert!(
        t_build.elapsed() < Duration::from_secs(20),
        "loading 200 compute units took {:?}",
        t_build.elapsed()
    );
    // Let every instance reach its read (`autorun_status` first waits, up to 2 s, until every
    // instance is blocked: a fixed 300 ms was too short in a parallel suite), then measure.
    // Steady state: of two 1 s windows in a row, one must stay under 10% of a core (a
    // spinning or yielding read fails both). With one window, 2 of about 20 runs of the
    // device-model suite measured over 10%; not reproduced alone, cause not established.
    assert_eq!(inst.autorun_status().len(), 200);
    let mut windows = Vec::new();
    for _ in 0..2 {
        let cpu0 = process_cpu_seconds();
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_millis(1000));
        let secs = t0.elapsed().as_secs_f64();
        let cpu = process_cpu_seconds() - cpu0;
        eprintln!("200 idle autorun compute units: {cpu:.3} s CPU in {secs:.3} s");
        windows.push((cpu, secs));
        if cpu < secs * 0.1 {
            break;
        }
    }
    let (cpu, secs) = *windows.last().unwrap();
    assert!(cpu < secs * 0.1, "CPU s in 1 s windows: {windows:?}");
    assert_eq!(inst.autorun_status().len(), 200);
    inst.shutdown();
}

/// Issue 15 item 8: 200 autorun compute units that poll their channels with non-blocking reads
/// (nothing feeds them) park once they have stayed idle through the back-off: over 1 s of host
/// sleep the process uses under 0.1 s of CPU (before parking: about 0.5 s, the non-blocking
/// decisions of the pollers against each other's clocks). A parked poller wakes when its
/// channel is written: an enqueued kernel feeding compute unit 7 gets its answer.
#[test]
fn two_hundred_polling_autorun_compute_units_park_when_idle() {
    let _serial = serial();
    const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int req[200] __attribute__((depth(4)));
channel int rsp[200] __attribute__((depth(4)));
__attribute__((max_global_work_dim(0))) __attribute__((autorun))
__attribute__((num_compute_units(200)))
__kernel void poller(void) {
    int id = get_compute_id(0);
    bool ok = false;
    int v = read_channel_nb_intel(req[id], &ok);
    if (ok) write_channel_intel(rsp[id], v * 2 + id);
}
__kernel void ask(__global int *restrict out, int x) {
    write_channel_intel(req[7], x);
    out[0] = read_channel_intel(rsp[7]);
}
"#;
    let inst = kit(SRC, 1).inst;
    // Let every instance go through its back-off and park (about 0.25 s on an idle machine;
    // a busy one stretches it, so wait for the state, not for a time).
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let parked = inst.autorun_status().iter().filter(|s| s.parked).count();
        if parked == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{parked} of 200 idle pollers parked after 120 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let runs0: u64 = inst.autorun_status().iter().map(|s| s.runs).sum();
    let cpu0 = process_cpu_seconds();
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_millis(1000));
    let secs = t0.elapsed().as_secs_f64();
    let cpu = process_cpu_seconds() - cpu0;
    let runs1: u64 = inst.autorun_status().iter().map(|s| s.runs).sum();
    eprintln!(
        "200 polling autorun compute units: {cpu:.3} s CPU in {secs:.3} s, {} executions",
        runs1 - runs0
    );
    assert!(cpu < 0.1, "{cpu} s CPU in {secs} s");
    // A parked poller still answers.
    let out = buf(&[0i32]);
    let k = kidx(&inst, "ask");
    let t1 = Instant::now();
    inst.run(&LaunchSpec::task(
        k,
        vec![
            ArgBinding::buffer(&out),
            ArgBinding::Value(20i32.to_ne_bytes().to_vec()),
        ],
    ))
    .expect("ask");
    assert_eq!(read_ints(&out, 1), vec![20 * 2 + 7]);
    assert!(
        t1.elapsed() < Duration::from_secs(10),
        "the answer took {:?}",
        t1.elapsed()
    );
    inst.shutdown();
}
