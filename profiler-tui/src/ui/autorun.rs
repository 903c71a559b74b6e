//! The Autorun Captures tab: one row per device and autorun kernel (and compute unit), one
//! button per capture labelled with its time since host start.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::cell;
use crate::app::App;
use crate::data::cu_label;
use crate::fmt;

/// Draws the tab into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    if d.capture_groups.is_empty() {
        frame.render_widget(Paragraph::new("No autorun captures in this profile."), area);
        return;
    }
    let details_h = if area.height >= 10 { 5 } else { 0 };
    let [table, details] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(details_h)]).areas(area);
    let kernel_w = d
        .capture_groups
        .iter()
        .map(|g| g.kernel.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 24);
    let dev_w = 9;
    let cu_w = 6;
    let fixed = dev_w + kernel_w + 1 + cu_w;
    let avail = (table.width as usize).saturating_sub(fixed);
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "{}{} {}{}",
            cell("Device", dev_w),
            cell("Kernel", kernel_w),
            cell("CU", cu_w),
            "Captures (time since host start)"
        ),
        t.heading(),
    ))];
    let h = table.height.saturating_sub(1) as usize;
    let first = app.autorun.group.saturating_sub(h.saturating_sub(1));
    let mut buttons = app.autorun.buttons.borrow_mut();
    buttons.clear();
    for (row, (gi, g)) in d
        .capture_groups
        .iter()
        .enumerate()
        .skip(first)
        .take(h)
        .enumerate()
    {
        let y = table.y + 1 + row as u16;
        let is_row = gi == app.autorun.group;
        let row_style = if is_row { t.cursor() } else { Style::new() };
        let mut spans = vec![Span::styled(
            format!(
                "{}{} {}",
                cell(&format!("Device {}", g.device), dev_w),
                cell(&g.kernel, kernel_w),
                cell(&cu_label(g.compute_unit), cu_w)
            ),
            row_style,
        )];
        let labels: Vec<String> = g
            .captures
            .iter()
            .map(|&c| format!("[{}]", fmt::capture_label(d.captures[c].capture_ns)))
            .collect();
        // Scroll the selected row so its selected button is visible.
        let sel = app.autorun.capture.min(labels.len().saturating_sub(1));
        let mut start = 0;
        if is_row {
            while start < sel
                && labels[start..=sel]
                    .iter()
                    .map(|l| l.len() + 1)
                    .sum::<usize>()
                    > avail
            {
                start += 1;
            }
        }
        let mut used = 0;
        if start > 0 {
            spans.push(Span::styled("… ", t.dim()));
            used += 2;
        }
        for (i, l) in labels.iter().enumerate().skip(start) {
            if used + l.len() + 1 > avail {
                spans.push(Span::styled("…", t.dim()));
                break;
            }
            let style = if is_row && i == sel {
                t.selected()
            } else {
                t.label()
            };
            let x = table.x as usize + fixed + used;
            if x + l.len() <= (table.x + table.width) as usize {
                buttons.push((
                    Rect {
                        x: x as u16,
                        y,
                        width: l.len() as u16,
                        height: 1,
                    },
                    gi,
                    i,
                ));
            }
            spans.push(Span::styled(l.clone(), style));
            spans.push(Span::raw(" "));
            used += l.len() + 1;
        }
        lines.push(Line::from(spans));
    }
    drop(buttons);
    frame.render_widget(Paragraph::new(lines), table);

    if details_h == 0 {
        return;
    }
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(t.border())
        .title(Span::styled(" Capture ", t.heading()));
    let inner = block.inner(details);
    frame.render_widget(block, details);
    let Some(ci) = app.autorun_capture() else {
        return;
    };
    let c = &d.captures[ci];
    let g = &d.capture_groups[app.autorun.group.min(d.capture_groups.len() - 1)];
    let pos = g.captures.iter().position(|&x| x == ci).unwrap_or(0);
    let pi = d.program_index(c.program);
    let mut worst: Option<(f64, u32)> = None;
    for s in &c.sites {
        if let Some(st) = s.stall_pct() {
            if worst.is_none_or(|(w, _)| st > w) {
                let line = pi
                    .and_then(|p| d.programs()[p].site(s.site))
                    .map_or(0, |x| x.line);
                worst = Some((st, line));
            }
        }
    }
    let mut text = vec![
        Line::from(Span::styled(
            format!(
                "{} on device {}, compute unit {}: capture {} of {} at {} since host start",
                c.kernel,
                c.device,
                cu_label(c.compute_unit),
                pos + 1,
                g.captures.len(),
                fmt::capture_label(c.capture_ns)
            ),
            t.header(),
        )),
        Line::from(format!(
            "counters {}; {} access sites{}",
            match pos
                .checked_sub(1)
                .map(|p| d.captures[g.captures[p]].cleared)
            {
                Some(false) => "accumulated since the last capture that cleared them",
                Some(true) => "since the previous capture (it cleared them)",
                None => "since the kernel started",
            },
            c.sites.len(),
            worst.map_or(String::new(), |(w, l)| format!(
                "; highest stall {w:.1}% at line {l}"
            ))
        )),
        Line::from(Span::styled(
            "Enter: the Source Code view with only this capture's data; t: every capture summed \
             (captures are never averaged with enqueued runs)",
            t.dim(),
        )),
    ];
    text.truncate(inner.height as usize);
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), inner);
}
