//! Plots of one kernel (Kernel Execution tab, `v`): its global memory bandwidth and mean
//! occupancy over time (one sparkline column per time slice, the mean of the runs that start
//! in it) and the histogram of its run durations, so thousands of runs read as a
//! distribution instead of one solid bar.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Paragraph, Sparkline};
use ratatui::Frame;

use crate::app::App;
use crate::fmt;
use crate::timeline::LaneKind;

/// Per-run figures of one kernel: (start ns, duration ns, global bandwidth MB/s if counted,
/// mean occupancy % if counted).
pub fn kernel_runs(
    app: &App,
    program: u32,
    kernel: &str,
) -> Vec<(u64, u64, Option<f64>, Option<f64>)> {
    let d = &app.data;
    let pi = d.program_index(program);
    d.runs()
        .filter(|r| r.program == program && r.kernel == kernel)
        .map(|r| {
            let (mut bw, mut occ, mut occ_n, mut counted) = (0.0, 0.0, 0usize, false);
            for c in &r.sites {
                let site = pi.and_then(|p| d.programs()[p].site(c.site));
                if site.is_some_and(|s| s.memory == fpgacl_profile_format::MemorySpace::Global) {
                    if let Some(b) = c.bandwidth_mbps(d.fmax_mhz()) {
                        bw += b;
                        counted = true;
                    }
                }
                if let Some(o) = c.occupancy_pct() {
                    occ += o;
                    occ_n += 1;
                }
            }
            (
                r.start_ns,
                r.duration_ns(),
                counted.then_some(bw),
                (occ_n > 0).then(|| occ / occ_n as f64),
            )
        })
        .collect()
}

/// Means of `value` per time slice: `width` slices of `[t0, t1]`, `None` where no run starts.
pub fn over_time(
    runs: &[(u64, u64, Option<f64>, Option<f64>)],
    value: impl Fn(&(u64, u64, Option<f64>, Option<f64>)) -> Option<f64>,
    t0: u64,
    t1: u64,
    width: usize,
) -> Vec<Option<f64>> {
    let width = width.max(1);
    let span = t1.saturating_sub(t0).max(1) as u128;
    let mut sum = vec![0.0; width];
    let mut n = vec![0usize; width];
    for r in runs {
        if let Some(v) = value(r) {
            let b = ((r.0.saturating_sub(t0) as u128 * width as u128) / span) as usize;
            let b = b.min(width - 1);
            sum[b] += v;
            n[b] += 1;
        }
    }
    sum.iter()
        .zip(&n)
        .map(|(s, &c)| (c > 0).then(|| s / c as f64))
        .collect()
}

/// Run-duration histogram: `bins` equal bins from the shortest to the longest run; returns
/// (bin start ns, count) per bin.
pub fn histogram(durations: &[u64], bins: usize) -> Vec<(u64, u64)> {
    let (Some(&lo), Some(&hi)) = (durations.iter().min(), durations.iter().max()) else {
        return Vec::new();
    };
    let bins = if hi == lo { 1 } else { bins.max(1) };
    let width = (hi - lo).div_ceil(bins as u64).max(1);
    let mut counts = vec![0u64; bins];
    for &d in durations {
        let b = (((d - lo) / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| (lo + i as u64 * width, c))
        .collect()
}

/// Draws the plots of the selected lane's kernel into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let t = app.theme;
    let tl = &app.data.timeline;
    let lane = app
        .exec
        .rows
        .get(app.exec.row)
        .and_then(|&(l, _)| tl.lanes.get(l));
    let Some((program, kernel)) = lane.and_then(|l| match &l.kind {
        LaneKind::Kernel { program, kernel } => Some((*program, kernel.clone())),
        LaneKind::Transfer(_) => None,
    }) else {
        frame.render_widget(
            Paragraph::new("Choose a kernel lane (j / k) to plot its runs; v: back to the lanes."),
            area,
        );
        return;
    };
    let runs = kernel_runs(app, program, &kernel);
    let (t0, t1) = (tl.start_ns, tl.end_ns.max(tl.start_ns + 1));
    let [title, bw_area, occ_area, hist_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Ratio(1, 4),
        Constraint::Ratio(1, 4),
        Constraint::Min(4),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("{kernel}: "), t.header()),
            Span::raw(format!(
                "{} run(s) from {} to {}   j/k other kernel  v back to the lanes",
                runs.len(),
                fmt::time(t0),
                fmt::time(t1)
            )),
        ])),
        title,
    );
    // Sparklines: one column per time slice inside the block's borders.
    let mut spark = |area: Rect, title: String, values: Vec<Option<f64>>, max: Option<f64>| {
        let peak = max.unwrap_or_else(|| values.iter().flatten().copied().fold(0.0, f64::max));
        let data: Vec<Option<u64>> = values.iter().map(|v| v.map(|x| x.round() as u64)).collect();
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(t.border())
            .title(Span::styled(title, t.heading()));
        let s = Sparkline::default()
            .block(block)
            .data(data)
            .max(peak.round().max(1.0) as u64)
            .style(t.bar(0));
        frame.render_widget(s, area);
    };
    let w = area.width as usize;
    let bw = over_time(&runs, |r| r.2, t0, t1, w);
    let bw_peak = bw.iter().flatten().copied().fold(0.0, f64::max);
    spark(
        bw_area,
        format!(" Global memory bandwidth over time (MB/s, peak {bw_peak:.1}) "),
        bw,
        None,
    );
    let occ = over_time(&runs, |r| r.3, t0, t1, w);
    let occ_mean = {
        let v: Vec<f64> = occ.iter().flatten().copied().collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            format!("{:.1}%", v.iter().sum::<f64>() / v.len() as f64)
        }
    };
    spark(
        occ_area,
        format!(" Mean occupancy over time (0-100%, mean {occ_mean}) "),
        occ,
        Some(100.0),
    );
    let durations: Vec<u64> = runs.iter().map(|r| r.1).collect();
    let bar_w: u16 = 7;
    let bins = ((hist_area.width / (bar_w + 1)) as usize).clamp(1, 24);
    let hist = histogram(&durations, bins);
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(t.border())
        .title(Span::styled(
            format!(
                " Run durations ({} runs; bars: runs per duration bin, labels: bin start) ",
                durations.len()
            ),
            t.heading(),
        ));
    let bars: Vec<Bar> = hist
        .iter()
        .map(|&(start, n)| {
            Bar::default()
                .value(n)
                .text_value(n.to_string())
                .label(Line::from(fmt::time(start)))
        })
        .collect();
    frame.render_widget(
        BarChart::default()
            .block(block)
            .bar_width(bar_w)
            .bar_gap(1)
            .bar_style(t.bar(1))
            .data(BarGroup::default().bars(&bars)),
        hist_area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bins_cover_every_run() {
        let d: Vec<u64> = (0..100).map(|i| 1000 + i * 10).collect();
        let h = histogram(&d, 10);
        assert_eq!(h.len(), 10);
        assert_eq!(h.iter().map(|b| b.1).sum::<u64>(), 100);
        assert_eq!(h[0], (1000, 10));
        assert!(h.iter().all(|b| b.1 == 10), "{h:?}");
        // All equal: one bin.
        assert_eq!(histogram(&[5, 5, 5], 8), vec![(5, 3)]);
        assert!(histogram(&[], 8).is_empty());
    }

    #[test]
    fn means_per_time_slice() {
        let runs = vec![
            (0, 1, Some(10.0), None),
            (1, 1, Some(30.0), None),
            (90, 1, Some(5.0), None),
        ];
        let v = over_time(&runs, |r| r.2, 0, 100, 10);
        assert_eq!(v[0], Some(20.0));
        assert_eq!(v[9], Some(5.0));
        assert!(v[1..9].iter().all(Option::is_none));
    }
}
