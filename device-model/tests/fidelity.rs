//! The calibration suite (`device-model/fidelity/`): public measurements of Intel FPGA OpenCL
//! kernels, each reproduced by a kernel written for fpgacl and run on the matching board at the
//! measured clock. Prints, per FPGA family, the median and mean relative error of the predicted
//! figure, the rank correlation (Spearman) between predicted and measured figures and the
//! pair ordering (pairs that hardware separates by more than 2%: share ordered alike, share
//! predicted as ties, within 0.5%). No model constant is tuned to these figures.
//!
//! `fidelity_subset` (in the test command) runs copy and add of every board;
//! `fidelity_full` (ignored: the benchmark, `cargo nextest run -p fpgacl-device-model --test
//! fidelity --run-ignored only`) runs every record.

mod timing_util;

use fpgacl_device_model::*;
use timing_util::*;

const KERNELS: &str = include_str!("../fidelity/stream.cl");
const DATA: &str = include_str!("../fidelity/stream_hpcc.json");

/// Float16 words per array (2^18 floats, 1 MiB per array).
const WORDS: u64 = 1 << 14;

struct Point {
    id: String,
    family: String,
    measured: f64,
    predicted: f64,
}

fn predict(rec: &serde_json::Value) -> Point {
    let s = |k: &str| rec[k].as_str().unwrap_or_else(|| panic!("{k}")).to_string();
    let board = BoardSet::select(Some(&s("board")))
        .expect("board")
        .with_kernel_clock(rec["clock_mhz"].as_f64().expect("clock"));
    let kernel = s("kernel");
    let k = kit_on(KERNELS, 1, board.clone());
    let floats = (WORDS * 16) as usize;
    let a = buf(&(0..floats).map(|i| i as f32).collect::<Vec<_>>());
    let b = buf(&(0..floats).map(|i| 2.0 * i as f32).collect::<Vec<_>>());
    let c = buf(&vec![0f32; floats]);
    let q = val(3.0f32);
    let n = val(WORDS as u32);
    let (args, arrays, out, want): (Vec<ArgBinding>, u64, _, fn(f32) -> f32) = match kernel.as_str()
    {
        "stream_copy" => (
            vec![ArgBinding::buffer(&a), ArgBinding::buffer(&c), n],
            2,
            &c,
            |i| i,
        ),
        "stream_scale" => (
            vec![ArgBinding::buffer(&a), ArgBinding::buffer(&c), q, n],
            2,
            &c,
            |i| 3.0 * i,
        ),
        "stream_add" => (
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&b),
                ArgBinding::buffer(&c),
                n,
            ],
            3,
            &c,
            |i| 3.0 * i,
        ),
        "stream_triad" => (
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&b),
                ArgBinding::buffer(&c),
                q,
                n,
            ],
            3,
            &c,
            |i| i + 6.0 * i,
        ),
        other => panic!("no kernel {other}"),
    };
    let (_r, t) = k.run(&LaunchSpec::task(k.index(&kernel), args));
    let mut bytes = vec![0u8; floats * 4];
    out.read(0, &mut bytes).unwrap();
    for i in [0usize, 1, 17, floats - 1] {
        let got = f32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(got, want(i as f32), "{kernel}[{i}]");
    }
    let seconds = t.cycles as f64 / (board.kernel_clock_mhz * 1e6);
    let predicted = (arrays * WORDS * 64) as f64 / seconds / 1e6;
    Point {
        id: s("id"),
        family: s("family"),
        measured: rec["measured_mbps"].as_f64().expect("measured"),
        predicted,
    }
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        for &k in &idx[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation (Pearson on ranks, ties averaged).
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    if vx == 0.0 || vy == 0.0 {
        f64::NAN
    } else {
        cov / (vx * vy).sqrt()
    }
}

/// Per family: (family, points, median |error|, mean |error|, Spearman, pairs ordered alike /
/// separated pairs, pairs predicted as ties / separated pairs).
fn summarise(points: &[Point]) -> Vec<(String, usize, f64, f64, f64, f64, f64)> {
    let mut fams: Vec<String> = points.iter().map(|p| p.family.clone()).collect();
    fams.sort();
    fams.dedup();
    let mut out = Vec::new();
    for f in fams {
        let ps: Vec<&Point> = points.iter().filter(|p| p.family == f).collect();
        let mut err: Vec<f64> = ps
            .iter()
            .map(|p| ((p.predicted - p.measured) / p.measured).abs())
            .collect();
        err.sort_by(f64::total_cmp);
        let median = if err.len() % 2 == 1 {
            err[err.len() / 2]
        } else {
            (err[err.len() / 2 - 1] + err[err.len() / 2]) / 2.0
        };
        let mean = err.iter().sum::<f64>() / err.len() as f64;
        let m: Vec<f64> = ps.iter().map(|p| p.measured).collect();
        let pr: Vec<f64> = ps.iter().map(|p| p.predicted).collect();
        let (mut sep, mut alike, mut ties) = (0, 0, 0);
        for i in 0..ps.len() {
            for j in i + 1..ps.len() {
                if (m[i] - m[j]).abs() <= 0.02 * m[i].max(m[j]) {
                    continue;
                }
                sep += 1;
                if (pr[i] - pr[j]).abs() <= 0.005 * pr[i].max(pr[j]) {
                    ties += 1;
                } else if (m[i] < m[j]) == (pr[i] < pr[j]) {
                    alike += 1;
                }
            }
        }
        let share = |x: usize| {
            if sep == 0 {
                f64::NAN
            } else {
                x as f64 / sep as f64
            }
        };
        out.push((
            f,
            ps.len(),
            median,
            mean,
            spearman(&m, &pr),
            share(alike),
            share(ties),
        ));
    }
    out
}

fn run(
    filter: impl Fn(&serde_json::Value) -> bool,
) -> Vec<(String, usize, f64, f64, f64, f64, f64)> {
    let data: serde_json::Value = serde_json::from_str(DATA).expect("fidelity data parses");
    let recs = data["records"].as_array().expect("records");
    let mut points = Vec::new();
    for r in recs.iter().filter(|r| filter(r)) {
        assert!(
            r["source"]
                .as_str()
                .is_some_and(|s| s.starts_with("https://")),
            "every figure cites its source"
        );
        let p = predict(r);
        eprintln!(
            "{:<32} measured {:>8.0} MB/s predicted {:>8.0} MB/s error {:>+6.1}%",
            p.id,
            p.measured,
            p.predicted,
            100.0 * (p.predicted - p.measured) / p.measured
        );
        points.push(p);
    }
    let s = summarise(&points);
    for (f, n, med, mean, rho, alike, ties) in &s {
        eprintln!(
            "{f:<11} {n:>2} points: median |error| {:.1}%, mean {:.1}%, Spearman {rho:.3}, \
             pairs ordered alike {:.0}%, predicted ties {:.0}%",
            100.0 * med,
            100.0 * mean,
            100.0 * alike,
            100.0 * ties
        );
    }
    s
}

#[test]
fn fidelity_subset() {
    let s = run(|r| {
        let k = r["kernel"].as_str().unwrap_or("");
        k == "stream_copy" || k == "stream_add"
    });
    assert_eq!(s.len(), 2, "Arria 10 and Stratix 10 records");
    for (f, n, med, mean, _, alike, ties) in &s {
        assert!(*n >= 2 && med.is_finite() && mean.is_finite(), "{f}");
        // Issue 11's bar, held since the DRAM rules D1-D7 (before them the Arria 10 copy and
        // add were both predicted at the banks' peak: 22% off and tied).
        assert!(*med <= 0.10, "{f}: median error {med}");
        assert_eq!(
            (*alike, *ties),
            (1.0, 0.0),
            "{f}: copy and add ordered as measured"
        );
    }
}

#[test]
#[ignore = "the full calibration benchmark"]
fn fidelity_full() {
    let s = run(|_| true);
    assert_eq!(s.iter().map(|x| x.1).sum::<usize>(), 28);
}

#[test]
fn rank_statistics() {
    assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), 1.0);
    assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
    assert_eq!(ranks(&[5.0, 1.0, 5.0]), vec![1.5, 0.0, 1.5]);
}
