//! The Source Code tab: source lines with the access columns, the details pane (the GUI's
//! tooltips plus a diagnosis) and the file/kernel and access pop-ups.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::{cell, centered, rcell};
use crate::app::{App, Popup};
use crate::diagnosis::diagnose;
use crate::fmt;

/// Column widths of the source table; 0 means the column is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    /// Line number.
    pub line: usize,
    /// Source text.
    pub src: usize,
    /// Attributes.
    pub attrs: usize,
    /// Inline stall bar (left of Stall%).
    pub bar: usize,
    /// Stall%.
    pub stall: usize,
    /// Occupancy%.
    pub occ: usize,
    /// Bandwidth.
    pub bw: usize,
}

const STALL_W: usize = 7;
const OCC_W: usize = 10;
/// `12345.6MB/s eff 100%`: the bandwidth and its labelled efficiency.
const BW_W: usize = 21;
/// Inline stall bar: 8 cells of eighth blocks.
const BAR_W: usize = 8;

/// Chooses the columns that fit `width`: Attributes as wide as the longest one
/// (`attrs_need` characters, within limits) and the stall bars when there is room; the bars
/// go first, then whole Attributes, then Attributes, then Bandwidth, then Occupancy.
pub fn columns(width: usize, max_line: usize, attrs_need: usize) -> Columns {
    let line = max_line.max(1).to_string().len().max(3) + 2; // number + marker
    let base = Columns {
        line,
        src: 0,
        attrs: 0,
        bar: 0,
        stall: STALL_W,
        occ: OCC_W,
        bw: BW_W,
    };
    let fixed = |c: &Columns| {
        c.line
            + [c.attrs, c.bar, c.stall, c.occ, c.bw]
                .iter()
                .filter(|&&w| w > 0)
                .map(|w| w + 1)
                .sum::<usize>()
    };
    // Attributes whole when they fit beside 30 columns of source (with the stall bars beside
    // 40), else cut to what leaves 24 columns of source, else left out.
    let whole = attrs_need.clamp(10, 80);
    let cut = whole.min(width.saturating_sub(fixed(&base) + 1 + 24).max(18));
    // Wider layouts first.
    let candidates = [
        (
            Columns {
                attrs: whole,
                bar: BAR_W,
                ..base
            },
            40,
        ),
        (
            Columns {
                attrs: whole,
                ..base
            },
            30,
        ),
        (Columns { attrs: cut, ..base }, 24),
        (base, 16),
        (Columns { bw: 0, ..base }, 10),
        (
            Columns {
                bw: 0,
                occ: 0,
                ..base
            },
            6,
        ),
    ];
    for (c, min_src) in candidates {
        let f = fixed(&c);
        if width >= f + min_src {
            return Columns {
                src: width - f,
                ..c
            };
        }
    }
    Columns {
        line,
        src: width.saturating_sub(line),
        attrs: 0,
        bar: 0,
        stall: 0,
        occ: 0,
        bw: 0,
    }
}

/// A `w`-cell horizontal bar of `pct` percent in eighth blocks.
pub fn stall_bar(pct: f64, w: usize) -> String {
    const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let total = ((pct.clamp(0.0, 100.0) / 100.0) * (w * 8) as f64).round() as usize;
    let mut s = "█".repeat(total / 8);
    let part = total % 8;
    if part > 0 && s.chars().count() < w {
        s.push(EIGHTHS[part]);
    }
    let n = s.chars().count();
    s + &" ".repeat(w.saturating_sub(n))
}

/// Draws the tab into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    // The details pane: `d` collapses it; on short screens it takes 7 rows so the source
    // keeps most of the screen.
    let details_h = if !app.details || area.height < 16 {
        0
    } else if area.height < 30 {
        7
    } else {
        (area.height / 2).min(12)
    };
    let [info, table, details] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(details_h),
    ])
    .areas(area);
    draw_info(frame, app, info);
    draw_table(frame, app, table);
    if details_h > 0 {
        draw_details(frame, app, details);
    }
    match &app.source.popup {
        Some(Popup::Picker { entries, selected }) => {
            draw_picker(frame, app, area, entries, *selected)
        }
        Some(Popup::Accesses { selected }) => draw_accesses(frame, app, area, *selected),
        None => {}
    }
}

fn draw_info(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    let mut spans = vec![
        Span::styled("Counters: ", t.label()),
        Span::raw(d.scope_label(app.source.scope)),
    ];
    if let Some(f) = d.files.get(app.source.file) {
        spans.push(Span::styled("  File: ", t.label()));
        spans.push(Span::raw(format!(
            "{} ({}/{})",
            f.name,
            app.source.file + 1,
            d.files.len()
        )));
        if f.missing_text {
            spans.push(Span::styled(" [source text not recorded]", t.bad()));
        }
    }
    spans.push(Span::styled("  Kernel: ", t.label()));
    spans.push(Span::raw(match app.source.kernel_filter {
        Some(k) => d.kernel(k).name.clone(),
        None => "all".into(),
    }));
    spans.push(Span::styled(
        format!("  High-stall lines: {}", app.source.high_stall.len()),
        t.label(),
    ));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_table(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    let Some(file) = d.files.get(app.source.file) else {
        frame.render_widget(Paragraph::new("No kernel source in this profile."), area);
        return;
    };
    if area.height == 0 {
        return;
    }
    let n = app.file_len();
    // Attributes as wide as the longest of the file ("[n] " before it when a line has
    // several accesses).
    let attrs_need = file
        .sites_by_line
        .iter()
        .flat_map(|sites| {
            let extra = if sites.len() > 1 { 4 } else { 0 };
            sites
                .iter()
                .map(move |&g| d.attributes(g).chars().count() + extra)
        })
        .max()
        .unwrap_or(10);
    let cols = columns(area.width as usize, n, attrs_need);
    // Heading.
    let mut head = cell("Line", cols.line) + &cell("Source", cols.src);
    if cols.attrs > 0 {
        head += " ";
        head += &cell("Attributes", cols.attrs);
    }
    if cols.bar > 0 {
        head += " ";
        head += &cell("Stall", cols.bar);
    }
    if cols.stall > 0 {
        head += " ";
        head += &rcell("Stall%", cols.stall);
    }
    if cols.occ > 0 {
        head += " ";
        head += &rcell("Occupancy%", cols.occ);
    }
    if cols.bw > 0 {
        head += " ";
        head += &rcell("Bandwidth", cols.bw);
    }
    let rows_area = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(head, t.heading()))),
        Rect { height: 1, ..area },
    );
    app.source.area.set(rows_area);
    let h = rows_area.height as usize;
    if h == 0 {
        return;
    }
    // Keep the cursor visible.
    let mut scroll = app.source.scroll.get();
    if app.source.cursor < scroll {
        scroll = app.source.cursor;
    } else if app.source.cursor >= scroll + h {
        scroll = app.source.cursor + 1 - h;
    }
    scroll = scroll.min(n.saturating_sub(1));
    app.source.scroll.set(scroll);

    let mut lines = Vec::with_capacity(h);
    for line in scroll..(scroll + h).min(n) {
        let sites = app.line_sites(line);
        let is_cursor = line == app.source.cursor;
        let shown = if sites.is_empty() {
            None
        } else if is_cursor {
            sites.get(app.source.access.min(sites.len() - 1)).copied()
        } else {
            sites.get(app.default_access(line)).copied()
        };
        let counters = shown.and_then(|g| app.source.counters[g]);
        let stall = app.source.line_stall.get(line).copied().flatten();
        let mut style = Style::new();
        if let Some(s) = stall.and_then(|s| t.stall(s)) {
            style = s;
        }
        if is_cursor {
            style = if t.color && stall.and_then(|s| t.stall(s)).is_some() {
                style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                t.cursor()
            };
        }
        // The cursor is marked without colour too (NO_COLOR); search matches with `*`.
        let marker = if is_cursor {
            '>'
        } else if app.is_search_hit(line) {
            '*'
        } else {
            ' '
        };
        let num = format!("{marker}{:>w$} ", line + 1, w = cols.line.saturating_sub(2));
        let full = file.lines.get(line).map(String::as_str).unwrap_or("");
        let src: String = full.chars().skip(app.source.hscroll).collect();
        let src = src.as_str();
        let mut spans = vec![
            Span::styled(
                num,
                if is_cursor {
                    style
                } else {
                    t.dim().patch(style)
                },
            ),
            Span::styled(cell(src, cols.src), style),
        ];
        let mut rest = String::new();
        if cols.attrs > 0 {
            rest.push(' ');
            let a = match shown {
                Some(g) if sites.len() > 1 => format!("[{}] {}", sites.len(), d.attributes(g)),
                Some(g) => d.attributes(g),
                None => String::new(),
            };
            rest += &cell(&a, cols.attrs);
        }
        if cols.bar > 0 {
            rest.push(' ');
            rest += &match counters.and_then(|c| c.stall_pct()) {
                Some(p) if shown.is_some() => stall_bar(p, cols.bar),
                _ => " ".repeat(cols.bar),
            };
        }
        if cols.stall > 0 {
            rest.push(' ');
            let s = if shown.is_some() {
                fmt::pct(counters.and_then(|c| c.stall_pct()))
            } else {
                String::new()
            };
            rest += &rcell(&s, cols.stall);
        }
        if cols.occ > 0 {
            rest.push(' ');
            let s = if shown.is_some() {
                fmt::pct(counters.and_then(|c| c.occupancy_pct()))
            } else {
                String::new()
            };
            rest += &rcell(&s, cols.occ);
        }
        if cols.bw > 0 {
            rest.push(' ');
            let s = match (shown, counters) {
                (Some(g), Some(c)) if is_global(d, g) => match c.bandwidth_mbps(d.fmax_mhz()) {
                    Some(bw) => format!(
                        "{bw:.1}MB/s eff {}",
                        c.efficiency_pct()
                            .map_or("-".into(), |e| format!("{e:.0}%"))
                    ),
                    None => "-".into(),
                },
                _ => String::new(),
            };
            rest += &rcell(&s, cols.bw);
        }
        spans.push(Span::styled(rest, style));
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), rows_area);
}

fn is_global(d: &crate::data::ReportData, g: usize) -> bool {
    d.site(g).memory == fpgacl_profile_format::MemorySpace::Global
}

/// The details pane's metric lines for site `g` (the GUI's tooltips), also used by the text
/// report.
pub fn detail_lines(
    d: &crate::data::ReportData,
    counters: &[Option<fpgacl_profile_format::SiteCounters>],
    g: usize,
) -> Vec<String> {
    let s = d.site(g);
    let c = counters.get(g).copied().flatten();
    let mut v = Vec::new();
    v.push(format!(
        "{} {}:{}:{} {}{}",
        s.kernel,
        s.file,
        s.line,
        s.column,
        s.kind.as_str(),
        s.target
            .as_deref()
            .map(|t| format!(" {t}"))
            .unwrap_or_default()
    ));
    v.push(format!("Attributes: {}", d.attributes(g)));
    if matches!(
        s.memory,
        fpgacl_profile_format::MemorySpace::Global | fpgacl_profile_format::MemorySpace::Local
    ) {
        v.push(format!(
            "Statically coalesced: {}   width {} B",
            if s.coalesced { "yes" } else { "no" },
            s.width_bytes
        ));
    }
    match c {
        Some(c) => {
            v.push(format!(
                "Stall {}   Occupancy {}   Activity {}",
                fmt::pct(c.stall_pct()),
                fmt::pct(c.occupancy_pct()),
                fmt::pct(c.activity_pct())
            ));
            if s.memory == fpgacl_profile_format::MemorySpace::Global {
                let bw = c.bandwidth_mbps(d.fmax_mhz());
                let share = bw.and_then(|b| {
                    fpgacl_profile_format::metrics::bandwidth_share_pct(b, d.board_bandwidth())
                });
                v.push(format!(
                    "Bandwidth {}  efficiency {}  ({} of board)",
                    fmt::mbps(bw),
                    fmt::pct(c.efficiency_pct()),
                    fmt::pct(share)
                ));
                let words = d.word_bytes(g);
                let avg = c.average_burst_words(words);
                v.push(format!(
                    "Cache Hit {}   Unaligned Access {}",
                    fmt::pct(c.cache_hit_pct()),
                    fmt::pct(c.unaligned_pct())
                ));
                v.push(match avg {
                    Some(a) => format!(
                        "Average Burst Size={a:.1} (Max Burst={}) words of {words} B",
                        c.max_burst_bytes.div_ceil(words as u64)
                    ),
                    None => "Burst size: no bursts".into(),
                });
            }
        }
        None => v.push("No counters for this access in this view.".into()),
    }
    match d.enclosing_loop(g) {
        Some(l) => v.push(format!(
            "Loop at line {}: II {}{}{}",
            l.line,
            l.ii,
            if l.ii_reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", l.ii_reason)
            },
            if l.serialized { ", serialized" } else { "" }
        )),
        None => v.push("Not inside a loop.".into()),
    }
    v
}

fn draw_details(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(t.border())
        .title(Span::styled(" Details ", t.heading()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(g) = app.current_site() else {
        frame.render_widget(
            Paragraph::new(Span::styled(
                "No memory or channel access on this line. n / N jump to high-stall lines.",
                t.dim(),
            )),
            inner,
        );
        return;
    };
    let sites = app.line_sites(app.source.cursor);
    let mut left: Vec<Line> = Vec::new();
    if sites.len() > 1 {
        left.push(Line::from(Span::styled(
            format!(
                "Access {} of {} on this line ([ ] or Enter to choose)",
                app.source.access.min(sites.len() - 1) + 1,
                sites.len()
            ),
            t.label(),
        )));
    }
    for (i, l) in detail_lines(&app.data, &app.source.counters, g)
        .into_iter()
        .enumerate()
    {
        left.push(Line::from(if i == 0 {
            Span::styled(l, t.header())
        } else {
            Span::raw(l)
        }));
    }
    let mut right: Vec<Line> = vec![Line::from(Span::styled("Diagnosis", t.heading()))];
    let findings = diagnose(&app.data, g, &app.source.counters);
    for (_, f) in &findings {
        right.push(Line::from(f.headline.clone()));
    }
    let mut remedies: Vec<&str> = Vec::new();
    for (_, f) in &findings {
        for r in &f.remedies {
            if !remedies.contains(r) {
                remedies.push(r);
            }
        }
    }
    if !remedies.is_empty() {
        right.push(Line::from(Span::styled("What to try:", t.label())));
    }
    for r in remedies {
        right.push(Line::from(Span::styled(format!("- {r}"), t.dim())));
    }
    if inner.width >= 100 {
        // A column between the panes; long lines (the site's path, the loop's II reason) wrap.
        let [l, r] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .spacing(1)
            .areas(inner);
        frame.render_widget(Paragraph::new(left).wrap(Wrap { trim: false }), l);
        frame.render_widget(Paragraph::new(right).wrap(Wrap { trim: false }), r);
    } else {
        // One column: the access, its main numbers and the diagnosis first, then the tooltip
        // details, then the remedies, so the most useful lines survive a short pane.
        let headlines = 1 + findings.len();
        let split = left.len().min(if sites.len() > 1 { 4 } else { 3 });
        let mut lines: Vec<Line> = left.drain(..split).collect();
        let mut right = right.into_iter();
        lines.extend(right.by_ref().take(headlines));
        lines.extend(left);
        lines.extend(right);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    }
}

fn draw_picker(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    entries: &[(usize, Option<usize>)],
    selected: usize,
) {
    let t = app.theme;
    let d = &app.data;
    let h = (entries.len() as u16 + 2).min(area.height);
    let popup = centered(area, area.width.min(60), h);
    frame.render_widget(Clear, popup);
    let inner_h = h.saturating_sub(2) as usize;
    let first = selected.saturating_sub(inner_h.saturating_sub(1));
    let lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .skip(first)
        .take(inner_h)
        .map(|(i, &(f, k))| {
            let text = match k {
                None => format!(
                    "{} ({})",
                    d.files[f].name,
                    d.programs()[d.files[f].program].name
                ),
                Some(k) => format!(
                    "   kernel {}{}",
                    d.kernel(k).name,
                    if d.kernel(k).autorun {
                        " (autorun)"
                    } else {
                        ""
                    }
                ),
            };
            let style = if i == selected {
                t.selected()
            } else {
                Style::new()
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.border())
        .title(" File / kernel (Enter choose, Esc cancel) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

fn draw_accesses(frame: &mut Frame, app: &App, area: Rect, selected: usize) {
    let t = app.theme;
    let d = &app.data;
    let sites = app.line_sites(app.source.cursor);
    let h = (sites.len() as u16 + 2).min(area.height);
    let popup = centered(area, area.width.min(80), h);
    frame.render_widget(Clear, popup);
    let lines: Vec<Line> = sites
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let s = d.site(g);
            let c = app.source.counters[g];
            let text = format!(
                "col {:<3} {:<13} {}  stall {}  occ {}",
                s.column,
                s.kind.as_str(),
                d.attributes(g),
                fmt::pct(c.and_then(|c| c.stall_pct())),
                fmt::pct(c.and_then(|c| c.occupancy_pct()))
            );
            let style = if i == selected {
                t.selected()
            } else {
                Style::new()
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.border())
        .title(" Accesses on this line (Enter choose, Esc cancel) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_every_width() {
        for w in 0..300 {
            let c = columns(w, 1234, 60);
            let used = c.line
                + c.src
                + [c.attrs, c.bar, c.stall, c.occ, c.bw]
                    .iter()
                    .filter(|&&x| x > 0)
                    .map(|x| x + 1)
                    .sum::<usize>();
            assert!(used <= w.max(c.line), "width {w}: {c:?}");
        }
        // 200 columns: every column, Attributes whole.
        let c200 = columns(200, 10, 60);
        assert!(c200.attrs == 60 && c200.bw > 0 && c200.bar > 0, "{c200:?}");
        // 80 columns keep Bandwidth (Attributes go first).
        let c120 = columns(120, 10, 35);
        assert!(c120.attrs == 35 && c120.bw > 0, "{c120:?}");
        let c80 = columns(80, 10, 40);
        assert!(c80.bw > 0 && c80.attrs == 0 && c80.src >= 16, "{c80:?}");
        assert_eq!(columns(50, 10, 40).attrs, 0);
    }

    #[test]
    fn stall_bars() {
        assert_eq!(stall_bar(0.0, 4), "    ");
        assert_eq!(stall_bar(100.0, 4), "████");
        assert_eq!(stall_bar(50.0, 4), "██  ");
        assert_eq!(stall_bar(12.5, 4), "▌   ");
        assert_eq!(stall_bar(250.0, 2), "██");
    }
}
