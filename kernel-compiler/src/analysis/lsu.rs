//! Load-store unit selection per access site, by the guide's "Load-Store Units" rules.
//!
//! | rule (first match) | LSU |
//! | --- | --- |
//! | channel / pipe access | none (a FIFO endpoint) |
//! | atomic | Atomic-pipelined |
//! | `__constant` memory | Constant-pipelined |
//! | `__local` memory | Local-pipelined (+ never-stall when its memory is stall-free) |
//! | NDRange, outside loops, only under `work-item id == constant` | Pipelined (global infrequent) |
//! | address depends on loaded data | Burst-coalesced, loads `cached` (unless `volatile`) |
//! | NDRange, outside loops, address = invariant + width x `get_global_id(0)` | Streaming |
//! | single work-item loop load, address = invariant + width x iteration, buffer never stored: constant trip count | Semi-streaming |
//! | same, unknown trip count | Prefetching |
//! | otherwise | Burst-coalesced |
//!
//! Modifiers: `write-ack` for a global store when another access to the same buffer may touch
//! the same bytes (other than a load of the same address just before it in the same work-item
//! or iteration); `non-aligned` for a statically coalesced access whose width is not a power of
//! two or does not divide its stride. Loads and stores of one iteration/work-item whose
//! addresses differ only by constants that tile a contiguous range are statically coalesced into
//! one access (predicated copies too: the wide LSU masks their bytes); the timing model counts
//! the group as one request per work-item (rule M0' of `device-model/src/timing/MODEL.md`).

use super::engine::{AKind, AccessInst, Engine};
use super::latency;
use super::loops::{may_alias_objects, AccessInstView};
use super::value::*;
use super::*;
use crate::ir::{AddrSpace, ArgKind, SiteId, SiteKind};
use std::collections::BTreeMap;

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// The two accesses can never touch the same bytes (in any iteration / work-item pair).
pub fn disjoint(a: &AccessInst, b: &AccessInst) -> bool {
    let (Some(x), Some(y)) = (&a.aff, &b.aff) else {
        return false;
    };
    if a.ld || b.ld || x.terms != y.terms {
        return false;
    }
    let delta = y.c - x.c;
    let g = x.terms.iter().fold(0, |g, (_, c)| gcd(g, *c));
    let (wa, wb) = (a.width as i64, b.width as i64);
    if g == 0 {
        return delta >= wa || -delta >= wb;
    }
    let r = delta.rem_euclid(g);
    wa <= g && wb <= g && r >= wa && g - r >= wb
}

fn view(a: &AccessInst) -> AccessInstView {
    AccessInstView {
        space: a.space,
        base: a.base,
    }
}

/// One statically coalesced access a site belongs to.
#[derive(Clone, Debug)]
struct Coalesced {
    /// Bytes of the wide access.
    width: u32,
    /// The other sites merged into it.
    with: Vec<SiteId>,
    non_aligned: bool,
    /// Accesses (of all its sites) merged per work-item / iteration.
    accesses: u32,
    /// Accesses of this site among them (its unrolled copies).
    copies: u32,
}

/// Classifies every site of the kernel.
pub fn classify(e: &Engine) -> Vec<SiteReport> {
    let kidx = e.kidx;
    let recs: Vec<&AccessInst> = e.records.iter().filter(|r| !r.private_ram).collect();
    // Static coalescing groups.
    let mut coalesced: BTreeMap<SiteId, Coalesced> = BTreeMap::new();
    {
        // Accesses of one pass (iteration / work-item) are grouped whatever their predicates:
        // the wide LSU masks the bytes of predicated-off copies (`if (k < n)` in an unrolled
        // loop still gives one wide access); distinct sites need equal predicates (below).
        type Key = (u32, Option<Base>, u8, Vec<(Sym, i64)>, bool);
        let mut groups: BTreeMap<Key, Vec<&AccessInst>> = BTreeMap::new();
        for r in &recs {
            // Static coalescing merges global accesses; local accesses keep their own ports.
            if !matches!(r.kind, AKind::Load | AKind::Store) || r.ld || r.space != AddrSpace::Global
            {
                continue;
            }
            let Some(aff) = &r.aff else { continue };
            let key = (
                r.group.0,
                r.base,
                r.space as u8,
                aff.terms.clone(),
                r.kind == AKind::Store,
            );
            groups.entry(key).or_default().push(r);
        }
        for (key, mut g) in groups {
            g.sort_by_key(|r| r.aff.as_ref().map(|a| a.c).unwrap_or(0));
            let n = g.len();
            g.dedup_by_key(|r| r.aff.as_ref().map(|a| a.c).unwrap_or(0));
            // Repeated addresses are separate accesses, not one wide access.
            if g.len() < 2 || g.len() != n {
                continue;
            }
            let start = g[0].aff.as_ref().map(|a| a.c).unwrap_or(0);
            let mut end = start;
            let mut contiguous = true;
            for r in &g {
                let c = r.aff.as_ref().map(|a| a.c).unwrap_or(0);
                if c != end {
                    contiguous = false;
                    break;
                }
                end = c + r.width as i64;
            }
            if !contiguous {
                continue;
            }
            let width = (end - start) as u32;
            let stride = key.3.iter().fold(0, |g, (_, c)| gcd(g, *c));
            let aligned = width.is_power_of_two()
                && (stride == 0 || stride % width as i64 == 0)
                && start % width as i64 == 0;
            let sites: Vec<SiteId> = g.iter().filter_map(|r| r.site).collect();
            let mut distinct = sites.clone();
            distinct.sort();
            distinct.dedup();
            // Predicates are ignored for the copies of one site (an unrolled `if (k < n)`);
            // different sites coalesce only under the same predicate.
            if distinct.len() > 1 && g.iter().any(|r| r.group.1 != g[0].group.1) {
                continue;
            }
            let accesses = g.len() as u32;
            for s in &distinct {
                let others: Vec<SiteId> = distinct.iter().copied().filter(|x| x != s).collect();
                let copies = sites.iter().filter(|x| *x == s).count() as u32;
                let c = Coalesced {
                    width,
                    with: others,
                    non_aligned: !aligned,
                    accesses,
                    copies,
                };
                let entry = coalesced.entry(*s).or_insert_with(|| c.clone());
                if width > entry.width {
                    *entry = c;
                }
            }
        }
    }
    let mut out = Vec::new();
    for site in e.m.sites.iter().filter(|s| s.kernel == kidx) {
        let insts: Vec<&AccessInst> = recs
            .iter()
            .copied()
            .filter(|r| r.site == Some(site.id))
            .collect();
        out.push(classify_site(
            e,
            site,
            &insts,
            &recs,
            coalesced.get(&site.id),
        ));
    }
    out
}

fn classify_site(
    e: &Engine,
    site: &crate::ir::AccessSite,
    insts: &[&AccessInst],
    all: &[&AccessInst],
    coal: Option<&Coalesced>,
) -> SiteReport {
    let board = e.board;
    let mut rep = SiteReport {
        id: site.id,
        loc: site.loc,
        kind: site.kind,
        space: site.space,
        target: site.target.clone(),
        width: site.width,
        in_loop: site.in_loop,
        lsu: None,
        modifiers: Vec::new(),
        coalesced_width: coal.map(|c| c.width),
        coalesced_with: coal.map(|c| c.with.clone()).unwrap_or_default(),
        coalesced_accesses: coal.map_or(0, |c| c.accesses),
        coalesced_copies: coal.map_or(0, |c| c.copies),
        copies: 1,
        pattern: AccessPattern::Stream,
        stride_bytes: None,
        latency_cycles: 0.0,
        local_memory: None,
    };
    // Copies: instances per execution group.
    let mut per_group: BTreeMap<u32, u32> = BTreeMap::new();
    for i in insts {
        *per_group.entry(i.group.0).or_default() += 1;
    }
    rep.copies = per_group.values().copied().max().unwrap_or(1).max(1);
    if coal.is_some() {
        rep.copies = 1;
    }
    match site.kind {
        SiteKind::ChannelRead | SiteKind::PipeRead => {
            rep.latency_cycles = latency::CHANNEL_READ;
            return rep;
        }
        SiteKind::ChannelWrite | SiteKind::PipeWrite => {
            rep.latency_cycles = latency::CHANNEL_WRITE;
            return rep;
        }
        _ => {}
    }
    let first = insts.first().copied();
    let is_load = site.kind == SiteKind::Load;
    let is_store = site.kind == SiteKind::Store;
    let constant_arg = first
        .and_then(|i| match i.base {
            Some(Base::Arg(a)) => e.f.args.get(a as usize),
            _ => None,
        })
        .is_some_and(|a| {
            matches!(
                a.kind,
                ArgKind::Buffer {
                    space: AddrSpace::Constant,
                    ..
                }
            )
        });
    // Access pattern relative to the driving variable.
    let ndrange = e.kind() == KernelKind::NdRange;
    let (pattern, other_varying, rest_mask) = match first {
        None => (AccessPattern::DataDependent, true, VARY_ALL),
        Some(i) => match (&i.aff, i.ld) {
            (Some(a), false) => {
                let driver = match i.driver {
                    Some(l) => Some(Sym::Iv(l.0)),
                    None if ndrange => Some(Sym::Gid(0)),
                    None => None,
                };
                let (stride, rest) = match driver {
                    Some(d) => (a.coef(d), a.without(d)),
                    None => (0, a.clone()),
                };
                let rest_mask = rest.terms.iter().fold(0u64, |m, (s, _)| m | e.sym_mask(*s));
                let driver_bit = match i.driver {
                    Some(l) => loop_bit(l.0),
                    None => WI_BIT,
                };
                let other = rest_mask & driver_bit != 0;
                if other {
                    (AccessPattern::DataDependent, true, rest_mask)
                } else if stride == 0 {
                    (AccessPattern::Invariant, false, rest_mask)
                } else {
                    (AccessPattern::Strided { stride }, false, rest_mask)
                }
            }
            _ => (AccessPattern::DataDependent, true, VARY_ALL),
        },
    };
    rep.stride_bytes = match pattern {
        AccessPattern::Strided { stride } => Some(stride),
        AccessPattern::Invariant => Some(0),
        _ => None,
    };
    rep.pattern = pattern.clone();
    let data_dep = first.is_some_and(|i| i.ld || i.aff.is_none());
    let global_lat = latency::load(AddrSpace::Global, false, board);
    if site.kind == SiteKind::Atomic {
        rep.lsu = Some(LsuType::AtomicPipelined);
        rep.latency_cycles = global_lat;
        if site.space == AddrSpace::Local {
            rep.latency_cycles = latency::ONCHIP_LOAD + latency::ONCHIP_STORE;
        }
        return rep;
    }
    if site.space == AddrSpace::Constant || constant_arg {
        rep.lsu = Some(LsuType::ConstantPipelined);
        rep.latency_cycles = latency::CONSTANT_CACHE_HIT;
        return rep;
    }
    if site.space == AddrSpace::Local {
        rep.lsu = Some(LsuType::LocalPipelined);
        rep.latency_cycles = if is_load {
            latency::ONCHIP_LOAD
        } else {
            latency::ONCHIP_STORE
        };
        return rep;
    }
    rep.latency_cycles = global_lat;
    let driver = first.and_then(|i| i.driver);
    let volatile = first
        .and_then(|i| match i.base {
            Some(Base::Arg(a)) => e.f.args.get(a as usize),
            _ => None,
        })
        .is_some_and(|a| a.is_volatile);
    // Write-ack: another access may touch the same bytes.
    let write_ack = is_store
        && insts.iter().any(|me| {
            all.iter().any(|o| {
                if std::ptr::eq(*o, *me)
                    || !matches!(o.kind, AKind::Load | AKind::Store | AKind::Atomic)
                {
                    return false;
                }
                if o.site == me.site && o.kind == me.kind {
                    return false;
                }
                let Some(same) = may_alias_objects(e, &view(o), &view(me)) else {
                    return false;
                };
                if same && disjoint(o, me) {
                    return false;
                }
                // A load of the same address in the same work-item/iteration, before the store.
                let same_addr = same && o.aff.is_some() && o.aff == me.aff && !o.ld && !me.ld;
                !(o.kind == AKind::Load && same_addr && o.group == me.group)
            })
        });
    let written = is_load
        && insts.iter().any(|me| {
            all.iter().any(|o| {
                matches!(o.kind, AKind::Store | AKind::Atomic)
                    && may_alias_objects(e, &view(o), &view(me)).is_some()
            })
        });
    let infrequent =
        ndrange && driver.is_none() && insts.iter().all(|i| i.single_wi) && !insts.is_empty();
    let unit = matches!(pattern, AccessPattern::Strided { stride } if stride == site.width as i64);
    let (lsu, mut mods) = if infrequent {
        (LsuType::Pipelined, vec![LsuModifier::Infrequent])
    } else if data_dep && is_load && first.is_some_and(|i| i.ld) {
        if volatile {
            (LsuType::BurstCoalesced, vec![])
        } else {
            (LsuType::BurstCoalesced, vec![LsuModifier::Cached])
        }
    } else if ndrange && driver.is_none() && unit && !write_ack && coal.is_none() {
        (LsuType::Streaming, vec![])
    } else if !ndrange && is_load && unit && !written && coal.is_none() {
        let trip = driver.and_then(|l| e.loops.get(&l)).and_then(|ls| ls.trip);
        let outer_invariant = rest_mask & !WI_BIT == 0 && !other_varying;
        if trip.is_some() && outer_invariant {
            (LsuType::SemiStreaming, vec![])
        } else {
            (LsuType::Prefetching, vec![])
        }
    } else {
        (LsuType::BurstCoalesced, vec![])
    };
    if write_ack && matches!(lsu, LsuType::BurstCoalesced) {
        mods.push(LsuModifier::WriteAck);
    }
    if coal.is_some_and(|c| c.non_aligned) && lsu == LsuType::BurstCoalesced {
        mods.push(LsuModifier::NonAligned);
    }
    let _ = driver.is_some() && matches!(pattern, AccessPattern::Strided { .. });
    rep.lsu = Some(lsu);
    rep.modifiers = mods;
    rep
}
