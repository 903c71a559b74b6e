//! Drawing: the summary header, the tab bar, the current tab, the footer and the help overlay.
//! Every function draws only what fits the area it gets; nothing here panics on small areas.

mod autorun;
mod compare;
mod execution;
mod loops;
mod plots;
mod source;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::{App, Tab};
use crate::fmt;

/// Smallest area in which the screens are drawn; below it a short notice is shown instead.
pub const MIN_WIDTH: u16 = 20;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 5;

/// Draws the whole profiler into the frame.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let p = Paragraph::new("terminal too small; q quits").wrap(Wrap { trim: true });
        frame.render_widget(p, area);
        return;
    }
    let header_h = if area.height >= 14 { 2 } else { 1 };
    let [header, tabs, body, footer] = Layout::vertical([
        Constraint::Length(header_h),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(frame, app, header);
    draw_tabs(frame, app, tabs);
    match app.current_tab() {
        Tab::Source => source::draw(frame, app, body),
        Tab::Execution => execution::draw(frame, app, body),
        Tab::Autorun => autorun::draw(frame, app, body),
        Tab::Compare => compare::draw(frame, app, body),
        Tab::Loops => loops::draw(frame, app, body),
    }
    draw_footer(frame, app, footer);
    if app.help {
        draw_help(frame, app, area);
    }
}

fn draw_header(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    let h = &d.profile.header;
    let mut first = vec![
        Span::styled("Board: ", t.label()),
        Span::styled(h.board.name.clone(), t.header()),
    ];
    for (ty, bw) in h.board.bandwidth_by_type() {
        first.push(Span::styled(
            format!("  Global Memory BW ({ty}): "),
            t.label(),
        ));
        first.push(Span::styled(format!("{bw:.0} MB/s"), t.header()));
    }
    let host = if h.command_line.is_empty() {
        "?".to_string()
    } else {
        h.command_line.join(" ")
    };
    let file = match &app.compare {
        Some((before, _)) => format!("{} -> {}", before.label, d.label),
        None => d.label.clone(),
    };
    let mut second = vec![
        Span::styled("Emulated time: ", t.label()),
        Span::styled(fmt::time(d.total_ns), t.header()),
        Span::styled("  Date: ", t.label()),
        Span::raw(h.start_time.clone()),
        Span::styled("  Host: ", t.label()),
        Span::raw(host),
        Span::styled("  File: ", t.label()),
        Span::raw(file),
    ];
    if d.profile.truncated {
        second.push(Span::styled(" (truncated)", t.bad()));
    }
    let lines = if area.height >= 2 {
        vec![Line::from(first), Line::from(second)]
    } else {
        first.extend(second.drain(..2).map(|s| {
            if s.content.starts_with("Emulated") {
                Span::styled("  Emulated time: ", s.style)
            } else {
                s
            }
        }));
        vec![Line::from(first)]
    };
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_tabs(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let mut spans = Vec::new();
    for (i, tab) in app.tabs.iter().enumerate() {
        let style = if i == app.tab {
            t.tab_active()
        } else {
            Style::new()
        };
        spans.push(Span::styled(format!(" {} {} ", i + 1, tab.title()), style));
        spans.push(Span::styled("│", t.border()));
    }
    spans.push(Span::styled(" ? help  q quit", t.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_footer(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let text = match (&app.search.typing, &app.message) {
        (Some(q), _) => Line::from(vec![
            Span::styled("/", t.header()),
            Span::raw(q.clone()),
            Span::styled("_", t.dim()),
            Span::styled("   search sources and kernel names (Enter, Esc)", t.dim()),
        ]),
        (None, Some(m)) => Line::from(Span::styled(m.clone(), t.header())),
        (None, None) => Line::from(Span::styled(
            match app.current_tab() {
                Tab::Source if app.search.query.is_some() => {
                    "j/k move  n/N next/prev match  Esc clear search  / search  d details  f file/kernel"
                }
                Tab::Source => {
                    "j/k move  / search  n/N high stall  [ ] access  Enter list  d details  f file/kernel"
                }
                Tab::Execution if app.plots => "v lanes  j/k kernel  d details  / search",
                Tab::Execution => {
                    "h/l pan  +/- zoom  0 fit  j/k lane  [ ] run  Enter source  v plots  d details"
                }
                Tab::Loops => "j/k move  Enter show the loop in Source Code  / search",
                Tab::Autorun => "j/k kernel  h/l capture  Enter this capture  t all captures",
                Tab::Compare => "j/k move  s sort by stall change / location",
            },
            t.dim(),
        )),
    };
    frame.render_widget(Paragraph::new(text), area);
}

/// Key bindings shown by `?`.
pub const HELP: &[(&str, &str)] = &[
    ("Everywhere", ""),
    ("Tab / Shift-Tab", "next / previous tab"),
    ("1 .. 5", "go to tab"),
    ("?  F1", "this help (any key closes)"),
    ("/", "search source lines and kernel names"),
    ("d", "collapse / expand the details pane"),
    ("q  Ctrl-C", "quit"),
    ("Source Code", ""),
    ("j k  Down Up", "move one line"),
    ("PgDn PgUp Space", "move one page"),
    ("g G  Home End", "first / last line"),
    ("n  N", "next / previous match, else Stall% >= 20% line"),
    ("Esc", "clear the search"),
    ("[ ]  h l", "previous / next access on the line"),
    ("Enter", "list of the line's accesses"),
    ("f", "choose file or kernel"),
    ("< >", "scroll long source lines left / right"),
    ("a", "average of all runs / all kernels"),
    ("Esc", "back to the average and the tab you came from"),
    ("Kernel Execution", ""),
    ("h l  Left Right", "pan"),
    ("H L  PgUp PgDn", "pan one screen"),
    ("+ -  mouse wheel", "zoom in / out"),
    ("0", "fit the whole run"),
    ("j k", "next / previous lane"),
    ("[ ]", "previous / next run in the lane"),
    ("Enter", "Source Code view with this run's counters"),
    (
        "v",
        "plots of the lane's kernel: bandwidth, occupancy, run durations",
    ),
    ("Autorun Captures", ""),
    ("j k / h l", "choose kernel / capture"),
    ("Enter", "Source Code view with this capture only"),
    ("t", "Source Code view with every capture summed"),
    ("Compare", ""),
    ("s", "sort by Stall% change / by location"),
    ("Loops", ""),
    ("j k", "choose a loop"),
    ("Enter", "show it in Source Code"),
];

fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let w = area.width.saturating_sub(4).min(72);
    let h = area.height.saturating_sub(2).min(HELP.len() as u16 + 2);
    let popup = centered(area, w, h);
    frame.render_widget(Clear, popup);
    let lines: Vec<Line> = HELP
        .iter()
        .map(|(k, v)| {
            if v.is_empty() {
                Line::from(Span::styled(*k, t.heading()))
            } else {
                Line::from(vec![
                    Span::styled(format!("  {k:<17}"), t.label()),
                    Span::raw(*v),
                ])
            }
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.border())
        .title(" Keys (any key closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

/// A `w` x `h` rectangle centred in `area` (clipped to it).
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Pads or cuts `s` to exactly `w` characters.
pub(crate) fn cell(s: &str, w: usize) -> String {
    let f = fmt::fit(s, w);
    let n = f.chars().count();
    format!("{f}{}", " ".repeat(w.saturating_sub(n)))
}

/// Right-aligns `s` in `w` characters (cutting it if longer).
pub(crate) fn rcell(s: &str, w: usize) -> String {
    let f = fmt::fit(s, w);
    let n = f.chars().count();
    format!("{}{f}", " ".repeat(w.saturating_sub(n)))
}

pub(crate) use compare::site_columns as compare_site_columns;
pub(crate) use source::detail_lines as source_detail_lines;
