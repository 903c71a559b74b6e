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

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use serde_json::{json, Value};

use crate::model::Record;
use crate::Profile;

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// Assigns lanes (thread ids) per device.
#[derive(Default)]
struct Lanes {
    /// (device, lane name) -> tid
    ids: BTreeMap<(u32, String), u32>,
    /// (device, kernel) -> end times of its sub-lanes
    kernel_ends: BTreeMap<(u32, String), Vec<u64>>,
    next: u32,
}

impl Lanes {
    fn lane(&mut self, device: u32, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(&(device, name.to_string())) {
            return id;
        }
        self.next += 1;
        self.ids.insert((device, name.to_string()), self.next);
        self.next
    }

    /// Lane of a kernel run: the first sub-lane of that kernel free at `start`.
    fn kernel_lane(&mut self, device: u32, kernel: &str, start: u64, end: u64) -> u32 {
        let ends = self
            .kernel_ends
            .entry((device, kernel.to_string()))
            .or_default();
        let idx = match ends.iter().position(|&e| e <= start) {
            Some(i) => {
                ends[i] = end;
                i
            }
            None => {
                ends.push(end);
                ends.len() - 1
            }
        };
        let name = if idx == 0 {
            format!("kernel {kernel}")
        } else {
            format!("kernel {kernel} #{}", idx + 1)
        };
        self.lane(device, &name)
    }
}

/// Writes the trace as `{"traceEvents":[...],"displayTimeUnit":"ns",...}`.
pub fn write_chrome_trace<W: Write>(p: &Profile, out: W) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    let mut lanes = Lanes::default();
    // Runs sorted by start so that sub-lane assignment sees them in time order.
    let mut order: Vec<&Record> = p.records.iter().collect();
    order.sort_by_key(|r| r.time_ns());
    w.write_all(b"{\"displayTimeUnit\":\"ns\",\"otherData\":")?;
    serde_json::to_writer(
        &mut w,
        &json!({
            "board": p.header.board.name,
            "host": p.header.command_line.join(" "),
            "start_time": p.header.start_time,
            "truncated": p.truncated,
        }),
    )
    .map_err(io::Error::other)?;
    w.write_all(b",\"traceEvents\":[")?;
    let mut first = true;
    let mut emit = |w: &mut BufWriter<W>, v: Value| -> io::Result<()> {
        if !first {
            w.write_all(b",\n")?;
        }
        first = false;
        serde_json::to_writer(&mut *w, &v).map_err(io::Error::other)
    };
    let mut devices = std::collections::BTreeSet::new();
    for r in order {
        match r {
            Record::KernelRun(k) => {
                devices.insert(k.device);
                let end = k.end_ns.max(k.start_ns);
                let tid = lanes.kernel_lane(k.device, &k.kernel, k.start_ns, end);
                emit(
                    &mut w,
                    json!({
                        "name": k.kernel, "cat": "kernel", "ph": "X",
                        "ts": us(k.start_ns), "dur": us(end - k.start_ns),
                        "pid": k.device, "tid": tid,
                        "args": {
                            "run_id": k.run_id, "queue": k.queue, "program": k.program,
                            "start_ns": k.start_ns, "end_ns": k.end_ns,
                            "cycles": k.duration_cycles(), "work_dim": k.work_dim,
                            "global_size": k.global_size, "local_size": k.local_size,
                            "global_offset": k.global_offset, "sites": k.sites.len(),
                        }
                    }),
                )?;
            }
            Record::Snapshot(s) => {
                devices.insert(s.run.device);
                let tid = lanes.lane(s.run.device, &format!("kernel {}", s.run.kernel));
                emit(
                    &mut w,
                    json!({
                        "name": format!("snapshot {}", s.run.kernel), "cat": "snapshot",
                        "ph": "i", "s": "t", "ts": us(s.taken_ns),
                        "pid": s.run.device, "tid": tid,
                        "args": { "run_id": s.run.run_id, "taken_ns": s.taken_ns }
                    }),
                )?;
            }
            Record::AutorunCapture(c) => {
                devices.insert(c.device);
                let tid = lanes.lane(c.device, &format!("autorun {}", c.kernel));
                emit(
                    &mut w,
                    json!({
                        "name": format!("capture {}", c.kernel), "cat": "autorun",
                        "ph": "i", "s": "t", "ts": us(c.capture_ns),
                        "pid": c.device, "tid": tid,
                        "args": { "capture_ns": c.capture_ns, "compute_unit": c.compute_unit }
                    }),
                )?;
            }
            Record::MemTransfer(t) => {
                devices.insert(t.device);
                let tid = lanes.lane(t.device, &format!("transfers {}", t.direction.as_str()));
                let end = t.end_ns.max(t.start_ns);
                emit(
                    &mut w,
                    json!({
                        "name": format!("{} {} B", t.direction.as_str(), t.bytes),
                        "cat": "transfer", "ph": "X",
                        "ts": us(t.start_ns), "dur": us(end - t.start_ns),
                        "pid": t.device, "tid": tid,
                        "args": { "queue": t.queue, "bytes": t.bytes,
                                  "start_ns": t.start_ns, "end_ns": t.end_ns }
                    }),
                )?;
            }
        }
    }
    for d in &devices {
        emit(
            &mut w,
            json!({"name": "process_name", "ph": "M", "pid": d,
                   "args": {"name": format!("device {d}")}}),
        )?;
    }
    for ((device, name), tid) in &lanes.ids {
        emit(
            &mut w,
            json!({"name": "thread_name", "ph": "M", "pid": device, "tid": tid,
                   "args": {"name": name}}),
        )?;
        emit(
            &mut w,
            json!({"name": "thread_sort_index", "ph": "M", "pid": device, "tid": tid,
                   "args": {"sort_index": tid}}),
        )?;
    }
    w.write_all(b"]}\n")?;
    w.flush()
}
