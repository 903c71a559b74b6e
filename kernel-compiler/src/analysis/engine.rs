//! Symbolic execution of a kernel for the loop and access analysis.
//!
//! The kernel's control flow is walked region by region: a region is the kernel body or the body
//! of one loop, whose inner loops appear as single nodes. Blocks of a region are executed in
//! topological order on an abstract [`State`] (one [`Val`] per register slot and per
//! private-memory cell); where paths join, differing values are merged through a select that also
//! depends on the diverging branch conditions (if-conversion, as the FPGA compiler does).
//!
//! Loops are fully unrolled (executed once per iteration with their induction variable known),
//! or pipelined: then the body is executed twice, first to find induction variables (cells
//! whose value grows by a constant per iteration) and the carried cells, then for real with every
//! carried cell a fresh *source*, from which the recurrence graph ([`super::graph`]) and the
//! loop's II follow ([`super::loops`]).

use super::graph::Edge;
use super::latency::{self, OpClass};
use super::value::*;
use super::{BoardParams, KernelKind, KernelReport, LoopReport, UnrollStatus};
use crate::ir::*;
use crate::source::Loc;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// A register slot or a private-memory cell (absolute frame byte offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cell {
    Slot(u32),
    Frame(u32),
}

/// The abstract machine state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub slots: BTreeMap<u32, Val>,
    /// Private cells: offset -> (width, value).
    pub frame: BTreeMap<u32, (u32, Val)>,
}

impl State {
    fn get_cell(&self, c: Cell) -> Option<&Val> {
        match c {
            Cell::Slot(s) => self.slots.get(&s),
            Cell::Frame(o) => self.frame.get(&o).map(|(_, v)| v),
        }
    }
    fn cells(&self) -> Vec<Cell> {
        self.slots
            .keys()
            .map(|&s| Cell::Slot(s))
            .chain(self.frame.keys().map(|&o| Cell::Frame(o)))
            .collect()
    }
    fn set_cell(&mut self, c: Cell, v: Val) {
        match c {
            Cell::Slot(s) => {
                self.slots.insert(s, v);
            }
            Cell::Frame(o) => {
                let w = self.frame.get(&o).map(|(w, _)| *w).unwrap_or(4);
                self.frame.insert(o, (w, v));
            }
        }
    }
}

/// One branch decision on the path to a block.
#[derive(Clone, Debug)]
pub struct PredEntry {
    pub serial: u32,
    pub side: u32,
    pub deps: Deps,
    pub single_wi: bool,
}

pub type Pred = Vec<PredEntry>;

/// What an access does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AKind {
    Load,
    Store,
    Atomic,
    ChanRead,
    ChanWrite,
}

/// One executed instance of a memory or channel access (unrolled loops give several per site).
#[derive(Clone, Debug)]
pub struct AccessInst {
    pub site: Option<SiteId>,
    pub kind: AKind,
    pub space: AddrSpace,
    pub base: Option<Base>,
    pub aff: Option<Affine>,
    /// Address depends on loaded data.
    pub ld: bool,
    pub width: u32,
    pub loc: Loc,
    /// Innermost pipelined loop executing the access (None: kernel level).
    pub driver: Option<LoopId>,
    /// Predicated by `work-item id == constant`.
    pub single_wi: bool,
    /// Accesses with equal keys execute together (same iteration and predicate).
    pub group: (u32, Vec<(u32, u32)>),
    /// Frame object is a private array in RAM.
    pub private_ram: bool,
}

/// An access as seen by one loop analysis frame.
#[derive(Clone, Debug)]
pub struct FrameAccess {
    pub inst: AccessInst,
    /// Node of the access issue (loads) or of the store.
    pub issue: u32,
    /// Node of the loaded data (loads).
    pub data: Option<u32>,
    /// Dependencies of the issue (address, predicate; stores: value).
    pub deps: Deps,
    /// Dependencies of a store's value alone.
    pub value_deps: Deps,
    /// The pipelined subloop containing it, relative to the frame's loop.
    pub in_subloop: Option<LoopId>,
    pub onchip: bool,
}

/// What a source stands for.
#[derive(Clone, Debug)]
pub enum SrcKind {
    Cell(Cell),
    Issue(usize),
    Data(usize),
}

/// The analysis of one pipelined loop (or of the kernel body) in progress.
pub struct Frame {
    pub loop_id: Option<LoopId>,
    pub discovery: bool,
    pub record: bool,
    pub accesses: Vec<FrameAccess>,
    /// Sources owned by this frame: global id -> kind.
    pub srcs: BTreeMap<u32, SrcKind>,
    pub reads: BTreeSet<Cell>,
    pub pass: u32,
}

/// Static facts about a loop.
#[derive(Clone, Debug)]
pub struct LoopStatic {
    pub info: LoopInfo,
    pub children: Vec<LoopId>,
    pub unroll: UnrollStatus,
    pub trip: Option<u64>,
    /// (target) blocks outside the loop reached from inside it.
    pub exit_targets: Vec<BlockId>,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    B(u32),
    L(u32),
}

const RETURN: BlockId = BlockId(u32::MAX);

/// Result of executing one region pass.
#[derive(Default)]
struct RegionOut {
    latch: Vec<(State, Pred)>,
    exits: Vec<(BlockId, State, Pred)>,
}

/// The symbolic executor of one kernel.
pub struct Engine<'a> {
    pub m: &'a Module,
    pub f: &'a Function,
    pub board: &'a BoardParams,
    pub kidx: u32,
    pub loops: BTreeMap<LoopId, LoopStatic>,
    topo_cache: BTreeMap<Option<LoopId>, Rc<Vec<Node>>>,
    opaque_vary: Vec<VaryMask>,
    hashcons: BTreeMap<(u32, Option<Affine>, Option<Affine>, u32), u32>,
    pub src_count: u32,
    serial: u32,
    pub frames: Vec<Frame>,
    pub ram_frames: BTreeSet<u32>,
    pub new_ram: bool,
    /// Access instances of the final execution, in order.
    pub records: Vec<AccessInst>,
    /// Loop results of the final execution.
    pub results: BTreeMap<LoopId, LoopReport>,
    pub kernel_graph: Option<(usize, Vec<Edge>)>,
    pub warnings: Vec<String>,
    budget: u64,
    /// Trip counts known from an earlier run's constant propagation.
    pub seeds: BTreeMap<LoopId, u64>,
    /// Trip counts found in this run for loops without a static one: `None` when an
    /// execution's bounds were not constant or executions disagreed.
    pub found_trips: BTreeMap<LoopId, Option<u64>>,
    /// Depth of trip-count probes in progress (no recording while > 0).
    probing: u32,
    /// Loops nested deeper than [`MAX_ANALYSED_DEPTH`] pipelined loops: not analysed.
    pub too_deep: BTreeSet<LoopId>,
}

/// Most instructions executed symbolically per kernel before the analysis gives up on
/// unrolling (keeps pathological kernels bounded).
const EXEC_BUDGET: u64 = 3_000_000;
/// Largest trip count fully unrolled automatically.
pub const AUTO_UNROLL_MAX_TRIP: u64 = 16;
/// Deepest nest of pipelined loops analysed: deeper loops are executed once for their effect
/// on the variables and reported as not analysed (each level's analysis runs its subloops
/// again, so the cost grows with the square of the depth).
pub const MAX_ANALYSED_DEPTH: usize = 32;
/// Largest partial unroll factor analysed; larger factors are capped to it with a warning.
pub const MAX_UNROLL_FACTOR: u32 = 1024;
/// Largest trip count fully unrolled; beyond it a full unroll becomes a partial unroll by
/// [`MAX_UNROLL_FACTOR`], with a warning.
pub const MAX_FULL_UNROLL_TRIP: u64 = 1 << 16;

/// The unroll status of a loop from its pragmas, trip count (if known), body size
/// (instructions) and whether all its subloops are fully unrolled; with a warning when a
/// request had to be capped.
///
/// A loop of constant trip count 0 or 1 is no loop for the hardware: it is always unrolled
/// away (unless `#pragma unroll 1` asks to keep it), whatever its size or subloops.
pub fn unroll_decision(
    info: &LoopInfo,
    trip: Option<u64>,
    size: u64,
    children_full: bool,
) -> (UnrollStatus, Option<String>) {
    let full = |t: u64| -> (UnrollStatus, Option<String>) {
        if t <= MAX_FULL_UNROLL_TRIP {
            (UnrollStatus::FullPragma, None)
        } else {
            (
                UnrollStatus::Partial(MAX_UNROLL_FACTOR),
                Some(format!(
                    "full unrolling of {t} iterations exceeds the limit of {MAX_FULL_UNROLL_TRIP}: unroll capped at {MAX_UNROLL_FACTOR} copies"
                )),
            )
        }
    };
    match info.pragmas.unroll {
        Some(Some(0)) | Some(Some(1)) => (UnrollStatus::Disabled, None),
        _ if matches!(trip, Some(0 | 1)) => (
            if info.pragmas.unroll.is_some() {
                UnrollStatus::FullPragma
            } else {
                UnrollStatus::FullAuto
            },
            None,
        ),
        Some(None) => match trip {
            Some(t) => full(t),
            None => (UnrollStatus::FullRequestedUnknownBounds, None),
        },
        Some(Some(n)) => match trip {
            Some(t) if n as u64 >= t => full(t),
            _ if n > MAX_UNROLL_FACTOR => (
                UnrollStatus::Partial(MAX_UNROLL_FACTOR),
                Some(format!(
                    "unroll factor {n} exceeds the limit of {MAX_UNROLL_FACTOR}: unroll capped at {MAX_UNROLL_FACTOR} copies"
                )),
            ),
            _ => (UnrollStatus::Partial(n), None),
        },
        None => match trip {
            Some(t)
                if t <= AUTO_UNROLL_MAX_TRIP
                    && t.saturating_mul(size) <= AUTO_UNROLL_MAX_INSTS
                    && children_full
                    && !info.pragmas.disable_loop_pipelining =>
            {
                (UnrollStatus::FullAuto, None)
            }
            _ => (UnrollStatus::NotUnrolled, None),
        },
    }
}
/// Largest unrolled body (instructions x trips) unrolled automatically.
pub const AUTO_UNROLL_MAX_INSTS: u64 = 2048;

impl<'a> Engine<'a> {
    pub fn new(
        m: &'a Module,
        kidx: u32,
        f: &'a Function,
        board: &'a BoardParams,
        ram_frames: BTreeSet<u32>,
        seeds: BTreeMap<LoopId, u64>,
    ) -> Self {
        let mut e = Engine {
            m,
            f,
            board,
            kidx,
            loops: BTreeMap::new(),
            topo_cache: BTreeMap::new(),
            opaque_vary: Vec::new(),
            hashcons: BTreeMap::new(),
            src_count: 0,
            serial: 0,
            frames: Vec::new(),
            ram_frames,
            new_ram: false,
            records: Vec::new(),
            results: BTreeMap::new(),
            kernel_graph: None,
            warnings: Vec::new(),
            budget: EXEC_BUDGET,
            seeds,
            found_trips: BTreeMap::new(),
            probing: 0,
            too_deep: BTreeSet::new(),
        };
        e.init_loops();
        e
    }

    fn init_loops(&mut self) {
        let f = self.f;
        for l in &f.loops {
            self.loops.insert(
                l.id,
                LoopStatic {
                    info: l.clone(),
                    children: Vec::new(),
                    unroll: UnrollStatus::NotUnrolled,
                    trip: l.const_trip_count,
                    exit_targets: Vec::new(),
                    name: String::new(),
                },
            );
        }
        for l in &f.loops {
            if let Some(p) = l.parent {
                if let Some(ps) = self.loops.get_mut(&p) {
                    ps.children.push(l.id);
                }
            }
        }
        // Exit targets and body sizes.
        let mut sizes: BTreeMap<LoopId, u64> = BTreeMap::new();
        for (bi, b) in f.blocks.iter().enumerate() {
            let chain = self.loop_chain(b.in_loop);
            for &l in &chain {
                *sizes.entry(l).or_default() += b.insts.len() as u64 + 1;
            }
            for t in succs(&b.term) {
                let tchain = f
                    .blocks
                    .get(t.0 as usize)
                    .map(|tb| self.loop_chain(tb.in_loop))
                    .unwrap_or_default();
                for &l in &chain {
                    if !tchain.contains(&l) {
                        let ls = self.loops.get_mut(&l).expect("loop");
                        if !ls.exit_targets.contains(&t) {
                            ls.exit_targets.push(t);
                        }
                    }
                }
            }
            let _ = bi;
        }
        // Trip counts found by constant propagation in an earlier run (loops whose bounds are
        // known only after inlining, see `analyze_kernel`).
        for (l, t) in &self.seeds {
            if let Some(ls) = self.loops.get_mut(l) {
                ls.trip.get_or_insert(*t);
            }
        }
        // Unroll decisions, innermost first (deeper loops have larger chains).
        let mut order: Vec<LoopId> = self.loops.keys().copied().collect();
        order.sort_by_key(|l| std::cmp::Reverse(self.loop_chain(Some(*l)).len()));
        for l in order {
            let ls = &self.loops[&l];
            let children_full = ls.children.iter().all(|c| self.loops[c].unroll.is_full());
            let size = sizes.get(&l).copied().unwrap_or(0);
            let (status, warning) = unroll_decision(&ls.info, ls.trip, size, children_full);
            let loc = ls.info.loc;
            let file = self.m.sources.name(loc.file).to_string();
            if let Some(w) = warning {
                self.warnings
                    .push(format!("{file}: the loop at line {}: {w}", loc.line));
            }
            if status == UnrollStatus::FullRequestedUnknownBounds {
                self.warnings.push(format!(
                    "{file}: full unrolling requested but bounds unknown: the loop at line {} is not unrolled",
                    loc.line
                ));
            }
            self.loops.get_mut(&l).expect("loop").unroll = status;
        }
        // Block names in source order.
        let mut ids: Vec<LoopId> = self.loops.keys().copied().collect();
        ids.sort_by_key(|l| {
            let i = &self.loops[l].info;
            (i.loc.file, i.loc.line, i.loc.col, l.0)
        });
        let mut n = 0;
        for l in ids {
            let ls = self.loops.get_mut(&l).expect("loop");
            if !ls.unroll.is_full() {
                n += 1;
                ls.name = format!("Block{n}");
            }
        }
    }

    /// The pipelined (not fully unrolled) subloops of `l`, looking through fully unrolled
    /// children: the loops the hardware builds inside `l`'s pipeline.
    pub fn pipelined_subloops(&self, l: LoopId) -> Vec<LoopId> {
        let mut out = Vec::new();
        let mut stack: Vec<LoopId> = self
            .loops
            .get(&l)
            .map(|s| s.children.clone())
            .unwrap_or_default();
        while let Some(c) = stack.pop() {
            let Some(cs) = self.loops.get(&c) else {
                continue;
            };
            if cs.unroll.is_full() {
                stack.extend(cs.children.iter().copied());
            } else {
                out.push(c);
            }
        }
        out.sort();
        out
    }

    /// Loops containing `l`, innermost first.
    pub fn loop_chain(&self, l: Option<LoopId>) -> Vec<LoopId> {
        let mut v = Vec::new();
        let mut cur = l;
        while let Some(x) = cur {
            if v.contains(&x) || v.len() > 256 {
                break;
            }
            v.push(x);
            cur = self
                .f
                .loops
                .iter()
                .find(|i| i.id == x)
                .and_then(|i| i.parent);
        }
        v
    }

    fn header(&self, l: LoopId) -> BlockId {
        self.loops[&l].info.header
    }

    /// The node of block `b` inside region `region` (None: outside).
    fn node_of(&self, b: BlockId, region: Option<LoopId>) -> Option<Node> {
        let blk = self.f.blocks.get(b.0 as usize)?;
        let mut cur = blk.in_loop;
        if cur == region {
            return Some(Node::B(b.0));
        }
        let mut guard = 0;
        while let Some(x) = cur {
            let parent = self.loops.get(&x).and_then(|s| s.info.parent);
            if parent == region {
                return Some(Node::L(x.0));
            }
            cur = parent;
            guard += 1;
            if guard > 256 {
                break;
            }
        }
        None
    }

    fn node_succs(&self, n: Node) -> Vec<BlockId> {
        match n {
            Node::B(b) => succs(&self.f.blocks[b as usize].term),
            Node::L(l) => self
                .loops
                .get(&LoopId(l))
                .map(|s| s.exit_targets.clone())
                .unwrap_or_default(),
        }
    }

    fn entry_node(&self, region: Option<LoopId>) -> Node {
        match region {
            Some(l) => Node::B(self.header(l).0),
            None => Node::B(0),
        }
    }

    fn topo(&mut self, region: Option<LoopId>) -> Rc<Vec<Node>> {
        if let Some(t) = self.topo_cache.get(&region) {
            return t.clone();
        }
        let entry = self.entry_node(region);
        // Iterative DFS post-order; back edges to the entry and to gray nodes are ignored.
        let mut state: BTreeMap<Node, u8> = BTreeMap::new();
        let mut post = Vec::new();
        let mut stack: Vec<(Node, Vec<Node>, usize)> = Vec::new();
        let succ_nodes = |e: &Self, n: Node| -> Vec<Node> {
            e.node_succs(n)
                .into_iter()
                .filter_map(|t| e.node_of(t, region))
                .filter(|&x| x != entry)
                .collect()
        };
        state.insert(entry, 1);
        stack.push((entry, succ_nodes(self, entry), 0));
        while let Some((n, ss, i)) = stack.last_mut() {
            if *i < ss.len() {
                let t = ss[*i];
                *i += 1;
                if let std::collections::btree_map::Entry::Vacant(v) = state.entry(t) {
                    v.insert(1);
                    let s2 = succ_nodes(self, t);
                    stack.push((t, s2, 0));
                }
            } else {
                state.insert(*n, 2);
                post.push(*n);
                stack.pop();
            }
        }
        post.reverse();
        let rc = Rc::new(post);
        self.topo_cache.insert(region, rc.clone());
        rc
    }

    // ----- sources, symbols -------------------------------------------------------------

    fn new_src(&mut self, kind: SrcKind) -> u32 {
        let id = self.src_count;
        self.src_count += 1;
        if self.probing > 0 {
            return id;
        }
        if let Some(fr) = self.frames.last_mut() {
            fr.srcs.insert(id, kind);
        }
        id
    }

    fn next_serial(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    fn vary_of(&self, a: &Option<Affine>) -> VaryMask {
        match a {
            None => VARY_ALL,
            Some(a) => a.terms.iter().fold(0, |m, (s, _)| {
                m | match s {
                    Sym::Iv(l) => loop_bit(*l),
                    Sym::Gid(_) | Sym::Lid(_) | Sym::Grp(_) => WI_BIT,
                    Sym::Op(i) => self
                        .opaque_vary
                        .get(*i as usize)
                        .copied()
                        .unwrap_or(VARY_ALL),
                }
            }),
        }
    }

    /// The varying mask of an opaque symbol.
    pub fn opaque_mask(&self, id: u32) -> VaryMask {
        self.opaque_vary
            .get(id as usize)
            .copied()
            .unwrap_or(VARY_ALL)
    }

    /// What a symbol varies with.
    pub fn sym_mask(&self, s: Sym) -> VaryMask {
        self.vary_of(&Some(Affine::sym(s)))
    }

    fn fresh_opaque(&mut self, vary: VaryMask) -> Affine {
        self.opaque_vary.push(vary);
        Affine::sym(Sym::Op(self.opaque_vary.len() as u32 - 1))
    }

    /// A hash-consed opaque for `code(a, b)`.
    fn opaque_of(&mut self, code: u32, a: &Option<Affine>, b: &Option<Affine>, x: u32) -> Affine {
        let vary = self.vary_of(a) | self.vary_of(b);
        if vary == VARY_ALL && (a.is_none() || b.is_none()) {
            return self.fresh_opaque(VARY_ALL);
        }
        let key = (code, a.clone(), b.clone(), x);
        if let Some(&id) = self.hashcons.get(&key) {
            return Affine::sym(Sym::Op(id));
        }
        let aff = self.fresh_opaque(vary);
        if let Some((Sym::Op(id), _)) = aff.terms.first() {
            self.hashcons.insert(key, *id);
        }
        aff
    }

    // ----- execution --------------------------------------------------------------------

    fn read(&mut self, st: &State, r: Reg) -> Val {
        if self.probing > 0 {
        } else if let Some(fr) = self.frames.last_mut() {
            fr.reads.insert(Cell::Slot(r.0));
        }
        st.slots.get(&r.0).cloned().unwrap_or_default()
    }

    fn pred_deps(p: &Pred) -> Deps {
        let mut d = Deps::new();
        for e in p {
            union_into(&mut d, &e.deps);
        }
        d
    }

    fn merge(&mut self, mut inc: Vec<(State, Pred)>, loc: Loc) -> (State, Pred) {
        if inc.len() == 1 {
            return inc.pop().expect("one");
        }
        // Longest common predicate prefix.
        let mut lcp = inc[0].1.len();
        for (_, p) in &inc[1..] {
            let mut k = 0;
            while k < lcp
                && k < p.len()
                && p[k].serial == inc[0].1[k].serial
                && p[k].side == inc[0].1[k].side
            {
                k += 1;
            }
            lcp = k;
        }
        let mut sel = Deps::new();
        for (_, p) in &inc {
            for e in &p[lcp..] {
                union_into(&mut sel, &e.deps);
            }
        }
        let pred: Pred = inc[0].1[..lcp].to_vec();
        let sel_op = OpRec {
            class: OpClass::Select,
            lat: latency::SELECT,
            loc,
            subloop: None,
        };
        // One pass over every incoming state (not keys x states: a switch of N cases joins N
        // states of N distinct slots each).
        let mut slot_vals: BTreeMap<u32, Vec<&Val>> = BTreeMap::new();
        let mut frame_vals: BTreeMap<u32, Vec<&(u32, Val)>> = BTreeMap::new();
        for (s, _) in &inc {
            for (k, v) in &s.slots {
                slot_vals.entry(*k).or_default().push(v);
            }
            for (k, v) in &s.frame {
                frame_vals.entry(*k).or_default().push(v);
            }
        }
        let mut out = State::default();
        for (k, vals) in slot_vals {
            out.slots.insert(k, merge_vals(&vals, &sel, sel_op));
        }
        for (k, vals) in frame_vals {
            let w = vals[0].0;
            let vs: Vec<&Val> = vals.iter().map(|(_, v)| v).collect();
            out.frame.insert(k, (w, merge_vals(&vs, &sel, sel_op)));
        }
        (out, pred)
    }

    fn node_loc(&self, n: Node) -> Loc {
        match n {
            Node::B(b) => {
                let blk = &self.f.blocks[b as usize];
                blk.locs.first().copied().unwrap_or(blk.term_loc)
            }
            Node::L(l) => self.loops[&LoopId(l)].info.loc,
        }
    }

    fn run_region(&mut self, region: Option<LoopId>, entry: (State, Pred)) -> RegionOut {
        let order = self.topo(region);
        let entry_node = self.entry_node(region);
        let mut incoming: BTreeMap<Node, Vec<(State, Pred)>> = BTreeMap::new();
        incoming.insert(entry_node, vec![entry]);
        let mut out = RegionOut::default();
        for &node in order.iter() {
            let Some(inc) = incoming.remove(&node) else {
                continue;
            };
            let loc = self.node_loc(node);
            let (st, pr) = self.merge(inc, loc);
            let outs = match node {
                Node::B(b) => self.exec_block(BlockId(b), st, pr),
                Node::L(l) => self.sim_loop(LoopId(l), st, pr),
            };
            for (t, s, p) in outs {
                if t == RETURN {
                    out.exits.push((t, s, p));
                    continue;
                }
                match self.node_of(t, region) {
                    Some(n) if n == entry_node => out.latch.push((s, p)),
                    Some(n) => incoming.entry(n).or_default().push((s, p)),
                    None => out.exits.push((t, s, p)),
                }
            }
        }
        out
    }

    fn exec_block(&mut self, b: BlockId, mut st: State, pr: Pred) -> Vec<(BlockId, State, Pred)> {
        let f = self.f;
        let blk = &f.blocks[b.0 as usize];
        self.budget = self.budget.saturating_sub(blk.insts.len() as u64 + 1);
        for (i, inst) in blk.insts.iter().enumerate() {
            let loc = blk.locs.get(i).copied().unwrap_or(blk.term_loc);
            self.exec_inst(inst, loc, &mut st, &pr, b);
        }
        match &blk.term {
            Terminator::Jump(t) => vec![(*t, st, pr)],
            Terminator::Branch { cond, then, els } => {
                let cv = self.read(&st, *cond);
                if let Some(c) = cv.as_const() {
                    return vec![(if c != 0 { *then } else { *els }, st, pr)];
                }
                if then == els {
                    return vec![(*then, st, pr)];
                }
                let serial = self.next_serial();
                let mut p1 = pr.clone();
                p1.push(PredEntry {
                    serial,
                    side: 1,
                    deps: cv.deps.clone(),
                    single_wi: cv.wi_cmp == Some(true),
                });
                let mut p0 = pr;
                p0.push(PredEntry {
                    serial,
                    side: 0,
                    deps: cv.deps.clone(),
                    single_wi: cv.wi_cmp == Some(false),
                });
                vec![(*then, st.clone(), p1), (*els, st, p0)]
            }
            Terminator::Switch {
                value,
                cases,
                default,
            } => {
                let v = self.read(&st, *value);
                if let Some(c) = v.as_const() {
                    let t = cases
                        .iter()
                        .find(|(k, _)| *k as i64 == c)
                        .map(|(_, t)| *t)
                        .unwrap_or(*default);
                    return vec![(t, st, pr)];
                }
                let serial = self.next_serial();
                let mut targets: Vec<BlockId> = cases.iter().map(|(_, t)| *t).collect();
                targets.push(*default);
                targets.sort();
                targets.dedup();
                targets
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let mut p = pr.clone();
                        p.push(PredEntry {
                            serial,
                            side: i as u32,
                            deps: v.deps.clone(),
                            single_wi: false,
                        });
                        (t, st.clone(), p)
                    })
                    .collect()
            }
            Terminator::Return => vec![(RETURN, st, pr)],
            Terminator::Unreachable => Vec::new(),
        }
    }

    fn sim_loop(&mut self, l: LoopId, st: State, pr: Pred) -> Vec<(BlockId, State, Pred)> {
        let ls = &self.loops[&l];
        let probe = ls.trip.is_none()
            && !ls.unroll.is_full()
            && ls.unroll != UnrollStatus::Disabled
            && self.probing == 0
            && self.budget > 0
            && !self.frames.iter().any(|f| f.discovery);
        if probe {
            let t = self.probe_trip(l, &st, &pr);
            let e = self.found_trips.entry(l).or_insert(t);
            if *e != t {
                *e = None;
            }
        }
        let ls = &self.loops[&l];
        if ls.unroll.is_full() && self.budget > 0 {
            let cap = ls.trip.map(|t| t + 2).unwrap_or(1024).min(1 << 16);
            let static_exit = ls.exit_targets.first().copied();
            let mut exits = Vec::new();
            let mut cur = vec![(st, pr)];
            let mut passes = 0u64;
            loop {
                let loc = self.loops[&l].info.loc;
                let (s, p) = self.merge(cur, loc);
                let out = self.run_region(Some(l), (s, p));
                exits.extend(out.exits);
                if out.latch.is_empty() {
                    break;
                }
                passes += 1;
                if passes >= cap || self.budget == 0 {
                    // Did not terminate symbolically: leave through the loop's exit.
                    if let Some(t) = static_exit {
                        for (s, p) in out.latch {
                            exits.push((t, s, p));
                        }
                    }
                    break;
                }
                cur = out.latch;
            }
            exits
        } else {
            self.sim_pipelined(l, st, pr)
        }
    }

    /// Constant propagation of a loop's bounds (after inlining): executes the loop from the
    /// actual entry state, one iteration per pass, without recording anything, and returns
    /// its trip count if every pass decided to continue or leave by constants alone (a
    /// helper's `for (i = 0; i < n - 1; i++)` called with `n = 64`). Bounded by
    /// [`MAX_FULL_UNROLL_TRIP`] passes and the execution budget.
    fn probe_trip(&mut self, l: LoopId, st: &State, pr: &Pred) -> Option<u64> {
        let do_while = self.loops[&l].info.kind == LoopKind::DoWhile;
        self.probing += 1;
        if !do_while {
            // The header alone decides whether a first iteration runs: a condition that is
            // not constant ends the probe without executing the body.
            let header = self.header(l);
            let outs = self.exec_block(header, st.clone(), pr.clone());
            if outs.len() != 1 {
                self.probing -= 1;
                return None;
            }
        }
        let mut cur = (st.clone(), pr.clone());
        let mut passes = 0u64;
        let result = loop {
            let mut out = self.run_region(Some(l), cur);
            match (out.latch.len(), out.exits.len()) {
                (1, 0) => {
                    passes += 1;
                    if passes > MAX_FULL_UNROLL_TRIP || self.budget == 0 {
                        break None;
                    }
                    cur = out.latch.pop().expect("one latch");
                }
                (0, 1) if out.exits[0].0 != RETURN && out.exits[0].2.len() == pr.len() => {
                    break Some(passes + do_while as u64);
                }
                _ => break None,
            }
        };
        self.probing -= 1;
        result
    }

    fn run_copies(&mut self, l: LoopId, copies: u32, entry: (State, Pred)) -> RegionOut {
        let mut cur = vec![entry];
        let mut all = RegionOut::default();
        for k in 0..copies.max(1) {
            if k > 0 && self.budget == 0 {
                break;
            }
            let loc = self.loops[&l].info.loc;
            let (s, p) = self.merge(cur, loc);
            let out = self.run_region(Some(l), (s, p));
            all.exits.extend(out.exits);
            if out.latch.is_empty() {
                cur = Vec::new();
                break;
            }
            cur = out.latch;
        }
        all.latch = cur;
        all
    }

    fn push_frame(&mut self, l: Option<LoopId>, discovery: bool) {
        let record =
            !discovery && self.probing == 0 && self.frames.last().map(|f| f.record).unwrap_or(true);
        self.frames.push(Frame {
            loop_id: l,
            discovery,
            record,
            accesses: Vec::new(),
            srcs: BTreeMap::new(),
            reads: BTreeSet::new(),
            pass: 0,
        });
        let s = self.next_serial();
        if let Some(fr) = self.frames.last_mut() {
            fr.pass = s;
        }
    }

    fn sim_pipelined(&mut self, l: LoopId, st: State, pr: Pred) -> Vec<(BlockId, State, Pred)> {
        let copies = self.loops[&l].unroll.factor();
        // Inside another loop's discovery pass only this loop's effect on the cells matters:
        // one pass gives it (two passes per nesting level would be exponential in the depth).
        let nested_in_discovery = self.probing > 0 || self.frames.iter().any(|f| f.discovery);
        let too_deep = self.frames.len() > MAX_ANALYSED_DEPTH;
        if too_deep && !nested_in_discovery && self.frames.last().is_some_and(|f| f.record) {
            self.too_deep.insert(l);
        }
        if nested_in_discovery || too_deep {
            // One pass from the entry state as it is (no fresh symbols: their terms would
            // pile up level after level); the cells it changes are the loop's effect.
            self.push_frame(Some(l), true);
            let out = self.run_copies(l, copies, (st.clone(), pr.clone()));
            let fr = self.frames.pop().expect("frame");
            let loc = self.loops[&l].info.loc;
            let mut cells = Vec::new();
            let mut exits = out.exits;
            if !out.latch.is_empty() {
                let latch = self.merge(out.latch, loc).0;
                cells = st
                    .cells()
                    .into_iter()
                    .filter(|c| st.get_cell(*c) != latch.get_cell(*c))
                    .collect();
                // Later iterations leave the loop with what this one changed (its entry
                // values may be constants that decide the first test only).
                for t in self.loops[&l].exit_targets.clone() {
                    exits.push((t, latch.clone(), pr.clone()));
                }
            }
            return self.loop_exits(&st, &fr.reads, &cells, exits, &pr, l);
        }
        // Discovery: every cell gets a symbolic start value.
        self.push_frame(Some(l), true);
        let mut entry_d = st.clone();
        let mut start_syms: BTreeMap<Cell, u32> = BTreeMap::new();
        for c in st.cells() {
            let v = st.get_cell(c).cloned().unwrap_or_default();
            if matches!(
                v.base,
                Some(Base::Frame(_)) | Some(Base::Local(_)) | Some(Base::Const)
            ) {
                // Pointers into on-chip objects keep their offsets (cells stay cells).
                continue;
            }
            let sym = self.fresh_opaque(VARY_ALL);
            let id = match sym.terms[0].0 {
                Sym::Op(i) => i,
                _ => 0,
            };
            start_syms.insert(c, id);
            let aff = Some(v.aff.clone().unwrap_or_default().add(&sym));
            let src = self.new_src(SrcKind::Cell(c));
            entry_d.set_cell(
                c,
                Val {
                    base: v.base,
                    aff,
                    ld: v.ld,
                    wi_cmp: None,
                    deps: vec![Dep {
                        src,
                        lat: 0.0,
                        path: None,
                    }],
                },
            );
        }
        let out_d = self.run_copies(l, copies, (entry_d.clone(), pr.clone()));
        self.frames.pop();
        let loc = self.loops[&l].info.loc;
        let latch_d = if out_d.latch.is_empty() {
            None
        } else {
            Some(self.merge(out_d.latch, loc).0)
        };
        let mut ivs: BTreeMap<Cell, i64> = BTreeMap::new();
        let mut changed: BTreeSet<Cell> = BTreeSet::new();
        if let Some(ld) = &latch_d {
            for c in st.cells() {
                let before = entry_d.get_cell(c);
                let after = ld.get_cell(c);
                if before == after {
                    continue;
                }
                let sym = Sym::Op(start_syms[&c]);
                let iv = match (before, after) {
                    (Some(b), Some(a)) if a.base == b.base => match (&a.aff, &b.aff) {
                        (Some(aa), Some(ba)) if aa.coef(sym) == 1 => {
                            let d = aa.sub(ba);
                            d.as_const().filter(|&k| k != 0)
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match iv {
                    Some(k) => {
                        ivs.insert(c, k);
                    }
                    None => {
                        changed.insert(c);
                    }
                }
            }
        }
        // Real pass.
        self.push_frame(Some(l), false);
        let mut entry_r = st.clone();
        let mut carried: BTreeMap<Cell, u32> = BTreeMap::new();
        for c in ivs.keys().chain(changed.iter()) {
            let v = st.get_cell(*c).cloned().unwrap_or_default();
            let src = self.new_src(SrcKind::Cell(*c));
            carried.insert(*c, src);
            let aff = match ivs.get(c) {
                Some(&k) => {
                    let init = match &v.aff {
                        Some(a) => a.clone(),
                        None => self.fresh_opaque(VARY_ALL & !loop_bit(l.0)),
                    };
                    Some(init.add_scaled(&Affine::sym(Sym::Iv(l.0)), k))
                }
                None => {
                    if v.base.is_some() {
                        None
                    } else {
                        Some(self.fresh_opaque(VARY_ALL))
                    }
                }
            };
            entry_r.set_cell(
                *c,
                Val {
                    base: v.base,
                    aff,
                    ld: v.ld,
                    wi_cmp: None,
                    deps: vec![Dep {
                        src,
                        lat: 0.0,
                        path: None,
                    }],
                },
            );
        }
        let out_r = self.run_copies(l, copies, (entry_r, pr.clone()));
        let mut latch_r = if out_r.latch.is_empty() {
            None
        } else {
            Some(self.merge(out_r.latch, loc).0)
        };
        // An induction variable is no recurrence at any unroll factor: the hardware adds the
        // whole step of an iteration (N copies x step) once, and each copy's value is the start
        // plus a constant. Its carried edge is one integer add, not a chain of N adds (which
        // gave `#pragma unroll 16` on `i++` an II of 7).
        if let Some(lr) = latch_r.as_mut() {
            for c in ivs.keys() {
                let Some(&src) = carried.get(c) else {
                    continue;
                };
                let Some(v) = lr.get_cell(*c).cloned() else {
                    continue;
                };
                if v.deps.is_empty() || v.deps.iter().any(|d| d.src != src) {
                    continue;
                }
                let (class, lat) = latency::binary(BinOp::Add, Scalar::I32);
                let op = OpRec {
                    class,
                    lat,
                    loc,
                    subloop: None,
                };
                let own = vec![Dep {
                    src,
                    lat: 0.0,
                    path: None,
                }];
                lr.set_cell(
                    *c,
                    Val {
                        deps: after(&own, op),
                        ..v
                    },
                );
            }
        }
        let frame = self.frames.pop().expect("frame");
        if frame.record {
            let rep = super::loops::finish_loop(self, l, &frame, &carried, latch_r.as_ref());
            self.results.insert(l, rep);
        }
        let cells: Vec<Cell> = ivs.keys().chain(changed.iter()).copied().collect();
        self.loop_exits(&st, &frame.reads, &cells, out_r.exits, &pr, l)
    }

    /// The states after a pipelined loop for the enclosing region: every cell the loop changed
    /// (its value at an exit differs from the value at entry) becomes
    /// unknown and depends on everything the loop read (the loop as one node).
    #[allow(clippy::too_many_arguments)]
    fn loop_exits(
        &mut self,
        st: &State,
        reads: &BTreeSet<Cell>,
        carried: &[Cell],
        exits: Vec<(BlockId, State, Pred)>,
        pr: &Pred,
        l: LoopId,
    ) -> Vec<(BlockId, State, Pred)> {
        let loc = self.loops[&l].info.loc;
        let mut sum = Deps::new();
        for c in reads {
            if let Some(v) = st.get_cell(*c) {
                union_into(&mut sum, &v.deps);
            }
        }
        for c in carried {
            if let Some(v) = st.get_cell(*c) {
                union_into(&mut sum, &v.deps);
            }
        }
        let sum = after(
            &sum,
            OpRec {
                class: OpClass::SubLoop,
                lat: 0.0,
                loc,
                subloop: Some(l.0),
            },
        );
        let mut by_target: BTreeMap<BlockId, State> = BTreeMap::new();
        for (t, s_exit, _) in exits {
            let mut out = st.clone();
            for (k, v) in &s_exit.slots {
                if st.slots.get(k) != Some(v) {
                    let base = st.slots.get(k).and_then(|o| o.base).or(v.base);
                    out.slots.insert(
                        *k,
                        Val {
                            base,
                            aff: None,
                            ld: v.ld,
                            wi_cmp: None,
                            deps: sum.clone(),
                        },
                    );
                }
            }
            for (k, (w, v)) in &s_exit.frame {
                if st.frame.get(k).map(|x| &x.1) != Some(v) {
                    out.frame.insert(
                        *k,
                        (
                            *w,
                            Val {
                                base: v.base,
                                aff: None,
                                ld: v.ld,
                                wi_cmp: None,
                                deps: sum.clone(),
                            },
                        ),
                    );
                }
            }
            // Multiple exits to one target: keep the union.
            match by_target.get_mut(&t) {
                Some(prev) => {
                    let merged =
                        self.merge(vec![(prev.clone(), pr.clone()), (out, pr.clone())], loc);
                    *prev = merged.0;
                }
                None => {
                    by_target.insert(t, out);
                }
            }
        }
        by_target
            .into_iter()
            .map(|(t, s)| (t, s, pr.clone()))
            .collect()
    }

    // ----- instructions -----------------------------------------------------------------

    fn frame_obj(&self, offset: u32) -> (u32, i64) {
        for v in &self.f.mem_vars {
            if v.space == Some(AddrSpace::Private)
                && offset >= v.offset
                && offset < v.offset + v.size.max(1)
            {
                return (v.offset, (offset - v.offset) as i64);
            }
        }
        (offset, 0)
    }

    fn local_obj(&self, offset: u32) -> (u32, i64) {
        for v in &self.f.mem_vars {
            if v.space == Some(AddrSpace::Local)
                && offset >= v.offset
                && offset < v.offset + v.size.max(1)
            {
                return (v.offset, (offset - v.offset) as i64);
            }
        }
        (offset, 0)
    }

    fn exec_inst(&mut self, inst: &Inst, loc: Loc, st: &mut State, pr: &Pred, b: BlockId) {
        let _ = b;
        match inst {
            Inst::Const { dst, ty, lanes } => {
                for (k, &bits) in lanes.iter().enumerate() {
                    let v = if ty.scalar.is_float() {
                        Val::default_const()
                    } else {
                        Val::konst(normalize(ty.scalar, bits as i64))
                    };
                    st.slots.insert(dst.0 + k as u32, v);
                }
            }
            Inst::Mov { dst, src, lanes } => {
                let vals: Vec<Val> = (0..*lanes as u32)
                    .map(|k| self.read(st, src.lane(k)))
                    .collect();
                for (k, v) in vals.into_iter().enumerate() {
                    st.slots.insert(dst.0 + k as u32, v);
                }
            }
            Inst::Splat { dst, src, lanes } => {
                let v = self.read(st, *src);
                for k in 0..*lanes as u32 {
                    st.slots.insert(dst.0 + k, v.clone());
                }
            }
            Inst::Shuffle { dst, src, idx } => {
                let vals: Vec<Val> = idx
                    .iter()
                    .map(|&i| self.read(st, src.lane(i as u32)))
                    .collect();
                for (k, v) in vals.into_iter().enumerate() {
                    st.slots.insert(dst.0 + k as u32, v);
                }
            }
            Inst::Unary { op, ty, dst, src } => {
                let (class, lat) = latency::unary(*op, ty.scalar);
                for k in 0..ty.lanes as u32 {
                    let a = self.read(st, src.lane(k));
                    let aff = if ty.scalar.is_float() {
                        None
                    } else {
                        match (op, &a.aff) {
                            (UnOp::Neg, Some(x)) if a.base.is_none() => {
                                let r = x.scale(-1);
                                Some(match r.as_const() {
                                    Some(c) => Affine::konst(normalize(ty.scalar, c)),
                                    None => r,
                                })
                            }
                            (UnOp::Not, Some(x)) if x.as_const().is_some() => {
                                Some(Affine::konst(normalize(ty.scalar, !x.c)))
                            }
                            _ => Some(self.opaque_of(100 + *op as u32, &a.aff, &None, 0)),
                        }
                    };
                    let v = Val {
                        base: None,
                        aff,
                        ld: a.ld,
                        wi_cmp: None,
                        deps: after(
                            &a.deps,
                            OpRec {
                                class,
                                lat,
                                loc,
                                subloop: None,
                            },
                        ),
                    };
                    st.slots.insert(dst.0 + k, v);
                }
            }
            Inst::Binary { op, ty, dst, a, b } => {
                for k in 0..ty.lanes as u32 {
                    let va = self.read(st, a.lane(k));
                    let vb = self.read(st, b.lane(k));
                    let v = self.binary(*op, ty.scalar, &va, &vb, loc);
                    st.slots.insert(dst.0 + k, v);
                }
            }
            Inst::Cmp {
                op,
                ty,
                dst_ty,
                dst,
                a,
                b,
            } => {
                let (class, lat) = latency::compare(ty.scalar);
                for k in 0..ty.lanes as u32 {
                    let va = self.read(st, a.lane(k));
                    let vb = self.read(st, b.lane(k));
                    let mut deps = va.deps.clone();
                    union_into(&mut deps, &vb.deps);
                    let folded = match (va.as_const(), vb.as_const()) {
                        (Some(x), Some(y)) if !ty.scalar.is_float() => {
                            Some(cmp_fold(*op, ty.scalar, x, y))
                        }
                        _ => None,
                    };
                    let (aff, deps) = match folded {
                        Some(r) => {
                            let t = if dst_ty.lanes > 1 {
                                -(r as i64)
                            } else {
                                r as i64
                            };
                            (Some(Affine::konst(t)), Deps::new())
                        }
                        None => (
                            Some(self.opaque_of(200 + *op as u32, &va.aff, &vb.aff, 0)),
                            after(
                                &deps,
                                OpRec {
                                    class,
                                    lat,
                                    loc,
                                    subloop: None,
                                },
                            ),
                        ),
                    };
                    let wi = |x: &Val| {
                        x.aff.as_ref().is_some_and(|a| {
                            !a.terms.is_empty()
                                && a.terms
                                    .iter()
                                    .all(|(s, _)| matches!(s, Sym::Gid(_) | Sym::Lid(_)))
                        })
                    };
                    let wi_cmp = if (wi(&va) && vb.as_const().is_some())
                        || (wi(&vb) && va.as_const().is_some())
                    {
                        match op {
                            CmpOp::Eq => Some(true),
                            CmpOp::Ne => Some(false),
                            _ => None,
                        }
                    } else {
                        None
                    };
                    st.slots.insert(
                        dst.0 + k,
                        Val {
                            base: None,
                            aff,
                            ld: va.ld || vb.ld,
                            wi_cmp,
                            deps,
                        },
                    );
                }
            }
            Inst::Select {
                ty,
                dst,
                cond,
                a,
                b,
            } => {
                let c = self.read(st, *cond);
                for k in 0..ty.lanes as u32 {
                    let va = self.read(st, a.lane(k));
                    let vb = self.read(st, b.lane(k));
                    let v = match c.as_const() {
                        Some(x) => {
                            if x != 0 {
                                va
                            } else {
                                vb
                            }
                        }
                        None => {
                            let op = OpRec {
                                class: OpClass::Select,
                                lat: latency::SELECT,
                                loc,
                                subloop: None,
                            };
                            merge_vals(&[&va, &vb], &c.deps, op)
                        }
                    };
                    st.slots.insert(dst.0 + k, v);
                }
            }
            Inst::Convert {
                from, to, dst, src, ..
            } => {
                let (class, lat) = latency::convert(from.scalar, to.scalar);
                for k in 0..to.lanes as u32 {
                    let a = self.read(st, src.lane(k));
                    let aff = if from.scalar.is_float() || to.scalar.is_float() {
                        None
                    } else {
                        match &a.aff {
                            Some(x) => match x.as_const() {
                                Some(c) => Some(Affine::konst(normalize(to.scalar, c))),
                                None => Some(x.clone()),
                            },
                            None => None,
                        }
                    };
                    st.slots.insert(
                        dst.0 + k,
                        Val {
                            base: if to.scalar.is_float() { None } else { a.base },
                            aff,
                            ld: a.ld,
                            wi_cmp: a.wi_cmp,
                            deps: after(
                                &a.deps,
                                OpRec {
                                    class,
                                    lat,
                                    loc,
                                    subloop: None,
                                },
                            ),
                        },
                    );
                }
            }
            Inst::Bitcast { from, to, dst, src } => {
                let keep = !from.scalar.is_float() && !to.scalar.is_float();
                for k in 0..to.lanes.max(1) as u32 {
                    let mut a = self.read(st, src.lane(k.min(from.lanes.max(1) as u32 - 1)));
                    if !keep {
                        a.aff = None;
                        a.base = None;
                    }
                    st.slots.insert(dst.0 + k, a);
                }
            }
            Inst::Builtin {
                f,
                ty,
                dst_ty,
                dst,
                args,
            } => {
                let (class, lat) = latency::builtin(*f, ty.scalar);
                let lat = latency::for_family(class, ty.scalar, lat, self.board.family);
                let mut deps = Deps::new();
                let mut ld = false;
                let n = f.arity();
                for a in args.iter().take(n) {
                    for k in 0..ty.lanes as u32 {
                        let v = self.read(st, a.lane(k));
                        union_into(&mut deps, &v.deps);
                        ld |= v.ld;
                    }
                }
                let deps = after(
                    &deps,
                    OpRec {
                        class,
                        lat,
                        loc,
                        subloop: None,
                    },
                );
                for k in 0..dst_ty.lanes as u32 {
                    let aff = if dst_ty.scalar.is_float() {
                        None
                    } else {
                        Some(self.fresh_opaque(VARY_ALL))
                    };
                    st.slots.insert(
                        dst.0 + k,
                        Val {
                            base: None,
                            aff,
                            ld,
                            wi_cmp: None,
                            deps: deps.clone(),
                        },
                    );
                }
            }
            Inst::BuiltinPtr {
                ty,
                dst,
                args,
                out_ptr,
                site,
                ..
            } => {
                let mut deps = Deps::new();
                for a in args {
                    for k in 0..ty.lanes as u32 {
                        let v = self.read(st, a.lane(k));
                        union_into(&mut deps, &v.deps);
                    }
                }
                let deps = after(
                    &deps,
                    OpRec {
                        class: OpClass::Math,
                        lat: 20.0,
                        loc,
                        subloop: None,
                    },
                );
                let val = Val {
                    deps,
                    ..Default::default()
                };
                for k in 0..ty.lanes as u32 {
                    st.slots.insert(dst.0 + k, val.clone());
                }
                let p = self.read(st, *out_ptr);
                let vals = vec![val; ty.lanes as usize];
                let space = match p.base {
                    Some(Base::Frame(_)) => AddrSpace::Private,
                    Some(Base::Local(_)) => AddrSpace::Local,
                    _ => AddrSpace::Global,
                };
                self.store(
                    st,
                    pr,
                    &p,
                    space,
                    ValTy::vector(ty.scalar, ty.lanes),
                    vals,
                    *site,
                    loc,
                );
            }
            Inst::WorkItem { f, dst, dim } => {
                let d = self.read(st, *dim).as_const().unwrap_or(-1);
                let aff = match (f, d) {
                    (WorkItemFn::GlobalId, 0..=2) => Affine::sym(Sym::Gid(d as u8)),
                    (WorkItemFn::LocalId, 0..=2) => Affine::sym(Sym::Lid(d as u8)),
                    (WorkItemFn::GroupId, 0..=2) => Affine::sym(Sym::Grp(d as u8)),
                    (WorkItemFn::GlobalId | WorkItemFn::LocalId | WorkItemFn::GroupId, _) => {
                        self.opaque_of(300 + *f as u32, &None, &None, 99)
                    }
                    _ => {
                        let key = (300 + *f as u32, None, None, d.clamp(-1, 3) as u32);
                        match self.hashcons.get(&key) {
                            Some(&id) => Affine::sym(Sym::Op(id)),
                            None => {
                                let a = self.fresh_opaque(0);
                                if let Some((Sym::Op(id), _)) = a.terms.first() {
                                    self.hashcons.insert(key, *id);
                                }
                                a
                            }
                        }
                    }
                };
                st.slots.insert(
                    dst.0,
                    Val {
                        aff: Some(aff),
                        ..Default::default()
                    },
                );
            }
            Inst::FrameAddr { dst, offset } => {
                let (o, rel) = self.frame_obj(*offset);
                st.slots.insert(dst.0, Val::address(Base::Frame(o), rel));
            }
            Inst::LocalAddr { dst, offset } => {
                let (o, rel) = self.local_obj(*offset);
                st.slots.insert(dst.0, Val::address(Base::Local(o), rel));
            }
            Inst::ConstAddr { dst, offset } => {
                st.slots
                    .insert(dst.0, Val::address(Base::Const, *offset as i64));
            }
            Inst::PtrAdd {
                dst,
                base,
                index,
                scale,
                disp,
            } => {
                let vb = self.read(st, *base);
                let mut v = vb.clone();
                v.wi_cmp = None;
                match index {
                    Some(ix) => {
                        let vi = self.read(st, *ix);
                        v.aff = match (&vb.aff, &vi.aff) {
                            (Some(a), Some(i)) if vi.base.is_none() => {
                                Some(a.add_scaled(i, *scale as i64).add(&Affine::konst(*disp)))
                            }
                            _ => None,
                        };
                        v.ld |= vi.ld;
                        union_into(&mut v.deps, &vi.deps);
                    }
                    None => {
                        v.aff = vb.aff.as_ref().map(|a| a.add(&Affine::konst(*disp)));
                    }
                }
                st.slots.insert(dst.0, v);
            }
            Inst::Load {
                ty,
                dst,
                addr,
                space,
                site,
            } => {
                let p = self.read(st, *addr);
                let vals = self.load(st, pr, &p, *space, *ty, *site, loc);
                for (k, v) in vals.into_iter().enumerate() {
                    st.slots.insert(dst.0 + k as u32, v);
                }
            }
            Inst::Store {
                ty,
                src,
                addr,
                space,
                site,
            } => {
                let p = self.read(st, *addr);
                let vals: Vec<Val> = (0..ty.lanes as u32)
                    .map(|k| self.read(st, src.lane(k)))
                    .collect();
                self.store(st, pr, &p, *space, *ty, vals, *site, loc);
            }
            Inst::Copy {
                dst,
                src,
                bytes,
                load_site,
                store_site,
            } => {
                let ps = self.read(st, *src);
                let pd = self.read(st, *dst);
                let sp = |v: &Val| match v.base {
                    Some(Base::Frame(_)) => AddrSpace::Private,
                    Some(Base::Local(_)) => AddrSpace::Local,
                    Some(Base::Const) => AddrSpace::Constant,
                    _ => AddrSpace::Global,
                };
                let n = (*bytes / 4).max(1);
                let ty = ValTy::vector(Scalar::U32, 1);
                let mut vals = Vec::new();
                for k in 0..n {
                    let mut p = ps.clone();
                    p.aff = p.aff.map(|a| a.add(&Affine::konst(4 * k as i64)));
                    let site = if k == 0 { *load_site } else { None };
                    vals.extend(self.load(st, pr, &p, sp(&ps), ty, site, loc));
                }
                for (k, v) in vals.into_iter().enumerate() {
                    let mut p = pd.clone();
                    p.aff = p.aff.map(|a| a.add(&Affine::konst(4 * k as i64)));
                    let site = if k == 0 { *store_site } else { None };
                    self.store(st, pr, &p, sp(&pd), ty, vec![v], site, loc);
                }
            }
            Inst::Atomic {
                ty,
                dst,
                addr,
                a,
                b,
                space,
                site,
                ..
            } => {
                let p = self.read(st, *addr);
                let va = self.read(st, *a);
                let vb = self.read(st, *b);
                let mut deps = p.deps.clone();
                union_into(&mut deps, &va.deps);
                union_into(&mut deps, &vb.deps);
                union_into(&mut deps, &Self::pred_deps(pr));
                let lat =
                    latency::load(*space, true, self.board) + latency::store(*space, self.board);
                self.record_access(
                    AKind::Atomic,
                    *space,
                    &p,
                    ty.bytes(),
                    Some(*site),
                    loc,
                    pr,
                    deps.clone(),
                    Deps::new(),
                    false,
                );
                st.slots.insert(
                    dst.0,
                    Val {
                        base: None,
                        aff: None,
                        ld: true,
                        wi_cmp: None,
                        deps: after(
                            &deps,
                            OpRec {
                                class: OpClass::Atomic,
                                lat,
                                loc,
                                subloop: None,
                            },
                        ),
                    },
                );
            }
            Inst::FifoRead {
                ep,
                dst_ptr,
                bytes,
                blocking,
                status,
                site,
            } => {
                let mut deps = Self::pred_deps(pr);
                let idx = match ep {
                    Endpoint::Channel { index: Some(r), .. } => Some(*r),
                    Endpoint::Pipe { arg } => Some(*arg),
                    _ => None,
                };
                if let Some(r) = idx {
                    let v = self.read(st, r);
                    union_into(&mut deps, &v.deps);
                }
                let (class, lat) = if *blocking {
                    (OpClass::ChannelRead, latency::CHANNEL_READ)
                } else {
                    (OpClass::ChannelReadNb, latency::CHANNEL_READ_NB)
                };
                let out = after(
                    &deps,
                    OpRec {
                        class,
                        lat,
                        loc,
                        subloop: None,
                    },
                );
                let p = self.read(st, *dst_ptr);
                self.record_access(
                    AKind::ChanRead,
                    AddrSpace::Global,
                    &Val::default(),
                    *bytes,
                    Some(*site),
                    loc,
                    pr,
                    deps,
                    Deps::new(),
                    false,
                );
                let val = Val {
                    base: None,
                    aff: None,
                    ld: true,
                    wi_cmp: None,
                    deps: out.clone(),
                };
                self.write_bytes(st, pr, &p, *bytes, val.clone(), loc);
                if let Some(s) = status {
                    st.slots.insert(s.0, val);
                }
            }
            Inst::FifoWrite {
                ep,
                src_ptr,
                bytes,
                status,
                site,
                ..
            } => {
                let mut deps = Self::pred_deps(pr);
                if let Endpoint::Channel { index: Some(r), .. } = ep {
                    let v = self.read(st, *r);
                    union_into(&mut deps, &v.deps);
                }
                let p = self.read(st, *src_ptr);
                let data = self.read_bytes(st, pr, &p, *bytes, loc);
                union_into(&mut deps, &data.deps);
                self.record_access(
                    AKind::ChanWrite,
                    AddrSpace::Global,
                    &Val::default(),
                    *bytes,
                    Some(*site),
                    loc,
                    pr,
                    deps.clone(),
                    Deps::new(),
                    false,
                );
                if let Some(s) = status {
                    st.slots.insert(
                        s.0,
                        Val {
                            ld: true,
                            deps: after(
                                &deps,
                                OpRec {
                                    class: OpClass::ChannelWrite,
                                    lat: latency::CHANNEL_WRITE,
                                    loc,
                                    subloop: None,
                                },
                            ),
                            ..Default::default()
                        },
                    );
                }
            }
            Inst::AsyncCopy {
                dst,
                src,
                elem_bytes,
                event,
                to_local,
                site,
                ..
            } => {
                let ps = self.read(st, *src);
                let pd = self.read(st, *dst);
                let (gs, ls) = if *to_local { (&ps, &pd) } else { (&pd, &ps) };
                let mut g = gs.clone();
                g.aff = None;
                let mut l = ls.clone();
                l.aff = None;
                let deps = Self::pred_deps(pr);
                if *to_local {
                    self.record_access(
                        AKind::Load,
                        AddrSpace::Global,
                        &g,
                        *elem_bytes,
                        *site,
                        loc,
                        pr,
                        deps.clone(),
                        Deps::new(),
                        false,
                    );
                    self.record_access(
                        AKind::Store,
                        AddrSpace::Local,
                        &l,
                        *elem_bytes,
                        None,
                        loc,
                        pr,
                        deps,
                        Deps::new(),
                        false,
                    );
                } else {
                    self.record_access(
                        AKind::Load,
                        AddrSpace::Local,
                        &l,
                        *elem_bytes,
                        None,
                        loc,
                        pr,
                        deps.clone(),
                        Deps::new(),
                        false,
                    );
                    self.record_access(
                        AKind::Store,
                        AddrSpace::Global,
                        &g,
                        *elem_bytes,
                        *site,
                        loc,
                        pr,
                        deps,
                        Deps::new(),
                        false,
                    );
                }
                st.slots.insert(event.0, Val::default());
            }
            Inst::Barrier { .. } | Inst::WaitGroupEvents => {}
            Inst::Printf { dst, .. } => {
                st.slots.insert(dst.0, Val::konst(0));
            }
            // An image access is a global-memory access through the image argument at an
            // address the coordinates (and the sampler) decide: an LSU with an unknown offset.
            Inst::ImageRead {
                family,
                dst,
                img,
                coord,
                coord_ty,
                site,
                ..
            } => {
                let p = self.image_ptr(st, *img, *coord, coord_ty.lanes as u32);
                let ty = ValTy::vector(*family, 4);
                let vals = self.load(st, pr, &p, AddrSpace::Global, ty, Some(*site), loc);
                for (k, v) in vals.into_iter().enumerate() {
                    st.slots.insert(dst.0 + k as u32, v);
                }
            }
            Inst::ImageWrite {
                family,
                img,
                coord,
                coord_lanes,
                src,
                site,
            } => {
                let p = self.image_ptr(st, *img, *coord, *coord_lanes as u32);
                let vals: Vec<Val> = (0..4).map(|k| self.read(st, src.lane(k))).collect();
                let ty = ValTy::vector(*family, 4);
                self.store(st, pr, &p, AddrSpace::Global, ty, vals, Some(*site), loc);
            }
            Inst::ImageQuery { dst, lanes, .. } => {
                for k in 0..*lanes as u32 {
                    st.slots.insert(dst.0 + k, Val::default());
                }
            }
        }
    }

    fn binary(&mut self, op: BinOp, s: Scalar, a: &Val, b: &Val, loc: Loc) -> Val {
        let (class, mut lat) = latency::binary(op, s);
        lat = latency::for_family(class, s, lat, self.board.family);
        if matches!(op, BinOp::Shl | BinOp::Shr) && b.as_const().is_none() {
            lat = latency::VARIABLE_SHIFT;
        }
        let mut deps = a.deps.clone();
        union_into(&mut deps, &b.deps);
        let ld = a.ld || b.ld;
        if s.is_float() {
            return Val {
                base: None,
                aff: None,
                ld,
                wi_cmp: None,
                deps: after(
                    &deps,
                    OpRec {
                        class,
                        lat,
                        loc,
                        subloop: None,
                    },
                ),
            };
        }
        let (ca, cb) = (a.as_const(), b.as_const());
        if let (Some(x), Some(y)) = (ca, cb) {
            if let Some(r) = bin_fold(op, s, x, y) {
                return Val {
                    aff: Some(Affine::konst(r)),
                    ld,
                    ..Default::default()
                };
            }
        }
        let mut base = None;
        let aff = match (op, &a.aff, &b.aff) {
            (BinOp::Add, Some(x), Some(y)) if a.base.is_none() || b.base.is_none() => {
                base = a.base.or(b.base);
                Some(x.add(y))
            }
            (BinOp::Sub, Some(x), Some(y)) if b.base.is_none() || a.base == b.base => {
                base = if b.base.is_some() { None } else { a.base };
                Some(x.sub(y))
            }
            (BinOp::Mul, Some(x), Some(_)) if cb.is_some() && a.base.is_none() => {
                Some(x.scale(cb.unwrap_or(0)))
            }
            (BinOp::Mul, Some(_), Some(y)) if ca.is_some() && b.base.is_none() => {
                Some(y.scale(ca.unwrap_or(0)))
            }
            (BinOp::Shl, Some(x), Some(_)) if a.base.is_none() && matches!(cb, Some(0..=40)) => {
                Some(x.scale(1i64 << cb.unwrap_or(0)))
            }
            _ => {
                if a.base.is_some() || b.base.is_some() {
                    base = a.base.or(b.base);
                    None
                } else {
                    Some(self.opaque_of(op as u32, &a.aff, &b.aff, 0))
                }
            }
        };
        // Constant results of symbolic arithmetic are normalised to the type.
        let aff = aff.map(|x| match x.as_const() {
            Some(c) if base.is_none() => Affine::konst(normalize(s, c)),
            _ => x,
        });
        Val {
            base,
            aff,
            ld,
            wi_cmp: None,
            deps: after(
                &deps,
                OpRec {
                    class,
                    lat,
                    loc,
                    subloop: None,
                },
            ),
        }
    }

    /// Private access at a constant offset of a register-implemented object: the cell offset.
    fn cell_of(&mut self, p: &Val, space: AddrSpace) -> Option<u32> {
        if space != AddrSpace::Private {
            return None;
        }
        let Some(Base::Frame(o)) = p.base else {
            return None;
        };
        match p.aff.as_ref().and_then(|a| a.as_const()) {
            Some(c) if !self.ram_frames.contains(&o) => Some((o as i64 + c).max(0) as u32),
            Some(_) => None,
            None => {
                if self.probing > 0 || self.frames.last().is_some_and(|f| f.discovery) {
                    return None;
                }
                if self.ram_frames.insert(o) {
                    self.new_ram = true;
                }
                None
            }
        }
    }

    /// The address of an image access: the image argument's object at an offset the
    /// coordinates decide (not affine: the layout and addressing are the device's).
    fn image_ptr(&mut self, st: &mut State, img: Reg, coord: Reg, lanes: u32) -> Val {
        let mut p = self.read(st, img);
        p.aff = None;
        for k in 0..lanes {
            let c = self.read(st, coord.lane(k));
            union_into(&mut p.deps, &c.deps);
            p.ld |= c.ld;
        }
        p
    }

    #[allow(clippy::too_many_arguments)]
    fn load(
        &mut self,
        st: &mut State,
        pr: &Pred,
        p: &Val,
        space: AddrSpace,
        ty: ValTy,
        site: Option<SiteId>,
        loc: Loc,
    ) -> Vec<Val> {
        let elem = ty.scalar.size();
        if let Some(off) = self.cell_of(p, space) {
            let mut out = Vec::new();
            for k in 0..ty.lanes as u32 {
                let o = off + k * elem;
                if let Some(fr) = self.frames.last_mut() {
                    fr.reads.insert(Cell::Frame(o));
                }
                let v = match st.frame.get(&o) {
                    Some((w, v)) if *w == elem => v.clone(),
                    _ => {
                        // Partial overlap: union of what is there.
                        let mut d = Deps::new();
                        let mut ld = false;
                        for (_, (_, v)) in st.frame.range(o.saturating_sub(16)..o + elem) {
                            union_into(&mut d, &v.deps);
                            ld |= v.ld;
                        }
                        Val {
                            ld,
                            deps: d,
                            ..Default::default()
                        }
                    }
                };
                out.push(v);
            }
            return out;
        }
        let deps = {
            let mut d = p.deps.clone();
            union_into(&mut d, &Self::pred_deps(pr));
            d
        };
        let private_ram = space == AddrSpace::Private;
        let data = self.record_access(
            AKind::Load,
            space,
            p,
            ty.bytes(),
            site,
            loc,
            pr,
            deps,
            Deps::new(),
            private_ram,
        );
        let v = Val {
            base: None,
            aff: None,
            ld: true,
            wi_cmp: None,
            deps: data
                .map(|d| {
                    vec![Dep {
                        src: d,
                        lat: 0.0,
                        path: None,
                    }]
                })
                .unwrap_or_default(),
        };
        vec![v; ty.lanes as usize]
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        st: &mut State,
        pr: &Pred,
        p: &Val,
        space: AddrSpace,
        ty: ValTy,
        vals: Vec<Val>,
        site: Option<SiteId>,
        loc: Loc,
    ) {
        let elem = ty.scalar.size();
        if let Some(off) = self.cell_of(p, space) {
            for (k, v) in vals.into_iter().enumerate() {
                let o = off + k as u32 * elem;
                let stale: Vec<u32> = st
                    .frame
                    .range(o.saturating_sub(16)..o + elem)
                    .filter(|(&ko, (w, _))| ko + w > o && ko < o + elem)
                    .map(|(&ko, _)| ko)
                    .collect();
                for s in stale {
                    st.frame.remove(&s);
                }
                st.frame.insert(o, (elem, v));
            }
            return;
        }
        let mut value_deps = Deps::new();
        for v in &vals {
            union_into(&mut value_deps, &v.deps);
        }
        let mut deps = p.deps.clone();
        union_into(&mut deps, &Self::pred_deps(pr));
        union_into(&mut deps, &value_deps);
        let private_ram = space == AddrSpace::Private;
        self.record_access(
            AKind::Store,
            space,
            p,
            ty.bytes(),
            site,
            loc,
            pr,
            deps,
            value_deps,
            private_ram,
        );
        // A store through an unknown private pointer clobbers nothing we track precisely.
    }

    fn write_bytes(&mut self, st: &mut State, pr: &Pred, p: &Val, bytes: u32, v: Val, loc: Loc) {
        let space = match p.base {
            Some(Base::Frame(_)) => AddrSpace::Private,
            Some(Base::Local(_)) => AddrSpace::Local,
            _ => AddrSpace::Global,
        };
        let n = bytes.max(1);
        let (elem, lanes) = if n.is_multiple_of(4) {
            (Scalar::U32, n / 4)
        } else if n.is_multiple_of(2) {
            (Scalar::U16, n / 2)
        } else {
            (Scalar::U8, n)
        };
        let lanes = lanes.min(64);
        let vals = vec![v; lanes as usize];
        self.store(
            st,
            pr,
            p,
            space,
            ValTy::vector(elem, lanes as u8),
            vals,
            None,
            loc,
        );
    }

    fn read_bytes(&mut self, st: &mut State, pr: &Pred, p: &Val, bytes: u32, loc: Loc) -> Val {
        let space = match p.base {
            Some(Base::Frame(_)) => AddrSpace::Private,
            Some(Base::Local(_)) => AddrSpace::Local,
            _ => AddrSpace::Global,
        };
        let n = bytes.max(1);
        let (elem, lanes) = if n.is_multiple_of(4) {
            (Scalar::U32, n / 4)
        } else if n.is_multiple_of(2) {
            (Scalar::U16, n / 2)
        } else {
            (Scalar::U8, n)
        };
        let lanes = lanes.min(64);
        let vals = self.load(
            st,
            pr,
            p,
            space,
            ValTy::vector(elem, lanes as u8),
            None,
            loc,
        );
        let mut out = Val::default();
        for v in vals {
            union_into(&mut out.deps, &v.deps);
            out.ld |= v.ld;
        }
        out
    }

    /// Records an access in every active frame and in the final record; returns the load's data
    /// source.
    #[allow(clippy::too_many_arguments)]
    fn record_access(
        &mut self,
        kind: AKind,
        space: AddrSpace,
        p: &Val,
        width: u32,
        site: Option<SiteId>,
        loc: Loc,
        pr: &Pred,
        deps: Deps,
        value_deps: Deps,
        private_ram: bool,
    ) -> Option<u32> {
        let driver = self.frames.iter().rev().find_map(|f| f.loop_id);
        let group = (
            self.frames.last().map(|f| f.pass).unwrap_or(0),
            pr.iter().map(|e| (e.serial, e.side)).collect(),
        );
        let inst = AccessInst {
            site,
            kind,
            space,
            base: p.base,
            aff: p.aff.clone(),
            ld: p.ld,
            width,
            loc,
            driver,
            single_wi: pr.iter().any(|e| e.single_wi),
            group,
            private_ram,
        };
        if self.probing > 0 {
            // A trip-count probe: no access is recorded; loads still yield a fresh value.
            let id = self.src_count;
            self.src_count += 1;
            return matches!(kind, AKind::Load).then_some(id);
        }
        let record = self.frames.last().map(|f| f.record).unwrap_or(true);
        if record {
            self.records.push(inst.clone());
        }
        if self.frames.is_empty() {
            return None;
        }
        let idx = self.frames.last().map(|f| f.accesses.len()).unwrap_or(0);
        let issue = self.new_src(SrcKind::Issue(idx));
        let data = if matches!(kind, AKind::Load) {
            Some(self.new_src(SrcKind::Data(idx)))
        } else {
            None
        };
        let onchip = private_ram || space == AddrSpace::Local;
        let nframes = self.frames.len();
        for i in 0..nframes {
            let in_subloop = if i + 1 < nframes {
                self.frames[i + 1].loop_id
            } else {
                None
            };
            let fa = FrameAccess {
                inst: inst.clone(),
                issue,
                data,
                deps: if i + 1 == nframes {
                    deps.clone()
                } else {
                    Deps::new()
                },
                value_deps: if i + 1 == nframes {
                    value_deps.clone()
                } else {
                    Deps::new()
                },
                in_subloop,
                onchip,
            };
            self.frames[i].accesses.push(fa);
        }
        data
    }
}

impl Val {
    fn default_const() -> Val {
        Val::default()
    }

    /// A pointer into `base` at the constant byte offset `offset`.
    fn address(base: Base, offset: i64) -> Val {
        Val {
            base: Some(base),
            aff: Some(Affine::konst(offset)),
            ..Default::default()
        }
    }
}

fn merge_vals(vals: &[&Val], sel: &Deps, op: OpRec) -> Val {
    let first = vals[0];
    if vals.iter().all(|v| *v == first) {
        return first.clone();
    }
    let mut deps = Deps::new();
    let mut ld = false;
    for v in vals {
        union_into(&mut deps, &v.deps);
        ld |= v.ld;
    }
    union_into(&mut deps, sel);
    let same_base = vals.iter().all(|v| v.base == first.base);
    let same_aff = vals.iter().all(|v| v.aff == first.aff);
    Val {
        base: if same_base { first.base } else { None },
        aff: if same_aff { first.aff.clone() } else { None },
        ld,
        wi_cmp: None,
        deps: after(&deps, op),
    }
}

pub(crate) fn succs(t: &Terminator) -> Vec<BlockId> {
    match t {
        Terminator::Jump(b) => vec![*b],
        Terminator::Branch { then, els, .. } => vec![*then, *els],
        Terminator::Switch { cases, default, .. } => {
            let mut v: Vec<BlockId> = cases.iter().map(|(_, b)| *b).collect();
            v.push(*default);
            v
        }
        Terminator::Return | Terminator::Unreachable => Vec::new(),
    }
}

/// Truncates and re-extends `v` to the value range of `s`.
pub fn normalize(s: Scalar, v: i64) -> i64 {
    match s {
        Scalar::Bool => (v != 0) as i64,
        Scalar::I8 => v as i8 as i64,
        Scalar::U8 => v as u8 as i64,
        Scalar::I16 => v as i16 as i64,
        Scalar::U16 => v as u16 as i64,
        Scalar::I32 => v as i32 as i64,
        Scalar::U32 => v as u32 as i64,
        _ => v,
    }
}

fn bin_fold(op: BinOp, s: Scalar, x: i64, y: i64) -> Option<i64> {
    let bits = s.size() * 8;
    let uns = !s.is_signed();
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => {
            if y == 0 {
                return None;
            }
            if uns {
                ((x as u64) / (y as u64)) as i64
            } else {
                x.wrapping_div(y)
            }
        }
        BinOp::Rem => {
            if y == 0 {
                return None;
            }
            if uns {
                ((x as u64) % (y as u64)) as i64
            } else {
                x.wrapping_rem(y)
            }
        }
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl => x.wrapping_shl((y as u32) % bits),
        BinOp::Shr => {
            let sh = (y as u32) % bits;
            if uns {
                let mask = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                (((x as u64) & mask) >> sh) as i64
            } else {
                x >> sh
            }
        }
    };
    Some(normalize(s, r))
}

fn cmp_fold(op: CmpOp, s: Scalar, x: i64, y: i64) -> bool {
    let o = if s.is_signed() || s.size() < 8 {
        x.cmp(&y)
    } else {
        (x as u64).cmp(&(y as u64))
    };
    use std::cmp::Ordering::*;
    match op {
        CmpOp::Eq => o == Equal,
        CmpOp::Ne => o != Equal,
        CmpOp::Lt => o == Less,
        CmpOp::Le => o != Greater,
        CmpOp::Gt => o == Greater,
        CmpOp::Ge => o != Less,
    }
}

static EMPTY_FN: Function = Function {
    name: String::new(),
    loc: Loc {
        file: crate::source::FileId(0),
        line: 0,
        col: 0,
    },
    args: Vec::new(),
    attrs: KernelAttrs {
        reqd_work_group_size: None,
        max_work_group_size: None,
        num_compute_units: [1, 1, 1],
        num_simd_work_items: None,
        autorun: false,
        max_global_work_dim: None,
        uses_global_work_offset: None,
        task: false,
        vec_type_hint: None,
        work_group_size_hint: None,
    },
    single_work_item: true,
    num_slots: 0,
    frame_size: 0,
    local_size: 0,
    blocks: Vec::new(),
    loops: Vec::new(),
    reg_names: Vec::new(),
    uses_fifos: false,
    uses_barrier: false,
    mem_vars: Vec::new(),
};

/// Checks the block and loop references the analysis follows.
fn check_ir(f: &Function) -> Result<(), String> {
    let n = f.blocks.len() as u32;
    if n == 0 {
        return Err("no blocks".into());
    }
    let ids: BTreeSet<LoopId> = f.loops.iter().map(|l| l.id).collect();
    for (i, b) in f.blocks.iter().enumerate() {
        if succs(&b.term).iter().any(|t| t.0 >= n) {
            return Err(format!("block {i} jumps outside the function"));
        }
        if b.in_loop.is_some_and(|l| !ids.contains(&l)) {
            return Err(format!("block {i} names an unknown loop"));
        }
    }
    for l in &f.loops {
        if l.header.0 >= n || l.parent.is_some_and(|p| !ids.contains(&p) || p == l.id) {
            return Err(format!("loop {} has a bad header or parent", l.id.0));
        }
    }
    Ok(())
}

/// Analyses one kernel.
pub fn analyze_kernel(m: &Module, kidx: u32, f: &Function, board: &BoardParams) -> KernelReport {
    if let Err(why) = check_ir(f) {
        let mut e = Engine::new(m, kidx, &EMPTY_FN, board, BTreeSet::new(), BTreeMap::new());
        e.f = f;
        let mut r = super::loops::kernel_report(&mut e);
        r.loops.clear();
        r.warnings.push(format!(
            "kernel {} not analysed: malformed IR ({why})",
            f.name
        ));
        return r;
    }
    // Runs until the private arrays kept in RAM and the trip counts found by constant
    // propagation (bounds known only after inlining) are stable: a loop whose bounds turned
    // out constant is decided again (unrolled) from the start, so every execution of it and
    // the block names agree. Bounded: every restart adds a trip count or a RAM array.
    let mut ram: BTreeSet<u32> = BTreeSet::new();
    let mut seeds: BTreeMap<LoopId, u64> = BTreeMap::new();
    let mut ram_attempts = 0;
    let mut runs = 0;
    loop {
        let mut e = Engine::new(m, kidx, f, board, ram.clone(), seeds.clone());
        e.run_kernel();
        runs += 1;
        let mut new_seeds = seeds.clone();
        for (l, t) in &e.found_trips {
            if let Some(t) = t {
                new_seeds.entry(*l).or_insert(*t);
            }
        }
        if new_seeds != seeds && runs < 8 {
            seeds = new_seeds;
            ram.clear();
            ram_attempts = 0;
            continue;
        }
        ram_attempts += 1;
        if e.new_ram && ram_attempts < 4 && runs < 12 {
            ram = e.ram_frames.clone();
            continue;
        }
        if e.budget == 0 {
            e.warnings.push(format!(
                "kernel {}: the analysis stopped unrolling after {EXEC_BUDGET} symbolic instructions; loops beyond are approximated",
                f.name
            ));
        }
        return super::loops::kernel_report(&mut e);
    }
}

impl Engine<'_> {
    fn run_kernel(&mut self) {
        let f = self.f;
        let mut st = State::default();
        for (i, a) in f.args.iter().enumerate() {
            let v = match &a.kind {
                ArgKind::Buffer { .. } | ArgKind::LocalPtr { .. } | ArgKind::Image { .. } => {
                    Val::address(Base::Arg(i as u32), 0)
                }
                ArgKind::ByValue { frame_offset, .. } => {
                    Val::address(Base::Frame(*frame_offset), 0)
                }
                ArgKind::Value { ty } => {
                    let key = (400, None, None, i as u32);
                    let aff = match self.hashcons.get(&key) {
                        Some(&id) => Affine::sym(Sym::Op(id)),
                        None => {
                            let a = self.fresh_opaque(0);
                            if let Some((Sym::Op(id), _)) = a.terms.first() {
                                self.hashcons.insert(key, *id);
                            }
                            a
                        }
                    };
                    let v = Val {
                        aff: if ty.scalar.is_float() {
                            None
                        } else {
                            Some(aff)
                        },
                        ..Default::default()
                    };
                    for k in 1..ty.lanes as u32 {
                        st.slots.insert(a.reg.0 + k, v.clone());
                    }
                    v
                }
                ArgKind::Pipe { .. } => Val::konst(i as i64),
                ArgKind::Sampler => Val::default(),
            };
            st.slots.insert(a.reg.0, v);
        }
        self.push_frame(None, false);
        let _ = self.run_region(None, (st, Vec::new()));
        let frame = self.frames.pop().expect("frame");
        let (n, edges) = super::loops::frame_graph(self, &frame, &BTreeMap::new(), None);
        self.kernel_graph = Some((n, edges));
    }

    /// Kernel kind by the guide's rules (the front end's decision).
    pub fn kind(&self) -> KernelKind {
        if self.f.single_work_item {
            KernelKind::SingleWorkItem
        } else {
            KernelKind::NdRange
        }
    }
}
