//! The Kernel Execution tab: one lane per kernel (rows for overlapping runs), transfer lanes,
//! a time axis with the cursor, and the selected run's details. Each screen column is a binary
//! search in its row, so a million runs draw as fast as ten. When the profile has host gaps,
//! a host lane under the kernel lanes marks where the host enqueued a command after spending
//! its own time ([`HOST_MARK_NS`] or more: `▲`, `^` without colour; less: `·`); the gap
//! itself is wall-clock time and shows in the selected run's details, never as a bar.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::cell;
use crate::app::App;
use crate::fmt;
use crate::timeline::{Item, LaneKind};

/// Host gaps of at least this (1 ms) get the host lane's strong marker.
pub const HOST_MARK_NS: u64 = 1_000_000;

/// Time at the left edge of column `col` of `width` columns.
fn col_time(start: u64, span: u64, col: usize, width: usize) -> u64 {
    let t = start as u128 + (col as u128 * span as u128) / width.max(1) as u128;
    t.min(u64::MAX as u128) as u64
}

/// Draws the tab into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let tl = &app.data.timeline;
    if tl.is_empty() {
        frame.render_widget(
            Paragraph::new(
                "No kernel runs or memory transfers recorded. (Autorun kernels run \
                 continuously and appear only in the Autorun Captures tab.)",
            )
            .wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    if app.plots {
        super::plots::draw(frame, app, area);
        return;
    }
    let details_h = if app.details && area.height >= 12 {
        6
    } else {
        0
    };
    let host_h = u16::from(!app.data.host_gaps.is_empty() && area.height >= 4);
    let [axis, rows_area, host_area, details] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(host_h),
        Constraint::Length(details_h),
    ])
    .areas(area);

    let width = area.width as usize;
    let lane_label = |l: &crate::timeline::Lane| format!("{} ({})", l.label, l.count);
    let host_label = format!("host gaps ({})", app.data.host_gaps.len());
    let longest = tl
        .lanes
        .iter()
        .map(|l| lane_label(l).chars().count())
        .chain((host_h > 0).then(|| host_label.chars().count()))
        .max()
        .unwrap_or(4);
    let label_w = (longest + 2).min(width / 3).clamp(1, 28);
    let bars_w = width.saturating_sub(label_w);
    let bars = Rect {
        x: area.x + label_w as u16,
        y: rows_area.y,
        width: bars_w as u16,
        height: rows_area.height,
    };
    app.exec.bars.set(bars);
    let (v0, span) = (app.exec.view_start, app.exec.view_span.max(1));
    let cursor_col = if app.exec.cursor >= v0 && bars_w > 0 {
        let c = ((app.exec.cursor - v0) as u128 * bars_w as u128 / span as u128) as usize;
        (c < bars_w).then_some(c)
    } else {
        None
    };

    // Axis: time labels every ~14 columns and the cursor marker.
    // Autorun capture times: `◆` on the axis.
    let mut marks = vec![false; width];
    for c in &app.data.captures {
        if c.capture_ns >= v0 && bars_w > 0 {
            let col = ((c.capture_ns - v0) as u128 * bars_w as u128 / span as u128) as usize;
            if col < bars_w {
                marks[label_w + col] = true;
            }
        }
    }
    let mut axis_chars: Vec<char> = vec![' '; width];
    let step = 14;
    let mut col = 0;
    while col + 2 < bars_w {
        let label = format!("|{}", fmt::time(col_time(v0, span, col, bars_w)));
        let len = label.chars().count();
        if cursor_col.is_some_and(|c| c >= col && c < col + len)
            || (col..col + len).any(|c| marks.get(label_w + c) == Some(&true))
        {
            // Leave room for the cursor and capture markers rather than garbling the label.
            col += step;
            continue;
        }
        for (i, ch) in label.chars().enumerate() {
            if label_w + col + i < width && col + i < bars_w {
                axis_chars[label_w + col + i] = ch;
            }
        }
        col += step;
    }
    let head = fmt::fit("time ->", label_w.saturating_sub(1));
    for (i, ch) in head.chars().enumerate() {
        axis_chars[i] = ch;
    }
    let mut axis_spans = Vec::new();
    let mut run = String::new();
    for (i, &ch) in axis_chars.iter().enumerate() {
        let special = if cursor_col.is_some_and(|c| label_w + c == i) {
            Some(Span::styled("v", t.selected()))
        } else if marks[i] {
            Some(Span::styled("◆", t.header()))
        } else {
            None
        };
        match special {
            Some(sp) => {
                axis_spans.push(Span::styled(std::mem::take(&mut run), t.dim()));
                axis_spans.push(sp);
            }
            None => run.push(ch),
        }
    }
    axis_spans.push(Span::styled(run, t.dim()));
    frame.render_widget(Paragraph::new(Line::from(axis_spans)), axis);

    // Rows.
    let h = rows_area.height as usize;
    let rows = &app.exec.rows;
    let mut scroll = app.exec.row_scroll.get();
    if app.exec.row < scroll {
        scroll = app.exec.row;
    } else if h > 0 && app.exec.row >= scroll + h {
        scroll = app.exec.row + 1 - h;
    }
    app.exec.row_scroll.set(scroll);
    let selected_span = app.exec.selected.and_then(|p| {
        let r = tl.row(*rows.get(app.exec.row)?)?;
        (p < r.len()).then(|| r.span(p))
    });
    let mut lines = Vec::with_capacity(h);
    for (ri, &(li, rr)) in rows.iter().enumerate().skip(scroll).take(h) {
        let lane = &tl.lanes[li];
        let row = &lane.rows[rr];
        let is_sel_row = ri == app.exec.row;
        let label = if rr == 0 {
            lane_label(lane)
        } else {
            format!("  +{rr}")
        };
        let label_style = if is_sel_row { t.cursor() } else { t.label() };
        let mut spans = vec![Span::styled(
            cell(&label, label_w.saturating_sub(1)) + " ",
            label_style,
        )];
        let bar_style = match lane.kind {
            LaneKind::Kernel { .. } => t.bar(li),
            LaneKind::Transfer(_) => t.dim(),
        };
        // Run-length encode the cells by style.
        let mut cur = String::new();
        let mut cur_style: Option<Style> = None;
        for c in 0..bars_w {
            let t0 = col_time(v0, span, c, bars_w);
            let t1 = col_time(v0, span, c + 1, bars_w).max(t0.saturating_add(1));
            let covered = row.covers(t0, t1);
            let on_sel = is_sel_row && selected_span.is_some_and(|(s, e)| s < t1 && e > t0);
            // Without colour the selected run is drawn with its own character.
            let (ch, style) = if on_sel {
                (if t.color { '█' } else { '=' }, t.selected())
            } else if covered {
                (if t.color { '█' } else { '#' }, bar_style)
            } else if Some(c) == cursor_col {
                ('│', t.dim())
            } else {
                (' ', Style::new())
            };
            if cur_style != Some(style) && !cur.is_empty() {
                spans.push(Span::styled(
                    std::mem::take(&mut cur),
                    cur_style.unwrap_or_default(),
                ));
            }
            cur_style = Some(style);
            cur.push(ch);
        }
        if !cur.is_empty() {
            spans.push(Span::styled(cur, cur_style.unwrap_or_default()));
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), rows_area);

    if host_h > 0 {
        let mut spans = vec![Span::styled(
            cell(&host_label, label_w.saturating_sub(1)) + " ",
            t.label(),
        )];
        for c in 0..bars_w {
            let t0 = col_time(v0, span, c, bars_w);
            let t1 = col_time(v0, span, c + 1, bars_w).max(t0.saturating_add(1));
            let (ch, style) = match app.data.largest_host_gap_in(t0, t1) {
                Some(g) if g >= HOST_MARK_NS => (if t.color { "▲" } else { "^" }, t.header()),
                Some(_) => (if t.color { "·" } else { "." }, t.dim()),
                None if Some(c) == cursor_col => ("│", t.dim()),
                None => (" ", Style::new()),
            };
            spans.push(Span::styled(ch, style));
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), host_area);
    }

    if details_h > 0 {
        draw_details(frame, app, details);
    }
}

fn draw_details(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let d = &app.data;
    let view = format!(
        " view {} .. {} ({}), cursor {} ",
        fmt::time(app.exec.view_start),
        fmt::time(app.exec.view_start.saturating_add(app.exec.view_span)),
        fmt::time(app.exec.view_span),
        fmt::time(app.exec.cursor)
    );
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(t.border())
        .title(Span::styled(view, t.dim()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines: Vec<Line> = match app.exec_item() {
        Some(Item::Run(i)) => run_lines(app, i)
            .into_iter()
            .enumerate()
            .map(|(n, l)| {
                if n == 0 {
                    Line::from(Span::styled(l, t.header()))
                } else {
                    Line::from(l)
                }
            })
            .collect(),
        Some(Item::Transfer(i)) => {
            let Some(tr) = d.transfer(i) else {
                return;
            };
            let rate = if tr.duration_ns() > 0 {
                format!(
                    "{:.1} MB/s",
                    tr.bytes as f64 * 1e3 / tr.duration_ns() as f64
                )
            } else {
                "-".into()
            };
            vec![
                Line::from(Span::styled(
                    format!(
                        "memory {} of {} ({} bytes)  device {}  queue {}",
                        tr.direction.as_str(),
                        fmt::bytes(tr.bytes),
                        tr.bytes,
                        tr.device,
                        tr.queue
                    ),
                    t.header(),
                )),
                Line::from(format!(
                    "start {}  end {}  duration {}  rate {rate}",
                    fmt::time(tr.start_ns),
                    fmt::time(tr.end_ns),
                    fmt::time(tr.duration_ns())
                )),
            ]
        }
        None => vec![Line::from(Span::styled("No run in this lane.", t.dim()))],
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Description of run `i` for the details pane and the text report.
pub fn run_lines(app: &App, i: usize) -> Vec<String> {
    let d = &app.data;
    let Some(r) = d.run(i) else {
        return Vec::new();
    };
    let mut v = vec![
        format!(
            "{}  run #{}{}  device {}  queue {}   Enter: Source Code with this run's counters",
            r.kernel,
            r.run_id,
            if d.is_partial(i) {
                " (unfinished: latest snapshot)"
            } else {
                ""
            },
            r.device,
            r.queue
        ),
        format!(
            "start {}  end {}  duration {} ({} cycles)",
            fmt::time(r.start_ns),
            fmt::time(r.end_ns),
            fmt::time(r.duration_ns()),
            r.duration_cycles()
        ),
        format!(
            "global size {}  local size {}  offset {}  (work_dim {})",
            fmt::dims(r.global_size, r.work_dim),
            fmt::dims(r.local_size, r.work_dim),
            fmt::dims(r.global_offset, r.work_dim),
            r.work_dim
        ),
    ];
    let host_gap = d.host_gap_of_run(r.run_id).map(|g| {
        format!(
            "host gap before its enqueue: {} (host wall clock, not device time)",
            fmt::time(g)
        )
    });
    if r.sites.is_empty() {
        v.push("no counters (recorded with the timer only)".into());
        v.extend(host_gap);
        return v;
    }
    let pi = d.program_index(r.program);
    let mut worst: Option<(f64, u32, &str)> = None;
    let mut occ_sum = 0.0;
    let mut occ_n = 0;
    let mut bw_total = 0.0;
    for c in &r.sites {
        let site = pi.and_then(|p| d.programs()[p].site(c.site));
        if let Some(st) = c.stall_pct() {
            if worst.is_none_or(|(w, _, _)| st > w) {
                worst = Some((
                    st,
                    site.map_or(0, |s| s.line),
                    site.map_or("?", |s| s.kind.as_str()),
                ));
            }
        }
        if let Some(o) = c.occupancy_pct() {
            occ_sum += o;
            occ_n += 1;
        }
        if site.is_some_and(|s| s.memory == fpgacl_profile_format::MemorySpace::Global) {
            bw_total += c.bandwidth_mbps(d.fmax_mhz()).unwrap_or(0.0);
        }
    }
    let mut s = format!("counters: {} access sites", r.sites.len());
    if let Some((st, line, kind)) = worst {
        s.push_str(&format!("; highest stall {st:.1}% ({kind}, line {line})"));
    }
    if occ_n > 0 {
        s.push_str(&format!("; mean occupancy {:.1}%", occ_sum / occ_n as f64));
    }
    s.push_str(&format!("; global bandwidth {bw_total:.1} MB/s"));
    v.push(s);
    v.extend(host_gap);
    v
}
