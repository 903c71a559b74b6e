//! [`TimelineIndex`]: kernel runs and memory transfers laid out in lanes and rows, sorted so
//! that drawing one screen column and finding the run under the cursor are binary searches.
//!
//! One lane per kernel (and one per transfer direction). Runs of the same kernel that overlap
//! in time (several queues) go to separate rows of the lane, so concurrency stays visible.

use std::collections::HashMap;

use fpgacl_profile_format::{KernelRun, MemTransfer, TransferDirection};

/// Most rows one lane gets; runs overlapping more than this share the last row.
pub const MAX_ROWS_PER_LANE: usize = 4;

/// What a lane shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaneKind {
    /// Runs of one kernel of one program.
    Kernel {
        /// Program id.
        program: u32,
        /// Kernel name.
        kernel: String,
    },
    /// Memory transfers in one direction.
    Transfer(TransferDirection),
}

/// A timeline item: a run or a transfer, by index into the report's vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// Index into `ReportData::runs`.
    Run(usize),
    /// Index into `ReportData::transfers`.
    Transfer(usize),
}

/// One screen row of a lane: items that (mostly) do not overlap, sorted by start.
#[derive(Debug, Clone, Default)]
pub struct Row {
    items: Vec<u32>,
    starts: Vec<u64>,
    ends: Vec<u64>,
    /// `prefix_max_end[i]` = max of `ends[..=i]`.
    prefix_max_end: Vec<u64>,
}

impl Row {
    /// Number of items in the row.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the row has no item.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Index (into the lane's item space) of the `pos`-th item.
    pub fn item_index(&self, pos: usize) -> usize {
        self.items[pos] as usize
    }

    /// Start and (effective, at least start + 1) end of the `pos`-th item.
    pub fn span(&self, pos: usize) -> (u64, u64) {
        (self.starts[pos], self.ends[pos])
    }

    /// True when some item intersects `[t0, t1)`.
    pub fn covers(&self, t0: u64, t1: u64) -> bool {
        let idx = self.starts.partition_point(|&s| s < t1);
        idx > 0 && self.prefix_max_end[idx - 1] > t0
    }

    /// Position of the item containing `t`, or else the one closest to `t`.
    pub fn nearest(&self, t: u64) -> Option<usize> {
        if self.items.is_empty() {
            return None;
        }
        let idx = self.starts.partition_point(|&s| s <= t);
        if idx == 0 {
            return Some(0);
        }
        let before = idx - 1;
        if self.ends[before] > t || idx == self.items.len() {
            return Some(before);
        }
        let d_before = t - self.ends[before];
        let d_after = self.starts[idx] - t;
        Some(if d_after < d_before { idx } else { before })
    }

    fn push(&mut self, item: u32, start: u64, end: u64) {
        let prev = self.prefix_max_end.last().copied().unwrap_or(0);
        self.items.push(item);
        self.starts.push(start);
        self.ends.push(end);
        self.prefix_max_end.push(prev.max(end));
    }
}

/// A lane: a label and its rows.
#[derive(Debug, Clone)]
pub struct Lane {
    /// Label shown left of the bars.
    pub label: String,
    /// What the lane holds.
    pub kind: LaneKind,
    /// Rows (at least one).
    pub rows: Vec<Row>,
    /// Number of items in the lane.
    pub count: usize,
}

impl Lane {
    /// The item at `pos` of row `row`.
    pub fn item(&self, row: usize, pos: usize) -> Item {
        let i = self.rows[row].item_index(pos);
        match self.kind {
            LaneKind::Kernel { .. } => Item::Run(i),
            LaneKind::Transfer(_) => Item::Transfer(i),
        }
    }
}

/// All lanes of the Kernel Execution tab.
#[derive(Debug, Clone, Default)]
pub struct TimelineIndex {
    /// Kernel lanes by first start, then transfer lanes (read, write, copy).
    pub lanes: Vec<Lane>,
    /// Earliest start of any item (ns).
    pub start_ns: u64,
    /// Latest end of any item (ns).
    pub end_ns: u64,
}

/// A screen row of the timeline: (lane, row within the lane).
pub type RowRef = (usize, usize);

impl TimelineIndex {
    /// Lays out `runs` and `transfers`; `label(program, kernel)` names a kernel lane.
    pub fn build<'a>(
        runs: impl Iterator<Item = (usize, &'a KernelRun)>,
        transfers: impl Iterator<Item = (usize, &'a MemTransfer)>,
        label: impl Fn(u32, &str) -> String,
    ) -> TimelineIndex {
        let mut lanes: Vec<(LaneKind, Vec<ItemSpan>)> = Vec::new();
        // (program, kernel) -> lane. Most files have few kernels: checking the previous
        // run's lane, then a short list, is cheaper than hashing every run's name.
        let mut keys: Vec<(u32, &'a str)> = Vec::new();
        let mut lookup: HashMap<(u32, &'a str), usize> = HashMap::new();
        let mut last: Option<usize> = None;
        for (i, r) in runs {
            let key = (r.program, r.kernel.as_str());
            let lane = match last.filter(|&l| keys[l] == key) {
                Some(l) => l,
                None => {
                    let found = if keys.len() <= 16 {
                        keys.iter().position(|k| *k == key)
                    } else {
                        lookup.get(&key).copied()
                    };
                    match found {
                        Some(l) => l,
                        None => {
                            keys.push(key);
                            lookup.insert(key, lanes.len());
                            lanes.push((
                                LaneKind::Kernel {
                                    program: r.program,
                                    kernel: r.kernel.clone(),
                                },
                                Vec::new(),
                            ));
                            lanes.len() - 1
                        }
                    }
                }
            };
            last = Some(lane);
            lanes[lane].1.push(span(r.start_ns, r.end_ns, i));
        }
        const DIRS: [TransferDirection; 3] = [
            TransferDirection::Write,
            TransferDirection::Read,
            TransferDirection::Copy,
        ];
        let mut by_dir: [Vec<ItemSpan>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for (i, t) in transfers {
            let d = DIRS.iter().position(|&d| d == t.direction).unwrap_or(0);
            by_dir[d].push(span(t.start_ns, t.end_ns, i));
        }
        for (d, items) in by_dir.into_iter().enumerate() {
            if !items.is_empty() {
                lanes.push((LaneKind::Transfer(DIRS[d]), items));
            }
        }

        let mut out = TimelineIndex {
            lanes: Vec::with_capacity(lanes.len()),
            start_ns: u64::MAX,
            end_ns: 0,
        };
        for (kind, mut items) in lanes {
            items.sort_unstable_by_key(|&(s, e, i)| (s, e, i));
            let mut rows: Vec<Row> = vec![Row::default()];
            let mut row_end: Vec<u64> = vec![0];
            for &(s, e, i) in &items {
                out.start_ns = out.start_ns.min(s);
                out.end_ns = out.end_ns.max(e);
                let r = match row_end.iter().position(|&end| end <= s) {
                    Some(r) => r,
                    None if rows.len() < MAX_ROWS_PER_LANE => {
                        rows.push(Row::default());
                        row_end.push(0);
                        rows.len() - 1
                    }
                    None => rows.len() - 1,
                };
                rows[r].push(i, s, e);
                row_end[r] = row_end[r].max(e);
            }
            let label = match &kind {
                LaneKind::Kernel { program, kernel } => label(*program, kernel),
                LaneKind::Transfer(TransferDirection::Write) => "write (host->dev)".into(),
                LaneKind::Transfer(TransferDirection::Read) => "read (dev->host)".into(),
                LaneKind::Transfer(TransferDirection::Copy) => "copy (dev->dev)".into(),
            };
            out.lanes.push(Lane {
                label,
                kind,
                rows,
                count: items.len(),
            });
        }
        // Kernel lanes in order of first start; transfer lanes keep their place at the end.
        out.lanes.sort_by_key(|l| {
            let first = l.rows[0].starts.first().copied().unwrap_or(0);
            match l.kind {
                LaneKind::Kernel { .. } => (0u8, first),
                LaneKind::Transfer(_) => (1u8, 0),
            }
        });
        if out.start_ns == u64::MAX {
            out.start_ns = 0;
        }
        out
    }

    /// Every screen row, lane by lane.
    pub fn row_refs(&self) -> Vec<RowRef> {
        let mut v = Vec::new();
        for (li, l) in self.lanes.iter().enumerate() {
            for ri in 0..l.rows.len() {
                v.push((li, ri));
            }
        }
        v
    }

    /// The row at `r`.
    pub fn row(&self, r: RowRef) -> Option<&Row> {
        self.lanes.get(r.0).and_then(|l| l.rows.get(r.1))
    }

    /// True when there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }
}

/// (start, effective end, item index).
type ItemSpan = (u64, u64, u32);

fn span(start: u64, end: u64, i: usize) -> ItemSpan {
    // A zero-length item still covers its start instant.
    let end = end.max(start.saturating_add(1));
    (start, end, u32::try_from(i).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(kernel: &str, start: u64, end: u64) -> KernelRun {
        KernelRun {
            run_id: start,
            device: 0,
            queue: 0,
            kernel: kernel.into(),
            program: 1,
            start_ns: start,
            end_ns: end,
            start_cycle: 0,
            end_cycle: 0,
            work_dim: 1,
            global_size: [1, 1, 1],
            local_size: [1, 1, 1],
            global_offset: [0, 0, 0],
            sites: Vec::new(),
        }
    }

    #[test]
    fn overlapping_runs_of_one_kernel_get_rows() {
        let runs = [
            run("a", 0, 10),
            run("a", 5, 15),
            run("b", 2, 3),
            run("a", 20, 30),
        ];
        let t = TimelineIndex::build(runs.iter().enumerate(), [].iter().enumerate(), |_, k| {
            k.to_string()
        });
        assert_eq!(t.lanes.len(), 2);
        assert_eq!(t.lanes[0].label, "a");
        assert_eq!(t.lanes[0].rows.len(), 2);
        assert_eq!(t.lanes[0].rows[0].len(), 2);
        assert_eq!(t.lanes[0].rows[1].len(), 1);
        assert_eq!((t.start_ns, t.end_ns), (0, 30));
        let r = &t.lanes[0].rows[0];
        assert!(r.covers(9, 12));
        assert!(!r.covers(10, 20));
        assert!(r.covers(29, 100));
        assert_eq!(r.nearest(12), Some(0));
        assert_eq!(r.nearest(17), Some(1));
        assert_eq!(r.nearest(1000), Some(1));
        assert_eq!(t.lanes[0].item(0, 1), Item::Run(3));
    }

    #[test]
    fn zero_length_runs_are_visible() {
        let runs = [run("a", 7, 7)];
        let t = TimelineIndex::build(runs.iter().enumerate(), [].iter().enumerate(), |_, k| {
            k.to_string()
        });
        assert!(t.lanes[0].rows[0].covers(7, 8));
        assert!(!t.lanes[0].rows[0].covers(8, 9));
    }
}
