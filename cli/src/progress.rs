//! What `fpgacl profile` knows while the host runs: it follows the profile file as the
//! runtime appends to it (every record is handed to the OS as it completes) and reads only
//! the frames added since the last look.
//!
//! [`Follower`] is the incremental reader; [`Progress`] draws it as one `indicatif` line on
//! stderr (only when stderr is a terminal).

use fpgacl_profile_format::frame::{self, FrameKind, ScanEnd, PREFIX_LEN};
use fpgacl_profile_format::{Header, Record};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the profile holds so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    /// Finished kernel runs.
    pub runs: u64,
    /// Memory transfers.
    pub transfers: u64,
    /// Autorun captures.
    pub captures: u64,
    /// Latest end (or capture) time of any record, ns of emulated device time since host
    /// start.
    pub emulated_ns: u64,
    /// Kernel of the latest finished run.
    pub last_kernel: Option<String>,
    /// Bytes of whole frames read.
    pub bytes: u64,
    /// Enqueued kernels running now, from the runtime's progress file (`None` until read).
    pub running_kernels: Option<u64>,
    /// The host program's own time so far (ns, outside waits and enqueue calls), from the
    /// runtime's progress file: measured apart from the device timeline.
    pub host_time_ns: Option<u64>,
}

/// Reads the runtime's progress file (`FPGACL_PROGRESS_FILE`: `name=value` lines) into `seen`.
pub fn read_status(path: &Path, seen: &mut Seen) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    for line in text.lines() {
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let Ok(v) = v.trim().parse::<u64>() else {
            continue;
        };
        match k {
            "running_kernels" => seen.running_kernels = Some(v),
            "host_time_ns" => seen.host_time_ns = Some(v),
            _ => {}
        }
    }
}

/// Reads a growing `profile.mon` a piece at a time.
pub struct Follower {
    path: PathBuf,
    /// Offset of the first frame not read yet (0: the prefix is not read yet).
    offset: u64,
    /// The header's start time: a file re-created by another run starts over.
    start_unix_ns: Option<u64>,
    /// Only files whose header starts at or after this count (an old file of a former run is
    /// not this run's progress).
    not_before_ns: u64,
    seen: Seen,
}

impl Follower {
    /// Follows `path`; files whose header start time is before `not_before_ns` are ignored.
    pub fn new(path: &Path, not_before_ns: u64) -> Self {
        Follower {
            path: path.to_path_buf(),
            offset: 0,
            start_unix_ns: None,
            not_before_ns,
            seen: Seen::default(),
        }
    }

    /// What has been read so far.
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// What has been read so far, to add the runtime's status to.
    pub fn seen_mut(&mut self) -> &mut Seen {
        &mut self.seen
    }

    /// Reads whatever whole frames were appended since the last call. Never fails: a file
    /// that is missing, shorter than before, or corrupt just shows no (new) progress.
    pub fn poll(&mut self) {
        let Ok(mut f) = std::fs::File::open(&self.path) else {
            return;
        };
        let len = f.metadata().map_or(0, |m| m.len());
        if len < self.offset {
            // Re-created: start over (keeping the runtime's status).
            let seen = std::mem::take(&mut self.seen);
            *self = Follower::new(&self.path, self.not_before_ns);
            self.seen.running_kernels = seen.running_kernels;
            self.seen.host_time_ns = seen.host_time_ns;
        }
        if self.offset == 0 {
            self.offset = PREFIX_LEN as u64;
        }
        if len <= self.offset || f.seek(SeekFrom::Start(self.offset)).is_err() {
            return;
        }
        // At most 64 MiB per look: a huge file is caught up over several ticks.
        let mut bytes = Vec::new();
        if f.take(64 << 20).read_to_end(&mut bytes).is_err() {
            return;
        }
        let mut records = Vec::new();
        let mut header = None;
        let end = frame::scan(&bytes, 0, |fr| {
            let payload = &bytes[fr.payload_start..fr.payload_start + fr.payload_len];
            match fr.kind {
                FrameKind::Header => header = frame::decode_payload::<Header>(payload).ok(),
                FrameKind::Record => {
                    if let Ok(r) = frame::decode_payload::<Record>(payload) {
                        records.push(r);
                    }
                }
                _ => {}
            }
        });
        if let Some(h) = header {
            self.start_unix_ns = Some(h.start_unix_ns);
        }
        let used = match end {
            ScanEnd::Clean => bytes.len(),
            other => other.valid_len(bytes.len()),
        };
        self.offset += used as u64;
        self.seen.bytes = self.offset;
        if self.start_unix_ns.is_none_or(|s| s < self.not_before_ns) {
            return;
        }
        for r in records {
            let s = &mut self.seen;
            match r {
                Record::KernelRun(k) => {
                    s.runs += 1;
                    s.emulated_ns = s.emulated_ns.max(k.end_ns);
                    s.last_kernel = Some(k.kernel);
                }
                Record::MemTransfer(t) => {
                    s.transfers += 1;
                    s.emulated_ns = s.emulated_ns.max(t.end_ns);
                }
                Record::AutorunCapture(c) => {
                    s.captures += 1;
                    s.emulated_ns = s.emulated_ns.max(c.capture_ns);
                }
                Record::Snapshot(_) | Record::OutOfBounds(_) | Record::HostGap(_) => {}
            }
        }
    }
}

/// stderr as indicatif's terminal, 3 columns narrower than it is: indicatif pads its line to
/// the terminal width and leaves the cursor in the last column, so the `^C` the terminal echoes
/// on Ctrl-C would wrap to a new line and the final clear would miss the progress line.
#[derive(Debug)]
struct Narrow(console::Term);

impl indicatif::TermLike for Narrow {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(3).max(20)
    }
    fn height(&self) -> u16 {
        self.0.size().0
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The progress line: a spinner, the wall time, kernels running, kernel runs done, the
/// emulated time reached and the last kernel that finished.
pub struct Progress {
    bar: indicatif::ProgressBar,
    follower: Follower,
    status: PathBuf,
    last_poll: Option<Instant>,
}

impl Progress {
    /// A progress line on stderr for the profile at `path`, with the runtime's status file
    /// `status` (kernels running).
    pub fn new(path: &Path, status: &Path, not_before_ns: u64) -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(
            None,
            indicatif::ProgressDrawTarget::term_like(Box::new(Narrow(console::Term::stderr()))),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        let p = Progress {
            bar,
            follower: Follower::new(path, not_before_ns),
            status: status.to_path_buf(),
            last_poll: None,
        };
        p.bar.set_message(message(p.follower.seen()));
        p
    }

    /// Reads new records (at most every 250 ms) and redraws the line.
    pub fn tick(&mut self) {
        if self
            .last_poll
            .is_some_and(|t| t.elapsed() < Duration::from_millis(250))
        {
            return;
        }
        self.last_poll = Some(Instant::now());
        self.follower.poll();
        read_status(&self.status, self.follower.seen_mut());
        self.bar.set_message(message(self.follower.seen()));
    }

    /// Removes the line.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The line's text, escaped for the terminal (kernel names come from the profile).
pub fn message(s: &Seen) -> String {
    let mut m = String::from("running the host: ");
    if let Some(r) = s.running_kernels {
        m.push_str(&format!("{r} kernel(s) running, "));
    }
    m.push_str(&format!(
        "{} kernel run(s) done, emulated time {}",
        s.runs,
        crate::profile::duration(s.emulated_ns)
    ));
    if s.transfers > 0 {
        m.push_str(&format!(", {} transfer(s)", s.transfers));
    }
    if s.captures > 0 {
        m.push_str(&format!(", {} autorun capture(s)", s.captures));
    }
    if let Some(k) = &s.last_kernel {
        m.push_str(", last: ");
        m.push_str(k);
    }
    fpgacl_profile_format::terminal_safe::escape_controls(&m).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_profile_format::{sample, ProfileWriter};

    #[test]
    fn follows_a_growing_file_frame_by_frame() {
        let dir = std::env::temp_dir().join(format!("fpgacl-follow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.mon");
        let _ = std::fs::remove_file(&path);
        let mut f = Follower::new(&path, 0);
        f.poll();
        assert_eq!(f.seen().runs, 0, "no file yet");
        let w = ProfileWriter::create(&path, &sample::header()).unwrap();
        w.write_program(&sample::program()).unwrap();
        let records: Vec<Record> = (0..40).map(sample::record).collect();
        let runs = |n: usize| {
            records[..n]
                .iter()
                .filter(|r| matches!(r, Record::KernelRun(_)))
                .count() as u64
        };
        w.write_records(&records[..10]).unwrap();
        f.poll();
        assert_eq!(f.seen().runs, runs(10));
        // A half-written frame is not read until it is whole.
        let whole = std::fs::metadata(&path).unwrap().len();
        w.write_records(&records[10..40]).unwrap();
        drop(w);
        let full = std::fs::read(&path).unwrap();
        std::fs::write(&path, &full[..whole as usize + 5]).unwrap();
        f.poll();
        assert_eq!(f.seen().runs, runs(10));
        std::fs::write(&path, &full).unwrap();
        f.poll();
        assert_eq!(f.seen().runs, runs(40));
        let end = records
            .iter()
            .map(|r| match r {
                Record::KernelRun(k) => k.end_ns,
                Record::MemTransfer(t) => t.end_ns,
                Record::AutorunCapture(c) => c.capture_ns,
                Record::Snapshot(_) | Record::OutOfBounds(_) | Record::HostGap(_) => 0,
            })
            .max()
            .unwrap();
        assert_eq!(f.seen().emulated_ns, end);
        // A file of an earlier run (header before `not_before`) is not this run's progress.
        let mut old = Follower::new(&path, u64::MAX);
        old.poll();
        assert_eq!(old.seen().runs, 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_line_escapes_kernel_names() {
        let s = Seen {
            runs: 3,
            emulated_ns: 2_000_000,
            last_kernel: Some("k\x1b]0;x\x07".into()),
            ..Seen::default()
        };
        let m = message(&s);
        assert!(!m.contains("running,"), "no status read yet: {m}");
        assert!(m.contains("3 kernel run(s) done"), "{m}");
        assert!(m.contains("emulated time 2.000 ms"), "{m}");
        assert!(!m.chars().any(char::is_control), "{m}");
    }

    #[test]
    fn the_runtime_status_gives_the_kernels_running() {
        let dir = std::env::temp_dir().join(format!("fpgacl-status-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("status");
        let mut s = Seen::default();
        read_status(&path, &mut s);
        assert_eq!(s.running_kernels, None, "no file yet");
        std::fs::write(&path, "running_kernels=2\nhost_time_ns=1500\nbad\nx=y\n").unwrap();
        read_status(&path, &mut s);
        assert_eq!(s.running_kernels, Some(2));
        assert_eq!(s.host_time_ns, Some(1500));
        s.runs = 7;
        let m = message(&s);
        assert!(
            m.starts_with("running the host: 2 kernel(s) running, 7 kernel run(s) done"),
            "{m}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
