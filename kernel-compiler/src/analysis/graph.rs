//! The recurrence graph of one loop iteration and its cycles.
//!
//! Nodes are loop-carried sources (a cell's value at the start of an iteration, a load's issue or
//! data, a store). An edge `u -> v` of latency `lat` and distance `dist` says that `v` of iteration
//! `i + dist` can start `lat` cycles after `u` of iteration `i`. A cycle with total latency `L`
//! and total distance `D` bounds the II from below by `L / D`.

use super::latency::{OpClass, RETIME_BUDGET};
use super::value::{OpRec, PathNode};
use std::rc::Rc;

/// One edge of the recurrence graph.
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub lat: f64,
    pub dist: u32,
    /// Operations on the edge, in order (synthetic edges; see `path`).
    pub ops: Vec<OpRec>,
    /// Operations on the edge as the shared path they were recorded on (newest last), after
    /// `ops`. Kept as the path instead of copied into `ops`: a kernel of N dependent
    /// operations has N edges of up to N operations, and only edges on cycles are read.
    pub path: Option<Rc<PathNode>>,
    /// The edge passes through a subloop (serial execution, not an II constraint).
    pub serial: bool,
    /// Index of the memory dependency this edge stands for, if any.
    pub mem: Option<usize>,
}

impl Edge {
    fn retimeable(&self) -> bool {
        self.mem.is_none()
            && self
                .ops_newest_first()
                .all(|o| o.class.retimeable() || o.lat == 0.0)
    }

    /// Operations on the edge, newest first, without copying the path.
    pub fn ops_newest_first(&self) -> impl Iterator<Item = &OpRec> + '_ {
        let mut cur = self.path.as_deref();
        std::iter::from_fn(move || {
            let n = cur?;
            cur = n.prev.as_deref();
            Some(&n.op)
        })
        .chain(self.ops.iter().rev())
    }

    /// Operations on the edge, in order.
    pub fn ops_in_order(&self) -> Vec<OpRec> {
        let mut v: Vec<OpRec> = self.ops_newest_first().copied().collect();
        v.reverse();
        v
    }
}

/// An elementary cycle.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// Edge indices in order.
    pub edges: Vec<usize>,
    pub lat: f64,
    pub dist: u32,
    pub serial: bool,
    pub retimeable: bool,
}

impl Cycle {
    /// `lat / dist`.
    pub fn ratio(&self) -> f64 {
        self.lat / self.dist.max(1) as f64
    }
    /// II this cycle imposes: cheap integer cycles within the retiming budget fit one cycle.
    pub fn ii(&self) -> u32 {
        let r = self.ratio();
        if self.retimeable && r <= RETIME_BUDGET {
            1
        } else {
            ((r - 1e-9).ceil().max(1.0)) as u32
        }
    }
    /// Operations on the cycle in order.
    pub fn ops(&self, edges: &[Edge]) -> Vec<OpRec> {
        self.edges
            .iter()
            .flat_map(|&e| edges[e].ops_in_order())
            .collect()
    }
    /// Subloops crossed by the cycle.
    pub fn subloops(&self, edges: &[Edge]) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .ops(edges)
            .into_iter()
            .filter(|o| o.class == OpClass::SubLoop)
            .filter_map(|o| o.subloop)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Keeps the longest edge per (from, to, dist, serial, mem) and drops the rest (in the order of
/// first occurrence; linear in the number of edges).
pub fn dedup(edges: Vec<Edge>) -> Vec<Edge> {
    let mut out: Vec<Edge> = Vec::with_capacity(edges.len());
    let mut at: std::collections::HashMap<(usize, usize, u32, bool, Option<usize>), usize> =
        std::collections::HashMap::with_capacity(edges.len());
    for e in edges {
        let key = (e.from, e.to, e.dist, e.serial, e.mem);
        match at.get(&key) {
            Some(&i) => {
                if e.lat > out[i].lat {
                    out[i] = e;
                }
            }
            None => {
                at.insert(key, out.len());
                out.push(e);
            }
        }
    }
    out
}

/// Most cycles enumerated before giving up (the result is then a lower bound).
pub const CYCLE_CAP: usize = 20_000;
const STEP_CAP: usize = 2_000_000;

/// Enumerates the elementary cycles with a positive distance. Returns the cycles and whether the
/// enumeration finished within the caps.
pub fn cycles(n: usize, edges: &[Edge]) -> (Vec<Cycle>, bool) {
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        if e.from < n && e.to < n {
            out_edges[e.from].push(i);
        }
    }
    let mut res = Vec::new();
    let mut steps = 0usize;
    let mut complete = true;
    let mut on_path = vec![false; n];
    for s in 0..n {
        // Iterative DFS over edges, restricted to nodes >= s.
        let mut path: Vec<usize> = Vec::new();
        let mut stack: Vec<(usize, usize)> = vec![(s, 0)];
        on_path[s] = true;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            steps += 1;
            if steps > STEP_CAP || res.len() >= CYCLE_CAP {
                complete = false;
                break;
            }
            if *next < out_edges[node].len() {
                let ei = out_edges[node][*next];
                *next += 1;
                let t = edges[ei].to;
                if t == s {
                    let mut c: Vec<usize> = path.clone();
                    c.push(ei);
                    let dist: u32 = c.iter().map(|&i| edges[i].dist).sum();
                    if dist > 0 {
                        let lat = c.iter().map(|&i| edges[i].lat).sum();
                        res.push(Cycle {
                            serial: c.iter().any(|&i| edges[i].serial),
                            retimeable: c.iter().all(|&i| edges[i].retimeable()),
                            edges: c,
                            lat,
                            dist,
                        });
                    }
                } else if t > s && !on_path[t] {
                    on_path[t] = true;
                    path.push(ei);
                    stack.push((t, 0));
                }
            } else {
                on_path[node] = false;
                stack.pop();
                path.pop();
            }
        }
        for x in on_path.iter_mut() {
            *x = false;
        }
        if !complete {
            break;
        }
    }
    (res, complete)
}

/// Longest path over distance-0 edges (the latency of one iteration), from any node.
///
/// The distance-0 subgraph is acyclic (an iteration's operations): longest paths in
/// topological order, linear in nodes + edges. Should it contain a cycle anyway, the nodes on
/// it keep the values reached when the order stopped (a lower bound, as before).
pub fn depth(n: usize, edges: &[Edge]) -> f64 {
    let mut best = vec![0.0f64; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for (i, e) in edges.iter().enumerate() {
        if e.dist == 0 && !e.serial && e.from < n && e.to < n {
            out[e.from].push(i);
            indeg[e.to] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    while let Some(v) = ready.pop() {
        for &ei in &out[v] {
            let e = &edges[ei];
            if best[v] + e.lat > best[e.to] + 1e-12 {
                best[e.to] = best[v] + e.lat;
            }
            indeg[e.to] -= 1;
            if indeg[e.to] == 0 {
                ready.push(e.to);
            }
        }
    }
    best.into_iter().fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Loc;

    fn e(from: usize, to: usize, lat: f64, dist: u32, class: OpClass) -> Edge {
        Edge {
            from,
            to,
            lat,
            dist,
            ops: vec![OpRec {
                class,
                lat,
                loc: Loc::default(),
                subloop: None,
            }],
            path: None,
            serial: false,
            mem: None,
        }
    }

    #[test]
    fn self_loop_and_shift_chain() {
        // x -> x (Fmul 6): II 6.
        let (c, ok) = cycles(1, &[e(0, 0, 6.0, 1, OpClass::Fmul)]);
        assert!(ok);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].ii(), 6);
        // A chain of 8 cells with one Fmul: ratio 6/8 -> II 1.
        let mut es: Vec<Edge> = (0..7)
            .map(|i| e(i, i + 1, 0.0, 1, OpClass::Logic))
            .collect();
        es.push(e(7, 0, 6.0, 1, OpClass::Fmul));
        let (c, _) = cycles(8, &es);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].dist, 8);
        assert_eq!(c[0].ii(), 1);
    }

    #[test]
    fn retiming_budget() {
        let (c, _) = cycles(1, &[e(0, 0, 4.5, 1, OpClass::Compare)]);
        assert_eq!(c[0].ii(), 1);
        let (c, _) = cycles(1, &[e(0, 0, 6.4, 1, OpClass::Compare)]);
        assert_eq!(c[0].ii(), 7);
        // A pipelined operator on the cycle disables retiming.
        let (c, _) = cycles(1, &[e(0, 0, 3.0, 1, OpClass::Mul)]);
        assert_eq!(c[0].ii(), 3);
    }

    #[test]
    fn two_node_cycle_and_depth() {
        let es = vec![
            e(0, 1, 159.0, 0, OpClass::Load),
            e(1, 2, 0.0, 0, OpClass::Logic),
            e(2, 0, 165.0, 1, OpClass::Store),
        ];
        let (c, _) = cycles(3, &es);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].ii(), 324);
        assert_eq!(depth(3, &es), 159.0);
    }
}
