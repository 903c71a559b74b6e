//! The Loops tab: the static report's loops (as `fpgacl aoc -report` shows them) with their
//! initiation interval and the reason it is not 1; Enter shows the loop in Source Code.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::{cell, rcell};
use crate::app::App;
use fpgacl_profile_format::Unroll;

/// Column widths: location, kernel, trip count, unroll, II; the reason takes the rest.
fn widths(width: usize) -> (usize, usize, usize, usize, usize) {
    if width >= 120 {
        (26, 20, 9, 9, 4)
    } else {
        (18, 12, 7, 7, 4)
    }
}

fn unroll(u: Unroll) -> String {
    match u {
        Unroll::None => "-".into(),
        Unroll::Full => "full".into(),
        Unroll::Partial(n) => format!("x{n}"),
    }
}

/// Draws the tab into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    if d.loops.is_empty() {
        frame.render_widget(Paragraph::new("No loops in this profile's programs."), area);
        return;
    }
    let details_h = if app.details && area.height >= 12 {
        5
    } else {
        0
    };
    let [table, details] =
        Layout::vertical([Constraint::Min(2), Constraint::Length(details_h)]).areas(area);
    let width = table.width as usize;
    let (loc_w, k_w, trip_w, un_w, ii_w) = widths(width);
    let reason_w = width.saturating_sub(loc_w + k_w + trip_w + un_w + ii_w + 7);
    let head = format!(
        "  {} {} {} {} {} {}",
        cell("Location", loc_w),
        cell("Kernel", k_w),
        rcell("Trips", trip_w),
        rcell("Unroll", un_w),
        rcell("II", ii_w),
        cell("Why II > 1 / serialized", reason_w)
    );
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(head, t.heading()))),
        Rect { height: 1, ..table },
    );
    let h = table.height.saturating_sub(1) as usize;
    let n = d.loops.len();
    let cur = app.loops.cursor.min(n - 1);
    let mut scroll = app.loops.scroll.get();
    if cur < scroll {
        scroll = cur;
    } else if h > 0 && cur >= scroll + h {
        scroll = cur + 1 - h;
    }
    app.loops.scroll.set(scroll);
    let mut lines = Vec::with_capacity(h);
    for i in (scroll..n).take(h) {
        let l = d.loop_info(i);
        let depth = {
            let p = &d.programs()[d.loops[i].program];
            let mut depth = 0;
            let mut parent = l.parent;
            while let Some(id) = parent.filter(|_| depth < 16) {
                depth += 1;
                parent = p.find_loop(id).and_then(|q| q.parent);
            }
            depth
        };
        let loc = format!(
            "{}{}:{}",
            " ".repeat(depth),
            d.files[d.loops[i].file].name,
            l.line
        );
        let mut why = l.ii_reason.clone();
        if l.serialized {
            if !why.is_empty() {
                why.push_str("; ");
            }
            why.push_str("serialized");
        }
        let selected = i == cur;
        let text = format!(
            "{} {} {} {} {} {} {}",
            if selected { '>' } else { ' ' },
            cell(&loc, loc_w),
            cell(&l.kernel, k_w),
            rcell(&l.trip_count.map_or("?".into(), |c| c.to_string()), trip_w),
            rcell(&unroll(l.unroll), un_w),
            rcell(&l.ii.to_string(), ii_w),
            cell(&why, reason_w)
        );
        let style = if selected {
            t.cursor()
        } else if l.ii > 1 || l.serialized {
            t.bad()
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            y: table.y + 1,
            height: h as u16,
            ..table
        },
    );
    if details_h > 0 {
        let l = d.loop_info(cur);
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(t.border())
            .title(Span::styled(" Loop ", t.heading()));
        let inner = block.inner(details);
        frame.render_widget(block, details);
        let mut v = vec![Line::from(Span::styled(
            format!(
                "{} {}:{}:{}  II {}{}   Enter: show in Source Code",
                l.kernel,
                d.files[d.loops[cur].file].name,
                l.line,
                l.column,
                l.ii,
                if l.serialized { ", serialized" } else { "" }
            ),
            t.header(),
        ))];
        if !l.ii_reason.is_empty() {
            v.push(Line::from(format!("Why: {}", l.ii_reason)));
        }
        if !l.critical_path.is_empty() {
            v.push(Line::from(format!(
                "Critical path: {}",
                l.critical_path.join(" -> ")
            )));
        }
        frame.render_widget(Paragraph::new(v).wrap(Wrap { trim: false }), inner);
    }
}
