//! The Compare tab: per-kernel run time and per-site Stall%, Occupancy% and bandwidth of the
//! first file against the second.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{cell, rcell};
use crate::app::App;
use crate::compare::CompareSite;
use crate::fmt;
use crate::theme::Theme;

fn pair(a: Option<f64>, b: Option<f64>, unit: &str) -> String {
    let f = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.1}{unit}"));
    format!("{} -> {}", f(a), f(b))
}

/// Style of a change: `worse_when_up` says whether an increase is bad (stall) or good
/// (occupancy, bandwidth).
fn delta_style(t: Theme, d: Option<f64>, worse_when_up: bool, threshold: f64) -> Style {
    match d {
        Some(x) if x.abs() >= threshold => {
            if (x > 0.0) == worse_when_up {
                t.bad()
            } else {
                t.good()
            }
        }
        _ => Style::new(),
    }
}

/// One row of the site table as text columns (location, access, stall, occupancy, bandwidth).
pub fn site_columns(s: &CompareSite) -> [String; 5] {
    let status = match (s.in_before, s.in_after) {
        (true, false) => " (gone)",
        (false, true) => " (new)",
        _ => "",
    };
    [
        format!("{}:{}:{}{}", s.file, s.line, s.column, status),
        format!("{} {}", s.kernel, s.kind.as_str()),
        format!(
            "{} ({})",
            pair(s.before.stall, s.after.stall, "%"),
            fmt::delta(s.stall_delta())
        ),
        format!(
            "{} ({})",
            pair(s.before.occupancy, s.after.occupancy, "%"),
            fmt::delta(s.occupancy_delta())
        ),
        format!(
            "{} ({})",
            pair(s.before.bandwidth, s.after.bandwidth, ""),
            fmt::delta(s.bandwidth_delta())
        ),
    ]
}

/// Draws the tab into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let Some((_, table)) = &app.compare else {
        return;
    };
    let kh = (table.kernels.len() as u16 + 2).min(area.height / 3);
    let [top, sites] = Layout::vertical([Constraint::Length(kh), Constraint::Min(1)]).areas(area);
    let mut lines = vec![Line::from(vec![
        Span::styled("Total emulated time: ", t.label()),
        Span::raw(format!(
            "{} -> {}",
            fmt::time(table.total_ns.0),
            fmt::time(table.total_ns.1)
        )),
    ])];
    for k in &table.kernels {
        let (a, b) = (k.before.1 as f64, k.after.1 as f64);
        let change = if a > 0.0 {
            Some((b - a) * 100.0 / a)
        } else {
            None
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<20}", fmt::fit(&k.kernel, 20)), t.label()),
            Span::raw(format!(
                " {} run(s) {} -> {} run(s) {} ",
                k.before.0,
                fmt::time(k.before.1),
                k.after.0,
                fmt::time(k.after.1)
            )),
            Span::styled(
                change.map_or(String::new(), |c| format!("({c:+.1}% time)")),
                delta_style(t, change, true, 1.0),
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), top);

    let w = sites.width as usize;
    let loc_w = (w / 4).clamp(8, 30);
    let acc_w = (w / 5).clamp(8, 26);
    let rest = w.saturating_sub(loc_w + acc_w);
    let col_w = rest / 3;
    let mut out = vec![Line::from(Span::styled(
        format!(
            "{}{}{}{}{}",
            cell("Location", loc_w),
            cell("Access", acc_w),
            cell("Stall% (delta)", col_w),
            cell("Occupancy% (delta)", col_w),
            cell("Bandwidth MB/s (delta)", col_w)
        ),
        t.heading(),
    ))];
    let h = sites.height.saturating_sub(1) as usize;
    let mut scroll = app.cmp.scroll.get();
    if app.cmp.cursor < scroll {
        scroll = app.cmp.cursor;
    } else if h > 0 && app.cmp.cursor >= scroll + h {
        scroll = app.cmp.cursor + 1 - h;
    }
    app.cmp.scroll.set(scroll);
    for (i, s) in table.sites.iter().enumerate().skip(scroll).take(h) {
        let [loc, acc, st, oc, bw] = site_columns(s);
        let base = if i == app.cmp.cursor {
            t.cursor()
        } else {
            Style::new()
        };
        out.push(Line::from(vec![
            Span::styled(cell(&loc, loc_w), base),
            Span::styled(cell(&acc, acc_w), base),
            Span::styled(
                cell(&st, col_w),
                base.patch(delta_style(t, s.stall_delta(), true, 5.0)),
            ),
            Span::styled(
                cell(&oc, col_w),
                base.patch(delta_style(t, s.occupancy_delta(), false, 5.0)),
            ),
            Span::styled(
                rcell(&bw, col_w),
                base.patch(delta_style(t, s.bandwidth_delta(), false, 1.0)),
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(out), sites);
}
