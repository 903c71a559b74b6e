//! Chrome / Perfetto trace-event JSON of the timeline (open in `chrome://tracing` or
//! <https://ui.perfetto.dev>).
//!
//! Layout: one process per device (`pid` = device index, named `device N`); one thread
//! (lane) per kernel, plus extra lanes `kernel #2`, `#3`, ... only when runs of the same kernel
//! overlap (trace viewers require the events of one lane to nest); one lane per transfer
//! direction (`transfers read`, `transfers write`, `transfers copy`); one lane per autorun
//! kernel holding its captures as instant events. Kernel runs and transfers are complete
//! events (`"ph":"X"`), snapshots are instant events on their kernel's lane. Times (`ts`,
//! `dur`) are microseconds on the emulated timeline since host start, as the format requires;
//! `args` carry the exact nanoseconds and work sizes.

use std::collections::{BTreeSet, HashMap};
use std::io::{self, BufWriter, Write};

use serde::Serialize;

use crate::model::Record;
use crate::Profile;

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// Assigns lanes (thread ids), allocating only when a lane is created.
#[derive(Default)]
struct Lanes {
    /// device -> lane name -> tid
    named: HashMap<u32, HashMap<String, u32>>,
    /// device -> kernel -> sub-lanes as (end time of their last run, tid)
    kernels: HashMap<u32, HashMap<String, Vec<(u64, u32)>>>,
    /// (device, tid, name) of every lane, for the metadata events.
    all: Vec<(u32, u32, String)>,
}

impl Lanes {
    fn new_lane(&mut self, device: u32, name: String) -> u32 {
        let tid = self.all.len() as u32 + 1;
        self.all.push((device, tid, name));
        tid
    }

    /// The lane called `prefix` + `name` on `device`.
    fn lane(&mut self, device: u32, prefix: &str, name: &str) -> u32 {
        let full_len = prefix.len() + name.len();
        if let Some(&tid) = self.named.get(&device).and_then(|m| {
            m.iter()
                .find(|(k, _)| k.len() == full_len && k.starts_with(prefix) && k.ends_with(name))
                .map(|(_, t)| t)
        }) {
            return tid;
        }
        let full = format!("{prefix}{name}");
        let tid = self.new_lane(device, full.clone());
        self.named.entry(device).or_default().insert(full, tid);
        tid
    }

    /// Lane of a kernel run: the first sub-lane of that kernel free at `start`.
    fn kernel_lane(&mut self, device: u32, kernel: &str, start: u64, end: u64) -> u32 {
        if let Some(subs) = self
            .kernels
            .get_mut(&device)
            .and_then(|m| m.get_mut(kernel))
        {
            if let Some(slot) = subs.iter_mut().find(|(e, _)| *e <= start) {
                slot.0 = end;
                return slot.1;
            }
        }
        let n = self
            .kernels
            .get(&device)
            .and_then(|m| m.get(kernel))
            .map_or(0, |v| v.len());
        let name = if n == 0 {
            format!("kernel {kernel}")
        } else {
            format!("kernel {kernel} #{}", n + 1)
        };
        let tid = self.new_lane(device, name.clone());
        if n == 0 {
            // Snapshots of this kernel go to its first lane.
            self.named.entry(device).or_default().insert(name, tid);
        }
        self.kernels
            .entry(device)
            .or_default()
            .entry(kernel.to_string())
            .or_default()
            .push((end, tid));
        tid
    }
}

#[derive(Serialize)]
struct Event<'a, A: Serialize> {
    name: &'a str,
    cat: &'static str,
    ph: &'static str,
    ts: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<f64>,
    /// Instant event scope (thread).
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<&'static str>,
    pid: u32,
    tid: u32,
    args: A,
}

#[derive(Serialize)]
struct RunArgs<'a> {
    run_id: u64,
    queue: u64,
    program: u32,
    start_ns: u64,
    end_ns: u64,
    cycles: u64,
    work_dim: u32,
    global_size: &'a [u64; 3],
    local_size: &'a [u64; 3],
    global_offset: &'a [u64; 3],
    sites: usize,
}

#[derive(Serialize)]
struct TransferArgs {
    queue: u64,
    bytes: u64,
    start_ns: u64,
    end_ns: u64,
}

#[derive(Serialize)]
struct SnapshotArgs {
    run_id: u64,
    taken_ns: u64,
}

#[derive(Serialize)]
struct CaptureArgs<'a> {
    capture_ns: u64,
    compute_unit: &'a [u32; 3],
    cleared: bool,
}

#[derive(Serialize)]
struct Meta<A: Serialize> {
    name: &'static str,
    ph: &'static str,
    pid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    tid: Option<u32>,
    args: A,
}

#[derive(Serialize)]
struct NameArg<'a> {
    name: &'a str,
}

#[derive(Serialize)]
struct SortArg {
    sort_index: u32,
}

#[derive(Serialize)]
struct OtherData<'a> {
    board: &'a str,
    host: String,
    start_time: &'a str,
    truncated: bool,
}

/// Writes comma-separated JSON values.
struct Emitter<W: Write> {
    w: BufWriter<W>,
    first: bool,
}

impl<W: Write> Emitter<W> {
    fn emit<T: Serialize>(&mut self, v: &T) -> io::Result<()> {
        if !self.first {
            self.w.write_all(b",\n")?;
        }
        self.first = false;
        serde_json::to_writer(&mut self.w, v).map_err(io::Error::other)
    }
}

/// Writes the trace as `{"displayTimeUnit":"ns","otherData":{..},"traceEvents":[...]}`.
pub fn write_chrome_trace<W: Write>(p: &Profile, out: W) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    let mut lanes = Lanes::default();
    // Records sorted by time so that sub-lane assignment sees runs in start order.
    let mut order: Vec<&Record> = p.records.iter().collect();
    order.sort_by_key(|r| r.time_ns());
    w.write_all(b"{\"displayTimeUnit\":\"ns\",\"otherData\":")?;
    serde_json::to_writer(
        &mut w,
        &OtherData {
            board: &p.header.board.name,
            host: p.header.command_line.join(" "),
            start_time: &p.header.start_time,
            truncated: p.truncated,
        },
    )
    .map_err(io::Error::other)?;
    w.write_all(b",\"traceEvents\":[")?;
    let mut e = Emitter { w, first: true };
    let mut devices = BTreeSet::new();
    for r in order {
        match r {
            Record::KernelRun(k) => {
                devices.insert(k.device);
                let end = k.end_ns.max(k.start_ns);
                let tid = lanes.kernel_lane(k.device, &k.kernel, k.start_ns, end);
                e.emit(&Event {
                    name: &k.kernel,
                    cat: "kernel",
                    ph: "X",
                    ts: us(k.start_ns),
                    dur: Some(us(end - k.start_ns)),
                    s: None,
                    pid: k.device,
                    tid,
                    args: RunArgs {
                        run_id: k.run_id,
                        queue: k.queue,
                        program: k.program,
                        start_ns: k.start_ns,
                        end_ns: k.end_ns,
                        cycles: k.duration_cycles(),
                        work_dim: k.work_dim,
                        global_size: &k.global_size,
                        local_size: &k.local_size,
                        global_offset: &k.global_offset,
                        sites: k.sites.len(),
                    },
                })?;
            }
            Record::Snapshot(s) => {
                devices.insert(s.run.device);
                let tid = lanes.lane(s.run.device, "kernel ", &s.run.kernel);
                e.emit(&Event {
                    name: &format!("snapshot {}", s.run.kernel),
                    cat: "snapshot",
                    ph: "i",
                    ts: us(s.taken_ns),
                    dur: None,
                    s: Some("t"),
                    pid: s.run.device,
                    tid,
                    args: SnapshotArgs {
                        run_id: s.run.run_id,
                        taken_ns: s.taken_ns,
                    },
                })?;
            }
            Record::AutorunCapture(c) => {
                devices.insert(c.device);
                let tid = lanes.lane(c.device, "autorun ", &c.kernel);
                e.emit(&Event {
                    name: &format!("capture {}", c.kernel),
                    cat: "autorun",
                    ph: "i",
                    ts: us(c.capture_ns),
                    dur: None,
                    s: Some("t"),
                    pid: c.device,
                    tid,
                    args: CaptureArgs {
                        capture_ns: c.capture_ns,
                        compute_unit: &c.compute_unit,
                        cleared: c.cleared,
                    },
                })?;
            }
            // Out-of-bounds sites are not timeline events (see the JSON export and the report).
            Record::OutOfBounds(_) => {}
            // Host gaps are wall-clock host time, not on the device timeline the trace draws.
            Record::HostGap(_) => {}
            Record::MemTransfer(t) => {
                devices.insert(t.device);
                let tid = lanes.lane(t.device, "transfers ", t.direction.as_str());
                let end = t.end_ns.max(t.start_ns);
                e.emit(&Event {
                    name: &format!("{} {} B", t.direction.as_str(), t.bytes),
                    cat: "transfer",
                    ph: "X",
                    ts: us(t.start_ns),
                    dur: Some(us(end - t.start_ns)),
                    s: None,
                    pid: t.device,
                    tid,
                    args: TransferArgs {
                        queue: t.queue,
                        bytes: t.bytes,
                        start_ns: t.start_ns,
                        end_ns: t.end_ns,
                    },
                })?;
            }
        }
    }
    for d in &devices {
        e.emit(&Meta {
            name: "process_name",
            ph: "M",
            pid: *d,
            tid: None,
            args: NameArg {
                name: &format!("device {d}"),
            },
        })?;
    }
    let mut all = std::mem::take(&mut lanes.all);
    all.sort();
    for (device, tid, name) in &all {
        e.emit(&Meta {
            name: "thread_name",
            ph: "M",
            pid: *device,
            tid: Some(*tid),
            args: NameArg { name },
        })?;
        e.emit(&Meta {
            name: "thread_sort_index",
            ph: "M",
            pid: *device,
            tid: Some(*tid),
            args: SortArg { sort_index: *tid },
        })?;
    }
    let mut w = e.w;
    w.write_all(b"]}\n")?;
    w.flush()
}
