//! [`ReportData`]: a [`Profile`] with every index and aggregate the screens need, computed once
//! when the file is opened so that drawing and scrolling never walk the records again.

use std::collections::HashMap;

use fpgacl_profile_format::{
    AccessSite, AutorunCapture, KernelInfo, KernelRun, LoopInfo, MemTransfer, Profile, Program,
    Record, SiteCounters, Snapshot, Unroll,
};

use crate::timeline::TimelineIndex;

/// From this many records on, the index is built on two threads.
const PARALLEL_INDEX_RECORDS: usize = 50_000;

/// Which counters the Source Code view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// All finished enqueued kernel runs, summed (the profiler's overall average). Autorun
    /// captures are not in it: they are shown on their own ([`Scope::Autorun`]).
    Average,
    /// Every autorun capture, summed over the session (per compute unit: the captures that
    /// cleared the counters and the last one).
    Autorun,
    /// One kernel run: index into [`ReportData::runs`].
    Run(usize),
    /// One autorun capture: index into [`ReportData::captures`].
    Capture(usize),
}

/// One kernel source file shown by the Source Code view.
#[derive(Debug, Clone)]
pub struct FileView {
    /// Index of the program in [`ReportData::programs`].
    pub program: usize,
    /// File name as the compiler saw it.
    pub name: String,
    /// Lines of the file (without line terminators). Placeholder lines when the program did not
    /// record this file's text.
    pub lines: Vec<String>,
    /// The text was not recorded (sites refer to a file missing from the program's sources).
    pub missing_text: bool,
    /// For each line (0-based), the global indices of the sites on that line, by column.
    pub sites_by_line: Vec<Vec<usize>>,
    /// Kernels defined in this file: global indices into [`ReportData::kernels`].
    pub kernels: Vec<usize>,
}

/// A kernel of a program.
#[derive(Debug, Clone, Copy)]
pub struct KernelRef {
    /// Index of the program in [`ReportData::programs`].
    pub program: usize,
    /// Index into that program's `report.kernels`.
    pub kernel: usize,
    /// Index of its file in [`ReportData::files`], if the file is known.
    pub file: Option<usize>,
}

/// A loop of a program's static report.
#[derive(Debug, Clone, Copy)]
pub struct LoopRef {
    /// Index of the program in [`ReportData::programs`].
    pub program: usize,
    /// Index into that program's `report.loops`.
    pub index: usize,
    /// Index of its file in [`ReportData::files`].
    pub file: usize,
}

/// An access site of a program.
#[derive(Debug, Clone, Copy)]
pub struct SiteRef {
    /// Index of the program in [`ReportData::programs`].
    pub program: usize,
    /// Index into that program's `report.sites`.
    pub site: usize,
    /// Index of its file in [`ReportData::files`].
    pub file: usize,
    /// Index of its kernel in [`ReportData::kernels`], if the kernel is in the report.
    pub kernel: Option<usize>,
}

/// Captures of one autorun kernel compute unit on one device: one row of the Autorun Captures
/// table.
#[derive(Debug, Clone)]
pub struct CaptureGroup {
    /// Device index.
    pub device: u32,
    /// Autorun kernel name.
    pub kernel: String,
    /// Compute unit id.
    pub compute_unit: [u32; 3],
    /// Indices into [`ReportData::captures`], by capture time.
    pub captures: Vec<usize>,
}

/// A profile prepared for display.
#[derive(Debug)]
pub struct ReportData {
    /// Label of the file this came from (its path as given).
    pub label: String,
    /// The profile as read (records stay here; the vectors below index them).
    pub profile: Profile,
    /// Indices into `profile.records` of the finished kernel runs in file order, then of the
    /// latest snapshot of each run that never finished.
    run_index: Vec<u32>,
    /// Runs from this index on are partial (snapshots of unfinished runs).
    partial_from: usize,
    /// Indices into `profile.records` of the memory transfers, in file order.
    transfer_index: Vec<u32>,
    /// Snapshots of running kernels, in file order.
    pub snapshots: Vec<Snapshot>,
    /// Autorun captures, in file order.
    pub captures: Vec<AutorunCapture>,
    /// Every source file of every program.
    pub files: Vec<FileView>,
    /// Every kernel of every program.
    pub kernels: Vec<KernelRef>,
    /// Every loop of every program's static report (the Loops tab), by file and line.
    pub loops: Vec<LoopRef>,
    /// Every access site of every program.
    pub sites: Vec<SiteRef>,
    /// Autorun capture table rows, by device then kernel then compute unit.
    pub capture_groups: Vec<CaptureGroup>,
    /// Counters of each site summed over all enqueued kernel runs (indexed like `sites`).
    pub average: Vec<Option<SiteCounters>>,
    /// Counters per site summed over the autorun capture windows ([`Scope::Autorun`];
    /// cumulative captures, taken without clearing, are not counted twice).
    pub autorun: Vec<Option<SiteCounters>>,
    /// Number of runs with counters (the "average of N runs" label).
    pub runs_with_counters: usize,
    /// The timeline lanes of the Kernel Execution tab.
    pub timeline: TimelineIndex,
    /// The emulated time: latest end of any record on the device timeline, ns since the
    /// session started (`Profile::emulated_time_ns`, JSON `total_time_ns`).
    pub total_ns: u64,
    /// Per program (index), sorted (site id, global site index) pairs.
    site_lookup: Vec<Vec<(u32, usize)>>,
    /// Program id -> index in `programs`.
    program_lookup: HashMap<u32, usize>,
    /// Host gaps (`HostGap` records) as (QUEUED ns, gap ns), sorted by QUEUED: the host lane
    /// of the Kernel Execution tab. Wall-clock host time, never a device figure.
    pub host_gaps: Vec<(u64, u64)>,
    /// Kernel run id -> the host gap before its enqueue.
    host_gap_by_run: HashMap<u64, u64>,
}

impl ReportData {
    /// Prepares `profile` for display. `label` names it in the header (usually its path).
    /// Cost: one pass over the records plus sorting the timeline lanes.
    /// Every text of the profile and the label is escaped for the terminal first
    /// ([`fpgacl_profile_format::terminal_safe`]): a name or source line with ESC or other
    /// control characters shows them as `\u00XX` in the profiler and in the text report.
    pub fn new(label: impl Into<String>, mut profile: Profile) -> ReportData {
        profile.escape_for_terminal();
        let label =
            fpgacl_profile_format::terminal_safe::escape_controls(&label.into()).into_owned();
        let mut run_index = Vec::new();
        let mut transfer_index = Vec::new();
        let mut snapshots = Vec::new();
        let mut snapshot_index: Vec<u32> = Vec::new();
        let mut captures = Vec::new();
        for (i, r) in profile.records.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            match r {
                Record::KernelRun(_) => run_index.push(i),
                Record::MemTransfer(_) => transfer_index.push(i),
                Record::Snapshot(s) => {
                    snapshots.push(s.clone());
                    snapshot_index.push(i);
                }
                Record::AutorunCapture(c) => captures.push(c.clone()),
                Record::OutOfBounds(_) | Record::HostGap(_) => {}
            }
        }
        // A run that never finished (host stopped while it ran) is known only by its
        // snapshots: show its latest snapshot as a partial run.
        let partial_from = run_index.len();
        if !snapshots.is_empty() {
            let finished: std::collections::HashSet<u64> = run_index
                .iter()
                .filter_map(|&i| match &profile.records[i as usize] {
                    Record::KernelRun(k) => Some(k.run_id),
                    _ => None,
                })
                .collect();
            let mut latest: HashMap<u64, (u64, u32)> = HashMap::new();
            for (s, &i) in snapshots.iter().zip(&snapshot_index) {
                if finished.contains(&s.run.run_id) {
                    continue;
                }
                let e = latest.entry(s.run.run_id).or_insert((s.taken_ns, i));
                if s.taken_ns >= e.0 {
                    *e = (s.taken_ns, i);
                }
            }
            let mut partial: Vec<u32> = latest.into_values().map(|(_, i)| i).collect();
            partial.sort_unstable();
            run_index.extend(partial);
        }

        let program_lookup: HashMap<u32, usize> = profile
            .programs
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();

        // Files: every recorded source, then any file a site or kernel names but whose text
        // is missing.
        let mut files: Vec<FileView> = Vec::new();
        let mut file_lookup: HashMap<(usize, String), usize> = HashMap::new();
        for (pi, prog) in profile.programs.iter().enumerate() {
            for src in &prog.sources {
                if file_lookup.contains_key(&(pi, src.name.clone())) {
                    continue;
                }
                let lines: Vec<String> = src.text.lines().map(expand_tabs).collect();
                file_lookup.insert((pi, src.name.clone()), files.len());
                files.push(FileView {
                    program: pi,
                    name: src.name.clone(),
                    sites_by_line: vec![Vec::new(); lines.len()],
                    lines,
                    missing_text: false,
                    kernels: Vec::new(),
                });
            }
        }
        let mut file_index = |pi: usize, name: &str, files: &mut Vec<FileView>| -> usize {
            if let Some(&f) = file_lookup.get(&(pi, name.to_string())) {
                return f;
            }
            file_lookup.insert((pi, name.to_string()), files.len());
            files.push(FileView {
                program: pi,
                name: name.to_string(),
                lines: Vec::new(),
                missing_text: true,
                sites_by_line: Vec::new(),
                kernels: Vec::new(),
            });
            files.len() - 1
        };

        let mut kernels = Vec::new();
        let mut kernel_lookup: HashMap<(usize, &str), usize> = HashMap::new();
        for (pi, prog) in profile.programs.iter().enumerate() {
            for (ki, k) in prog.report.kernels.iter().enumerate() {
                let f = file_index(pi, &k.file, &mut files);
                ensure_line(&mut files[f], k.line);
                files[f].kernels.push(kernels.len());
                kernel_lookup.insert((pi, k.name.as_str()), kernels.len());
                kernels.push(KernelRef {
                    program: pi,
                    kernel: ki,
                    file: Some(f),
                });
            }
        }

        // Loops of the static report, by program then source order.
        let mut loops = Vec::new();
        for (pi, prog) in profile.programs.iter().enumerate() {
            let mut order: Vec<usize> = (0..prog.report.loops.len()).collect();
            order.sort_by_key(|&i| {
                let l = &prog.report.loops[i];
                (l.file.clone(), l.line, l.column)
            });
            for li in order {
                let l = &prog.report.loops[li];
                let f = file_index(pi, &l.file, &mut files);
                ensure_line(&mut files[f], l.line);
                loops.push(LoopRef {
                    program: pi,
                    index: li,
                    file: f,
                });
            }
        }

        let mut sites = Vec::new();
        let mut site_lookup: Vec<Vec<(u32, usize)>> = vec![Vec::new(); profile.programs.len()];
        for (pi, prog) in profile.programs.iter().enumerate() {
            for (si, s) in prog.report.sites.iter().enumerate() {
                let f = file_index(pi, &s.file, &mut files);
                ensure_line(&mut files[f], s.line);
                let line = line_index(s.line);
                files[f].sites_by_line[line].push(sites.len());
                site_lookup[pi].push((s.id, sites.len()));
                sites.push(SiteRef {
                    program: pi,
                    site: si,
                    file: f,
                    kernel: kernel_lookup.get(&(pi, s.kernel.as_str())).copied(),
                });
            }
            site_lookup[pi].sort_unstable();
        }
        // Order the accesses of a line by column.
        for f in &mut files {
            for line_sites in &mut f.sites_by_line {
                line_sites.sort_by_key(|&g| {
                    let s = sites[g];
                    profile.programs[s.program].report.sites[s.site].column
                });
            }
        }

        let mut data = ReportData {
            label,
            profile,
            run_index,
            partial_from,
            transfer_index,
            snapshots,
            captures,
            files,
            kernels,
            loops,
            sites,
            capture_groups: Vec::new(),
            average: Vec::new(),
            autorun: Vec::new(),
            runs_with_counters: 0,
            timeline: TimelineIndex::default(),
            total_ns: 0,
            site_lookup,
            program_lookup,
            host_gaps: Vec::new(),
            host_gap_by_run: HashMap::new(),
        };
        for g in data.profile.host_gaps() {
            data.host_gaps.push((g.queued_ns, g.gap_ns));
            if let Some(id) = g.run_id {
                data.host_gap_by_run.insert(id, g.gap_ns);
            }
        }
        data.host_gaps.sort_unstable();

        data.capture_groups = group_captures(&data.captures);
        // The aggregates and the timeline are independent passes over the records: on big
        // files they run on two threads.
        let build_timeline = |d: &ReportData| {
            TimelineIndex::build(d.runs().enumerate(), d.transfers().enumerate(), |p, k| {
                d.lane_label(p, k)
            })
        };
        let ((average, autorun, runs_with_counters, total), timeline) =
            if data.profile.records.len() >= PARALLEL_INDEX_RECORDS {
                std::thread::scope(|s| {
                    let d = &data;
                    let agg = s.spawn(move || d.aggregate());
                    let tl = build_timeline(d);
                    let agg = agg.join().unwrap_or_else(|_| d.aggregate());
                    (agg, tl)
                })
            } else {
                (data.aggregate(), build_timeline(&data))
            };
        data.average = average;
        data.autorun = autorun;
        data.runs_with_counters = runs_with_counters;
        data.timeline = timeline;
        data.total_ns = total;
        data
    }

    /// Sums the counters of every run and capture per site; counts the runs with counters;
    /// finds the latest time of any record.
    #[allow(clippy::type_complexity)]
    fn aggregate(
        &self,
    ) -> (
        Vec<Option<SiteCounters>>,
        Vec<Option<SiteCounters>>,
        usize,
        u64,
    ) {
        let mut average: Vec<Option<SiteCounters>> = vec![None; self.sites.len()];
        let mut autorun: Vec<Option<SiteCounters>> = vec![None; self.sites.len()];
        let mut runs_with_counters = 0;
        let mut total = 0u64;
        for run in self.runs() {
            if !run.sites.is_empty() {
                runs_with_counters += 1;
            }
            total = total.max(run.end_ns.max(run.start_ns));
            self.accumulate_into(&mut average, run.program, &run.sites);
        }
        // A capture that did not clear the counters is included in the next capture of its
        // compute unit: count only captures that cleared, and the last one of each unit.
        for g in &self.capture_groups {
            for (pos, &ci) in g.captures.iter().enumerate() {
                let cap = &self.captures[ci];
                total = total.max(cap.capture_ns);
                if cap.cleared || pos + 1 == g.captures.len() {
                    self.accumulate_into(&mut autorun, cap.program, &cap.sites);
                }
            }
        }
        for t in self.transfers() {
            total = total.max(t.end_ns.max(t.start_ns));
        }
        for s in &self.snapshots {
            total = total.max(s.taken_ns);
        }
        (average, autorun, runs_with_counters, total)
    }

    fn accumulate_into(
        &self,
        acc: &mut [Option<SiteCounters>],
        program_id: u32,
        sites: &[SiteCounters],
    ) {
        if sites.is_empty() {
            return;
        }
        // Most files hold one program: skip the hash lookup then.
        let pi = match self.profile.programs.as_slice() {
            [only] if only.id == program_id => 0,
            _ => match self.program_lookup.get(&program_id) {
                Some(&pi) => pi,
                None => return,
            },
        };
        let lookup = &self.site_lookup[pi];
        for c in sites {
            if let Ok(pos) = lookup.binary_search_by_key(&c.site, |&(id, _)| id) {
                let g = lookup[pos].1;
                match &mut acc[g] {
                    Some(a) => a.accumulate(c),
                    slot @ None => *slot = Some(*c),
                }
            }
        }
    }

    /// Counters per site (indexed like [`ReportData::sites`]) for `scope`.
    pub fn counters(&self, scope: Scope) -> Vec<Option<SiteCounters>> {
        match scope {
            Scope::Average => self.average.clone(),
            Scope::Autorun => self.autorun.clone(),
            Scope::Run(i) => {
                let mut acc = vec![None; self.sites.len()];
                if let Some(run) = self.run(i) {
                    self.accumulate_into(&mut acc, run.program, &run.sites);
                }
                acc
            }
            Scope::Capture(i) => {
                let mut acc = vec![None; self.sites.len()];
                if let Some(c) = self.captures.get(i) {
                    self.accumulate_into(&mut acc, c.program, &c.sites);
                }
                acc
            }
        }
    }

    /// Number of finished kernel runs.
    pub fn run_count(&self) -> usize {
        self.run_index.len()
    }

    /// The `i`-th finished kernel run (file order).
    pub fn run(&self, i: usize) -> Option<&KernelRun> {
        run_of(self.profile.records.get(*self.run_index.get(i)? as usize)?)
    }

    /// The host's own time (wall clock) before it enqueued the run with this id, if recorded.
    pub fn host_gap_of_run(&self, run_id: u64) -> Option<u64> {
        self.host_gap_by_run.get(&run_id).copied()
    }

    /// The largest host gap whose command was QUEUED in `[t0, t1)`, if any.
    pub fn largest_host_gap_in(&self, t0: u64, t1: u64) -> Option<u64> {
        let a = self.host_gaps.partition_point(|&(q, _)| q < t0);
        let b = self.host_gaps.partition_point(|&(q, _)| q < t1);
        self.host_gaps[a..b].iter().map(|&(_, g)| g).max()
    }

    /// True when run `i` never finished: it is the latest snapshot of a running kernel.
    pub fn is_partial(&self, i: usize) -> bool {
        i >= self.partial_from && i < self.run_index.len()
    }

    /// Kernel runs: finished ones in file order, then unfinished ones (latest snapshot).
    pub fn runs(&self) -> impl Iterator<Item = &KernelRun> + '_ {
        self.run_index
            .iter()
            .filter_map(|&i| run_of(&self.profile.records[i as usize]))
    }

    /// The `i`-th memory transfer (file order).
    pub fn transfer(&self, i: usize) -> Option<&MemTransfer> {
        match self
            .profile
            .records
            .get(*self.transfer_index.get(i)? as usize)?
        {
            Record::MemTransfer(t) => Some(t),
            _ => None,
        }
    }

    /// Memory transfers in file order.
    pub fn transfers(&self) -> impl Iterator<Item = &MemTransfer> + '_ {
        self.transfer_index
            .iter()
            .filter_map(|&i| match &self.profile.records[i as usize] {
                Record::MemTransfer(t) => Some(t),
                _ => None,
            })
    }

    /// Index in [`ReportData::programs`] of the program with this id.
    pub fn program_index(&self, id: u32) -> Option<usize> {
        self.program_lookup.get(&id).copied()
    }

    /// The programs of the profile.
    pub fn programs(&self) -> &[Program] {
        &self.profile.programs
    }

    /// Static description of a site (global index).
    pub fn site(&self, g: usize) -> &AccessSite {
        let s = self.sites[g];
        &self.profile.programs[s.program].report.sites[s.site]
    }

    /// Static facts of loop `l` (index into [`ReportData::loops`]).
    pub fn loop_info(&self, l: usize) -> &LoopInfo {
        let r = self.loops[l];
        &self.profile.programs[r.program].report.loops[r.index]
    }

    /// Static facts of kernel `k` (index into [`ReportData::kernels`]).
    pub fn kernel(&self, k: usize) -> &KernelInfo {
        let r = self.kernels[k];
        &self.profile.programs[r.program].report.kernels[r.kernel]
    }

    /// The innermost pipelined loop enclosing a site (global index), if any: a fully unrolled
    /// loop is part of its parent's body (its accesses issue at the parent's II), so it is
    /// skipped; an access whose loops are all fully unrolled has none.
    pub fn enclosing_loop(&self, g: usize) -> Option<&LoopInfo> {
        let s = self.sites[g];
        let program = &self.profile.programs[s.program];
        let mut l = program.find_loop(self.site(g).enclosing_loop?)?;
        // Bounded by the number of loops, should a corrupt file make the parents a cycle.
        for _ in 0..program.report.loops.len() {
            if l.unroll != Unroll::Full {
                return Some(l);
            }
            l = program.find_loop(l.parent?)?;
        }
        None
    }

    /// Global index of the kernel `name` in program `program_id`.
    pub fn find_kernel(&self, program_id: u32, name: &str) -> Option<usize> {
        let pi = self.program_index(program_id)?;
        self.kernels
            .iter()
            .position(|k| k.program == pi && self.kernel_name(*k) == name)
    }

    fn kernel_name(&self, k: KernelRef) -> &str {
        &self.profile.programs[k.program].report.kernels[k.kernel].name
    }

    /// The kernel label of a run on the timeline (kernel name, with the program's file name,
    /// without its folders, when the file holds several programs).
    fn lane_label(&self, program: u32, kernel: &str) -> String {
        if self.profile.programs.len() > 1 {
            if let Some(p) = self.program_index(program) {
                let name = &self.profile.programs[p].name;
                let short = name.rsplit(['/', '\\']).next().unwrap_or(name);
                return format!("{kernel} ({short})");
            }
        }
        kernel.to_string()
    }

    /// Sites that talk through the same channel or pipe as site `g` in the other direction
    /// (the other side of the channel).
    pub fn channel_peers(&self, g: usize) -> Vec<usize> {
        let me = self.site(g);
        let Some(target) = me.target.as_deref() else {
            return Vec::new();
        };
        if !is_stream(me) {
            return Vec::new();
        }
        let prog = self.sites[g].program;
        (0..self.sites.len())
            .filter(|&o| {
                o != g && self.sites[o].program == prog && {
                    let s = self.site(o);
                    is_stream(s)
                        && s.target.as_deref() == Some(target)
                        && s.kind.is_read() != me.kind.is_read()
                }
            })
            .collect()
    }

    /// Total theoretical global memory bandwidth of the board, MB/s.
    pub fn board_bandwidth(&self) -> f64 {
        self.profile.header.board.total_bandwidth_mbps()
    }

    /// Kernel clock of the board, MHz.
    pub fn fmax_mhz(&self) -> f64 {
        self.profile.header.board.fmax_mhz
    }

    /// Width of one memory word in bytes for a site's memory system (for burst sizes in
    /// words); the first bank of that type, else the first bank, else 64.
    pub fn word_bytes(&self, g: usize) -> u32 {
        let banks = &self.profile.header.board.global_memory;
        let sys = self.site(g).memory_system.as_deref();
        banks
            .iter()
            .find(|b| Some(b.memory_type.as_str()) == sys)
            .or_else(|| banks.first())
            .map(|b| b.width_bytes)
            .filter(|&w| w > 0)
            .unwrap_or(64)
    }
}

/// The run a record describes: a finished run, or the partial run of a snapshot.
fn run_of(r: &Record) -> Option<&KernelRun> {
    match r {
        Record::KernelRun(k) => Some(k),
        Record::Snapshot(s) => Some(&s.run),
        _ => None,
    }
}

/// True for channel and pipe accesses.
pub fn is_stream(s: &AccessSite) -> bool {
    use fpgacl_profile_format::AccessKind::*;
    matches!(s.kind, ChannelRead | ChannelWrite | PipeRead | PipeWrite)
}

/// Highest line number the viewer gives room to: a site or kernel claiming a line beyond it (a
/// corrupt static report) is shown on this line rather than allocating billions of lines.
pub const MAX_LINE: u32 = 1_000_000;

/// 0-based line index of a 1-based line number, clamped to [`MAX_LINE`].
pub fn line_index(line: u32) -> usize {
    line.clamp(1, MAX_LINE) as usize - 1
}

fn ensure_line(f: &mut FileView, line: u32) {
    let n = line_index(line) + 1;
    if f.sites_by_line.len() < n {
        f.sites_by_line.resize(n, Vec::new());
    }
    if f.lines.len() < n {
        f.lines.resize(n, String::new());
    }
}

fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for ch in line.chars() {
        match ch {
            '\t' => {
                let pad = 4 - (out.chars().count() % 4);
                out.extend(std::iter::repeat_n(' ', pad));
            }
            '\r' => {}
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn group_captures(captures: &[AutorunCapture]) -> Vec<CaptureGroup> {
    let mut groups: Vec<CaptureGroup> = Vec::new();
    let mut lookup: HashMap<(u32, &str, [u32; 3]), usize> = HashMap::new();
    for (i, c) in captures.iter().enumerate() {
        let key = (c.device, c.kernel.as_str(), c.compute_unit);
        let g = *lookup.entry(key).or_insert_with(|| {
            groups.push(CaptureGroup {
                device: c.device,
                kernel: c.kernel.clone(),
                compute_unit: c.compute_unit,
                captures: Vec::new(),
            });
            groups.len() - 1
        });
        groups[g].captures.push(i);
    }
    for g in &mut groups {
        g.captures
            .sort_by_key(|&i| (captures[i].capture_ns, captures[i].program));
    }
    groups.sort_by(|a, b| {
        (a.device, &a.kernel, a.compute_unit).cmp(&(b.device, &b.kernel, b.compute_unit))
    });
    groups
}

impl ReportData {
    /// The Attributes column of a site: memory type, memory system, read/write, LSU (or the
    /// channel/pipe name), e.g. `global DDR read, Burst-coalesced cached`.
    pub fn attributes(&self, g: usize) -> String {
        let s = self.site(g);
        let rw = match s.kind {
            fpgacl_profile_format::AccessKind::Atomic => "atomic",
            k if k.is_read() => "read",
            _ => "write",
        };
        let mut out = String::from(s.memory.as_str());
        if is_stream(s) {
            if let Some(t) = &s.target {
                out.push(' ');
                out.push_str(t);
            }
            out.push(' ');
            out.push_str(rw);
            return out;
        }
        if let Some(sys) = &s.memory_system {
            out.push(' ');
            out.push_str(sys);
        }
        out.push(' ');
        out.push_str(rw);
        if !s.lsu.is_empty() {
            out.push_str(", ");
            out.push_str(&s.lsu);
        }
        for m in &s.modifiers {
            out.push(' ');
            out.push_str(m);
        }
        out
    }

    /// Human label of a scope, e.g. `average of 12 runs`, `run 3 of vector_add`.
    pub fn scope_label(&self, scope: Scope) -> String {
        match scope {
            Scope::Average => format!(
                "average of {} run{}",
                self.runs_with_counters,
                if self.runs_with_counters == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            Scope::Autorun => {
                let caps = self.captures.len();
                format!(
                    "autorun kernels: {caps} capture{}, on their own",
                    if caps == 1 { "" } else { "s" }
                )
            }
            Scope::Run(i) => match self.run(i) {
                Some(r) => format!(
                    "run #{} of {} (device {}, queue {}, start {}, {})",
                    r.run_id,
                    r.kernel,
                    r.device,
                    r.queue,
                    crate::fmt::time(r.start_ns),
                    crate::fmt::time(r.duration_ns())
                ),
                None => "run (missing)".into(),
            },
            Scope::Capture(i) => match self.captures.get(i) {
                Some(c) => format!(
                    "autorun capture of {} at {} (device {}, compute unit {})",
                    c.kernel,
                    crate::fmt::capture_label(c.capture_ns),
                    c.device,
                    cu_label(c.compute_unit)
                ),
                None => "capture (missing)".into(),
            },
        }
    }
}

/// A compute unit id as `0` or `1,0,0`.
pub fn cu_label(cu: [u32; 3]) -> String {
    if cu[1] == 0 && cu[2] == 0 {
        cu[0].to_string()
    } else {
        format!("{},{},{}", cu[0], cu[1], cu[2])
    }
}
