//! Counted loops the compiled code can run in chunks: an innermost loop whose header tests
//! `iv < bound` (signed), whose body is straight-line code ending with `iv += step`, and whose
//! memory accesses have addresses affine in `iv` (base pointer and multipliers invariant).
//!
//! For such a loop the translator emits a second copy of the body without bounds checks and
//! without per-access counting, entered at the top of the body when a runtime check proves
//! that the next `K` iterations behave exactly as the checked body would: every `iv < bound`
//! test passes, every access is in bounds and continues its site's run (`exec::batch`), no
//! poll falls due and no issue counter saturates. The chunk then adds the `K` iterations'
//! loop-head visits, clock ticks, issue counters and run lengths in closed form. Anything the
//! check cannot prove runs the checked body for that iteration, so counters, emulated times
//! and fault reports are the same either way.
//!
//! This module holds the static part: which loops qualify and the affine program the runtime
//! check evaluates ([`Aff`]); `translate` emits the check and the chunk.

use super::super::code::{Code, Op, NONE};
use super::translate::targets as branch_targets;
use fpgacl_kernel_compiler::ir::{BinOp, CmpOp, Scalar, WorkItemFn};

/// One term of the affine program, evaluated by the check at the chunk's first and last
/// iteration (exactly, in 64 bits). `I32` terms model a 32-bit integer op: the check requires
/// both ends in the `i32` range, so the op does not wrap anywhere in the chunk (an affine
/// function of the iteration number takes its extremes at the ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aff {
    /// The induction variable.
    Iv,
    /// Zero (the offset of a pointer slot itself).
    Zero,
    /// A work-item id (`WorkItemC`, dimension `dim`: the global id when `global`, else the
    /// local one), read at the check; in a chunk of work-items dimension 0 steps by one,
    /// anything else is invariant. Required in the `i32` range.
    Id {
        global: bool,
        dim: u32,
    },
    /// A slot no body op writes; `i32`: as a 32-bit operand (sign-extended low half), else
    /// the raw slot value (then required in the `i32` range, where the two agree).
    Inv {
        s: u32,
        i32: bool,
    },
    /// `a + b`, `a - b`, `a * b` of 32-bit integers (`Mul`: `b` does not vary).
    Add(usize, usize),
    Sub(usize, usize),
    Mul(usize, usize),
    /// `a + b`, `a - b`, `a * b` of 64-bit integers (`Mul64`: `b` does not vary and is within
    /// +-2^20): both ends required within +-2^40, where 64-bit arithmetic does not wrap.
    Add64(usize, usize),
    Sub64(usize, usize),
    Mul64(usize, usize),
    /// `a + b`, `a - b`, `a * b` of 32-bit unsigned integers (`MulU`: `b` does not vary):
    /// both ends required in `0..2^32`. Operands may be taken in their signed view: the op is
    /// exact modulo 2^32 either way, and an exact result in range is the op's result.
    AddU(usize, usize),
    SubU(usize, usize),
    MulU(usize, usize),
    /// `(uint)a`: `a` itself, required in `0..2^32` (where a term's value is its low 32 bits:
    /// every term is its slot's value modulo 2^32).
    U32Of(usize),
    /// Byte offsets: `a * c`, `a + b`, `a + c` (not range-checked: their inputs are bounded
    /// and the access check bounds the result).
    MulC(usize, i64),
    AddOff(usize, usize),
    AddC(usize, i64),
}

impl Aff {
    /// Whether the term is the value of a 32-bit integer op (range-checked).
    pub fn is_i32(&self) -> bool {
        matches!(self, Aff::Add(..) | Aff::Sub(..) | Aff::Mul(..))
    }

    /// Whether the term is the value of a 32-bit unsigned integer op (range-checked to
    /// `0..2^32`).
    pub fn is_u32(&self) -> bool {
        matches!(
            self,
            Aff::AddU(..) | Aff::SubU(..) | Aff::MulU(..) | Aff::U32Of(_)
        )
    }

    /// Whether the term is the value of a 64-bit integer op (range-checked to +-2^40).
    pub fn is_64(&self) -> bool {
        matches!(self, Aff::Add64(..) | Aff::Sub64(..) | Aff::Mul64(..))
    }
}

/// A memory access of the body: at byte offset `off` (a term) from the invariant pointer in
/// slot `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub pc: u32,
    pub site: u32,
    pub base: u32,
    pub off: usize,
    pub size: u64,
    pub write: bool,
}

/// The affine program of a chunk's body and its accesses (every term before its uses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    pub terms: Vec<Aff>,
    pub accesses: Vec<Access>,
}

/// A loop that qualifies, with its affine program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Loop number, header op (`LoopHead`), first body op, the body's closing `Jump`.
    pub l: u32,
    pub head: u32,
    pub body: u32,
    pub end: u32,
    pub iv: u32,
    pub bound: u32,
    pub step: u32,
    /// The header's test: `iv <= bound` (else `<`), unsigned (else signed; the induction
    /// variable then steps with a 32-bit unsigned add).
    pub le: bool,
    pub unsigned: bool,
    pub prog: Body,
}

/// Largest pointer multiplier and displacement taken (keeps the offset terms far inside 64
/// bits: a multiplied term is below 2^31 * 2^16).
const MAX_SCALE: i64 = 1 << 16;
const MAX_DISP: i64 = 1 << 40;

/// Slots an op of the body writes, `None` for an op a chunk may not contain (control flow,
/// barriers, calls that can leave the kernel or count accesses, channels, atomics, printf).
fn writes(op: &Op, code: &Code) -> Option<Vec<u32>> {
    let r = |d: u32, n: u32| Some((d..d + n).collect());
    match *op {
        Op::Const { d, .. }
        | Op::Mov1 { d, .. }
        | Op::ConvInt { d, .. }
        | Op::WorkItemC { d, .. }
        | Op::AddI32 { d, .. }
        | Op::AddU32 { d, .. }
        | Op::Add64 { d, .. }
        | Op::SubI32 { d, .. }
        | Op::SubU32 { d, .. }
        | Op::Sub64 { d, .. }
        | Op::MulI32 { d, .. }
        | Op::MulU32 { d, .. }
        | Op::Mul64 { d, .. }
        | Op::CmpS { d, .. }
        | Op::CmpU { d, .. }
        | Op::CmpF32 { d, .. }
        | Op::CmpF64 { d, .. }
        | Op::FAdd32 { d, .. }
        | Op::FSub32 { d, .. }
        | Op::FMul32 { d, .. }
        | Op::FDiv32 { d, .. }
        | Op::FAdd64 { d, .. }
        | Op::FSub64 { d, .. }
        | Op::FMul64 { d, .. }
        | Op::FDiv64 { d, .. }
        | Op::Lane { d, .. }
        | Op::PtrIdx { d, .. }
        | Op::PtrDisp { d, .. } => r(d, 1),
        Op::ConstN(x) => {
            let (d, v) = code.consts.get(x as usize)?;
            r(*d, v.len() as u32)
        }
        Op::Mov { d, n, .. }
        | Op::Splat { d, n, .. }
        | Op::And { d, n, .. }
        | Op::Or { d, n, .. }
        | Op::Xor { d, n, .. }
        | Op::Select { d, n, .. } => r(d, n),
        Op::IntBin { op, n, d, .. } => {
            if matches!(op, BinOp::Div | BinOp::Rem) {
                return None;
            }
            r(d, n as u32)
        }
        Op::FltBin { n, d, .. } | Op::Unary { n, d, .. } | Op::Cmp { n, d, .. } => r(d, n as u32),
        Op::LaneV { dn, d, .. } => r(d, dn as u32),
        Op::Shuffle(x) => {
            let (d, _, idx) = code.shuffles.get(x as usize)?;
            r(*d, idx.len().min(16) as u32)
        }
        Op::Convert(x) => {
            let c = code.converts.get(x as usize)?;
            r(c.d, c.n)
        }
        Op::LoadIdx { d, t, .. } => Some(vec![d, t]),
        Op::StoreIdx { t, .. } => Some(vec![t]),
        Op::Load { d, n, .. } => r(d, n as u32),
        Op::Store { .. } => Some(vec![]),
        _ => None,
    }
}

/// The slots `op` writes (none for an op a chunk may not contain).
pub fn op_writes(op: &Op, code: &Code) -> Vec<u32> {
    writes(op, code).unwrap_or_default()
}

/// The affine program of one body under construction.
struct Prog<'a> {
    written: &'a [bool],
    /// The loop's induction variable (`NONE` in a chunk of work-items).
    iv: u32,
    /// A chunk of work-items (dimension 0's ids step).
    items: bool,
    /// The induction variable is a 32-bit unsigned one.
    unsigned: bool,
    terms: Vec<Aff>,
    /// Whether each term varies with the iteration.
    varies: Vec<bool>,
    /// Slots holding a known term (32-bit integer value) / a pointer (base slot, offset term).
    val: Vec<Option<usize>>,
    ptr: Vec<Option<(u32, usize)>>,
}

impl Prog<'_> {
    fn push(&mut self, a: Aff, varies: bool) -> usize {
        if let Some(i) = self.terms.iter().position(|&t| t == a) {
            return i;
        }
        self.terms.push(a);
        self.varies.push(varies);
        self.terms.len() - 1
    }

    /// The term a slot holds here, as a 32-bit operand (`i32`) or raw.
    fn term(&mut self, s: u32, i32: bool) -> Option<usize> {
        let si = s as usize;
        if let Some(t) = self.val.get(si).copied().flatten() {
            return Some(t);
        }
        if s == self.iv {
            return Some(self.push(Aff::Iv, true));
        }
        if !*self.written.get(si)? {
            return Some(self.push(Aff::Inv { s, i32 }, false));
        }
        None
    }

    /// An invariant pointer slot, or a pointer made in the body from one.
    fn pointer(&mut self, s: u32) -> Option<(u32, usize)> {
        if let Some(p) = self.ptr.get(s as usize).copied().flatten() {
            return Some(p);
        }
        if !*self.written.get(s as usize)? {
            return Some((s, self.push(Aff::Zero, false)));
        }
        None
    }

    /// The term of `a op b` made by `make` (`view32`: operands as 32-bit values; `mul`: a
    /// product, one side must not vary and goes second).
    fn arith(
        &mut self,
        a: u32,
        b: u32,
        view32: bool,
        mul: bool,
        make: fn(usize, usize) -> Aff,
    ) -> Option<usize> {
        let (x, y) = (self.term(a, view32)?, self.term(b, view32)?);
        let v = self.varies[x] || self.varies[y];
        let (x, y) = match (mul, self.varies[x], self.varies[y]) {
            (true, true, true) => return None,
            (true, false, true) => (y, x),
            _ => (x, y),
        };
        Some(self.push(make(x, y), v))
    }

    fn add_off(&mut self, off: usize, idx: usize, scale: i64, disp: i64) -> Option<usize> {
        if !(0..=MAX_SCALE).contains(&scale) || !(-MAX_DISP..=MAX_DISP).contains(&disp) {
            return None;
        }
        let v = self.varies[idx];
        let m = self.push(Aff::MulC(idx, scale), v);
        let m = if disp != 0 {
            self.push(Aff::AddC(m, disp), v)
        } else {
            m
        };
        if self.terms[off] == Aff::Zero {
            return Some(m);
        }
        let vo = self.varies[off] || v;
        Some(self.push(Aff::AddOff(off, m), vo))
    }
}

/// Per op, the counted loop whose body starts there. `inline_counted(site, size, elem)` says
/// whether the translator counts an access of that site in a run inline (a chunk adds to runs
/// only; other counting paths do not qualify).
pub fn counted_loops(
    code: &Code,
    inline_counted: &dyn Fn(u32, u64, u64) -> bool,
) -> Vec<Option<Counted>> {
    let n = code.ops.len();
    let mut out = vec![None; n];
    // Per op, the branches that name it (a target outside the code is ignored: `build`
    // refuses such code before it asks).
    let mut targets = vec![0u32; n];
    for op in &code.ops {
        for t in branch_targets(op, code) {
            if let Some(x) = targets.get_mut(t as usize) {
                *x += 1;
            }
        }
    }
    for h in 0..n.saturating_sub(3) {
        if let Some(c) = counted_at(code, h, &targets, inline_counted) {
            let b = c.body as usize;
            out[b] = Some(c);
        }
    }
    out
}

fn counted_at(
    code: &Code,
    h: usize,
    targets: &[u32],
    inline_counted: &dyn Fn(u32, u64, u64) -> bool,
) -> Option<Counted> {
    let ops = &code.ops;
    let Op::LoopHead(l) = ops[h] else {
        return None;
    };
    let (op, iv, bound, t, f, unsigned) = match ops[h + 1] {
        Op::BrCmpS { op, a, b, t, f } => (op, a, b, t, f, false),
        Op::BrCmpU { op, a, b, t, f } => (op, a, b, t, f, true),
        _ => return None,
    };
    if !matches!(op, CmpOp::Lt | CmpOp::Le) {
        return None;
    }
    let body = h + 2;
    if t as usize != body || f as usize == body || targets[body] != 1 {
        return None;
    }
    // The body: straight-line ops up to `Jump(h)`, entered only at its top.
    let end = (body..ops.len()).find(|&i| writes(&ops[i], code).is_none())?;
    if !matches!(ops[end], Op::Jump(x) if x as usize == h) || end < body + 1 {
        return None;
    }
    if (body + 1..=end).any(|i| targets[i] != 0) {
        return None;
    }
    let (d, a, step) = match ops[end - 1] {
        Op::AddI32 { d, a, b } if !unsigned => (d, a, b),
        Op::AddU32 { d, a, b } if unsigned => (d, a, b),
        _ => return None,
    };
    if d != iv || a != iv || step == iv || bound == iv {
        return None;
    }
    let written = written_slots(code, body, end)?;
    // The induction variable is written once (the closing add); bound and step never.
    let iv_writes = ops[body..end]
        .iter()
        .filter(|op| writes(op, code).is_some_and(|w| w.contains(&iv)))
        .count();
    if iv_writes != 1 || written[bound as usize] || written[step as usize] {
        return None;
    }
    let prog = affine_body(
        code,
        body..end - 1,
        &written,
        (iv, unsigned),
        false,
        inline_counted,
    )?;
    Some(Counted {
        l,
        head: h as u32,
        body: body as u32,
        end: end as u32,
        iv,
        bound,
        step,
        le: op == CmpOp::Le,
        unsigned,
        prog,
    })
}

/// Per slot, whether an op of `ops[from..to]` writes it; `None` when one may not be in a
/// chunk.
fn written_slots(code: &Code, from: usize, to: usize) -> Option<Vec<bool>> {
    let mut written = vec![false; code.num_slots as usize];
    for op in &code.ops[from..to] {
        for s in writes(op, code)? {
            *written.get_mut(s as usize)? = true;
        }
    }
    Some(written)
}

/// A kernel whose code is one straight line ending with `Ret` (no branch, loop or barrier):
/// its work-items can run in chunks along dimension 0 when its addresses are affine in the
/// ids of dimension 0.
pub fn straight_kernel(
    code: &Code,
    inline_counted: &dyn Fn(u32, u64, u64) -> bool,
) -> Option<Body> {
    let n = code.ops.len();
    if n < 2 || !matches!(code.ops[n - 1], Op::Ret) {
        return None;
    }
    let written = written_slots(code, 0, n - 1)?;
    affine_body(
        code,
        0..n - 1,
        &written,
        (NONE, false),
        true,
        inline_counted,
    )
}

/// The affine program of the straight-line ops `range` (`None`: an access is not affine or
/// not counted in a run, or a site has two accesses), for induction variable `iv` (`NONE`
/// for work-items) of a 32-bit signed or `unsigned` kind.
fn affine_body(
    code: &Code,
    range: std::ops::Range<usize>,
    written: &[bool],
    (iv, unsigned): (u32, bool),
    items: bool,
    inline_counted: &dyn Fn(u32, u64, u64) -> bool,
) -> Option<Body> {
    let ops = &code.ops;
    let ns = code.num_slots as usize;
    let mut p = Prog {
        written,
        iv,
        items,
        unsigned,
        terms: Vec::new(),
        varies: Vec::new(),
        val: vec![None; ns],
        ptr: vec![None; ns],
    };
    let mut accesses = Vec::new();
    let mut sites = Vec::new();
    for (pc, &op) in ops.iter().enumerate().take(range.end).skip(range.start) {
        // The terms and pointers an op defines, computed before its writes clear its slots.
        let mut val = None;
        let mut ptr = None;
        let mut acc = None;
        match op {
            // Integer arithmetic: 32-bit signed or unsigned operands in their 32-bit view,
            // 64-bit ones raw; a product needs a side that does not vary.
            Op::AddI32 { a, b, .. } => val = p.arith(a, b, true, false, Aff::Add),
            Op::SubI32 { a, b, .. } => val = p.arith(a, b, true, false, Aff::Sub),
            Op::MulI32 { a, b, .. } => val = p.arith(a, b, true, true, Aff::Mul),
            Op::AddU32 { a, b, .. } => val = p.arith(a, b, true, false, Aff::AddU),
            Op::SubU32 { a, b, .. } => val = p.arith(a, b, true, false, Aff::SubU),
            Op::MulU32 { a, b, .. } => val = p.arith(a, b, true, true, Aff::MulU),
            Op::Add64 { a, b, .. } => val = p.arith(a, b, false, false, Aff::Add64),
            Op::Sub64 { a, b, .. } => val = p.arith(a, b, false, false, Aff::Sub64),
            Op::Mul64 { a, b, .. } => val = p.arith(a, b, false, true, Aff::Mul64),
            // To `uint`: the value itself, in `0..2^32`.
            Op::ConvInt {
                k: Scalar::U32, s, ..
            } => {
                val = p.term(s, false).map(|x| {
                    if p.terms[x].is_u32() || (p.terms[x] == Aff::Iv && p.unsigned) {
                        x
                    } else {
                        let v = p.varies[x];
                        p.push(Aff::U32Of(x), v)
                    }
                });
            }
            // To a 64-bit kind: the slot keeps its value (32-bit values are sign-extended).
            Op::ConvInt {
                k: Scalar::I64 | Scalar::U64,
                s,
                ..
            } => {
                val = p.term(s, false);
            }
            Op::ConvInt {
                k: Scalar::I32, s, ..
            } => {
                val = match p.term(s, true) {
                    // 32-bit values, a signed induction variable and ids (in the `i32` range).
                    Some(x)
                        if p.terms[x].is_i32()
                            || (p.terms[x] == Aff::Iv && !p.unsigned)
                            || matches!(p.terms[x], Aff::Id { .. }) =>
                    {
                        Some(x)
                    }
                    Some(x) => match p.terms[x] {
                        Aff::Inv { s, .. } => Some(p.push(Aff::Inv { s, i32: true }, false)),
                        _ => None,
                    },
                    _ => None,
                };
            }
            Op::Mov1 { s, .. } => {
                val = p.term(s, false);
                ptr = p.pointer(s);
            }
            Op::WorkItemC {
                f: f @ (WorkItemFn::GlobalId | WorkItemFn::LocalId),
                dim,
                ..
            } if dim < 3 => {
                let global = f == WorkItemFn::GlobalId;
                let v = p.items && dim == 0;
                val = Some(p.push(Aff::Id { global, dim }, v));
            }
            Op::PtrIdx {
                base,
                idx,
                scale,
                disp,
                ..
            } => {
                if let (Some((b, off)), Some(x)) = (p.pointer(base), p.term(idx, false)) {
                    ptr = p.add_off(off, x, scale as i64, disp as i64).map(|o| (b, o));
                }
            }
            Op::PtrDisp { base, disp, .. } => {
                if let Some((b, off)) = p.pointer(base) {
                    if (-MAX_DISP..=MAX_DISP).contains(&disp) {
                        let v = p.varies[off];
                        ptr = Some((b, p.push(Aff::AddC(off, disp), v)));
                    }
                }
            }
            Op::LoadIdx {
                k,
                sl,
                base,
                idx,
                site,
                ..
            }
            | Op::StoreIdx {
                k,
                sl,
                base,
                idx,
                site,
                ..
            } => {
                let write = matches!(op, Op::StoreIdx { .. });
                if sl > 16 {
                    return None;
                }
                let (b, off) = p.pointer(base)?;
                let x = p.term(idx, false)?;
                let off = p.add_off(off, x, 1 << sl, 0)?;
                acc = Some((pc, site, b, off, k.size() as u64, k.size() as u64, write));
            }
            Op::Load { k, n, a, site, .. } | Op::Store { k, n, a, site, .. } => {
                let write = matches!(op, Op::Store { .. });
                let (b, off) = p.pointer(a)?;
                let es = k.size() as u64;
                acc = Some((pc, site, b, off, es * n as u64, es, write));
            }
            _ => {}
        }
        if let Some((pc, site, base, off, size, elem, write)) = acc {
            if site != NONE {
                if !inline_counted(site, size, elem) || sites.contains(&site) {
                    return None;
                }
                sites.push(site);
            }
            accesses.push(Access {
                pc: pc as u32,
                site,
                base,
                off,
                size,
                write,
            });
        }
        let w = writes(&op, code)?;
        for &s in &w {
            p.val[s as usize] = None;
            p.ptr[s as usize] = None;
        }
        // A term or a pointer is made only by an op with one destination.
        if let [d] = w[..] {
            p.val[d as usize] = val;
            p.ptr[d as usize] = ptr;
        }
    }
    Some(Body {
        terms: p.terms,
        accesses,
    })
}

/// Slots of `ops[range]` (a chunk's straight-line body) that hold 32-bit floats only: every op
/// of the range that writes one is a float op with an F32 result (the slot encoding of an
/// `f32`: zero-extended bits) or a move from another such slot. A chunk keeps them in float
/// variables (no bitcast pair per operation on a loop-carried accumulator).
pub fn float_slots(code: &Code, range: std::ops::Range<usize>) -> Vec<u32> {
    let ops = &code.ops[range];
    let ns = code.num_slots as usize;
    // Per slot: None = not written; Some(true) = every write a float op so far.
    let mut float: Vec<Option<bool>> = vec![None; ns];
    let mut moves: Vec<(u32, u32)> = Vec::new();
    let mark = |float: &mut Vec<Option<bool>>, d: u32, n: u32, ok: bool| {
        for s in d..d.saturating_add(n) {
            if let Some(f) = float.get_mut(s as usize) {
                *f = Some(f.unwrap_or(true) && ok);
            }
        }
    };
    for op in ops {
        match *op {
            Op::FAdd32 { d, .. }
            | Op::FSub32 { d, .. }
            | Op::FMul32 { d, .. }
            | Op::FDiv32 { d, .. } => mark(&mut float, d, 1, true),
            Op::FltBin {
                op: BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div,
                k: Scalar::F32,
                n,
                d,
                ..
            } => mark(&mut float, d, n as u32, true),
            // Results of kind F32 are slot encodings of an `f32` (zero-extended).
            Op::LaneV {
                k: Scalar::F32,
                dk: Scalar::F32,
                dn,
                d,
                ..
            } => mark(&mut float, d, dn as u32, true),
            Op::Mov { d, s, n } => {
                mark(&mut float, d, n, true);
                moves.extend((0..n).map(|i| (d + i, s + i)));
            }
            Op::Mov1 { d, s } => {
                mark(&mut float, d, 1, true);
                moves.push((d, s));
            }
            _ => {
                if let Some(w) = writes(op, code) {
                    for s in w {
                        mark(&mut float, s, 1, false);
                    }
                }
            }
        }
    }
    // A move keeps its destination a float slot only when its source is one.
    loop {
        let mut changed = false;
        for &(d, s) in &moves {
            let src = float.get(s as usize).copied().flatten() == Some(true);
            if !src && float[d as usize] == Some(true) {
                float[d as usize] = Some(false);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..ns as u32)
        .filter(|&s| float[s as usize] == Some(true))
        .collect()
}
