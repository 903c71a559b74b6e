//! `printf` output of one launch, written line by line in a deterministic order.
//!
//! The work-items of a work-group run in a fixed order on one worker (all of an item before the
//! next, or in barrier rounds), so the lines of a group come out in a fixed order. Groups run
//! on several workers at once: their output goes out in group order. The *head* group (the
//! lowest group not finished yet) writes each batch of completed lines as soon as it has it;
//! the other groups hold theirs until every group before them has finished. Memory stays
//! bounded: a group that holds more than [`HELD_PER_GROUP`] bytes, or finds more than
//! [`HELD_TOTAL`] held by all groups, waits until it becomes the head (the head's worker never
//! waits, so some worker always makes progress). A launch that faults in group g calls
//! [`PrintfStream::stop_after`]: groups after g print nothing (waiting ones go on), groups
//! before g print as usual, so the output is what one worker prints up to the fault.
//! [`PrintfStream::stop`] drops every non-head group's further output instead.

use parking_lot::{Condvar, Mutex};
use std::collections::BTreeMap;
use std::time::Duration;

/// Bytes a non-head group may hold before it waits for its turn.
pub const HELD_PER_GROUP: usize = 4 << 20;
/// Bytes all non-head groups may hold together before the next one to print waits.
pub const HELD_TOTAL: usize = 64 << 20;

#[derive(Default)]
struct Held {
    bytes: Vec<u8>,
    done: bool,
}

#[derive(Default)]
struct State {
    /// The lowest group that has not finished: its output is written at once.
    head: u64,
    /// Output of later groups (and whether they finished), by group.
    held: BTreeMap<u64, Held>,
    held_bytes: usize,
    stopped: bool,
    /// The launch faulted in this group ([`PrintfStream::stop_after`]): output of later
    /// groups is dropped, as a run on one worker would never have run them.
    cut: Option<u64>,
}

/// The ordered `printf` output of one launch (see the module documentation).
pub struct PrintfStream<'a> {
    sink: &'a (dyn Fn(&[u8]) + Sync),
    st: Mutex<State>,
    turn: Condvar,
}

impl<'a> PrintfStream<'a> {
    pub fn new(sink: &'a (dyn Fn(&[u8]) + Sync)) -> Self {
        PrintfStream {
            sink,
            st: Mutex::new(State::default()),
            turn: Condvar::new(),
        }
    }

    /// Completed lines of group `g`: written now if `g` is the head, else held (waiting for
    /// the head to reach `g` when too much is held already).
    pub fn emit(&self, g: u64, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut st = self.st.lock();
        loop {
            if st.cut.is_some_and(|c| g > c) {
                return;
            }
            if g == st.head {
                (self.sink)(bytes);
                return;
            }
            if st.stopped {
                return;
            }
            let mine = st.held.get(&g).map_or(0, |h| h.bytes.len());
            if mine + bytes.len() <= HELD_PER_GROUP && st.held_bytes + bytes.len() <= HELD_TOTAL {
                st.held.entry(g).or_default().bytes.extend_from_slice(bytes);
                st.held_bytes += bytes.len();
                return;
            }
            // Bounded wait so a stop request is seen even without a notification.
            self.turn.wait_for(&mut st, Duration::from_millis(50));
        }
    }

    /// Group `g` has finished (its last bytes were emitted before).
    pub fn finish(&self, g: u64) {
        let mut st = self.st.lock();
        if g != st.head {
            st.held.entry(g).or_default().done = true;
            return;
        }
        st.head += 1;
        // Later groups become the head in turn: their held output goes out now.
        loop {
            let head = st.head;
            let Some(h) = st.held.remove(&head) else {
                break;
            };
            st.held_bytes -= h.bytes.len();
            if !h.bytes.is_empty() && st.cut.is_none_or(|c| head <= c) {
                (self.sink)(&h.bytes);
            }
            if !h.done {
                break;
            }
            st.head += 1;
        }
        drop(st);
        self.turn.notify_all();
    }

    /// The launch stopped early (a fault): waiting workers go on; later output of groups that
    /// are not the head is dropped.
    pub fn stop(&self) {
        self.st.lock().stopped = true;
        self.turn.notify_all();
    }

    /// Group `g` faulted: groups after it print nothing more (their held output is dropped
    /// and waiting ones go on), groups before it print as usual. Called before `g` finishes,
    /// so no later group can have become the head; several calls keep the lowest group. The
    /// output is then what one worker running the groups in order prints up to the fault.
    pub fn stop_after(&self, g: u64) {
        let mut st = self.st.lock();
        st.cut = Some(st.cut.map_or(g, |c| c.min(g)));
        drop(st);
        self.turn.notify_all();
    }

    /// At the end of the launch: whatever is still held (groups after a fault), in group order
    /// (none after the group of [`PrintfStream::stop_after`]).
    pub fn finish_all(&self) {
        let mut st = self.st.lock();
        let held = std::mem::take(&mut st.held);
        let cut = st.cut;
        st.held_bytes = 0;
        for (g, h) in held {
            if !h.bytes.is_empty() && cut.is_none_or(|c| g <= c) {
                (self.sink)(&h.bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as StdMutex;

    #[test]
    fn later_groups_wait_for_earlier_ones() {
        let out = StdMutex::new(Vec::<u8>::new());
        let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
        let s = PrintfStream::new(&sink);
        s.emit(2, b"g2a\n");
        s.emit(0, b"g0a\n");
        s.emit(1, b"g1a\n");
        s.finish(2);
        assert_eq!(out.lock().unwrap().as_slice(), b"g0a\n");
        s.emit(1, b"g1b\n");
        s.finish(0);
        // Group 1 is the head now: its held line went out, the next goes out at once.
        assert_eq!(out.lock().unwrap().as_slice(), b"g0a\ng1a\ng1b\n");
        s.emit(1, b"g1c\n");
        assert_eq!(out.lock().unwrap().as_slice(), b"g0a\ng1a\ng1b\ng1c\n");
        s.finish(1);
        assert_eq!(out.lock().unwrap().as_slice(), b"g0a\ng1a\ng1b\ng1c\ng2a\n");
        // Group 2 had finished: group 3 is the head and writes at once.
        s.emit(3, b"g3\n");
        assert!(out.lock().unwrap().ends_with(b"g2a\ng3\n"));
    }

    #[test]
    fn a_group_over_its_share_waits_for_its_turn() {
        let out = StdMutex::new(Vec::<u8>::new());
        let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
        let s = PrintfStream::new(&sink);
        let big = vec![b'x'; HELD_PER_GROUP];
        std::thread::scope(|sc| {
            sc.spawn(|| {
                s.emit(1, &big);
                // Over the share: returns only once group 0 has finished.
                s.emit(1, b"\nlast\n");
                s.finish(1);
            });
            std::thread::sleep(Duration::from_millis(200));
            assert!(out.lock().unwrap().is_empty());
            s.emit(0, b"first\n");
            s.finish(0);
        });
        let o = out.lock().unwrap();
        assert!(o.starts_with(b"first\nxxx"));
        assert!(o.ends_with(b"x\nlast\n"));
        assert_eq!(o.len(), 6 + HELD_PER_GROUP + 6);
    }

    #[test]
    fn stop_releases_waiting_groups() {
        let out = StdMutex::new(Vec::<u8>::new());
        let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
        let s = PrintfStream::new(&sink);
        let big = vec![b'y'; HELD_PER_GROUP];
        std::thread::scope(|sc| {
            sc.spawn(|| {
                s.emit(1, &big);
                s.emit(1, b"dropped\n");
            });
            std::thread::sleep(Duration::from_millis(100));
            s.stop();
        });
        s.finish_all();
        assert_eq!(out.lock().unwrap().len(), HELD_PER_GROUP);
    }

    #[test]
    fn stop_after_keeps_earlier_groups_and_drops_later_ones() {
        let out = StdMutex::new(Vec::<u8>::new());
        let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
        let s = PrintfStream::new(&sink);
        s.emit(3, b"three\n");
        s.finish(3);
        s.emit(1, b"one\n");
        s.stop_after(2);
        s.stop_after(5);
        s.emit(4, b"four\n");
        s.emit(0, b"zero\n");
        s.finish(0);
        s.finish(1);
        s.emit(2, b"two\n");
        s.finish(2);
        s.finish_all();
        assert_eq!(&*out.lock().unwrap(), b"zero\none\ntwo\n");
    }
}
