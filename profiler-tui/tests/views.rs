//! Issue 16 item 5: every view of the profiler at 80x24 and 160x45 (insta snapshots in
//! tests/snapshots/), plus the behaviour behind them: search with n / N, the collapsible
//! details pane keeping Bandwidth at 80 columns, the Loops tab jumping to the source, the
//! plots of a kernel with many runs, capture markers, and a selection visible without colour.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profiler_tui::{demo, ui, App, ReportData, Tab, Theme};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 45)];

fn app_with(theme: Theme) -> App {
    App::new(ReportData::new("profile.mon", demo::demo_profile()), theme)
}

fn app() -> App {
    app_with(Theme::colored())
}

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn search(app: &mut App, q: &str) {
    keys(app, "/");
    keys(app, q);
    press(app, KeyCode::Enter);
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

/// Snapshots `app` at both sizes as `<name>_<w>x<h>`.
fn snap(name: &str, app: &App) {
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(app, w, h));
    }
}

#[test]
fn snapshots_of_every_view() {
    snap("view_source", &app());

    let mut a = app();
    search(&mut a, "read_channel");
    snap("view_source_search", &a);

    let mut a = app();
    keys(&mut a, "d");
    snap("view_source_no_details", &a);

    let mut a = app();
    keys(&mut a, "2");
    snap("view_execution", &a);

    let mut a = app();
    keys(&mut a, "2v");
    snap("view_execution_plots", &a);

    let mut a = app();
    keys(&mut a, "3");
    snap("view_autorun", &a);

    let mut a = app();
    keys(&mut a, "4j");
    snap("view_loops", &a);

    let mut a = app_with(Theme::mono());
    keys(&mut a, "2]");
    snap("view_execution_no_color", &a);

    // Many runs: the run-duration histogram instead of one solid bar.
    let mut a = App::new(
        ReportData::new("large.mon", demo::large_profile(20_000)),
        Theme::colored(),
    );
    keys(&mut a, "2v");
    snap("view_plots_many_runs", &a);
}

#[test]
fn search_finds_source_lines_and_kernel_names_and_repeats() {
    let mut a = app();
    search(&mut a, "READ_CHANNEL");
    assert_eq!(a.current_tab(), Tab::Source);
    let hits = a.search.hits.clone();
    assert!(hits.len() >= 2, "{hits:?}");
    let at = |a: &App| (a.source.file, a.source.cursor);
    assert_eq!(at(&a), hits[0]);
    let line = |a: &App| a.data.files[a.source.file].lines[a.source.cursor].clone();
    assert!(line(&a).contains("read_channel_intel"), "{}", line(&a));
    keys(&mut a, "n");
    assert_eq!(at(&a), hits[1]);
    keys(&mut a, "N");
    assert_eq!(at(&a), hits[0]);
    // N from the first wraps to the last.
    keys(&mut a, "N");
    assert_eq!(at(&a), *hits.last().unwrap());
    // A kernel name lands on its definition.
    search(&mut a, "consumer");
    assert!(line(&a).contains("consumer"), "{}", line(&a));
    // Keys typed into the prompt are text: `q` does not quit.
    keys(&mut a, "/q");
    assert!(!a.quit);
    press(&mut a, KeyCode::Esc);
    assert!(a.search.typing.is_none());
    // No match says so.
    search(&mut a, "no_such_text_anywhere");
    assert!(a.message.as_deref().unwrap_or("").contains("no match"));
    // Esc clears the search; n is the high-stall jump again.
    press(&mut a, KeyCode::Esc);
    assert!(a.search.query.is_none());
    keys(&mut a, "n");
    assert!(
        a.message.as_deref().unwrap_or("").contains("high-stall"),
        "{:?}",
        a.message
    );
}

#[test]
fn at_80_columns_bandwidth_stays_and_d_collapses_details() {
    let mut a = app();
    let s = screen(&a, 80, 24);
    assert!(s.contains("Bandwidth"), "{s}");
    // Efficiency is labelled.
    assert!(s.contains("MB/s eff "), "{s}");
    assert!(s.contains("Details"), "{s}");
    // At 80x24 the details pane starts below 11 rows of source (header, tabs, info and
    // heading take 5 rows).
    let details_row = s.lines().position(|l| l.contains(" Details ")).unwrap();
    assert!(details_row >= 16, "details at row {details_row}:\n{s}");
    keys(&mut a, "d");
    let s2 = screen(&a, 80, 24);
    assert!(!s2.contains("Details"), "{s2}");
}

#[test]
fn attributes_are_whole_on_a_wide_screen() {
    let a = app();
    let s = screen(&a, 200, 45);
    let mut checked = 0;
    for line in 0..a.file_len() {
        let sites = a.line_sites(line);
        if let Some(&g) = sites.get(a.default_access(line)) {
            let attrs = a.data.attributes(g);
            assert!(s.contains(&attrs), "attributes cut: {attrs}\n{s}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn loops_tab_lists_ii_and_jumps_to_the_source() {
    let mut a = app();
    keys(&mut a, "4");
    assert_eq!(a.current_tab(), Tab::Loops);
    let s = screen(&a, 160, 45);
    assert!(s.contains("loop-carried dependency on acc"), "{s}");
    keys(&mut a, "j");
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.current_tab(), Tab::Source);
    assert_eq!(a.data.files[a.source.file].name, "pipeline.cl");
    assert_eq!(a.source.cursor + 1, 13);
}

#[test]
fn capture_markers_and_colourless_selection() {
    let mut a = app();
    keys(&mut a, "2");
    let s = screen(&a, 160, 45);
    let axis = s.lines().find(|l| l.contains("time ->")).unwrap();
    assert_eq!(axis.matches('◆').count(), 3, "{axis}");

    let mut m = app_with(Theme::mono());
    keys(&mut m, "2");
    let s = screen(&m, 160, 45);
    assert!(
        s.lines().any(|l| l.contains('=') && l.contains('#')),
        "the selected run must differ from the other bars without colour:\n{s}"
    );
    keys(&mut m, "4");
    let s = screen(&m, 160, 45);
    assert!(s.lines().any(|l| l.starts_with("> ")), "{s}");
}
