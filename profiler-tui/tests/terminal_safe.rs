//! Terminal injection (issue 15 item 4): a profile whose kernel name, `#line` file name, source
//! text and host command line carry ESC/OSC/BEL/C1 sequences must reach the terminal escaped,
//! in every tab of the profiler and in the text report.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fpgacl_profiler_tui::{compare, demo, text, ui, App, ReportData, Scope, Theme};
use ratatui::backend::{CrosstermBackend, TestBackend};
use ratatui::Terminal;

fn hostile_app() -> App {
    App::new(
        ReportData::new("evil\x1b]0;t\x07.mon", demo::hostile_profile()),
        Theme::colored(),
    )
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// A `Write` whose bytes stay readable after the backend took it.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bytes a real terminal would receive for one frame.
fn terminal_bytes(app: &App, w: u16, h: u16) -> Vec<u8> {
    let out = Shared::default();
    let backend = CrosstermBackend::new(out.clone());
    let mut term = Terminal::with_options(
        backend,
        ratatui::TerminalOptions {
            viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, w, h)),
        },
    )
    .unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    drop(term);
    let bytes = out.0.borrow().clone();
    assert!(!bytes.is_empty());
    bytes
}

/// No OSC (`ESC ]`), no BEL, no DCS/APC/PM/SOS (`ESC P/_/^/X`), no C1 control encoded in UTF-8;
/// every ESC the backend wrote starts a CSI styling/cursor sequence.
fn assert_no_injection(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        !text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)),
        "{what}: C1 control reached the terminal"
    );
    assert!(!bytes.contains(&0x07), "{what}: BEL reached the terminal");
    for (i, _) in bytes.iter().enumerate().filter(|(_, &b)| b == 0x1b) {
        assert_eq!(
            bytes.get(i + 1),
            Some(&b'['),
            "{what}: ESC not followed by '[' at byte {i}: {:?}",
            String::from_utf8_lossy(&bytes[i..(i + 20).min(bytes.len())])
        );
    }
}

fn all_tabs(mut app: App, w: u16, h: u16) -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    for (tab, key) in [("source", '1'), ("execution", '2'), ("autorun", '3')] {
        app.on_key(KeyEvent::new(KeyCode::Char(key), KeyModifiers::NONE));
        out.push((
            tab.to_string(),
            screen(&app, w, h),
            terminal_bytes(&app, w, h),
        ));
    }
    // The file picker lists the file names.
    app.on_key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::NONE));
    app.on_key(KeyEvent::new(KeyCode::Char('f'), KeyModifiers::NONE));
    out.push((
        "file picker".into(),
        screen(&app, w, h),
        terminal_bytes(&app, w, h),
    ));
    out
}

#[test]
fn every_tab_shows_control_characters_escaped() {
    let mut seen_escaped = false;
    for (w, h) in [(80, 24), (160, 45)] {
        for (tab, screen, bytes) in all_tabs(hostile_app(), w, h) {
            assert!(
                !screen.chars().any(|c| c.is_control() && c != '\n'),
                "{tab} {w}x{h}: control character in a cell:\n{screen}"
            );
            assert_no_injection(&bytes, &format!("{tab} {w}x{h}"));
            seen_escaped |= screen.contains("\\u001b");
        }
    }
    assert!(
        seen_escaped,
        "the escaped names must be visible (as \\u001b), not dropped"
    );
}

#[test]
fn text_report_and_compare_are_escaped() {
    let data = ReportData::new("evil\x1b]0;t\x07.mon", demo::hostile_profile());
    let report = text::report_text(&data, Scope::Average);
    assert!(
        !report
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "{report}"
    );
    // Each hostile name is shown, escaped.
    for needle in [
        "vector_add\\u001b]0;pwned\\u0007",
        "\\u001b]52;c;ZXZpbA==\\u0007evil.cl",
        "\\u009b2J\\u001b[5mblink",
        "\\u001b[5m\\u001b]0;title\\u0007\\u009d",
        "evil\\u001b]0;t\\u0007.mon",
    ] {
        assert!(report.contains(needle), "missing {needle:?} in:\n{report}");
    }
    let other = ReportData::new("plain.mon", demo::demo_profile());
    let table = compare::CompareTable::new(&data, &other);
    let cmp = text::compare_text(&table);
    assert!(!cmp.chars().any(|c| c.is_control() && c != '\n'), "{cmp}");
}
