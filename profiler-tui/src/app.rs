//! [`App`]: everything the screens show and how keys and mouse change it. Pure state: no
//! terminal here, so tests drive it with synthetic key events and draw it on a test backend.

use std::cell::Cell;

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use fpgacl_profile_format::SiteCounters;
use ratatui::layout::Rect;

use crate::compare::CompareTable;
use crate::data::{ReportData, Scope};
use crate::theme::{Theme, HIGH_STALL_PCT};
use crate::timeline::{Item, RowRef};

/// The tabs below the summary header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Per-line statistics of memory and channel accesses.
    Source,
    /// Timeline of kernel runs and memory transfers.
    Execution,
    /// Autorun kernel captures (only when the file has some).
    Autorun,
    /// Differences between two files (only in compare mode).
    Compare,
    /// The static report's loops with II and the reason (only when the profile has loops).
    Loops,
}

impl Tab {
    /// Title as shown on the tab bar.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Source => "Source Code",
            Tab::Execution => "Kernel Execution",
            Tab::Autorun => "Autorun Captures",
            Tab::Compare => "Compare",
            Tab::Loops => "Loops",
        }
    }
}

/// A pop-up list over the Source Code tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Popup {
    /// Choose a file or a kernel: entries are (file, optional kernel).
    Picker {
        /// Entries in display order.
        entries: Vec<(usize, Option<usize>)>,
        /// Highlighted entry.
        selected: usize,
    },
    /// Choose one of the accesses on the cursor line.
    Accesses {
        /// Highlighted access.
        selected: usize,
    },
}

/// State of the Source Code tab.
#[derive(Debug)]
pub struct SourceState {
    /// Shown file (index into `ReportData::files`).
    pub file: usize,
    /// Cursor line, 0-based.
    pub cursor: usize,
    /// First shown line (adjusted while drawing to keep the cursor visible).
    pub scroll: Cell<usize>,
    /// Show only this kernel's accesses (index into `ReportData::kernels`).
    pub kernel_filter: Option<usize>,
    /// Which counters are shown.
    pub scope: Scope,
    /// Counters per site for `scope`.
    pub counters: Vec<Option<SiteCounters>>,
    /// Chosen access among the cursor line's accesses.
    pub access: usize,
    /// Source text shifted left by this many characters (long lines).
    pub hscroll: usize,
    /// Highest Stall% of the shown accesses per line of the current file.
    pub line_stall: Vec<Option<f64>>,
    /// (file, 0-based line) of every line with Stall% >= 20%, in file then line order.
    pub high_stall: Vec<(usize, usize)>,
    /// Tab to return to with Esc after opening a run or a capture.
    pub return_tab: Option<Tab>,
    /// Open pop-up, if any.
    pub popup: Option<Popup>,
    /// Where the source lines were drawn last (for the mouse).
    pub area: Cell<Rect>,
}

/// State of the Kernel Execution tab.
#[derive(Debug)]
pub struct ExecState {
    /// Screen rows of the timeline.
    pub rows: Vec<RowRef>,
    /// Selected row (index into `rows`).
    pub row: usize,
    /// First shown row (adjusted while drawing).
    pub row_scroll: Cell<usize>,
    /// Left edge of the view, ns.
    pub view_start: u64,
    /// Width of the view, ns (at least 1).
    pub view_span: u64,
    /// Time cursor, ns: the selected item is the one under or nearest to it.
    pub cursor: u64,
    /// Selected item: position in the selected row.
    pub selected: Option<usize>,
    /// Where the bars were drawn last (for the mouse).
    pub bars: Cell<Rect>,
    /// Last mouse-drag column (to pan by dragging).
    pub drag_from: Option<u16>,
}

/// State of the Autorun Captures tab.
#[derive(Debug, Default)]
pub struct AutorunState {
    /// Selected row (capture group).
    pub group: usize,
    /// Selected capture within the row.
    pub capture: usize,
    /// Capture buttons drawn last: (area, group, capture position), for the mouse.
    pub buttons: std::cell::RefCell<Vec<(Rect, usize, usize)>>,
}

/// State of the Compare tab.
#[derive(Debug, Default)]
pub struct CompareState {
    /// Selected site row.
    pub cursor: usize,
    /// First shown row (adjusted while drawing).
    pub scroll: Cell<usize>,
    /// Sort by largest stall change instead of by location.
    pub by_change: bool,
}

/// State of the Loops tab.
#[derive(Debug, Default)]
pub struct LoopsState {
    /// Selected loop (index into `ReportData::loops`).
    pub cursor: usize,
    /// First shown row (adjusted while drawing).
    pub scroll: Cell<usize>,
}

/// `/` search over source lines and kernel names.
#[derive(Debug, Default)]
pub struct SearchState {
    /// Text being typed after `/` (the prompt is open while this is `Some`).
    pub typing: Option<String>,
    /// The last search, repeated by `n` / `N` in the Source Code tab until Esc clears it.
    pub query: Option<String>,
    /// (file, 0-based line) of every match of `query`, in file then line order.
    pub hits: Vec<(usize, usize)>,
}

/// The whole profiler state.
#[derive(Debug)]
pub struct App {
    /// The profile shown (the second one in compare mode).
    pub data: ReportData,
    /// Compare mode: the first ("before") profile and the differences.
    pub compare: Option<(ReportData, CompareTable)>,
    /// Colours or monochrome.
    pub theme: Theme,
    /// Tabs present.
    pub tabs: Vec<Tab>,
    /// Current tab (index into `tabs`).
    pub tab: usize,
    /// Key help shown.
    pub help: bool,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// One-line message in the footer (cleared by the next key).
    pub message: Option<String>,
    /// Source Code tab.
    pub source: SourceState,
    /// Kernel Execution tab.
    pub exec: ExecState,
    /// Autorun Captures tab.
    pub autorun: AutorunState,
    /// Compare tab.
    pub cmp: CompareState,
    /// Loops tab.
    pub loops: LoopsState,
    /// `/` search.
    pub search: SearchState,
    /// Details panes shown (`d` collapses / expands them).
    pub details: bool,
    /// Kernel Execution tab shows the selected kernel's plots instead of the lanes (`v`).
    pub plots: bool,
}

impl App {
    /// An app showing `data`.
    pub fn new(data: ReportData, theme: Theme) -> App {
        let mut tabs = vec![Tab::Source, Tab::Execution];
        if !data.capture_groups.is_empty() {
            tabs.push(Tab::Autorun);
        }
        if !data.loops.is_empty() {
            tabs.push(Tab::Loops);
        }
        let rows = data.timeline.row_refs();
        let (t0, t1) = (data.timeline.start_ns, data.timeline.end_ns.max(1));
        let span = t1.saturating_sub(t0).max(1);
        let counters = data.counters(Scope::Average);
        // Start on the file of the first kernel that ran, else the first file with accesses.
        let first_file = data
            .run(0)
            .and_then(|r| data.find_kernel(r.program, &r.kernel))
            .and_then(|k| data.kernels[k].file)
            .or_else(|| {
                data.files
                    .iter()
                    .position(|f| f.sites_by_line.iter().any(|s| !s.is_empty()))
            })
            .unwrap_or(0);
        let mut app = App {
            compare: None,
            theme,
            tabs,
            tab: 0,
            help: false,
            quit: false,
            message: None,
            source: SourceState {
                file: first_file,
                cursor: 0,
                scroll: Cell::new(0),
                kernel_filter: None,
                scope: Scope::Average,
                counters,
                access: 0,
                hscroll: 0,
                line_stall: Vec::new(),
                high_stall: Vec::new(),
                return_tab: None,
                popup: None,
                area: Cell::new(Rect::default()),
            },
            exec: ExecState {
                rows,
                row: 0,
                row_scroll: Cell::new(0),
                view_start: t0,
                view_span: span,
                cursor: t0 + span / 2,
                selected: None,
                bars: Cell::new(Rect::default()),
                drag_from: None,
            },
            autorun: AutorunState::default(),
            cmp: CompareState::default(),
            loops: LoopsState::default(),
            search: SearchState::default(),
            details: true,
            plots: false,
            data,
        };
        if let Some(warn) = app.data.profile.warnings.first() {
            app.message = Some(format!("warning: {warn}"));
        }
        app.refresh_source();
        if let Some(first) = (0..app.file_len()).find(|&l| !app.line_sites(l).is_empty()) {
            app.source.cursor = first;
            app.source.access = app.default_access(first);
        }
        app.exec_select_nearest();
        app
    }

    /// An app comparing `before` with `after` (the other tabs show `after`).
    pub fn compare(before: ReportData, after: ReportData, theme: Theme) -> App {
        let table = CompareTable::new(&before, &after);
        let mut app = App::new(after, theme);
        app.compare = Some((before, table));
        app.tabs.insert(0, Tab::Compare);
        app
    }

    /// The current tab.
    pub fn current_tab(&self) -> Tab {
        self.tabs[self.tab.min(self.tabs.len() - 1)]
    }

    /// Switches to `tab` if present.
    pub fn goto_tab(&mut self, tab: Tab) {
        if let Some(i) = self.tabs.iter().position(|&t| t == tab) {
            self.tab = i;
        }
    }

    // ----- Source Code tab -------------------------------------------------------------

    /// Sites of `line` of the current file that pass the kernel filter.
    pub fn line_sites(&self, line: usize) -> Vec<usize> {
        self.sites_on(self.source.file, line)
    }

    /// Sites of `line` of `file` that pass the kernel filter.
    pub fn sites_on(&self, file: usize, line: usize) -> Vec<usize> {
        let Some(f) = self.data.files.get(file) else {
            return Vec::new();
        };
        let Some(sites) = f.sites_by_line.get(line) else {
            return Vec::new();
        };
        sites
            .iter()
            .copied()
            .filter(|&g| {
                self.source
                    .kernel_filter
                    .is_none_or(|k| self.data.sites[g].kernel == Some(k))
            })
            .collect()
    }

    /// The access shown in the details pane: the chosen access of the cursor line.
    pub fn current_site(&self) -> Option<usize> {
        let sites = self.line_sites(self.source.cursor);
        sites
            .get(self.source.access.min(sites.len().saturating_sub(1)))
            .copied()
    }

    /// Number of lines of the current file.
    pub fn file_len(&self) -> usize {
        self.data
            .files
            .get(self.source.file)
            .map_or(0, |f| f.lines.len().max(f.sites_by_line.len()))
    }

    /// Highest Stall% of the shown accesses of `line` in `file`.
    fn worst_stall(&self, file: usize, line: usize) -> Option<f64> {
        let mut worst: Option<f64> = None;
        for g in self.sites_on(file, line) {
            if let Some(st) = self.source.counters[g].and_then(|c| c.stall_pct()) {
                worst = Some(worst.map_or(st, |w: f64| w.max(st)));
            }
        }
        worst
    }

    /// Recomputes per-line stall and the high-stall lines after a change of file, filter or
    /// scope. Cost: one pass over the sites.
    pub fn refresh_source(&mut self) {
        let n = self.file_len();
        let line_stall: Vec<Option<f64>> = (0..n)
            .map(|l| self.worst_stall(self.source.file, l))
            .collect();
        let mut high = Vec::new();
        for (fi, f) in self.data.files.iter().enumerate() {
            for (line, sites) in f.sites_by_line.iter().enumerate() {
                if !sites.is_empty()
                    && self
                        .worst_stall(fi, line)
                        .is_some_and(|w| w >= HIGH_STALL_PCT)
                {
                    high.push((fi, line));
                }
            }
        }
        self.source.line_stall = line_stall;
        self.source.high_stall = high;
        self.source.cursor = self.source.cursor.min(n.saturating_sub(1));
    }

    /// Shows `scope`'s counters in the Source Code tab.
    pub fn set_scope(&mut self, scope: Scope) {
        self.source.scope = scope;
        self.source.counters = self.data.counters(scope);
        self.refresh_source();
        self.source.access = self.default_access(self.source.cursor);
    }

    /// Opens the Source Code view of a kernel with `scope`'s counters (from a run or a
    /// capture), remembering the tab to go back to.
    pub fn open_source(&mut self, program: u32, kernel: &str, scope: Scope) {
        let from = self.current_tab();
        let k = self.data.find_kernel(program, kernel);
        if let Some(f) = k.and_then(|k| self.data.kernels[k].file) {
            self.source.file = f;
        }
        self.source.kernel_filter = k;
        self.set_scope(scope);
        // Cursor on the first high-stall line of the kernel, else its first access, else its
        // definition.
        let file = self.source.file;
        let target = self
            .source
            .high_stall
            .iter()
            .find(|&&(f, _)| f == file)
            .map(|&(_, l)| l)
            .or_else(|| (0..self.file_len()).find(|&l| !self.line_sites(l).is_empty()))
            .or_else(|| k.map(|k| crate::data::line_index(self.data.kernel(k).line)));
        if let Some(t) = target {
            self.source.cursor = t;
        }
        self.source.access = self.default_access(self.source.cursor);
        self.source.return_tab = Some(from);
        self.goto_tab(Tab::Source);
    }

    fn source_move(&mut self, delta: isize) {
        let n = self.file_len();
        if n == 0 {
            return;
        }
        let c = self.source.cursor as isize + delta;
        self.source.cursor = c.clamp(0, n as isize - 1) as usize;
        self.source.access = self.default_access(self.source.cursor);
    }

    /// The access a line shows by default: its highest-stall one (the first when none has
    /// counters).
    pub fn default_access(&self, line: usize) -> usize {
        let sites = self.line_sites(line);
        let mut best = 0;
        let mut best_stall = f64::NEG_INFINITY;
        for (i, &g) in sites.iter().enumerate() {
            let st = self.source.counters[g]
                .and_then(|c| c.stall_pct())
                .unwrap_or(f64::NEG_INFINITY);
            if st > best_stall {
                best = i;
                best_stall = st;
            }
        }
        best
    }

    /// Moves to the next (or previous) line with Stall% >= 20%, across files, wrapping
    /// around.
    pub fn jump_high_stall(&mut self, forward: bool) {
        let hs = &self.source.high_stall;
        if hs.is_empty() {
            self.message = Some("no line with Stall% >= 20% in this view".into());
            return;
        }
        let c = (self.source.file, self.source.cursor);
        let next = if forward {
            hs.iter().copied().find(|&l| l > c).unwrap_or(hs[0])
        } else {
            hs.iter()
                .rev()
                .copied()
                .find(|&l| l < c)
                .unwrap_or(hs[hs.len() - 1])
        };
        let pos = hs.iter().position(|&l| l == next).unwrap_or(0);
        let total = hs.len();
        if next.0 != self.source.file {
            self.source.file = next.0;
            self.source.cursor = next.1;
            self.refresh_source();
        }
        self.source.cursor = next.1;
        self.source.access = self.default_access(next.1);
        let name = self.data.files[next.0].name.clone();
        self.message = Some(format!(
            "high-stall line {} of {}: {name}:{}",
            pos + 1,
            total,
            next.1 + 1
        ));
    }

    fn picker_entries(&self) -> Vec<(usize, Option<usize>)> {
        let mut v = Vec::new();
        for (fi, f) in self.data.files.iter().enumerate() {
            v.push((fi, None));
            for &k in &f.kernels {
                v.push((fi, Some(k)));
            }
        }
        v
    }

    fn apply_pick(&mut self, file: usize, kernel: Option<usize>) {
        self.source.file = file;
        self.source.kernel_filter = kernel;
        self.source.cursor =
            kernel.map_or(0, |k| crate::data::line_index(self.data.kernel(k).line));
        self.source.scroll.set(0);
        self.refresh_source();
        self.source.access = self.default_access(self.source.cursor);
    }

    fn on_key_source(&mut self, key: KeyEvent) {
        if let Some(popup) = self.source.popup.clone() {
            self.on_key_popup(key, popup);
            return;
        }
        let page = (self.source.area.get().height.max(2) - 1) as isize;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.source_move(-1),
            KeyCode::Down | KeyCode::Char('j') => self.source_move(1),
            KeyCode::PageUp => self.source_move(-page),
            KeyCode::PageDown | KeyCode::Char(' ') => self.source_move(page),
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.source_move(-page / 2)
            }
            KeyCode::Char('d') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.source_move(page / 2)
            }
            KeyCode::Home | KeyCode::Char('g') => self.source_move(isize::MIN / 2),
            KeyCode::End | KeyCode::Char('G') => self.source_move(isize::MAX / 2),
            KeyCode::Char('n') if self.search.query.is_some() => self.search_step(true),
            KeyCode::Char('N') if self.search.query.is_some() => self.search_step(false),
            KeyCode::Char('n') => self.jump_high_stall(true),
            KeyCode::Char('N') | KeyCode::Char('p') => self.jump_high_stall(false),
            KeyCode::Char('d') => self.details = !self.details,
            KeyCode::Char(']') | KeyCode::Right | KeyCode::Char('l') => {
                let n = self.line_sites(self.source.cursor).len();
                if n > 1 {
                    self.source.access = (self.source.access + 1) % n;
                }
            }
            KeyCode::Char('[') | KeyCode::Left | KeyCode::Char('h') => {
                let n = self.line_sites(self.source.cursor).len();
                if n > 1 {
                    self.source.access = (self.source.access + n - 1) % n;
                }
            }
            KeyCode::Enter => {
                let n = self.line_sites(self.source.cursor).len();
                if n > 1 {
                    self.source.popup = Some(Popup::Accesses {
                        selected: self.source.access.min(n - 1),
                    });
                } else if n == 0 {
                    self.message = Some("no memory or channel access on this line".into());
                }
            }
            KeyCode::Char('f') => {
                let entries = self.picker_entries();
                let selected = entries
                    .iter()
                    .position(|&(f, k)| f == self.source.file && k == self.source.kernel_filter)
                    .unwrap_or(0);
                self.source.popup = Some(Popup::Picker { entries, selected });
            }
            KeyCode::Char('>') => self.source.hscroll = (self.source.hscroll + 8).min(4096),
            KeyCode::Char('<') => self.source.hscroll = self.source.hscroll.saturating_sub(8),
            KeyCode::Char('a') => self.back_to_average(false),
            KeyCode::Esc if self.search.query.is_some() => {
                self.search = SearchState::default();
                self.message = Some("search cleared: n / N jump to high-stall lines".into());
            }
            KeyCode::Esc => self.back_to_average(true),
            _ => {}
        }
    }

    fn back_to_average(&mut self, return_to_origin: bool) {
        if self.source.scope != Scope::Average {
            self.set_scope(Scope::Average);
            self.message = Some(
                "showing the average of the enqueued runs (autorun captures: Autorun tab)".into(),
            );
            if return_to_origin {
                if let Some(t) = self.source.return_tab.take() {
                    self.goto_tab(t);
                }
            }
        } else if self.source.kernel_filter.is_some() && !return_to_origin {
            self.source.kernel_filter = None;
            self.refresh_source();
        }
    }

    fn on_key_popup(&mut self, key: KeyEvent, popup: Popup) {
        let (len, selected) = match &popup {
            Popup::Picker { entries, selected } => (entries.len(), *selected),
            Popup::Accesses { selected } => (self.line_sites(self.source.cursor).len(), *selected),
        };
        let mut sel = selected;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => sel = sel.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => sel = (sel + 1).min(len.saturating_sub(1)),
            KeyCode::Home | KeyCode::Char('g') => sel = 0,
            KeyCode::End | KeyCode::Char('G') => sel = len.saturating_sub(1),
            KeyCode::Esc | KeyCode::Char('f') => {
                self.source.popup = None;
                return;
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                self.source.popup = None;
                match popup {
                    Popup::Picker { entries, .. } => {
                        if let Some(&(f, k)) = entries.get(sel) {
                            self.apply_pick(f, k);
                        }
                    }
                    Popup::Accesses { .. } => self.source.access = sel,
                }
                return;
            }
            _ => return,
        }
        self.source.popup = Some(match popup {
            Popup::Picker { entries, .. } => Popup::Picker {
                entries,
                selected: sel,
            },
            Popup::Accesses { .. } => Popup::Accesses { selected: sel },
        });
    }

    // ----- Kernel Execution tab ---------------------------------------------------------

    /// The selected timeline item.
    pub fn exec_item(&self) -> Option<Item> {
        let r = *self.exec.rows.get(self.exec.row)?;
        let pos = self.exec.selected?;
        let lane = self.data.timeline.lanes.get(r.0)?;
        (pos < lane.rows[r.1].len()).then(|| lane.item(r.1, pos))
    }

    fn exec_select_nearest(&mut self) {
        self.exec.selected = self
            .exec
            .rows
            .get(self.exec.row)
            .and_then(|&r| self.data.timeline.row(r))
            .and_then(|row| row.nearest(self.exec.cursor));
    }

    fn exec_center(&mut self) {
        self.exec.view_start = self.exec.cursor.saturating_sub(self.exec.view_span / 2);
    }

    /// Moves the time cursor by `delta` ns (keeping it inside the recorded span), re-centres
    /// the view on it and selects the nearest item of the row.
    pub fn exec_pan(&mut self, delta: i128) {
        let (t0, t1) = (self.data.timeline.start_ns, self.data.timeline.end_ns);
        let c = (self.exec.cursor as i128 + delta).clamp(t0 as i128, t1.max(t0) as i128);
        self.exec.cursor = c as u64;
        self.exec_center();
        self.exec_select_nearest();
    }

    /// Zooms in (`factor` < 1) or out (> 1) around the cursor.
    pub fn exec_zoom(&mut self, zoom_in: bool) {
        let full = self
            .data
            .timeline
            .end_ns
            .saturating_sub(self.data.timeline.start_ns)
            .max(1);
        let span = if zoom_in {
            (self.exec.view_span / 2).max(10)
        } else {
            self.exec
                .view_span
                .saturating_mul(2)
                .min(full.saturating_mul(2))
        };
        self.exec.view_span = span.max(1);
        self.exec_center();
    }

    /// Shows the whole recorded time span.
    pub fn exec_fit(&mut self) {
        let (t0, t1) = (self.data.timeline.start_ns, self.data.timeline.end_ns);
        self.exec.view_start = t0;
        self.exec.view_span = t1.saturating_sub(t0).max(1);
        self.exec.cursor = t0 + self.exec.view_span / 2;
        self.exec_select_nearest();
    }

    fn exec_step_item(&mut self, forward: bool) {
        let Some(row) = self
            .exec
            .rows
            .get(self.exec.row)
            .and_then(|&r| self.data.timeline.row(r))
        else {
            return;
        };
        if row.is_empty() {
            return;
        }
        let cur = self.exec.selected.unwrap_or(0);
        let next = if forward {
            (cur + 1).min(row.len() - 1)
        } else {
            cur.saturating_sub(1)
        };
        let (s, e) = row.span(next);
        self.exec.selected = Some(next);
        self.exec.cursor = s + (e - s) / 2;
        if self.exec.view_span < e - s {
            // Zoom out so the item fits.
            self.exec.view_span = (e - s).saturating_mul(2).max(1);
        }
        self.exec_center();
    }

    fn exec_open(&mut self) {
        match self.exec_item() {
            Some(Item::Run(i)) => {
                let (program, kernel) = {
                    let Some(r) = self.data.run(i) else {
                        return;
                    };
                    (r.program, r.kernel.clone())
                };
                if self.data.run(i).is_some_and(|r| r.sites.is_empty()) {
                    self.message =
                        Some("this run was recorded without counters (timer only)".into());
                }
                self.open_source(program, &kernel, Scope::Run(i));
            }
            Some(Item::Transfer(_)) => {
                self.message = Some("memory transfers have no source view".into())
            }
            None => {}
        }
    }

    fn on_key_exec(&mut self, key: KeyEvent) {
        let step = (self.exec.view_span / 10).max(1) as i128;
        let page = self.exec.view_span.max(1) as i128;
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.exec_pan(-step),
            KeyCode::Right | KeyCode::Char('l') => self.exec_pan(step),
            KeyCode::Char('H') | KeyCode::PageUp => self.exec_pan(-page),
            KeyCode::Char('L') | KeyCode::PageDown => self.exec_pan(page),
            KeyCode::Home | KeyCode::Char('g') => self.exec_pan(i128::MIN / 4),
            KeyCode::End | KeyCode::Char('G') => self.exec_pan(i128::MAX / 4),
            KeyCode::Char('+') | KeyCode::Char('=') => self.exec_zoom(true),
            KeyCode::Char('-') | KeyCode::Char('_') => self.exec_zoom(false),
            KeyCode::Char('0') => self.exec_fit(),
            KeyCode::Char('d') => self.details = !self.details,
            KeyCode::Char('v') => self.plots = !self.plots,
            KeyCode::Up | KeyCode::Char('k') => {
                self.exec.row = self.exec.row.saturating_sub(1);
                self.exec_select_nearest();
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.exec.row = (self.exec.row + 1).min(self.exec.rows.len().saturating_sub(1));
                self.exec_select_nearest();
            }
            KeyCode::Char(']') | KeyCode::Char('n') => self.exec_step_item(true),
            KeyCode::Char('[') | KeyCode::Char('N') | KeyCode::Char('p') => {
                self.exec_step_item(false)
            }
            KeyCode::Enter => self.exec_open(),
            _ => {}
        }
    }

    /// Time (ns) at screen column `x` of the bars area.
    fn exec_time_at(&self, x: u16) -> Option<u64> {
        let area = self.exec.bars.get();
        if area.width == 0 || x < area.x || x >= area.x + area.width {
            return None;
        }
        let col = (x - area.x) as u128;
        let t = self.exec.view_start as u128
            + (col * self.exec.view_span as u128 + self.exec.view_span as u128 / 2)
                / area.width as u128;
        Some(t.min(u64::MAX as u128) as u64)
    }

    fn on_mouse_exec(&mut self, m: MouseEvent) {
        let area = self.exec.bars.get();
        match m.kind {
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                if let Some(t) = self.exec_time_at(m.column) {
                    self.exec.cursor = t;
                }
                self.exec_zoom(m.kind == MouseEventKind::ScrollUp);
            }
            MouseEventKind::Down(MouseButton::Left) => {
                if m.row >= area.y && m.row < area.y + area.height {
                    let r = self.exec.row_scroll.get() + (m.row - area.y) as usize;
                    if r < self.exec.rows.len() {
                        self.exec.row = r;
                        self.exec_select_nearest();
                    }
                }
                if let Some(t) = self.exec_time_at(m.column) {
                    self.exec.cursor = t;
                    self.exec_select_nearest();
                }
                self.exec.drag_from = Some(m.column);
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let (Some(from), true) = (self.exec.drag_from, area.width > 0) {
                    let dx = from as i128 - m.column as i128;
                    let delta = dx * self.exec.view_span as i128 / area.width as i128;
                    self.exec.view_start =
                        (self.exec.view_start as i128 + delta).clamp(0, u64::MAX as i128) as u64;
                    self.exec.cursor = self.exec.view_start.saturating_add(self.exec.view_span / 2);
                    self.exec_select_nearest();
                    self.exec.drag_from = Some(m.column);
                }
            }
            MouseEventKind::Up(_) => self.exec.drag_from = None,
            _ => {}
        }
    }

    // ----- Autorun Captures tab ---------------------------------------------------------

    /// The selected capture (index into `ReportData::captures`).
    pub fn autorun_capture(&self) -> Option<usize> {
        let g = self.data.capture_groups.get(self.autorun.group)?;
        g.captures
            .get(self.autorun.capture.min(g.captures.len().saturating_sub(1)))
            .copied()
    }

    fn on_key_autorun(&mut self, key: KeyEvent) {
        let groups = self.data.capture_groups.len();
        if groups == 0 {
            return;
        }
        let n = self.data.capture_groups[self.autorun.group.min(groups - 1)]
            .captures
            .len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.autorun.group = self.autorun.group.saturating_sub(1)
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.autorun.group = (self.autorun.group + 1).min(groups - 1)
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.autorun.capture = self.autorun.capture.min(n - 1).saturating_sub(1)
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.autorun.capture = (self.autorun.capture + 1).min(n.saturating_sub(1))
            }
            KeyCode::Home | KeyCode::Char('g') => self.autorun.capture = 0,
            KeyCode::End | KeyCode::Char('G') => self.autorun.capture = n.saturating_sub(1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if let Some(c) = self.autorun_capture() {
                    let (program, kernel) = {
                        let cap = &self.data.captures[c];
                        (cap.program, cap.kernel.clone())
                    };
                    self.open_source(program, &kernel, Scope::Capture(c));
                }
            }
            KeyCode::Char('t') => {
                // Every capture of the session summed: the autorun kernels on their own.
                if let Some(c) = self.autorun_capture() {
                    let (program, kernel) = {
                        let cap = &self.data.captures[c];
                        (cap.program, cap.kernel.clone())
                    };
                    self.open_source(program, &kernel, Scope::Autorun);
                }
            }
            _ => {}
        }
        let n = self.data.capture_groups[self.autorun.group].captures.len();
        self.autorun.capture = self.autorun.capture.min(n.saturating_sub(1));
    }

    // ----- Compare tab ------------------------------------------------------------------

    fn on_key_compare(&mut self, key: KeyEvent) {
        let n = self.compare.as_ref().map_or(0, |(_, t)| t.sites.len());
        let c = &mut self.cmp.cursor;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => *c = c.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => *c = (*c + 1).min(n.saturating_sub(1)),
            KeyCode::PageUp => *c = c.saturating_sub(10),
            KeyCode::PageDown => *c = (*c + 10).min(n.saturating_sub(1)),
            KeyCode::Home | KeyCode::Char('g') => *c = 0,
            KeyCode::End | KeyCode::Char('G') => *c = n.saturating_sub(1),
            KeyCode::Char('s') => {
                self.cmp.by_change = !self.cmp.by_change;
                if let Some((_, t)) = &mut self.compare {
                    t.sort(self.cmp.by_change);
                }
            }
            _ => {}
        }
    }

    // ----- Search -----------------------------------------------------------------------

    fn on_key_search(&mut self, key: KeyEvent) {
        let Some(text) = self.search.typing.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.search.typing = None,
            // Backspace on an empty prompt closes it.
            KeyCode::Backspace if text.is_empty() => self.search.typing = None,
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Enter => {
                let q = self.search.typing.take().unwrap_or_default();
                self.search_for(&q);
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => text.push(c),
            _ => {}
        }
    }

    /// Searches `query` (case-insensitive) in every source line and kernel name and jumps to
    /// the first match after the cursor in the Source Code tab; `n` / `N` then repeat it.
    pub fn search_for(&mut self, query: &str) {
        if query.is_empty() {
            return;
        }
        let q = query.to_lowercase();
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for (fi, f) in self.data.files.iter().enumerate() {
            for (li, line) in f.lines.iter().enumerate() {
                if line.to_lowercase().contains(&q) {
                    hits.push((fi, li));
                }
            }
        }
        for (k, kr) in self.data.kernels.iter().enumerate() {
            if let Some(f) = kr.file {
                if self.data.kernel(k).name.to_lowercase().contains(&q) {
                    hits.push((f, crate::data::line_index(self.data.kernel(k).line)));
                }
            }
        }
        hits.sort_unstable();
        hits.dedup();
        self.search.query = Some(query.to_string());
        self.search.hits = hits;
        self.goto_tab(Tab::Source);
        if self.search.hits.is_empty() {
            self.message = Some(format!("no match for '{query}' in sources or kernel names"));
            return;
        }
        // From the line before the cursor, so a match on the cursor line counts.
        let c = (self.source.file, self.source.cursor);
        let first = self.search.hits.iter().position(|&h| h >= c).unwrap_or(0);
        self.search_goto(first);
    }

    /// Moves to the next (or previous) match of the last search, wrapping around.
    pub fn search_step(&mut self, forward: bool) {
        let hits = &self.search.hits;
        if hits.is_empty() {
            let q = self.search.query.clone().unwrap_or_default();
            self.message = Some(format!("no match for '{q}'"));
            return;
        }
        let c = (self.source.file, self.source.cursor);
        let i = if forward {
            hits.iter().position(|&h| h > c).unwrap_or(0)
        } else {
            hits.iter().rposition(|&h| h < c).unwrap_or(hits.len() - 1)
        };
        self.search_goto(i);
    }

    fn search_goto(&mut self, i: usize) {
        let (f, l) = self.search.hits[i];
        self.goto_line(f, l);
        self.message = Some(format!(
            "/{}: match {} of {} (n / N next / previous, Esc clears)",
            self.search.query.as_deref().unwrap_or(""),
            i + 1,
            self.search.hits.len()
        ));
    }

    /// Puts the Source Code cursor on `line` of `file` (clearing a kernel filter from another
    /// file).
    pub fn goto_line(&mut self, file: usize, line: usize) {
        if file != self.source.file {
            self.source.file = file;
            if self
                .source
                .kernel_filter
                .is_some_and(|k| self.data.kernels[k].file != Some(file))
            {
                self.source.kernel_filter = None;
            }
            self.refresh_source();
        }
        self.source.cursor = line.min(self.file_len().saturating_sub(1));
        self.source.access = self.default_access(self.source.cursor);
    }

    /// True when `line` of the shown file matches the last search.
    pub fn is_search_hit(&self, line: usize) -> bool {
        self.search.query.is_some()
            && self
                .search
                .hits
                .binary_search(&(self.source.file, line))
                .is_ok()
    }

    // ----- Loops tab --------------------------------------------------------------------

    fn on_key_loops(&mut self, key: KeyEvent) {
        let n = self.data.loops.len();
        let c = &mut self.loops.cursor;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => *c = c.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => *c = (*c + 1).min(n.saturating_sub(1)),
            KeyCode::PageUp => *c = c.saturating_sub(10),
            KeyCode::PageDown => *c = (*c + 10).min(n.saturating_sub(1)),
            KeyCode::Home | KeyCode::Char('g') => *c = 0,
            KeyCode::End | KeyCode::Char('G') => *c = n.saturating_sub(1),
            KeyCode::Enter => {
                if let Some(&r) = self.data.loops.get(*c) {
                    let line = crate::data::line_index(self.data.loop_info(*c).line);
                    self.source.return_tab = Some(Tab::Loops);
                    self.goto_line(r.file, line);
                    self.goto_tab(Tab::Source);
                }
            }
            _ => {}
        }
    }

    // ----- Dispatch ---------------------------------------------------------------------

    /// Applies one key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        self.message = None;
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q'))
        {
            self.quit = true;
            return;
        }
        if self.search.typing.is_some() {
            self.on_key_search(key);
            return;
        }
        if self.help {
            // Any key closes the help (q still quits).
            self.help = false;
            if key.code == KeyCode::Char('q') {
                self.quit = true;
            }
            return;
        }
        let popup_open = self.source.popup.is_some() && self.current_tab() == Tab::Source;
        if !popup_open {
            match key.code {
                KeyCode::Char('q') => {
                    self.quit = true;
                    return;
                }
                KeyCode::Char('?') | KeyCode::F(1) => {
                    self.help = true;
                    return;
                }
                KeyCode::Tab => {
                    self.tab = (self.tab + 1) % self.tabs.len();
                    return;
                }
                KeyCode::BackTab => {
                    self.tab = (self.tab + self.tabs.len() - 1) % self.tabs.len();
                    return;
                }
                KeyCode::Char('/') => {
                    self.search.typing = Some(String::new());
                    return;
                }
                KeyCode::Char(d @ '1'..='5') => {
                    let i = d as usize - '1' as usize;
                    if i < self.tabs.len() {
                        self.tab = i;
                    }
                    return;
                }
                _ => {}
            }
        }
        match self.current_tab() {
            Tab::Source => self.on_key_source(key),
            Tab::Execution => self.on_key_exec(key),
            Tab::Autorun => self.on_key_autorun(key),
            Tab::Compare => self.on_key_compare(key),
            Tab::Loops => self.on_key_loops(key),
        }
    }

    /// Applies one mouse event.
    pub fn on_mouse(&mut self, m: MouseEvent) {
        if self.help {
            return;
        }
        match self.current_tab() {
            Tab::Execution => self.on_mouse_exec(m),
            Tab::Autorun => {
                if let MouseEventKind::Down(MouseButton::Left) = m.kind {
                    let hit = self.autorun.buttons.borrow().iter().find_map(|&(r, g, c)| {
                        (m.column >= r.x
                            && m.column < r.x + r.width
                            && m.row >= r.y
                            && m.row < r.y + r.height)
                            .then_some((g, c))
                    });
                    if let Some((g, c)) = hit {
                        self.autorun.group = g;
                        self.autorun.capture = c;
                        // A click on a button opens it, like the GUI's buttons.
                        self.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
                    }
                }
            }
            Tab::Source if self.source.popup.is_none() => {
                let area = self.source.area.get();
                match m.kind {
                    MouseEventKind::ScrollUp => self.source_move(-3),
                    MouseEventKind::ScrollDown => self.source_move(3),
                    MouseEventKind::Down(MouseButton::Left)
                        if m.row >= area.y && m.row < area.y + area.height =>
                    {
                        let line = self.source.scroll.get() + (m.row - area.y) as usize;
                        if line < self.file_len() {
                            self.source.cursor = line;
                            self.source.access = self.default_access(line);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}
