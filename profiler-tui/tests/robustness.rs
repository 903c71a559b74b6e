//! Property test: random (but well-typed) profiles, including inconsistent ones (unknown
//! programs, sites and files, end before start, huge times and line numbers), random key and
//! mouse sequences and random terminal sizes never panic the profiler.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use fpgacl_profile_format::*;
use fpgacl_profiler_tui::{demo, text, ui, App, ReportData, Scope, Theme};
use proptest::prelude::*;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn counters() -> impl Strategy<Value = SiteCounters> {
    (0u32..12, any::<[u64; 6]>(), any::<bool>()).prop_map(|(site, v, small)| {
        let m = if small { 1_000 } else { u64::MAX };
        SiteCounters {
            site,
            fired_cycles: v[0] % m,
            stall_cycles: v[1] % m,
            predicated_cycles: v[2] % m,
            active_cycles: v[3] % m,
            requests: v[4] % m,
            bytes_requested: v[5] % m,
            bytes_fetched: v[0] % m,
            bursts: v[1] % 7,
            burst_bytes: v[2] % m,
            max_burst_bytes: v[3] % m,
            cache_hits: v[4] % 3,
            cache_misses: v[5] % 3,
            unaligned_requests: v[0] % 5,
        }
    })
}

fn time() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..10_000_000, any::<u64>()]
}

fn record() -> impl Strategy<Value = Record> {
    let kernel = prop::sample::select(vec!["vector_add", "producer", "consumer", "streamer", "x"]);
    prop_oneof![
        (
            kernel.clone(),
            0u32..3,
            time(),
            time(),
            0u64..3,
            prop::collection::vec(counters(), 0..6)
        )
            .prop_map(|(k, prog, s, e, q, sites)| {
                Record::KernelRun(KernelRun {
                    run_id: s % 7,
                    device: 0,
                    queue: q,
                    kernel: k.into(),
                    program: prog,
                    start_ns: s,
                    end_ns: e,
                    start_cycle: s,
                    end_cycle: e,
                    work_dim: (q as u32) * 2,
                    global_size: [s, 1, 0],
                    local_size: [0, 0, 0],
                    global_offset: [0, 0, 0],
                    sites,
                })
            }),
        (time(), time(), 0u8..3, any::<u64>()).prop_map(|(s, e, d, b)| {
            Record::MemTransfer(MemTransfer {
                device: 0,
                queue: 0,
                direction: [
                    TransferDirection::Read,
                    TransferDirection::Write,
                    TransferDirection::Copy,
                ][d as usize],
                bytes: b,
                start_ns: s,
                end_ns: e,
            })
        }),
        (
            kernel,
            time(),
            any::<bool>(),
            prop::collection::vec(counters(), 0..4)
        )
            .prop_map(|(k, t, cleared, sites)| {
                Record::AutorunCapture(AutorunCapture {
                    device: (t % 2) as u32,
                    kernel: k.into(),
                    program: 1,
                    compute_unit: [(t % 3) as u32, 0, 0],
                    capture_ns: t,
                    sites,
                    cleared,
                })
            }),
        (time(), prop::collection::vec(counters(), 0..3)).prop_map(|(t, sites)| {
            let mut run = demo::vector_add_run(t % 5, 0, t / 2, 16, 0);
            run.sites = sites;
            Record::Snapshot(Snapshot { taken_ns: t, run })
        }),
    ]
}

fn profile() -> impl Strategy<Value = Profile> {
    (
        prop::collection::vec(record(), 0..40),
        any::<bool>(),
        any::<bool>(),
        any::<u32>(),
    )
        .prop_map(|(records, two_programs, break_report, line)| {
            let mut p = demo::demo_profile();
            p.records = records;
            if two_programs {
                let mut other = demo::program();
                other.id = 2;
                other.sources.pop();
                p.programs.push(other);
            }
            if break_report {
                let r = &mut p.programs[0].report;
                r.sites[0].file = "nowhere.cl".into();
                r.sites[1].line = line;
                r.kernels[0].line = line;
                r.sites[2].enclosing_loop = Some(77);
                r.sites[4].target = None;
            }
            p
        })
}

fn event() -> impl Strategy<Value = Result<KeyCode, (u16, u16, u8)>> {
    let keys = prop::sample::select(vec![
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Char('j'),
        KeyCode::Char('k'),
        KeyCode::Char('h'),
        KeyCode::Char('l'),
        KeyCode::Char('H'),
        KeyCode::Char('L'),
        KeyCode::Char('n'),
        KeyCode::Char('N'),
        KeyCode::Char('['),
        KeyCode::Char(']'),
        KeyCode::Char('+'),
        KeyCode::Char('-'),
        KeyCode::Char('0'),
        KeyCode::Char('f'),
        KeyCode::Char('a'),
        KeyCode::Char('s'),
        KeyCode::Char('<'),
        KeyCode::Char('>'),
        KeyCode::Char('?'),
        KeyCode::Char('g'),
        KeyCode::Char('G'),
        KeyCode::Char('1'),
        KeyCode::Char('2'),
        KeyCode::Char('3'),
        KeyCode::Char('4'),
    ]);
    prop_oneof![
        8 => keys.prop_map(Ok),
        1 => (0u16..130, 0u16..45, 0u8..5).prop_map(Err),
    ]
}

proptest! {
    // 48 cases in a normal test run; TUI_PROPTEST_CASES=5000 for a long hunt.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("TUI_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
    ))]

    #[test]
    fn random_profiles_keys_and_sizes_never_panic(
        p in profile(),
        compare in any::<bool>(),
        events in prop::collection::vec(event(), 0..60),
        sizes in prop::collection::vec((0u16..140, 0u16..50), 1..4),
    ) {
        let data = ReportData::new("random", p.clone());
        let _ = text::report_text(&data, Scope::Average);
        for i in 0..data.run_count().min(3) {
            let _ = text::source_text(&data, Scope::Run(i));
        }
        let mut app = if compare {
            App::compare(ReportData::new("demo", demo::demo_profile()), data, Theme::mono())
        } else {
            App::new(data, Theme::colored())
        };
        for (i, ev) in events.iter().enumerate() {
            match *ev {
                Ok(code) => {
                    if code == KeyCode::Char('q') { continue; }
                    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
                }
                Err((x, y, kind)) => {
                    let kind = match kind {
                        0 => MouseEventKind::ScrollUp,
                        1 => MouseEventKind::ScrollDown,
                        2 => MouseEventKind::Down(MouseButton::Left),
                        3 => MouseEventKind::Drag(MouseButton::Left),
                        _ => MouseEventKind::Up(MouseButton::Left),
                    };
                    app.on_mouse(MouseEvent { kind, column: x, row: y, modifiers: KeyModifiers::NONE });
                }
            }
            let (w, h) = sizes[i % sizes.len()];
            let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
            term.draw(|f| ui::draw(f, &app)).unwrap();
        }
        prop_assert!(!app.quit);
    }
}
