//! The abstract values of the analysis: an affine form (for addresses, strides, trip counts and
//! constant folding of unrolled loops) plus timing dependencies (which loop-carried sources a
//! value depends on, with the latency of the longest path and the operations on it).

use super::latency::OpClass;
use crate::source::Loc;
use std::rc::Rc;

/// Bit mask of the loops (bit = `LoopId.0`, saturated at 62) and of the work-item (bit 63) in
/// which a symbol varies.
pub type VaryMask = u64;
/// The work-item bit of a [`VaryMask`].
pub const WI_BIT: VaryMask = 1 << 63;
/// Varies everywhere.
pub const VARY_ALL: VaryMask = u64::MAX;

/// The mask bit of a loop.
pub fn loop_bit(l: u32) -> VaryMask {
    1u64 << l.min(62)
}

/// A symbol of an affine form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sym {
    /// Iteration number (0, 1, 2, ...) of a pipelined loop.
    Iv(u32),
    /// `get_global_id(d)`.
    Gid(u8),
    /// `get_local_id(d)`.
    Lid(u8),
    /// `get_group_id(d)`.
    Grp(u8),
    /// An unknown value; what it varies with is in the analysis' opaque table.
    Op(u32),
}

/// The object a pointer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Base {
    /// Memory bound to kernel argument `i` (global, constant or local pointer argument).
    Arg(u32),
    /// A private-frame object at this offset.
    Frame(u32),
    /// A `__local` variable at this offset.
    Local(u32),
    /// Program-scope `__constant` data.
    Const,
}

/// `c + sum(coef * sym)`, terms sorted by symbol, no zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Affine {
    pub terms: Vec<(Sym, i64)>,
    pub c: i64,
}

impl Affine {
    pub fn konst(c: i64) -> Self {
        Affine {
            terms: Vec::new(),
            c,
        }
    }
    pub fn sym(s: Sym) -> Self {
        Affine {
            terms: vec![(s, 1)],
            c: 0,
        }
    }
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.c)
    }
    pub fn coef(&self, s: Sym) -> i64 {
        self.terms
            .iter()
            .find(|(t, _)| *t == s)
            .map(|(_, c)| *c)
            .unwrap_or(0)
    }
    pub fn add(&self, o: &Affine) -> Affine {
        self.add_scaled(o, 1)
    }
    pub fn sub(&self, o: &Affine) -> Affine {
        self.add_scaled(o, -1)
    }
    /// `self + k * o`.
    pub fn add_scaled(&self, o: &Affine, k: i64) -> Affine {
        let mut terms = self.terms.clone();
        for &(s, c) in &o.terms {
            match terms.binary_search_by(|(t, _)| t.cmp(&s)) {
                Ok(i) => {
                    terms[i].1 = terms[i].1.wrapping_add(c.wrapping_mul(k));
                    if terms[i].1 == 0 {
                        terms.remove(i);
                    }
                }
                Err(i) => {
                    let v = c.wrapping_mul(k);
                    if v != 0 {
                        terms.insert(i, (s, v));
                    }
                }
            }
        }
        Affine {
            terms,
            c: self.c.wrapping_add(o.c.wrapping_mul(k)),
        }
    }
    pub fn scale(&self, k: i64) -> Affine {
        if k == 0 {
            return Affine::konst(0);
        }
        Affine {
            terms: self
                .terms
                .iter()
                .map(|&(s, c)| (s, c.wrapping_mul(k)))
                .collect(),
            c: self.c.wrapping_mul(k),
        }
    }
    /// The same form without the term of `s`.
    pub fn without(&self, s: Sym) -> Affine {
        Affine {
            terms: self
                .terms
                .iter()
                .copied()
                .filter(|(t, _)| *t != s)
                .collect(),
            c: self.c,
        }
    }
}

/// One operation on a critical path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpRec {
    pub class: OpClass,
    pub lat: f64,
    pub loc: Loc,
    /// The subloop crossed, for [`OpClass::SubLoop`].
    pub subloop: Option<u32>,
}

/// A persistent list of operations, newest first.
#[derive(Debug)]
pub struct PathNode {
    pub op: OpRec,
    pub prev: Option<Rc<PathNode>>,
    /// This node or an older one crosses a subloop (answers "is the path serial" in O(1)).
    pub crosses_subloop: bool,
}

impl Drop for PathNode {
    /// Iterative: a path of a long straight-line kernel has one node per operation, and the
    /// default recursive drop would overflow the stack.
    fn drop(&mut self) {
        let mut cur = self.prev.take();
        while let Some(rc) = cur {
            match Rc::try_unwrap(rc) {
                Ok(mut node) => cur = node.prev.take(),
                Err(_) => break,
            }
        }
    }
}

/// Operations of a path, oldest first.
pub fn path_ops(p: &Option<Rc<PathNode>>) -> Vec<OpRec> {
    let mut v = Vec::new();
    let mut cur = p.clone();
    while let Some(n) = cur {
        v.push(n.op);
        cur = n.prev.clone();
    }
    v.reverse();
    v
}

/// A timing dependency: the value is ready `lat` cycles after source `src`.
#[derive(Clone, Debug)]
pub struct Dep {
    pub src: u32,
    pub lat: f64,
    pub path: Option<Rc<PathNode>>,
}

impl PartialEq for Dep {
    fn eq(&self, o: &Dep) -> bool {
        self.src == o.src && self.lat == o.lat
    }
}

/// Dependencies sorted by source.
pub type Deps = Vec<Dep>;

/// Most sources a value keeps (see [`union_into`]).
pub const MAX_DEPS: usize = 32;

/// Union keeping the longest path per source.
///
/// A value keeps at most [`MAX_DEPS`] sources: beyond that (a value computed from more than 32
/// distinct loads or carried values, as in very long straight-line code) it keeps the 16
/// oldest sources (a loop's carried variables are created before anything its iteration
/// loads, so its recurrences survive) and the 16 with the longest paths (the iteration's
/// depth survives). A recurrence through a dropped source is missed: a documented
/// approximation that keeps the analysis linear in the size of the kernel (issue 15 item 7).
pub fn union_into(into: &mut Deps, from: &Deps) {
    for d in from {
        match into.binary_search_by(|x| x.src.cmp(&d.src)) {
            Ok(i) => {
                if d.lat > into[i].lat {
                    into[i] = d.clone();
                }
            }
            Err(i) => into.insert(i, d.clone()),
        }
    }
    if into.len() > MAX_DEPS {
        cap_deps(into);
    }
}

/// Keeps the `MAX_DEPS / 2` oldest dependencies and the `MAX_DEPS / 2` longest of the rest
/// (ties: the newer source), sorted by source.
fn cap_deps(deps: &mut Deps) {
    let keep_old = MAX_DEPS / 2;
    let mut rest = deps.split_off(keep_old);
    rest.sort_by(|a, b| {
        b.lat
            .partial_cmp(&a.lat)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.src.cmp(&a.src))
    });
    rest.truncate(MAX_DEPS - keep_old);
    rest.sort_by_key(|d| d.src);
    deps.extend(rest);
}

/// Adds an operation of latency `op.lat` after every dependency.
pub fn after(deps: &Deps, op: OpRec) -> Deps {
    deps.iter()
        .map(|d| Dep {
            src: d.src,
            lat: d.lat + op.lat,
            path: if op.lat > 0.0 || op.class == OpClass::SubLoop {
                Some(Rc::new(PathNode {
                    op,
                    crosses_subloop: op.class == OpClass::SubLoop
                        || d.path.as_ref().is_some_and(|p| p.crosses_subloop),
                    prev: d.path.clone(),
                }))
            } else {
                d.path.clone()
            },
        })
        .collect()
}

/// An abstract value of one register slot or private-memory cell.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Val {
    /// Object pointed to, for pointers.
    pub base: Option<Base>,
    /// The value (or a pointer's byte offset) as an affine form, when known.
    pub aff: Option<Affine>,
    /// Derived from data read from memory or a channel (data-dependent).
    pub ld: bool,
    /// `Some(true)` for `work-item-id == constant`, `Some(false)` for `!=` (global infrequent).
    pub wi_cmp: Option<bool>,
    pub deps: Deps,
}

impl Val {
    pub fn konst(c: i64) -> Self {
        Val {
            aff: Some(Affine::konst(c)),
            ..Default::default()
        }
    }
    pub fn as_const(&self) -> Option<i64> {
        if self.base.is_some() {
            return None;
        }
        self.aff.as_ref().and_then(|a| a.as_const())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dep(src: u32, lat: f64) -> Dep {
        Dep {
            src,
            lat,
            path: None,
        }
    }

    #[test]
    fn a_union_keeps_the_oldest_and_the_longest_sources() {
        let mut into: Deps = (0..MAX_DEPS as u32).map(|s| dep(s, 1.0)).collect();
        // One more source, newer and longer than all: something must go.
        union_into(&mut into, &vec![dep(1000, 50.0)]);
        assert_eq!(into.len(), MAX_DEPS);
        assert!(into.windows(2).all(|w| w[0].src < w[1].src), "sorted");
        // The oldest half stays, the longest new one stays.
        assert!((0..(MAX_DEPS / 2) as u32).all(|s| into.iter().any(|d| d.src == s)));
        assert!(into.iter().any(|d| d.src == 1000));
    }

    #[test]
    fn a_long_path_drops_iteratively() {
        let op = OpRec {
            class: OpClass::Fadd,
            lat: 1.0,
            loc: Loc::default(),
            subloop: None,
        };
        let mut d = vec![dep(0, 0.0)];
        for _ in 0..1_000_000 {
            d = after(&d, op);
        }
        assert_eq!(path_ops(&d[0].path).len(), 1_000_000);
        drop(d); // must not overflow the stack
    }
}
