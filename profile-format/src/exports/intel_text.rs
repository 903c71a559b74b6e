//! Intel's text record layout, as the Intel FPGA runtime appends records to its `profile.mon`:
//! one comma-separated line per record, for users with tooling built on it.
//!
//! ```text
//! kernel run:      device,queue,kernel,start_ns,end_ns,shared_control,counter_count,c1,...,cN
//! snapshot:        device,queue,kernel,start_ns,0,shared_control,counter_count,c1,...,cN
//! autorun capture: device,0,kernel,0,capture_ns,shared_control,counter_count,c1,...,cN
//! memory transfer: device,queue,.mem_transfer_read|.mem_transfer_write|.mem_transfer_copy,start_ns,end_ns
//! ```
//!
//! As in Intel's runtime: transfers carry no shared-control field and no counters; a snapshot
//! of a running kernel has end time 0; an autorun capture has queue 0 and starts at the
//! autorun start (fpgacl: host start, 0). `shared_control` is always `-1` (Intel's "shared
//! counters off": every counter is read in one pass).
//!
//! Counters: Intel's hardware counter words are board specific; fpgacl writes 13 counters per
//! access site, sites in ascending id order, each group in this order: fired, stall,
//! predicated, active cycles, requests, bytes requested, bytes fetched, bursts, burst bytes,
//! max burst bytes, cache hits, cache misses, unaligned requests. `counter_count` is
//! 13 x sites. Kernel names never contain commas (OpenCL identifiers); any comma in a name is
//! replaced by `_` and any control character (newline, ESC, ...) is escaped as `\u00XX`
//! ([`crate::terminal_safe`]) to keep one record per line and the terminal safe.

use std::io::{self, BufWriter, Write};

use crate::model::{Record, SiteCounters, TransferDirection};
use crate::Profile;

/// Value written in the shared-control column.
pub const SHARED_CONTROL_OFF: i32 = -1;
/// Counters written per access site.
pub const COUNTERS_PER_SITE: usize = 13;

/// A name as one field: the record separators (comma, line breaks) become `_`, then every
/// other control character is escaped for the terminal.
fn clean(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains([',', '\n', '\r']) {
        let fields = name.replace([',', '\n', '\r'], "_");
        std::borrow::Cow::Owned(crate::terminal_safe::escape_controls(&fields).into_owned())
    } else {
        crate::terminal_safe::escape_controls(name)
    }
}

/// The counters of one site, in the documented column order.
pub fn site_columns(s: &SiteCounters) -> [u64; COUNTERS_PER_SITE] {
    [
        s.fired_cycles,
        s.stall_cycles,
        s.predicated_cycles,
        s.active_cycles,
        s.requests,
        s.bytes_requested,
        s.bytes_fetched,
        s.bursts,
        s.burst_bytes,
        s.max_burst_bytes,
        s.cache_hits,
        s.cache_misses,
        s.unaligned_requests,
    ]
}

/// Writes `,` and `v` in decimal (without the formatting machinery: a 1M-record export writes
/// tens of millions of numbers).
fn put_comma_u64<W: Write>(w: &mut W, mut v: u64) -> io::Result<()> {
    let mut buf = [0u8; 21];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    i -= 1;
    buf[i] = b',';
    w.write_all(&buf[i..])
}

fn write_counters<W: Write>(w: &mut W, sites: &[SiteCounters]) -> io::Result<()> {
    write!(w, ",{SHARED_CONTROL_OFF}")?;
    put_comma_u64(w, (sites.len() * COUNTERS_PER_SITE) as u64)?;
    let sorted = sites.windows(2).all(|p| p[0].site <= p[1].site);
    let mut order: Vec<&SiteCounters>;
    let iter: &mut dyn Iterator<Item = &SiteCounters> = if sorted {
        &mut sites.iter()
    } else {
        order = sites.iter().collect();
        order.sort_by_key(|s| s.site);
        &mut order.into_iter()
    };
    for s in iter {
        for c in site_columns(s) {
            put_comma_u64(w, c)?;
        }
    }
    Ok(())
}

/// Writes one line per record, in file order.
pub fn write_intel_text<W: Write>(p: &Profile, out: W) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    for r in &p.records {
        match r {
            Record::KernelRun(k) => {
                write!(
                    w,
                    "{},{},{},{},{}",
                    k.device,
                    k.queue,
                    clean(&k.kernel),
                    k.start_ns,
                    k.end_ns
                )?;
                write_counters(&mut w, &k.sites)?;
            }
            Record::Snapshot(s) => {
                let k = &s.run;
                write!(
                    w,
                    "{},{},{},{},0",
                    k.device,
                    k.queue,
                    clean(&k.kernel),
                    k.start_ns
                )?;
                write_counters(&mut w, &k.sites)?;
            }
            // Intel's runtime has no such line.
            Record::OutOfBounds(_) | Record::HostGap(_) => continue,
            Record::AutorunCapture(c) => {
                write!(w, "{},0,{},0,{}", c.device, clean(&c.kernel), c.capture_ns)?;
                write_counters(&mut w, &c.sites)?;
            }
            Record::MemTransfer(t) => {
                let name = match t.direction {
                    TransferDirection::Read => ".mem_transfer_read",
                    TransferDirection::Write => ".mem_transfer_write",
                    TransferDirection::Copy => ".mem_transfer_copy",
                };
                write!(
                    w,
                    "{},{},{},{},{}",
                    t.device, t.queue, name, t.start_ns, t.end_ns
                )?;
            }
        }
        w.write_all(b"\n")?;
    }
    w.flush()
}
