//! Channels, pipes, autorun kernels and deadlock diagnosis with hand-built IR.

mod common;
use common::*;
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::ir::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Emits `for (i = 0; i < n; i++) body(i)` and leaves the builder after the loop.
fn counted_loop(b: &mut FnB, n: Reg, body: impl FnOnce(&mut FnB, Reg)) {
    let i = b.int(0);
    let header = b.block();
    let bb = b.block();
    let exit = b.block();
    b.jump(header);
    b.switch_to(header);
    let c = b.cmp(CmpOp::Lt, I32, i, n);
    b.branch(c, bb, exit);
    b.switch_to(bb);
    body(b, i);
    let one = b.int(1);
    let i2 = b.bin(BinOp::Add, I32, i, one);
    b.push(Inst::Mov {
        dst: i,
        src: i2,
        lanes: 1,
    });
    b.jump(header);
    b.switch_to(exit);
    let id = LoopId(b.f.loops.len() as u32);
    b.f.loops.push(LoopInfo {
        id,
        kind: LoopKind::For,
        loc: loc(b.line),
        header,
        parent: None,
        pragmas: LoopPragmas::default(),
        const_trip_count: None,
    });
    b.f.blocks[header.0 as usize].loop_header = Some(id);
    for (k, blk) in b.f.blocks.iter_mut().enumerate() {
        if k >= header.0 as usize && k != exit.0 as usize {
            blk.in_loop = Some(id);
        }
    }
}

fn frame_slot(b: &mut FnB) -> Reg {
    let off = b.f.frame_size;
    b.f.frame_size += 8;
    let r = b.reg(1);
    b.push(Inst::FrameAddr {
        dst: r,
        offset: off,
    });
    r
}

/// producer(n): for i < n: write(ep, i * 3)
fn producer(mb: &mut ModB, name: &str, ep: impl Fn(&mut FnB) -> Endpoint) -> u32 {
    let k = mb.m.kernels.len() as u32;
    let site = mb.site(k, SiteKind::ChannelWrite, AddrSpace::Global, "c", 20);
    let mut b = FnB::new(name);
    b.f.single_work_item = true;
    let n = b.arg_value("n", I32);
    let e = ep(&mut b);
    let slot = frame_slot(&mut b);
    counted_loop(&mut b, n, |b, i| {
        let three = b.int(3);
        let v = b.bin(BinOp::Mul, I32, i, three);
        b.store(I32, v, slot, AddrSpace::Private, None);
        b.at(20);
        b.push(Inst::FifoWrite {
            ep: e,
            src_ptr: slot,
            bytes: 4,
            blocking: true,
            status: None,
            site,
        });
    });
    mb.kernel(b.finish())
}

/// consumer(out, n): for i < n: out[i] = read(ep)   (non-blocking: retry until valid)
fn consumer(mb: &mut ModB, name: &str, blocking: bool, ep: impl Fn(&mut FnB) -> Endpoint) -> u32 {
    let k = mb.m.kernels.len() as u32;
    let site = mb.site(k, SiteKind::ChannelRead, AddrSpace::Global, "c", 30);
    let mut b = FnB::new(name);
    b.f.single_work_item = true;
    let out = b.arg_buffer("out", 4);
    let n = b.arg_value("n", I32);
    let e = ep(&mut b);
    let slot = frame_slot(&mut b);
    counted_loop(&mut b, n, |b, i| {
        b.at(30);
        if blocking {
            b.push(Inst::FifoRead {
                ep: e,
                dst_ptr: slot,
                bytes: 4,
                blocking: true,
                status: None,
                site,
            });
        } else {
            let ok = b.reg(1);
            let retry = b.block();
            let done = b.block();
            b.jump(retry);
            b.switch_to(retry);
            b.push(Inst::FifoRead {
                ep: e,
                dst_ptr: slot,
                bytes: 4,
                blocking: false,
                status: Some(ok),
                site,
            });
            b.branch(ok, done, retry);
            b.switch_to(done);
        }
        let v = b.load(I32, slot, AddrSpace::Private, None);
        let p = b.index(out, i, 4);
        b.store(I32, v, p, AddrSpace::Global, None);
    });
    mb.kernel(b.finish())
}

/// Polls `cond` until it holds (panics after 10 s: the machine may be heavily loaded).
fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let t0 = Instant::now();
    while !cond() {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn n_arg(n: i32) -> ArgBinding {
    ArgBinding::Value(n.to_le_bytes().to_vec())
}

fn run_pair(depth: u32, blocking_reader: bool, n: i32) -> (Vec<i32>, RunReport) {
    let mut mb = ModB::new();
    let ch = mb.channel("c", 4, depth, vec![]);
    let ep = move |_: &mut FnB| Endpoint::Channel {
        id: ch,
        index: None,
    };
    let kp = producer(&mut mb, "producer", ep);
    let kc = consumer(&mut mb, "consumer", blocking_reader, ep);
    let (inst, _) = mb.instance(2);
    let inst = Arc::new(inst);
    let out = buf_from(&vec![0i32; n as usize]);
    // consumer first, on its own thread
    let i2 = inst.clone();
    let o2 = out.clone();
    let cons = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![ArgBinding::buffer(&o2), n_arg(n)],
        ))
    });
    // let the consumer run (and, if non-blocking, poll the empty channel) before producing
    let t0 = Instant::now();
    while inst.activity().report().kernels.is_empty() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::yield_now();
    }
    std::thread::sleep(Duration::from_millis(100));
    inst.run(&LaunchSpec::task(kp, vec![n_arg(n)])).unwrap();
    let r = cons.join().unwrap().unwrap();
    (read_vec::<i32>(&out, n as usize), r)
}

#[test]
fn producer_consumer_depths_0_1_8() {
    for depth in [0, 1, 8] {
        let (v, r) = run_pair(depth, true, 500);
        assert_eq!(
            v,
            (0..500).map(|i| i * 3).collect::<Vec<_>>(),
            "depth {depth}"
        );
        assert_eq!(r.counters.sites[1].fires, 500);
        assert_eq!(r.counters.sites[1].bytes, 2000);
    }
}

#[test]
fn non_blocking_reads_report_validity() {
    let (v, r) = run_pair(4, false, 300);
    assert_eq!(v, (0..300).map(|i| i * 3).collect::<Vec<_>>());
    assert_eq!(r.counters.sites[1].fires, 300);
    // the consumer started 20 ms before the producer: it must have seen empty reads
    assert!(r.counters.sites[1].failed > 0);
}

#[test]
fn rendezvous_write_blocks_until_read() {
    let mut mb = ModB::new();
    let ch = mb.channel("c", 4, 0, vec![]);
    let ep = move |_: &mut FnB| Endpoint::Channel {
        id: ch,
        index: None,
    };
    let kp = producer(&mut mb, "producer", ep);
    let kc = consumer(&mut mb, "consumer", true, ep);
    let (inst, _) = mb.instance(1);
    let inst = Arc::new(inst);
    let i2 = inst.clone();
    let prod = std::thread::spawn(move || i2.run(&LaunchSpec::task(kp, vec![n_arg(1)])));
    wait_until("the producer to block", || {
        inst.activity()
            .report()
            .kernels
            .iter()
            .any(|k| k.blocked.is_some())
    });
    std::thread::sleep(Duration::from_millis(30));
    assert!(
        !prod.is_finished(),
        "a depth-0 write completes only when read"
    );
    let rep = inst.activity().report();
    let p = rep.kernels.iter().find(|k| k.kernel == "producer").unwrap();
    let b = p.blocked.as_ref().expect("producer is blocked");
    assert!(b.write && b.fifo == "c");
    assert_eq!(b.pos.as_ref().unwrap().line, 20);
    let out = buf_from(&[0i32; 1]);
    inst.run(&LaunchSpec::task(
        kc,
        vec![ArgBinding::buffer(&out), n_arg(1)],
    ))
    .unwrap();
    let r = prod.join().unwrap().unwrap();
    assert_eq!(r.counters.sites[0].blocked, 1);
}

#[test]
fn channel_arrays_and_pipes() {
    // producer writes to c[k] selected by an argument; consumer reads c[k]; and the same
    // through a pipe object bound to both kernels.
    let mut mb = ModB::new();
    let ch = mb.channel("c", 4, 2, vec![2, 3]);
    let sel = |b: &mut FnB| {
        let r = b.int(4); // c[1][1]
        Endpoint::Channel {
            id: ch,
            index: Some(r),
        }
    };
    let kp = producer(&mut mb, "producer", sel);
    let kc = consumer(&mut mb, "consumer", true, sel);
    let pipe_w = |b: &mut FnB| Endpoint::Pipe {
        arg: b.arg_pipe("p", 4, true),
    };
    let pipe_r = |b: &mut FnB| Endpoint::Pipe {
        arg: b.arg_pipe("p", 4, false),
    };
    let kpp = producer(&mut mb, "pipe_producer", pipe_w);
    let kpc = consumer(&mut mb, "pipe_consumer", true, pipe_r);
    let (inst, _) = mb.instance(1);
    assert_eq!(inst.channels().len(), 6);
    assert_eq!(inst.channels()[4].name(), "c[1][1]");
    let inst = Arc::new(inst);
    let out = buf_from(&[0i32; 50]);
    let (i2, o2) = (inst.clone(), out.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![ArgBinding::buffer(&o2), n_arg(50)],
        ))
    });
    inst.run(&LaunchSpec::task(kp, vec![n_arg(50)])).unwrap();
    t.join().unwrap().unwrap();
    assert_eq!(
        read_vec::<i32>(&out, 50),
        (0..50).map(|i| i * 3).collect::<Vec<_>>()
    );
    assert_eq!(inst.channels()[4].len(), 0);

    let pipe = Arc::new(PipeFifo::new("p", 4, 16));
    let out = buf_from(&[0i32; 40]);
    let (i2, o2, p2) = (inst.clone(), out.clone(), pipe.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kpc,
            vec![ArgBinding::buffer(&o2), n_arg(40), ArgBinding::Pipe(p2)],
        ))
    });
    inst.run(&LaunchSpec::task(
        kpp,
        vec![n_arg(40), ArgBinding::Pipe(pipe.clone())],
    ))
    .unwrap();
    t.join().unwrap().unwrap();
    assert_eq!(
        read_vec::<i32>(&out, 40),
        (0..40).map(|i| i * 3).collect::<Vec<_>>()
    );
    // wrong packet size is a launch error
    let bad = Arc::new(PipeFifo::new("q", 8, 4));
    let e = inst
        .run(&LaunchSpec::task(
            kpp,
            vec![n_arg(1), ArgBinding::Pipe(bad)],
        ))
        .unwrap_err();
    assert!(
        matches!(e, RunError::Launch(LaunchError::Arg { index: 1, .. })),
        "{e}"
    );
}

#[test]
fn channel_index_out_of_range_faults() {
    let mut mb = ModB::new();
    let ch = mb.channel("c", 4, 2, vec![4]);
    let kp = producer(&mut mb, "producer", |b: &mut FnB| {
        let r = b.int(4);
        Endpoint::Channel {
            id: ch,
            index: Some(r),
        }
    });
    let (inst, _) = mb.instance(1);
    match inst.run(&LaunchSpec::task(kp, vec![n_arg(1)])) {
        Err(RunError::Fault(f)) => assert!(
            matches!(
                f.kind,
                FaultKind::ChannelIndex {
                    index: 4,
                    count: 4,
                    ..
                }
            ),
            "{f}"
        ),
        r => panic!("{r:?}"),
    }
}

#[test]
fn deadlock_is_diagnosed_and_aborted() {
    let mut mb = ModB::new();
    let ch = mb.channel("lonely", 4, 4, vec![]);
    let kc = consumer(&mut mb, "consumer", true, move |_: &mut FnB| {
        Endpoint::Channel {
            id: ch,
            index: None,
        }
    });
    let (inst, _) = mb.instance(1);
    let inst = Arc::new(inst);
    let out = buf_from(&[0i32; 4]);
    let (i2, o2) = (inst.clone(), out.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![ArgBinding::buffer(&o2), n_arg(4)],
        ))
    });
    // what a runtime wait loop does: two samples, all blocked, no progress -> abort
    let act = inst.activity().clone();
    let start = Instant::now();
    let mut last: Option<u64> = None;
    let aborted = loop {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "never saw the deadlock"
        );
        std::thread::sleep(Duration::from_millis(30));
        let rep = act.report();
        if rep.all_enqueued_blocked() {
            if last == Some(rep.progress) {
                break act.abort_blocked();
            }
            last = Some(rep.progress);
        } else {
            last = None;
        }
    };
    assert_eq!(aborted.len(), 1);
    let text = aborted[0].to_string();
    assert!(
        text.contains("consumer") && text.contains("lonely") && text.contains("test.cl:30"),
        "{text}"
    );
    match t.join().unwrap() {
        Err(RunError::Fault(f)) => {
            assert_eq!(
                f.kind,
                FaultKind::Deadlock {
                    fifo: "lonely".into(),
                    write: false
                }
            );
            assert_eq!(f.pos.unwrap().line, 30);
        }
        r => panic!("{r:?}"),
    }
    assert!(act.report().kernels.is_empty());
}

/// autorun: forever { x = read(in); write(out, x + 1000) }, with 2 compute units that add
/// 1000 * (compute_id + 1) on their own channel pair.
fn autorun_module() -> (ModB, u32, u32) {
    let mut mb = ModB::new();
    let cin = mb.channel("to_auto", 4, 4, vec![2]);
    let cout = mb.channel("from_auto", 4, 4, vec![2]);
    let k = mb.m.kernels.len() as u32;
    let rs = mb.site(k, SiteKind::ChannelRead, AddrSpace::Global, "to_auto", 40);
    let ws = mb.site(
        k,
        SiteKind::ChannelWrite,
        AddrSpace::Global,
        "from_auto",
        41,
    );
    let mut b = FnB::new("auto");
    b.f.attrs.autorun = true;
    b.f.attrs.max_global_work_dim = Some(0);
    b.f.attrs.num_compute_units = [2, 1, 1];
    b.f.single_work_item = true;
    let slot = frame_slot(&mut b);
    let cid = b.wi(WorkItemFn::ComputeId, 0);
    let one = b.long(1);
    let cid1 = b.bin(BinOp::Add, U64, cid, one);
    let thousand = b.long(1000);
    let add = b.bin(BinOp::Mul, U64, cid1, thousand);
    let add32 = b.reg(1);
    b.push(Inst::Convert {
        from: U64,
        to: I32,
        sat: false,
        rounding: Rounding::Default,
        dst: add32,
        src: add,
    });
    let header = b.block();
    b.jump(header);
    b.switch_to(header);
    b.push(Inst::FifoRead {
        ep: Endpoint::Channel {
            id: cin,
            index: Some(cid),
        },
        dst_ptr: slot,
        bytes: 4,
        blocking: true,
        status: None,
        site: rs,
    });
    let v = b.load(I32, slot, AddrSpace::Private, None);
    let v2 = b.bin(BinOp::Add, I32, v, add32);
    b.store(I32, v2, slot, AddrSpace::Private, None);
    b.push(Inst::FifoWrite {
        ep: Endpoint::Channel {
            id: cout,
            index: Some(cid),
        },
        src_ptr: slot,
        bytes: 4,
        blocking: true,
        status: None,
        site: ws,
    });
    b.jump(header);
    mb.kernel(b.finish());
    let kp = producer(&mut mb, "feed", move |b: &mut FnB| {
        let r = b.arg_value("cu", I32);
        Endpoint::Channel {
            id: cin,
            index: Some(r),
        }
    });
    let kc = consumer(&mut mb, "drain", true, move |b: &mut FnB| {
        let r = b.arg_value("cu", I32);
        Endpoint::Channel {
            id: cout,
            index: Some(r),
        }
    });
    (mb, kp, kc)
}

#[test]
fn autorun_kernels_run_per_compute_unit_and_stop_on_shutdown() {
    let (mb, kp, kc) = autorun_module();
    let (inst, _) = mb.instance(1);
    let inst = Arc::new(inst);
    let st = inst.autorun_status();
    assert_eq!(st.len(), 2);
    assert_eq!(st[1].compute_id, [1, 0, 0]);
    for cu in 0..2i32 {
        let out = buf_from(&[0i32; 20]);
        let (i2, o2) = (inst.clone(), out.clone());
        let t = std::thread::spawn(move || {
            i2.run(&LaunchSpec::task(
                kc,
                vec![ArgBinding::buffer(&o2), n_arg(20), n_arg(cu)],
            ))
        });
        inst.run(&LaunchSpec::task(kp, vec![n_arg(20), n_arg(cu)]))
            .unwrap();
        t.join().unwrap().unwrap();
        let expect: Vec<i32> = (0..20).map(|i| i * 3 + 1000 * (cu + 1)).collect();
        assert_eq!(read_vec::<i32>(&out, 20), expect, "compute unit {cu}");
    }
    // live counters of the autorun instances
    let st = inst.autorun_status();
    let auto_read = |s: &AutorunStatus| s.counters.sites[0].fires;
    assert_eq!(auto_read(&st[0]), 20);
    assert_eq!(auto_read(&st[1]), 20);
    assert!(st.iter().all(|s| s.fault.is_none() && s.runs == 0));
    // autorun kernels are reported as running (blocked reading) but are not aborted
    let act = inst.activity().clone();
    wait_until("both autorun kernels to block", || {
        act.report()
            .kernels
            .iter()
            .filter(|k| k.autorun && k.blocked.is_some())
            .count()
            == 2
    });
    let rep = act.report();
    assert_eq!(
        rep.kernels
            .iter()
            .filter(|k| k.autorun && k.blocked.is_some())
            .count(),
        2
    );
    assert!(!rep.all_enqueued_blocked());
    assert!(act.abort_blocked().is_empty());
    assert!(matches!(
        inst.run(&LaunchSpec::task(0, vec![])),
        Err(RunError::Launch(LaunchError::Autorun(_)))
    ));
    // shutdown: autorun threads leave, the registry empties
    inst.shutdown();
    let t0 = Instant::now();
    while !act.report().kernels.is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(2),
            "autorun kernels did not stop"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(matches!(
        inst.run(&LaunchSpec::task(kp, vec![n_arg(1), n_arg(0)])),
        Err(RunError::Launch(LaunchError::ShutDown))
    ));
}

#[test]
fn shutdown_releases_blocked_enqueued_kernel() {
    let mut mb = ModB::new();
    let ch = mb.channel("c", 4, 1, vec![]);
    let kc = consumer(&mut mb, "consumer", true, move |_: &mut FnB| {
        Endpoint::Channel {
            id: ch,
            index: None,
        }
    });
    let (inst, _) = mb.instance(1);
    let inst = Arc::new(inst);
    let out = buf_from(&[0i32; 1]);
    let (i2, o2) = (inst.clone(), out.clone());
    let t = std::thread::spawn(move || {
        i2.run(&LaunchSpec::task(
            kc,
            vec![ArgBinding::buffer(&o2), n_arg(1)],
        ))
    });
    wait_until("the consumer to block", || {
        inst.activity()
            .report()
            .kernels
            .iter()
            .any(|k| k.blocked.is_some())
    });
    inst.shutdown();
    match t.join().unwrap() {
        Err(RunError::Fault(f)) => assert_eq!(f.kind, FaultKind::Shutdown),
        r => panic!("{r:?}"),
    }
}
