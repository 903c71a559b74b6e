//! Rendering tests: the demo profile (vector_add, a producer/consumer pair whose channel write
//! stalls, an autorun kernel with three captures) drawn on ratatui's TestBackend, driven with
//! the same key events the terminal delivers. Snapshots live in tests/snapshots/.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profiler_tui::diagnosis::{diagnose, Scenario};
use fpgacl_profiler_tui::{demo, text, ui, App, ReportData, Scope, Tab, Theme};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use ratatui::Terminal;

fn app() -> App {
    App::new(
        ReportData::new("profile.mon", demo::demo_profile()),
        Theme::colored(),
    )
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn draw(app: &App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    term.backend().buffer().clone()
}

fn screen(buf: &Buffer) -> String {
    let a = buf.area;
    let mut out = String::new();
    for y in 0..a.height {
        let mut line = String::new();
        for x in 0..a.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn render(app: &App) -> String {
    screen(&draw(app, 120, 40))
}

/// Row of the screen containing `needle`.
fn row_of(buf: &Buffer, needle: &str) -> Option<u16> {
    let s = screen(buf);
    s.lines().position(|l| l.contains(needle)).map(|y| y as u16)
}

#[test]
fn source_tab_average() {
    let app = app();
    let s = render(&app);
    assert!(s.contains("Board: fpgacl_a10_ref"));
    assert!(s.contains("Global Memory BW (DDR): 25600 MB/s"));
    assert!(s.contains("Host: ./demo_host demo.aocx"));
    assert!(s.contains("2025-03-01T14:02:11.532+00:00"));
    assert!(s.contains("Emulated time: 4.521ms"));
    assert!(s.contains("1 Source Code"));
    assert!(s.contains("3 Autorun Captures"));
    // Autorun captures are not averaged in with the enqueued runs.
    assert!(s.contains("average of 5 runs"), "{s}");
    assert!(!s.contains("autorun capture"), "{s}");
    // Line 6 of vector_add.cl has three accesses: a list marker and the worst one shown.
    assert!(s.contains("[3] global DDR write"), "{s}");
    insta::assert_snapshot!("source_average", s);
}

#[test]
fn next_high_stall_line_goes_to_channel_write() {
    let mut app = app();
    keys(&mut app, "n");
    let buf = draw(&app, 120, 40);
    let s = screen(&buf);
    assert_eq!(app.data.files[app.source.file].name, "pipeline.cl");
    assert_eq!(app.source.cursor, 6);
    assert!(s.contains("high-stall line 1 of 1: pipeline.cl:7"), "{s}");
    // A stalled channel write waits for room: back-pressure from its reader.
    assert!(s.contains("Back-pressure"), "{s}");
    assert!(s.contains("The reader (consumer line"), "{s}");
    // The high-stall line is red (74% is in the dark range), the others are not.
    let y = row_of(&buf, "write_channel_intel(c0").unwrap();
    let bg = buf[(60, y)].bg;
    assert_eq!(bg, Color::Indexed(124), "74% stall colour");
    let y6 = row_of(&buf, "float v = src[i]").unwrap();
    assert_eq!(buf[(60, y6)].bg, Color::Reset);
    insta::assert_snapshot!("source_high_stall", s);
    // Only one high-stall line: n wraps to it again, N as well.
    keys(&mut app, "nN");
    assert_eq!(app.source.cursor, 6);
}

#[test]
fn accesses_on_one_line_are_a_list() {
    let mut app = app();
    // Cursor starts on the first line with accesses: vector_add.cl line 6.
    assert_eq!(app.source.cursor, 5);
    let sites = app.line_sites(5);
    assert_eq!(sites.len(), 3);
    key(&mut app, KeyCode::Enter);
    let s = render(&app);
    assert!(s.contains("Accesses on this line"), "{s}");
    assert!(s.contains("col 3   store"), "{s}");
    assert!(s.contains("col 12  load"), "{s}");
    assert!(s.contains("col 21  load"), "{s}");
    insta::assert_snapshot!("source_access_list", s);
    // Choose the second (load a).
    key(&mut app, KeyCode::Home);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert!(app.source.popup.is_none());
    let g = app.current_site().unwrap();
    assert_eq!(app.data.site(g).target.as_deref(), Some("a"));
    let s = render(&app);
    assert!(s.contains("vector_add vector_add.cl:6:12 load a"), "{s}");
    assert!(s.contains("Access 2 of 3 on this line"), "{s}");
    assert!(s.contains("Average Burst Size=7.6 (Max Burst=16)"), "{s}");
    assert!(s.contains("Statically coalesced: yes"), "{s}");
    assert!(s.contains("Cache Hit -"), "{s}");
    // ] cycles to the next access.
    keys(&mut app, "]");
    let g = app.current_site().unwrap();
    assert_eq!(app.data.site(g).target.as_deref(), Some("b"));
}

#[test]
fn file_and_kernel_picker() {
    let mut app = app();
    keys(&mut app, "f");
    let s = render(&app);
    assert!(s.contains("File / kernel"), "{s}");
    assert!(s.contains("kernel consumer"), "{s}");
    assert!(s.contains("kernel streamer (autorun)"), "{s}");
    // Entries: vector_add.cl, vector_add, pipeline.cl, producer, consumer -> choose consumer.
    key(&mut app, KeyCode::Home);
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.data.files[app.source.file].name, "pipeline.cl");
    let k = app.source.kernel_filter.unwrap();
    assert_eq!(app.data.kernel(k).name, "consumer");
    // The producer's accesses are hidden by the kernel filter.
    assert!(app.line_sites(6).is_empty());
    assert_eq!(app.line_sites(13).len(), 1);
    let s = render(&app);
    assert!(s.contains("Kernel: consumer"), "{s}");
    // Low occupancy diagnosis with the loop's II and reason.
    key(&mut app, KeyCode::Char('G'));
    for _ in 0..4 {
        key(&mut app, KeyCode::Up);
    }
    assert_eq!(app.source.cursor, 13);
    let s = render(&app);
    assert!(
        s.contains("Loop at line 13: II 4 (loop-carried dependency on acc"),
        "{s}"
    );
    assert!(s.contains("Low occupancy (25%) without stalls"), "{s}");
}

#[test]
fn kernel_execution_tab() {
    let mut app = app();
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.current_tab(), Tab::Execution);
    let s = render(&app);
    for lane in [
        "vector_add",
        "producer",
        "consumer",
        "write (host->dev)",
        "read (dev->host)",
    ] {
        assert!(s.contains(lane), "{lane}: {s}");
    }
    insta::assert_snapshot!("execution_fit", s);
    // Runs 2 and 3 of vector_add overlap (two queues): the lane has a second row.
    assert_eq!(app.data.timeline.lanes[0].rows.len(), 2);
    // Select the producer lane and its run.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    keys(&mut app, "G");
    let s = render(&app);
    assert!(s.contains("producer  run #4  device 0  queue 1"), "{s}");
    assert!(
        s.contains("highest stall 74.4% (channel write, line 7)"),
        "{s}"
    );
    // Zoom in twice and pan: the view narrows.
    let span = app.exec.view_span;
    keys(&mut app, "++");
    assert_eq!(app.exec.view_span, span / 4);
    keys(&mut app, "h");
    let s = render(&app);
    assert!(s.contains("view "), "{s}");
    keys(&mut app, "0");
    assert_eq!(app.exec.view_span, span.max(1));
}

#[test]
fn enter_on_a_run_opens_its_source_view() {
    let mut app = app();
    key(&mut app, KeyCode::Tab);
    // vector_add row 0: runs 1 and 2; select run 2 (stalled store) with ].
    keys(&mut app, "g]");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.current_tab(), Tab::Source);
    assert_eq!(app.source.scope, Scope::Run(1));
    let s = render(&app);
    assert!(s.contains("run #2 of vector_add"), "{s}");
    // In this run the store stalls 40.7%: a high-stall line that the average does not have.
    assert!(s.contains("40.7%"), "{s}");
    assert_eq!(app.source.high_stall, vec![(0, 5)]);
    insta::assert_snapshot!("source_run", s);
    // Esc goes back to the average and to the timeline.
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.source.scope, Scope::Average);
    assert_eq!(app.current_tab(), Tab::Execution);
}

#[test]
fn autorun_tab_and_capture_view() {
    let mut app = app();
    keys(&mut app, "3");
    assert_eq!(app.current_tab(), Tab::Autorun);
    let s = render(&app);
    assert!(s.contains("Device 0 streamer"), "{s}");
    assert!(s.contains("[0.03ms] [2.00ms] [4.30ms]"), "{s}");
    insta::assert_snapshot!("autorun", s);
    keys(&mut app, "ll");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.current_tab(), Tab::Source);
    let s = render(&app);
    assert!(s.contains("autorun capture of streamer at 4.30ms"), "{s}");
    // Only this capture's data: the write stalls 35% here (17% on average).
    assert!(s.contains("35.0%"), "{s}");
    assert!(s.contains("Activity 8.1%"), "{s}");
    insta::assert_snapshot!("source_capture", s);
    let all = app.data.counters(Scope::Autorun);
    let g = app.current_site().unwrap();
    let all_stall = all[g].unwrap().stall_pct().unwrap();
    assert!((all_stall - 17.18).abs() < 0.1, "{all_stall}");
    // Autorun captures are on their own: the enqueued runs' average has none of them.
    assert_eq!(app.data.counters(Scope::Average)[g], None);
    // `t` in the Autorun Captures tab: every capture summed.
    keys(&mut app, "3t");
    assert_eq!(app.source.scope, Scope::Autorun);
    let s = render(&app);
    assert!(
        s.contains("autorun kernels: 3 captures, on their own"),
        "{s}"
    );
}

#[test]
fn help_overlay() {
    let mut app = app();
    keys(&mut app, "?");
    let s = render(&app);
    assert!(s.contains("Keys (any key closes)"), "{s}");
    assert!(
        s.contains("next / previous match, else Stall% >= 20% line"),
        "{s}"
    );
    insta::assert_snapshot!("help", s);
    keys(&mut app, "x");
    assert!(!app.help);
    assert!(!app.quit);
    keys(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn ctrl_c_quits() {
    let mut app = app();
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit);
}

#[test]
fn no_color_uses_no_colours() {
    let mut app = App::new(
        ReportData::new("profile.mon", demo::demo_profile()),
        Theme::mono(),
    );
    keys(&mut app, "n");
    for tab in 0..3 {
        app.tab = tab;
        let buf = draw(&app, 120, 40);
        for c in buf.content() {
            assert_eq!(c.fg, Color::Reset, "tab {tab}: {c:?}");
            assert_eq!(c.bg, Color::Reset, "tab {tab}: {c:?}");
        }
    }
}

#[test]
fn every_size_draws_without_panic() {
    let mut app = app();
    keys(&mut app, "n");
    let mut sizes = vec![(0, 0), (1, 1), (40, 10), (19, 4), (20, 5), (300, 100)];
    for w in (0..140).step_by(7) {
        for h in (0..45).step_by(4) {
            sizes.push((w, h));
        }
    }
    for tab in 0..3 {
        app.tab = tab;
        for &(w, h) in &sizes {
            let _ = draw(&app, w, h);
        }
        app.help = true;
        let _ = draw(&app, 40, 10);
        app.help = false;
    }
    // A popup on a tiny screen.
    app.tab = 0;
    keys(&mut app, "f");
    for &(w, h) in &sizes {
        let _ = draw(&app, w, h);
    }
    let s = screen(&draw(&app, 40, 10));
    assert!(s.contains("Source Code"), "{s}");
    // Compare mode has a fourth tab.
    let mut app = App::compare(
        ReportData::new("a", demo::demo_profile()),
        ReportData::new("b", demo::demo_profile()),
        Theme::colored(),
    );
    for tab in 0..4 {
        app.tab = tab;
        for &(w, h) in &sizes {
            let _ = draw(&app, w, h);
        }
    }
}

#[test]
fn small_terminal_40x10() {
    let mut app = app();
    keys(&mut app, "n");
    insta::assert_snapshot!("source_40x10", screen(&draw(&app, 40, 10)));
    key(&mut app, KeyCode::Tab);
    insta::assert_snapshot!("execution_40x10", screen(&draw(&app, 40, 10)));
}

#[test]
fn mouse_click_selects_a_source_line_and_zooms_the_timeline() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = app();
    let buf = draw(&app, 120, 40);
    let y = row_of(&buf, "  int gid = get_global_id(0);").unwrap();
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 10,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.source.cursor, 4);
    key(&mut app, KeyCode::Tab);
    let _ = draw(&app, 120, 40);
    let span = app.exec.view_span;
    let bars = app.exec.bars.get();
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: bars.x + bars.width / 2,
        row: bars.y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.exec.view_span, span / 2);
}

#[test]
fn diagnoses_follow_the_guide_scenarios() {
    let data = ReportData::new("p", demo::demo_profile());
    let avg = data.counters(Scope::Average);
    let find = |file: &str, line: u32, col: u32| {
        (0..data.sites.len())
            .find(|&g| {
                let s = data.site(g);
                s.file == file && s.line == line && s.column == col
            })
            .unwrap()
    };
    let first = |g| diagnose(&data, g, &avg)[0].0;
    // pipeline.cl:7 is a channel write stalled 74%: the channel is full (its reader is
    // slower), back-pressure rather than a stall source.
    assert_eq!(first(find("pipeline.cl", 7, 5)), Scenario::BackPressure);
    assert_eq!(first(find("pipeline.cl", 6, 15)), Scenario::Victim);
    assert_eq!(first(find("pipeline.cl", 14, 15)), Scenario::LowOccupancy);
    assert_eq!(first(find("vector_add.cl", 6, 12)), Scenario::LowBandwidth);
    // The streamer is an autorun kernel: its counters are the captures'.
    let streamer_write = find("streamer.cl", 10, 7);
    let captures = data.counters(Scope::Autorun);
    assert!(diagnose(&data, streamer_write, &captures)
        .iter()
        .any(|(s, _)| *s == Scenario::Predicated));
}

#[test]
fn compare_two_profiles() {
    let before = ReportData::new("before.mon", demo::demo_profile());
    // "After": the consumer's loop fixed to II 1: its channel no longer stalls the producer.
    let mut p = demo::demo_profile();
    for r in &mut p.records {
        if let fpgacl_profile_format::Record::KernelRun(run) = r {
            for c in &mut run.sites {
                if c.site == 4 {
                    c.stall_cycles /= 10;
                    c.fired_cycles *= 3;
                }
            }
        }
    }
    let after = ReportData::new("after.mon", p);
    let mut app = App::compare(before, after, Theme::colored());
    assert_eq!(app.current_tab(), Tab::Compare);
    let s = render(&app);
    assert!(s.contains("before.mon -> after.mon"), "{s}");
    assert!(s.contains("pipeline.cl:7:5"), "{s}");
    assert!(s.contains("74.4% -> 7.4% (-67.0)"), "{s}");
    insta::assert_snapshot!("compare", s);
    keys(&mut app, "s");
    let (_, table) = app.compare.as_ref().unwrap();
    assert_eq!(table.sites[0].line, 7);
    let t = text::compare_text(table);
    assert!(t.contains("74.4% -> 7.4% (-67.0)"), "{t}");
}

#[test]
fn text_report() {
    let data = ReportData::new("profile.mon", demo::demo_profile());
    let t = text::report_text(&data, Scope::Average);
    assert!(
        t.contains("!  7 |     write_channel_intel(c0, v * 2.0f);"),
        "{t}"
    );
    assert!(
        t.contains("Device 0  streamer  CU 0  captures: 0.03ms 2.00ms 4.30ms"),
        "{t}"
    );
    insta::assert_snapshot!("text_report", t);
}

#[test]
fn empty_and_odd_profiles_do_not_panic() {
    // No programs, no records.
    let mut p = demo::demo_profile();
    p.programs.clear();
    p.records.clear();
    let mut app = App::new(ReportData::new("empty", p), Theme::colored());
    for k in ["n", "N", "f", "\n", "j", "k", "]", "["] {
        keys(&mut app, k);
    }
    for tab in 0..app.tabs.len() {
        app.tab = tab;
        for c in ["h", "l", "+", "-", "0", "j", "k", "]", "["] {
            keys(&mut app, c);
        }
        key(&mut app, KeyCode::Enter);
        let s = render(&app);
        assert!(!s.is_empty());
    }
    // Records naming unknown programs, sites and files.
    let mut p = demo::demo_profile();
    for r in &mut p.records {
        if let fpgacl_profile_format::Record::KernelRun(run) = r {
            run.program = 99;
        }
    }
    p.programs[0].report.sites[0].file = "missing.cl".into();
    p.programs[0].report.sites[0].line = 500;
    let mut app = App::new(ReportData::new("odd", p), Theme::colored());
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Enter);
    let s = render(&app);
    assert!(!s.is_empty());
    keys(&mut app, "f");
    let s = render(&app);
    assert!(s.contains("missing.cl"), "{s}");
}

#[test]
fn cumulative_autorun_captures_are_not_double_counted() {
    use fpgacl_profile_format::Record;
    // Three captures without clear-after-readback: each includes the previous ones, so the
    // overall view equals the last capture.
    let mut p = demo::demo_profile();
    let mut last = None;
    for r in &mut p.records {
        if let Record::AutorunCapture(c) = r {
            c.cleared = false;
            last = Some(c.sites.clone());
        }
    }
    let data = ReportData::new("p", p);
    let last = last.unwrap();
    for c in &last {
        let g = (0..data.sites.len())
            .find(|&g| data.site(g).id == c.site)
            .unwrap();
        assert_eq!(data.autorun[g], Some(*c));
        assert_eq!(data.average[g], None, "captures are not averaged with runs");
    }
    // With clearing (the demo), the windows add up.
    let data = ReportData::new("p", demo::demo_profile());
    let g = (0..data.sites.len())
        .find(|&g| data.site(g).id == 8)
        .unwrap();
    let active: u64 = data.captures.iter().map(|c| c.sites[1].active_cycles).sum();
    assert_eq!(data.autorun[g].unwrap().active_cycles, active);
}

#[test]
fn a_starved_channel_read_is_starved_not_a_stall_source() {
    use fpgacl_profile_format::SiteCounters;
    // The consumer's channel read of pipeline.cl (line 14) made to stall 97.8% with 2.2%
    // occupancy (an autorun reader between its writer's runs): stall + occupancy is 100%, but
    // a stalled read waits for data, so it is starved, and its busy writer is not called slow.
    let data = ReportData::new("p", demo::demo_profile());
    let mut counters = data.counters(Scope::Average);
    let g = (0..data.sites.len())
        .find(|&g| {
            let s = data.site(g);
            s.file == "pipeline.cl" && s.line == 14 && s.kind.is_read()
        })
        .expect("the consumer's channel read");
    counters[g] = Some(SiteCounters {
        site: data.site(g).id,
        fired_cycles: 22,
        stall_cycles: 978,
        active_cycles: 1000,
        requests: 22,
        ..Default::default()
    });
    // Its writer, the producer's channel write (line 7), busy 93% of its cycles.
    let w = (0..data.sites.len())
        .find(|&w| {
            let s = data.site(w);
            s.file == "pipeline.cl" && s.line == 7 && !s.kind.is_read()
        })
        .expect("the producer's channel write");
    counters[w] = Some(SiteCounters {
        site: data.site(w).id,
        fired_cycles: 930,
        active_cycles: 1000,
        requests: 930,
        ..Default::default()
    });
    let found = diagnose(&data, g, &counters);
    assert_eq!(found[0].0, Scenario::Starved, "{found:?}");
    let text = &found[0].1.headline;
    assert!(text.contains("waiting for data"), "{text}");
    assert!(!text.contains("cannot keep up"), "{text}");
    assert!(!text.contains("it is the slow side"), "{text}");
    assert!(
        text.contains("has occupancy 93%") && text.contains("only part of the time"),
        "{text}"
    );
}

#[test]
fn unfinished_runs_show_their_latest_snapshot() {
    use fpgacl_profile_format::{Record, Snapshot};
    let mut p = demo::demo_profile();
    // A snapshot of a finished run (ignored: the run itself is there) and two of a run that
    // never finished (the host was killed): the later one is shown.
    let done = demo::vector_add_run(1, 0, 360_000, 1024, 0);
    let mut unfinished = demo::vector_add_run(99, 1, 5_000_000, 262_144, 0);
    unfinished.end_ns = 5_100_000;
    let mut later = unfinished.clone();
    later.end_ns = 5_200_000;
    p.records.push(Record::Snapshot(Snapshot {
        taken_ns: 400_000,
        run: done,
    }));
    p.records.push(Record::Snapshot(Snapshot {
        taken_ns: 5_100_000,
        run: unfinished,
    }));
    p.records.push(Record::Snapshot(Snapshot {
        taken_ns: 5_200_000,
        run: later,
    }));
    let data = ReportData::new("p", p);
    assert_eq!(data.run_count(), 6);
    assert!(data.is_partial(5));
    assert_eq!(data.run(5).unwrap().end_ns, 5_200_000);
    assert_eq!(data.total_ns, 5_200_000);
    let mut app = App::new(data, Theme::colored());
    key(&mut app, KeyCode::Tab);
    // The last run of the vector_add lane's first row is the unfinished one.
    keys(&mut app, "G");
    let s = render(&app);
    assert!(s.contains("run #99 (unfinished: latest snapshot)"), "{s}");
}

#[test]
fn clicking_a_capture_button_opens_it() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = app();
    keys(&mut app, "3");
    let buf = draw(&app, 120, 40);
    let y = row_of(&buf, "[2.00ms]").unwrap();
    let line = screen(&buf).lines().nth(y as usize).unwrap().to_string();
    let x = line.find("[2.00ms]").unwrap() as u16 + 2;
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.current_tab(), Tab::Source);
    assert_eq!(app.source.scope, Scope::Capture(1));
    let s = render(&app);
    assert!(s.contains("autorun capture of streamer at 2.00ms"), "{s}");
}

#[test]
fn a_waiting_channel_write_is_back_pressure_that_waited_not_a_busy_stall_source() {
    use fpgacl_profile_format::SiteCounters;
    // The producer's channel write of pipeline.cl (line 7) with one execution that waited 99.7%
    // of the run (a rendezvous whose reader starts later): Stall% + Occupancy% is 100%, but it
    // did not see work every cycle, and its idle reader is the late side.
    let data = ReportData::new("p", demo::demo_profile());
    let mut counters = data.counters(Scope::Average);
    let find = |line: u32, read: bool| {
        (0..data.sites.len())
            .find(|&g| {
                let s = data.site(g);
                s.file == "pipeline.cl" && s.line == line && s.kind.is_read() == read
            })
            .expect("pipeline.cl channel site")
    };
    let w = find(7, false);
    counters[w] = Some(SiteCounters {
        site: data.site(w).id,
        fired_cycles: 1,
        stall_cycles: 997,
        active_cycles: 1000,
        requests: 1,
        ..Default::default()
    });
    let r = find(14, true);
    counters[r] = Some(SiteCounters {
        site: data.site(r).id,
        fired_cycles: 1,
        active_cycles: 1000,
        requests: 1,
        ..Default::default()
    });
    let found = diagnose(&data, w, &counters);
    assert_eq!(found[0].0, Scenario::BackPressure, "{found:?}");
    let text = &found[0].1.headline;
    assert!(
        text.contains("holds a waiting work-item") && text.contains("one execution waited"),
        "{text}"
    );
    assert!(!text.contains("every cycle"), "{text}");
    assert!(text.contains("the late or slow side"), "{text}");
}
