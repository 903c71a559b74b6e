//! Local memory systems (and private arrays implemented in RAM): banks, replicates, pump,
//! private copies, stall-free or arbitrated, following the local-memory chapter.
//!
//! Rules:
//! - Ports: every load instance is a read port and every store instance a write port (an
//!   unrolled loop makes one port per copy); atomics are both.
//! - Banks: the memory is banked on the lowest dimension when the variable part of every
//!   address is a multiple of `banks x element size` and the constant parts select at least two
//!   different banks (`numbanks(N)` forces N); each access then only uses the ports of its bank.
//! - Per bank: a single-pumped replicate has one write and one read port; a double-pumped one
//!   has four ports of which up to three are read ports. Stores go to every replicate; reads are
//!   spread over replicates. The configuration with fewer replicates wins (single pump on a tie);
//!   more than three stores to one bank cannot be stall-free: the accesses are arbitrated.
//! - Private copies: 2 in an NDRange kernel with barriers whose accesses to the memory are not
//!   inside pipelined loops (two work-groups in flight), otherwise 1.
//! - Arbitration: every bank that is not stall-free is recorded as an [`ArbitratedBank`]: one
//!   replicate whose physical ports (2, or 4 with `doublepump`) an arbiter hands out to the
//!   bank's access sites, with the instances (unrolled copies) of each site on the bank and the
//!   pipelined loop that issues it. The timing model derives the arbitration stalls from it
//!   (`device-model/src/timing/local.rs`, rules L1-L4).

use super::engine::{AKind, AccessInst, Engine};
use super::loops::object_name;
use super::value::Base;
use super::*;
use crate::ir::{AddrSpace, LoopId, SiteId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A bank of a local memory whose accesses need more ports per cycle than a stall-free
/// configuration provides: an arbiter shares the bank's physical ports among them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArbitratedBank {
    pub bank: u32,
    /// Physical ports the arbiter hands out per kernel cycle: an arbitrated bank is one
    /// replicate with 2 ports (an M20K), 4 when `doublepump` is requested.
    pub ports: u32,
    /// The access sites that use the bank.
    pub sites: Vec<BankSite>,
}

/// How one access site uses an arbitrated bank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankSite {
    pub site: SiteId,
    /// Instances (unrolled copies) of the site on this bank.
    pub instances: u32,
    /// Instances of the site on all banks of the memory (its executions are spread over them).
    pub site_instances: u32,
    /// Ports one access takes: 1 (load or store), 2 (atomic: a read and a write).
    pub ports_per_access: u32,
    /// The innermost pipelined loop that issues the site (`None`: kernel level).
    pub driver: Option<LoopId>,
    /// Where the access is written (reports list the lines of an arbitrated bank from it).
    #[serde(default)]
    pub loc: crate::source::Loc,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Port configuration of one bank: (stall-free, pump, replicates).
pub fn port_config(writes: u32, reads: u32) -> (bool, u8, u32) {
    if writes <= 1 && reads <= 1 {
        return (true, 1, 1);
    }
    let single = (writes <= 1).then(|| reads.max(1));
    let double = (writes <= 3).then(|| {
        let per = (4 - writes).min(3);
        reads.div_ceil(per).max(1)
    });
    match (single, double) {
        (Some(s), Some(d)) if d < s => (true, 2, d),
        (Some(s), _) => (true, 1, s),
        (None, Some(d)) => (true, 2, d),
        (None, None) => (false, 1, 1),
    }
}

/// Analyses the kernel's local memories. Returns them and, per site, (memory index,
/// stall-free).
pub fn analyze(e: &Engine) -> (Vec<LocalMemReport>, BTreeMap<SiteId, (usize, bool)>) {
    let mut objs: BTreeMap<(u8, Option<Base>), Vec<&AccessInst>> = BTreeMap::new();
    for r in &e.records {
        let local = r.space == AddrSpace::Local;
        if !(local || r.private_ram)
            || !matches!(r.kind, AKind::Load | AKind::Store | AKind::Atomic)
        {
            continue;
        }
        objs.entry((local as u8, r.base)).or_default().push(r);
    }
    let mut out = Vec::new();
    let mut site_map = BTreeMap::new();
    for ((local, base), insts) in objs {
        let var = match base {
            Some(Base::Local(o)) | Some(Base::Frame(o)) => {
                e.f.mem_vars.iter().find(|v| v.offset == o)
            }
            _ => None,
        };
        let elem = var
            .map(|v| v.elem_size)
            .filter(|&s| s > 0)
            .unwrap_or_else(|| insts.iter().map(|i| i.width).min().unwrap_or(4))
            .max(1) as i64;
        // Banking.
        let known = insts.iter().all(|i| i.aff.is_some() && !i.ld);
        let mut banks: i64 = 1;
        if known {
            let g = insts
                .iter()
                .flat_map(|i| i.aff.as_ref().map(|a| a.terms.clone()).unwrap_or_default())
                .fold(0, |g, (_, c)| gcd(g, c));
            let forced = var.and_then(|v| v.numbanks).map(|n| n as i64);
            let lowest = var.and_then(|v| v.dims.last().copied()).map(|d| d as i64);
            let cand = match forced {
                Some(n) => n,
                None => {
                    let mut nb = if g == 0 { 1 } else { g / elem };
                    if let Some(d) = lowest {
                        if d > 0 && nb > d {
                            nb = d;
                        }
                    }
                    nb
                }
            };
            if cand > 1 && (cand as u64).is_power_of_two() && (g == 0 || g % (cand * elem) == 0) {
                let used: std::collections::BTreeSet<i64> = insts
                    .iter()
                    .filter_map(|i| i.aff.as_ref())
                    .map(|a| (a.c.rem_euclid(cand * elem)) / elem)
                    .collect();
                if used.len() > 1 || forced.is_some() {
                    banks = cand;
                }
            }
        }
        let bank_of = |i: &AccessInst| -> Option<i64> {
            if banks == 1 {
                return Some(0);
            }
            i.aff
                .as_ref()
                .map(|a| (a.c.rem_euclid(banks * elem)) / elem)
        };
        let mut stall_free = true;
        let mut pump = 1u8;
        let mut reps = 1u32;
        let (mut rp, mut wp) = (0u32, 0u32);
        let forced_single = var.and_then(|v| v.pump) == Some(1);
        let arb_ports = if var.and_then(|v| v.pump) == Some(2) {
            4
        } else {
            2
        };
        let mut arbitrated = Vec::new();
        for b in 0..banks {
            let mut w = 0;
            let mut r = 0;
            for i in &insts {
                if bank_of(i).is_none_or(|x| x == b) {
                    match i.kind {
                        AKind::Load => r += 1,
                        AKind::Store => w += 1,
                        _ => {
                            r += 1;
                            w += 1;
                        }
                    }
                }
            }
            let (ok, p, n) = port_config(w, r);
            if !ok || (forced_single && p == 2) {
                arbitrated.push(arbitrated_bank(&insts, b, arb_ports, &bank_of));
            }
            stall_free &= ok;
            pump = pump.max(p);
            reps = reps.max(n);
            rp += r;
            wp += w;
        }
        if var.and_then(|v| v.pump) == Some(1) && pump == 2 {
            stall_free = false;
            pump = 1;
        }
        let ndrange = e.kind() == KernelKind::NdRange;
        let copies = if ndrange && e.f.uses_barrier && insts.iter().all(|i| i.driver.is_none()) {
            2
        } else {
            1
        };
        let size = var.map(|v| v.size).unwrap_or(0);
        let idx = out.len();
        let mut sites: Vec<SiteId> = insts.iter().filter_map(|i| i.site).collect();
        sites.sort();
        sites.dedup();
        for s in &sites {
            site_map.insert(*s, (idx, stall_free));
        }
        out.push(LocalMemReport {
            name: object_name(e, base),
            space: if local == 1 {
                AddrSpace::Local
            } else {
                AddrSpace::Private
            },
            loc: var.map(|v| v.loc),
            size,
            banks: banks as u32,
            bank_width: elem as u32,
            replicates: reps,
            pump,
            private_copies: copies,
            read_ports: rp,
            write_ports: wp,
            stall_free,
            implemented_bytes: copies as u64 * reps as u64 * size as u64,
            sites,
            arbitrated_banks: arbitrated,
        });
    }
    (out, site_map)
}

/// The sites of bank `b` (instances counted per site), for a bank that is not stall-free.
fn arbitrated_bank(
    insts: &[&AccessInst],
    b: i64,
    ports: u32,
    bank_of: &dyn Fn(&AccessInst) -> Option<i64>,
) -> ArbitratedBank {
    let mut sites: BTreeMap<SiteId, BankSite> = BTreeMap::new();
    for i in insts {
        let Some(site) = i.site else { continue };
        let e = sites.entry(site).or_insert(BankSite {
            site,
            instances: 0,
            site_instances: 0,
            ports_per_access: if i.kind == AKind::Atomic { 2 } else { 1 },
            driver: i.driver,
            loc: i.loc,
        });
        e.site_instances += 1;
        if bank_of(i).is_none_or(|x| x == b) {
            e.instances += 1;
        }
    }
    ArbitratedBank {
        bank: b as u32,
        ports,
        sites: sites.into_values().filter(|s| s.instances > 0).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::port_config;

    #[test]
    fn ports_follow_the_local_memory_chapter() {
        // One write, one read: a plain single-pumped RAM.
        assert_eq!(port_config(1, 1), (true, 1, 1));
        // One write, eight reads: double pumped, three replicates (nine read ports).
        assert_eq!(port_config(1, 8), (true, 2, 3));
        // Three writes, three reads: double pumped, three replicates.
        assert_eq!(port_config(3, 3), (true, 2, 3));
        // One write, two reads (never-stall example): one double-pumped replicate.
        assert_eq!(port_config(1, 2), (true, 2, 1));
        // Four writes cannot be served without arbitration.
        assert!(!port_config(4, 4).0);
    }
}
