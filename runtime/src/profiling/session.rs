//! The per-process profiling session: the open `profile.mon`, the programs loaded so far, the
//! kernel runs in flight, and the ids the records use.
//!
//! One session per process, opened by the first context ([`open_once`]): it creates (truncates)
//! the output file and writes the header; every later context of the process appends to the
//! same file. Every record is handed to the OS as one whole frame when it is written
//! ([`fpgacl_profile_format::ProfileWriter`]), so a host killed at any moment leaves a file
//! that reads back to its last whole record.
//!
//! **Order.** Frames are written in the order the host asked for what they record, not in
//! the order the worker threads finished: each program, kernel launch, transfer and autorun
//! capture takes a sequence number on the host's thread (at `clBuildProgram`,
//! `clEnqueue*`, the extension call), and its frames are written once every earlier number
//! has been written ([`Session::reserve`], [`Session::write_in_order`]). So the same host
//! program writes the same bytes (apart from the header's date, pid and command line),
//! whatever the threads' speed. A number whose command does not end holds the later frames
//! back for about [`HOLD`] of wall time (then they are written and the late frame follows
//! when it comes; a thread checks every HOLD / 4), and at the process's exit
//! ([`flush_at_exit`]), or when SIGINT/SIGTERM (left at their default action by the host)
//! end it ([`flush_on_interrupt`]), everything held is written, in order. Snapshots of running kernels
//! are written at once, before their run's record (their counts depend on when the host
//! looks, so a profile with snapshots is not reproducible byte for byte anyway).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};

use fpgacl_device_model::{Board, ProgramInstance};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_profile_format::{Header, ProfileWriter, Program, Record};
use parking_lot::Mutex;

use super::config::ProfileConfig;
use super::counters::ModuleSites;
use super::probe::KernelProbe;
use super::program::{analyze, profile_board, program_record};
use crate::clock::device_now_ns;
use crate::queue::Queue;

static SESSION: OnceLock<Option<Session>> = OnceLock::new();

/// The session, if profiling is on and the first context has opened it.
pub fn current() -> Option<&'static Session> {
    SESSION.get().and_then(Option::as_ref)
}

/// Opens the session on the first call (reads the configuration, reports invalid variables
/// once, creates the output file); later calls return the same session.
pub fn open_once(board: &Board) -> Option<&'static Session> {
    SESSION
        .get_or_init(|| {
            let (config, problems) = ProfileConfig::from_env();
            for p in problems {
                log::warn!("fpgacl: {p}");
            }
            if !config.enabled() {
                return None;
            }
            match Session::create(config, board) {
                Ok(s) => {
                    if let Some(path) = std::env::var_os("FPGACL_PROGRESS_FILE") {
                        start_progress_file(path.into());
                    }
                    extern "C" fn at_exit() {
                        flush_at_exit();
                    }
                    // SAFETY: registers a plain function without arguments, as atexit wants.
                    // (glibc runs it at exit, or when this library is unloaded first.)
                    unsafe { libc::atexit(at_exit) };
                    pin_library();
                    flush_on_interrupt();
                    // Frames held back for a command that does not end are written after
                    // HOLD even when no later frame comes to push them out.
                    let _ = std::thread::Builder::new()
                        .name("fpgacl-profile-order".into())
                        .spawn(|| loop {
                            std::thread::sleep(HOLD / 4);
                            if let Some(s) = current() {
                                s.release_due();
                            }
                        });
                    Some(s)
                }
                Err(msg) => {
                    log::warn!("fpgacl: profiling disabled: {msg}");
                    None
                }
            }
        })
        .as_ref()
}

/// Longest time frames wait (wall time) for an earlier sequence number whose command has not
/// ended (see the module documentation).
pub const HOLD: Duration = Duration::from_secs(2);

/// What a sequence number stands for.
enum Item {
    Program(Box<Program>),
    Records(Vec<Record>),
}

/// Frames waiting for earlier sequence numbers.
#[derive(Default)]
struct Order {
    /// The next number to write.
    next: u64,
    held: BTreeMap<u64, Item>,
    /// Since when `held` waits for `next` (wall time).
    since: Option<Instant>,
}

/// The status `fpgacl profile` shows while the host runs, one `name=value` a line: kernels
/// running now, and the host's own time so far (ns: wall time outside waits and enqueue
/// calls, `clock::virtual_now_ns`; never part of the device timeline).
pub fn progress_text() -> String {
    format!(
        "running_kernels={}\nhost_time_ns={}\n",
        crate::queue::running_kernels(),
        crate::clock::virtual_now_ns()
    )
}

/// `FPGACL_PROGRESS_FILE` (set by `fpgacl profile`): a thread rewrites the file with
/// [`progress_text`] every 100 ms (written aside and renamed, so a reader sees whole files).
fn start_progress_file(path: std::path::PathBuf) {
    let _ = PROGRESS_FILE.set(path.clone());
    write_progress(&path);
    let write = write_progress;
    let _ = std::thread::Builder::new()
        .name("fpgacl-progress".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            write(&path);
        });
}

static PROGRESS_FILE: OnceLock<std::path::PathBuf> = OnceLock::new();

fn write_progress(path: &std::path::Path) {
    let tmp = path.with_extension("tmp");
    if std::fs::write(&tmp, progress_text()).is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// Keeps this library (`libfpgacl.so`) mapped until the process exits, even when a host that
/// `dlopen`ed it `dlclose`s it: the session's threads (ordering, progress, signals) and the
/// queue workers run its code until then, and its exit flush must still be there to call.
/// Done by opening the library once more with `RTLD_NODELETE` (found through `dladdr` of one
/// of its functions); nothing happens when the runtime is not in a shared library.
fn pin_library() {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let here = pin_library as *const libc::c_void;
    // SAFETY: dladdr only reads the address and fills `info`; dlopen of a path returned by it
    // with RTLD_NOLOAD only takes a reference to an object already loaded.
    unsafe {
        if libc::dladdr(here, &mut info) == 0 || info.dli_fname.is_null() {
            return;
        }
        let handle = libc::dlopen(
            info.dli_fname,
            libc::RTLD_NOW | libc::RTLD_NOLOAD | libc::RTLD_NODELETE,
        );
        // The reference is kept on purpose (the point is never to unload).
        let _ = handle;
    }
}

/// SIGINT (Ctrl-C) and SIGTERM left at their default action (terminate) by the host: a thread
/// receives them, writes every frame still held back in order ([`flush_at_exit`]: runs held
/// behind a command that has not ended would otherwise be lost), then terminates the process
/// as the default action would (so the host's exit status still says which signal). A host
/// with its own handler keeps it (nothing is installed) and exits through `exit` (atexit).
fn flush_on_interrupt() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let defaults: Vec<i32> = [SIGINT, SIGTERM]
        .into_iter()
        .filter(|&sig| {
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: reads the current action only (no new action given).
            let ok = unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) } == 0;
            ok && old.sa_sigaction == libc::SIG_DFL
        })
        .collect();
    if defaults.is_empty() {
        return;
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&defaults) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("fpgacl-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                flush_at_exit();
                let _ = signal_hook::low_level::emulate_default_handler(sig);
                // SAFETY: terminates the process (emulation failed: exit as a shell reports it).
                unsafe { libc::_exit(128 + sig) };
            }
        });
}

/// Writes every frame still held back (the host's process exits): numbers whose command never
/// ended are skipped. Also writes the progress file a last time (the host's own time).
pub fn flush_at_exit() {
    if let Some(s) = current() {
        s.flush_held();
    }
    if let Some(p) = PROGRESS_FILE.get() {
        write_progress(p);
    }
}

/// A program loaded on a device, as the session knows it.
pub struct ProgramInfo {
    /// Program id in the file.
    pub id: u32,
    /// Device index.
    pub device: u32,
    /// The executable.
    pub module: Arc<Module>,
    /// Site facts for counter mapping.
    pub sites: ModuleSites,
    /// The static analysis (the timing model of autorun captures needs it).
    pub report: fpgacl_kernel_compiler::analysis::Report,
    /// When the autorun counters were last cleared (or the program loaded), session ns.
    pub autorun_since_ns: AtomicU64,
}

struct ProgramEntry {
    instance: Weak<ProgramInstance>,
    info: Arc<ProgramInfo>,
}

/// The profiling session of the process.
pub struct Session {
    /// What is recorded, and where.
    pub config: ProfileConfig,
    writer: ProfileWriter,
    /// The host's position on the device timeline (`clock::device_now_ns()`, the clock of the
    /// events' timestamps) when the session opened: record times are relative to it.
    origin_ns: u64,
    board: Board,
    programs: Mutex<Vec<ProgramEntry>>,
    next_program: AtomicU32,
    next_run: AtomicU64,
    queues: Mutex<Vec<(Weak<Queue>, u64)>>,
    next_queue: AtomicU64,
    /// Kernel runs in flight by run id (enqueue order): a host may queue hundreds of
    /// thousands, so adding and removing one must not visit the others.
    running: Mutex<BTreeMap<u64, Weak<KernelProbe>>>,
    last_capture_ns: AtomicU64,
    write_error_reported: AtomicBool,
    next_seq: AtomicU64,
    order: Mutex<Order>,
}

/// The host command line, from `/proc/self/cmdline` (falling back to Rust's arguments).
fn command_line() -> Vec<String> {
    match std::fs::read("/proc/self/cmdline") {
        Ok(bytes) if !bytes.is_empty() => bytes
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect(),
        _ => std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    }
}

/// `dir/name.mon` -> `dir/name.<pid>.mon`: this process's own profile file.
fn own_profile_path(path: &std::path::Path) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "profile".into());
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    path.with_file_name(format!("{stem}.{}{ext}", std::process::id()))
}

impl Session {
    fn create(config: ProfileConfig, board: &Board) -> Result<Session, String> {
        let origin_ns = device_now_ns();
        let mut header = Header::for_this_process(profile_board(board));
        header.command_line = command_line();
        let writer = match ProfileWriter::create(&config.output, &header) {
            Ok(w) => w,
            // Another host is profiling to the same file: write to a file of our own instead
            // of mixing the two (and say where).
            Err(fpgacl_profile_format::WriteError::Locked { path }) => {
                let own = own_profile_path(&path);
                eprintln!(
                    "fpgacl: warning: {} is being written by another process; this process \
                     (pid {}) writes its profile to {} instead",
                    path.display(),
                    std::process::id(),
                    own.display()
                );
                ProfileWriter::create(&own, &header).map_err(|e| e.to_string())?
            }
            Err(e) => return Err(e.to_string()),
        };
        Ok(Session {
            config,
            writer,
            origin_ns,
            board: board.clone(),
            programs: Mutex::new(Vec::new()),
            next_program: AtomicU32::new(0),
            next_run: AtomicU64::new(0),
            queues: Mutex::new(Vec::new()),
            next_queue: AtomicU64::new(0),
            running: Mutex::new(BTreeMap::new()),
            last_capture_ns: AtomicU64::new(0),
            write_error_reported: AtomicBool::new(false),
            next_seq: AtomicU64::new(0),
            order: Mutex::new(Order::default()),
        })
    }

    /// The output file.
    pub fn path(&self) -> &std::path::Path {
        self.writer.path()
    }

    /// A device-timeline time (event timestamps, `clock::device_now_ns()`) as session ns.
    pub fn rel_ns(&self, t: u64) -> u64 {
        t.saturating_sub(self.origin_ns)
    }

    /// Session ns now: the host's position on the device timeline.
    pub fn now_rel(&self) -> u64 {
        self.rel_ns(device_now_ns())
    }

    /// The time of a new `clGetProfileDataDeviceIntelFPGA` capture: now, but always later
    /// than the previous capture, so every call has its own capture time.
    pub fn capture_time(&self) -> u64 {
        let now = self.now_rel();
        let mut prev = self.last_capture_ns.load(Ordering::Relaxed);
        loop {
            let t = now.max(prev.saturating_add(1));
            match self.last_capture_ns.compare_exchange_weak(
                prev,
                t,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return t,
                Err(p) => prev = p,
            }
        }
    }

    /// Device cycles of `ns` nanoseconds at the board's kernel clock.
    pub fn cycles(&self, ns: u64) -> u64 {
        self.board.ns_to_cycles(ns)
    }

    /// Appends records; a failure is reported once on stderr and otherwise ignored (profiling
    /// never fails the host).
    pub fn write(&self, records: &[Record]) {
        let res = match records {
            [] => Ok(()),
            [r] => self.writer.write_record(r),
            rs => self.writer.write_records(rs),
        };
        if let Err(e) = res {
            self.report_write_error(&e.to_string());
        }
    }

    /// A sequence number for frames to be written later, in the order of the numbers.
    pub fn reserve(&self) -> u64 {
        self.next_seq.fetch_add(1, Ordering::SeqCst)
    }

    /// Writes `records` (possibly none: the number is then done) as number `seq`, once every
    /// earlier number is written.
    pub fn write_in_order(&self, seq: u64, records: Vec<Record>) {
        self.put(seq, Item::Records(records));
    }

    fn put(&self, seq: u64, item: Item) {
        let mut o = self.order.lock();
        if seq < o.next {
            // Its number was skipped after HOLD: written late.
            self.write_item(item);
            return;
        }
        o.held.insert(seq, item);
        self.release(&mut o, false);
    }

    /// Writes held frames in order; past [`HOLD`] (or with `all`) over missing numbers.
    fn release(&self, o: &mut Order, all: bool) {
        loop {
            while let Some(item) = o.held.remove(&o.next) {
                o.next += 1;
                self.write_item(item);
            }
            let Some(&first) = o.held.keys().next() else {
                o.since = None;
                return;
            };
            let since = *o.since.get_or_insert_with(Instant::now);
            if !all && since.elapsed() < HOLD {
                return;
            }
            o.next = first;
            o.since = None;
        }
    }

    /// Writes the held frames whose wait has reached [`HOLD`].
    pub fn release_due(&self) {
        let mut o = self.order.lock();
        if !o.held.is_empty() {
            self.release(&mut o, false);
        }
    }

    /// Writes every held frame (see [`flush_at_exit`]).
    pub fn flush_held(&self) {
        if let Some(mut o) = self.order.try_lock_for(Duration::from_millis(500)) {
            self.release(&mut o, true);
        }
    }

    fn write_item(&self, item: Item) {
        match item {
            Item::Records(r) => self.write(&r),
            Item::Program(p) => {
                if let Err(e) = self.writer.write_program(&p) {
                    self.report_write_error(&e.to_string());
                }
            }
        }
    }

    fn report_write_error(&self, msg: &str) {
        if !self.write_error_reported.swap(true, Ordering::Relaxed) {
            log::error!("fpgacl: cannot write the profile: {msg}");
        }
    }

    /// Registers a program loaded on device `device` and writes its `Program` frame.
    pub fn add_program(
        &self,
        instance: &Arc<ProgramInstance>,
        device: u32,
        board: &Board,
    ) -> Arc<ProgramInfo> {
        let module = instance.module().clone();
        let id = self.next_program.fetch_add(1, Ordering::Relaxed);
        let report = analyze(&module, board);
        let sites = ModuleSites::new(&module, board, &ModuleSites::cached_sites(&report));
        let seq = self.reserve();
        self.put(
            seq,
            Item::Program(Box::new(program_record(id, &module, board, &report))),
        );
        let info = Arc::new(ProgramInfo {
            id,
            device,
            module,
            sites,
            report,
            autorun_since_ns: AtomicU64::new(self.now_rel()),
        });
        let mut progs = self.programs.lock();
        progs.retain(|p| p.instance.strong_count() > 0);
        progs.push(ProgramEntry {
            instance: Arc::downgrade(instance),
            info: info.clone(),
        });
        info
    }

    /// The program info of a loaded instance, if registered.
    pub fn program_of(&self, instance: &Arc<ProgramInstance>) -> Option<Arc<ProgramInfo>> {
        let ptr = Arc::as_ptr(instance);
        self.programs
            .lock()
            .iter()
            .find(|p| p.instance.as_ptr() == ptr && p.instance.strong_count() > 0)
            .map(|p| p.info.clone())
    }

    /// Loaded programs of a device (all of them, or the one of `only`), alive.
    pub fn programs_of_device(
        &self,
        device: u32,
        only: Option<&Arc<ProgramInstance>>,
    ) -> Vec<(Arc<ProgramInstance>, Arc<ProgramInfo>)> {
        self.programs
            .lock()
            .iter()
            .filter(|p| p.info.device == device)
            .filter_map(|p| Some((p.instance.upgrade()?, p.info.clone())))
            .filter(|(inst, _)| only.is_none_or(|o| Arc::ptr_eq(o, inst)))
            .collect()
    }

    /// A fresh run id.
    pub fn next_run_id(&self) -> u64 {
        self.next_run.fetch_add(1, Ordering::Relaxed)
    }

    /// The session id of a queue (assigned at first use).
    pub fn queue_id(&self, q: &Arc<Queue>) -> u64 {
        let ptr = Arc::as_ptr(q);
        let mut qs = self.queues.lock();
        if let Some((_, id)) = qs
            .iter()
            .find(|(w, _)| w.as_ptr() == ptr && w.strong_count() > 0)
        {
            return *id;
        }
        qs.retain(|(w, _)| w.strong_count() > 0);
        let id = self.next_queue.fetch_add(1, Ordering::Relaxed);
        qs.push((Arc::downgrade(q), id));
        id
    }

    /// Tracks a kernel run in flight (for snapshots).
    pub fn add_running(&self, p: &Arc<KernelProbe>) {
        self.running.lock().insert(p.run_id(), Arc::downgrade(p));
    }

    /// Stops tracking a kernel run (its record is written, or its probe is gone).
    pub fn remove_running(&self, run_id: u64) {
        self.running.lock().remove(&run_id);
    }

    /// Kernel runs in flight, in enqueue order.
    pub fn running(&self) -> Vec<Arc<KernelProbe>> {
        self.running
            .lock()
            .values()
            .filter_map(Weak::upgrade)
            .collect()
    }

    /// How many kernel runs the session tracks (tests: entries are removed when runs end).
    pub fn running_len(&self) -> usize {
        self.running.lock().len()
    }
}
