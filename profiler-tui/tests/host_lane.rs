//! The Kernel Execution tab's host lane (`HostGap` records, format 1.2): markers where the host
//! enqueued after its own time, the selected run's host gap in the details, never a device
//! bar; snapshots at 80x24 and 160x45, with and without colour. A profile without host gaps
//! (the demo, older files) has no host lane.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profile_format::{HostGap, Profile, Record};
use fpgacl_profiler_tui::{demo, ui, App, ReportData, Theme};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// The demo profile with a host gap before every kernel run: 2.5 ms before the first run
/// (the host computed before it), 40 us before the others.
fn profile_with_gaps() -> Profile {
    let mut p = demo::demo_profile();
    let mut records = Vec::new();
    let mut first = true;
    for r in std::mem::take(&mut p.records) {
        if let Record::KernelRun(k) = &r {
            records.push(Record::HostGap(HostGap {
                device: k.device,
                queue: k.queue,
                run_id: Some(k.run_id),
                command: k.kernel.clone(),
                queued_ns: k.start_ns,
                gap_ns: if first { 2_500_000 } else { 40_000 },
            }));
            first = false;
        }
        records.push(r);
    }
    p.records = records;
    p
}

fn app(theme: Theme, profile: Profile) -> App {
    let mut a = App::new(ReportData::new("profile.mon", profile), theme);
    a.on_key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE));
    a
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn host_lane_snapshots() {
    for (w, h) in [(80, 24), (160, 45)] {
        let a = app(Theme::colored(), profile_with_gaps());
        insta::assert_snapshot!(format!("host_lane_{w}x{h}"), screen(&a, w, h));
        let m = app(Theme::mono(), profile_with_gaps());
        insta::assert_snapshot!(format!("host_lane_no_color_{w}x{h}"), screen(&m, w, h));
    }
}

#[test]
fn host_lane_marks_gaps_and_the_details_show_the_selected_runs_gap() {
    let a = app(Theme::colored(), profile_with_gaps());
    let s = screen(&a, 160, 45);
    let lane = s
        .lines()
        .find(|l| l.starts_with("host gaps ("))
        .unwrap_or_else(|| panic!("no host lane:\n{s}"));
    let runs = demo::demo_profile().kernel_runs().count();
    assert!(lane.starts_with(&format!("host gaps ({runs})")), "{lane}");
    assert_eq!(
        lane.matches('▲').count(),
        1,
        "one gap of 1 ms or more: {lane}"
    );
    assert!(lane.contains('·'), "{lane}");
    assert!(
        s.contains("host gap before its enqueue:"),
        "the selected run's gap:\n{s}"
    );
    let m = app(Theme::mono(), profile_with_gaps());
    let s = screen(&m, 160, 45);
    let lane = s.lines().find(|l| l.starts_with("host gaps (")).unwrap();
    assert_eq!(lane.matches('^').count(), 1, "{lane}");
    // The device bars are the same with or without host gaps: only the lane is added.
    let plain = screen(&app(Theme::colored(), demo::demo_profile()), 160, 45);
    assert!(!plain.contains("host gaps ("), "{plain}");
    let bars = |s: &str| -> Vec<String> {
        s.lines()
            .skip_while(|l| !l.contains("time ->"))
            .take_while(|l| !l.starts_with("host gaps (") && !l.starts_with('─'))
            .map(str::to_string)
            .collect()
    };
    let with = screen(&app(Theme::colored(), profile_with_gaps()), 160, 45);
    let n = bars(&with).len();
    assert!(n > 2, "{with}");
    assert_eq!(bars(&with)[..n - 1], bars(&plain)[..n - 1]);
}
