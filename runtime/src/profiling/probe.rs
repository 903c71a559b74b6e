//! [`KernelProbe`]: one enqueued kernel run followed by the profiling session, from enqueue to
//! its `KernelRun` record (and any snapshots while it runs).

use std::sync::{Arc, Weak};

use fpgacl_device_model::counters::CounterBlock;
use fpgacl_device_model::timing::KernelTiming;
use fpgacl_device_model::{RunError, RunReport};
use fpgacl_profile_format::{HostGap, KernelRun, OutOfBounds, Record, SiteCounters, Snapshot};
use parking_lot::Mutex;

use super::session::{ProgramInfo, Session};
use crate::cl::*;
use crate::event::Event;
use crate::program::launch::Launch;
use crate::queue::Queue;

/// What the run reported when it finished on the device.
struct Finished {
    report: RunReport,
}

/// An enqueued kernel run the session records.
pub struct KernelProbe {
    session: &'static Session,
    program: Arc<ProgramInfo>,
    kernel_index: u32,
    kernel: String,
    device: u32,
    queue: u64,
    run_id: u64,
    work_dim: u32,
    global: [u64; 3],
    local: [u64; 3],
    offset: [u64; 3],
    finished: Mutex<Option<Finished>>,
    /// Counters of the run while it runs (when kernel runs carry counters).
    live: Option<Arc<CounterBlock>>,
    /// The timing model's result for the run, filled by `Launch::run` before the event ends.
    timing: Arc<Mutex<Option<KernelTiming>>>,
    /// Device clock / the program's clock (`-clock=<MHz>`): the profile counts cycles of the
    /// device's clock (its header's fmax), so a program built for another clock has its
    /// cycle figures converted (1.0 otherwise).
    clock_scale: f64,
    event: Mutex<Weak<Event>>,
    /// Its place in the file's order ([`Session::reserve`]); taken once written.
    seq: Mutex<Option<u64>>,
    /// The host's own time before it enqueued the run (`clock::call_gap_ns`), recorded as a
    /// `HostGap` before the run's record.
    host_gap: Option<u64>,
}

impl Drop for KernelProbe {
    /// A probe whose record was never written (the command was not enqueued, or never ended)
    /// gives up its place so later records are not held back.
    fn drop(&mut self) {
        self.session.remove_running(self.run_id);
        if let Some(seq) = self.seq.lock().take() {
            self.session.write_in_order(seq, Vec::new());
        }
    }
}

/// A run timed at a program's own kernel clock (`-clock`) in cycles of the device's clock:
/// the duration and every per-site cycle figure times `scale` (device MHz / program MHz).
fn to_device_clock(t: &mut KernelTiming, scale: f64) {
    let c = |v: u64| (v as f64 * scale).round() as u64;
    t.cycles = c(t.cycles);
    for site in &mut t.sites {
        site.active_cycles = c(site.active_cycles);
        site.fired_cycles = c(site.fired_cycles).min(site.active_cycles);
        site.stall_cycles = c(site.stall_cycles);
        site.predicated_cycles = c(site.predicated_cycles);
    }
}

fn u64x3(a: [usize; 3]) -> [u64; 3] {
    [a[0] as u64, a[1] as u64, a[2] as u64]
}

impl KernelProbe {
    /// A probe for `launch` on `q`, when a profiling session is recording kernel runs.
    pub fn new(q: &Arc<Queue>, launch: &Launch) -> Option<Arc<KernelProbe>> {
        let session = super::session::current()?;
        let program = match session.program_of(&launch.instance) {
            Some(p) => p,
            None => session.add_program(&launch.instance, q.device.index as u32, &launch.board),
        };
        let kfn = launch.module.kernels.get(launch.kernel_index);
        let kernel = kfn.map(|k| k.name.clone()).unwrap_or_default();
        let live = match kfn {
            Some(k) if session.config.counters() => Some(Arc::new(CounterBlock::new(
                launch.module.sites.len(),
                k.loops.len(),
            ))),
            _ => None,
        };
        Some(Arc::new(KernelProbe {
            session,
            program,
            kernel_index: launch.kernel_index as u32,
            kernel,
            device: q.device.index as u32,
            queue: session.queue_id(q),
            run_id: session.next_run_id(),
            work_dim: launch.work_dim,
            global: u64x3(launch.global_size),
            local: u64x3(launch.local_size),
            offset: u64x3(launch.global_offset),
            finished: Mutex::new(None),
            live,
            timing: launch.timing.clone(),
            clock_scale: if launch.board.kernel_clock_mhz > 0.0 {
                q.device.board.kernel_clock_mhz / launch.board.kernel_clock_mhz
            } else {
                1.0
            },
            event: Mutex::new(Weak::new()),
            seq: Mutex::new(Some(session.reserve())),
            host_gap: crate::clock::call_gap_ns(),
        }))
    }

    /// Runs `launch` on the device (the queue worker calls this) and keeps its report for
    /// the record (moved, not copied: nothing else uses it).
    pub fn run(&self, launch: &Launch) -> Result<(), RunError> {
        let report = super::with_live_counters(self.live.clone(), || launch.run())?;
        *self.finished.lock() = Some(Finished { report });
        Ok(())
    }

    /// Follows the command's event: the record is written when it completes.
    pub fn attach(self: &Arc<Self>, ev: &Arc<Event>) {
        *self.event.lock() = Arc::downgrade(ev);
        self.session.add_running(self);
        let me = self.clone();
        ev.set_end_hook(Box::new(move |status, times| me.end(status, times)));
    }

    /// Whether this probe follows `ev`.
    pub fn follows(&self, ev: &Arc<Event>) -> bool {
        self.event.lock().as_ptr() == Arc::as_ptr(ev)
    }

    /// The event of the command, while it exists.
    pub fn event(&self) -> Option<Arc<Event>> {
        self.event.lock().upgrade()
    }

    /// Run id of the run (its key among the session's runs in flight).
    pub fn run_id(&self) -> u64 {
        self.run_id
    }

    /// Program id of the run.
    pub fn program_id(&self) -> u32 {
        self.program.id
    }

    fn run_record(&self, start_ns: u64, end_ns: u64, sites: Vec<SiteCounters>) -> KernelRun {
        let s = self.session;
        self.run_record_cycles(
            start_ns,
            end_ns,
            s.cycles(start_ns),
            s.cycles(end_ns),
            sites,
        )
    }

    fn run_record_cycles(
        &self,
        start_ns: u64,
        end_ns: u64,
        start_cycle: u64,
        end_cycle: u64,
        sites: Vec<SiteCounters>,
    ) -> KernelRun {
        KernelRun {
            run_id: self.run_id,
            device: self.device,
            queue: self.queue,
            kernel: self.kernel.clone(),
            program: self.program.id,
            start_ns,
            end_ns,
            start_cycle,
            end_cycle,
            work_dim: self.work_dim,
            global_size: self.global,
            local_size: self.local,
            global_offset: self.offset,
            sites,
        }
    }

    /// The event ended with `status`; `times` are its queued/submit/start/end timestamps
    /// (START/END on the emulated timeline).
    ///
    /// Counters: the timing model's per-site counters of the run when it produced them (the
    /// normal case), else the functional counts mapped by [`super::counters`]. Cycles: the
    /// START in device cycles, plus the timing model's cycle count.
    fn end(&self, status: cl_int, times: [u64; 4]) {
        self.session.remove_running(self.run_id);
        let records = self.end_records(status, times);
        if let Some(seq) = self.seq.lock().take() {
            self.session.write_in_order(seq, records);
        }
    }

    fn end_records(&self, status: cl_int, times: [u64; 4]) -> Vec<Record> {
        let finished = self.finished.lock().take();
        let timing = self.timing.lock().take();
        if status != CL_COMPLETE {
            return Vec::new(); // the kernel failed: no run to record
        }
        let s = self.session;
        let start = s.rel_ns(times[2]);
        let end = s.rel_ns(times[3]).max(start);
        let mut records: Vec<Record> = self
            .host_gap
            .map(|gap_ns| {
                Record::HostGap(HostGap {
                    device: self.device,
                    queue: self.queue,
                    run_id: Some(self.run_id),
                    command: self.kernel.clone(),
                    queued_ns: s.rel_ns(times[0]).min(start),
                    gap_ns,
                })
            })
            .into_iter()
            .collect();
        if let Some(mut t) = timing {
            if self.clock_scale != 1.0 {
                to_device_clock(&mut t, self.clock_scale);
            }
            let c0 = s.cycles(start);
            let c1 = c0.saturating_add(t.cycles);
            let scale = s.config.window.overlap(c0, c1);
            let sites = if !s.config.counters() || scale <= 0.0 {
                Vec::new()
            } else {
                let mut sites = t.sites;
                if scale < 1.0 {
                    for site in &mut sites {
                        super::counters::scale_counters(site, scale);
                    }
                }
                sites
            };
            let rec = self.run_record_cycles(start, end, c0, c1, sites);
            records.push(Record::KernelRun(rec));
            if let Some(f) = &finished {
                records.extend(self.oob_records(&f.report, end));
            }
            return records;
        }
        let sites = match &finished {
            Some(f) if s.config.counters() => {
                let (c0, c1) = (s.cycles(start), s.cycles(end));
                let scale = s.config.window.overlap(c0, c1);
                if scale > 0.0 {
                    self.program.sites.map(
                        self.kernel_index,
                        &f.report.counters,
                        f.report.work_items,
                        c1 - c0,
                        scale,
                    )
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        };
        records.push(Record::KernelRun(self.run_record(start, end, sites)));
        if let Some(f) = &finished {
            records.extend(self.oob_records(&f.report, end));
        }
        records
    }

    /// The run's out-of-bounds sites that did not stop it, as records.
    fn oob_records(&self, report: &RunReport, end_ns: u64) -> Vec<Record> {
        report
            .oob
            .iter()
            .map(|o| {
                let (file, line, column) = o
                    .pos
                    .as_ref()
                    .map(|p| (p.file.clone(), p.line, p.col))
                    .unwrap_or_default();
                Record::OutOfBounds(OutOfBounds {
                    run_id: self.run_id,
                    device: self.device,
                    kernel: self.kernel.clone(),
                    program: self.program.id,
                    time_ns: end_ns,
                    file,
                    line,
                    column,
                    work_item: o.work_item,
                    memory: o.region.to_string(),
                    target: o.target.clone().unwrap_or_default(),
                    offset: o.offset,
                    access_bytes: o.size,
                    object_bytes: o.limit,
                    write: o.write,
                    count: o.count,
                })
            })
            .collect()
    }

    /// A snapshot of the run of `ev` (its event) as far as it has got, taken now: the time is
    /// the host's virtual time, at least the event's START (the event's END will not be earlier:
    /// `Event::observe_running_at`), and the counts so far from the run's live counter block, mapped by
    /// [`super::counters`] over the time since START. Kernels that use channels or pipes run
    /// sequentially and count live; a parallel NDRange run publishes its workers' counts as
    /// they finish.
    pub fn snapshot(&self, ev: &Event) -> Record {
        let s = self.session;
        let observed = ev.observe_running_at(crate::clock::device_now_ns());
        let taken = s.rel_ns(observed);
        let start = s.rel_ns(ev.times()[2]).min(taken);
        let sites = match &self.live {
            Some(live) if s.config.counters() => {
                let (c0, c1) = (s.cycles(start), s.cycles(taken));
                // Work-items finished so far are unknown mid-run: a task has one; for an
                // NDRange the executed accesses stand for the valid ones (no predication).
                let items = u64::from(self.global.iter().product::<u64>() == 1);
                self.program.sites.map(
                    self.kernel_index,
                    &live.snapshot(),
                    items,
                    c1 - c0,
                    s.config.window.overlap(c0, c1),
                )
            }
            _ => Vec::new(),
        };
        Record::Snapshot(Snapshot {
            taken_ns: taken,
            run: self.run_record(start, taken, sites),
        })
    }
}
