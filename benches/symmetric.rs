//! Measurements of the symmetric-tour solver (a bench binary, not
//! criterion: the figures are sweeps over board sizes and single timings).
//!
//! ```sh
//! cargo bench --bench symmetric                   # the targets: 8x8 and 30x30, and more
//! cargo bench --bench symmetric -- sweep 4 200    # closed knight's tours on n x n, each symmetry
//! cargo bench --bench symmetric -- quarter 1 15   # the smallest quarter-turn tours
//! ```
//!
//! Every puzzle goes through `engine::solve::runner::solve`, the path `engine
//! run` takes: proofs, the solver, then the verifier with the symmetry.

use std::time::{Duration, Instant};

use engine::halt::Never;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::NoObserver;
use engine::solve::{Limits, Outcome, Report, Run, runner};

/// Solves a closed knight's tour of `board` with `symmetry`, within
/// `secs`; the report and the wall time.
fn solve(board: &str, symmetry: &str, secs: f64) -> (Report, Duration) {
    let text = format!(
        "Puzzle(board: \"{board}\", piece: \"knight\", tour: Closed, symmetry: {symmetry})"
    );
    let p = Puzzle::parse("bench.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let Ok(g) = p.graph(&Never);
    let progress = Progress::new();
    let limits = Limits::none().with_time(Some(secs));
    let r = runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(limits, &progress, NoObserver),
    )
    .unwrap_or_else(|e| panic!("{board} {symmetry}: {e}"));
    (r, started.elapsed())
}

fn word(r: &Report) -> &'static str {
    match r.outcome {
        Outcome::Found(_) => "found",
        Outcome::Impossible(_) => "none",
        Outcome::GaveUp { .. } => "gave up",
        Outcome::Interrupted { .. } => "interrupted",
    }
}

/// The median wall time of `runs` solves.
fn timing(board: &str, symmetry: &str, runs: usize) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let (r, t) = solve(board, symmetry, 600.0);
        times.push(t);
        last = Some(r);
    }
    times.sort();
    let r = last.unwrap_or_else(|| panic!("no run"));
    println!(
        "{board:>10} {symmetry:<14} {:>8}  median {:>10.3} ms of {runs}  (nodes {}, rotations {}, restarts {})",
        word(&r),
        times[runs / 2].as_secs_f64() * 1e3,
        r.stats.nodes,
        r.stats.rotations,
        r.stats.restarts
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let num = |i: usize, d: u32| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    match args.first().map(String::as_str) {
        Some("sweep") => {
            // Every n×n from A to B, each symmetry: found, none (proved) or gave up.
            let (a, b) = (num(1, 4), num(2, 100));
            for sym in ["Rotate180", "Rotate90", "MirrorFiles", "MirrorDiagonal"] {
                let mut found = Vec::new();
                let mut gave_up = Vec::new();
                let mut slowest = (Duration::ZERO, 0);
                let started = Instant::now();
                for n in a..=b {
                    let (r, t) = solve(&format!("{n}x{n}"), sym, 60.0);
                    match r.outcome {
                        Outcome::Found(_) => found.push(n),
                        Outcome::Impossible(_) => {}
                        _ => gave_up.push(n),
                    }
                    if t > slowest.0 {
                        slowest = (t, n);
                    }
                }
                println!(
                    "{sym}: n = {a}..={b}: found on {} boards, gave up on {:?}; slowest {:.1} ms (n = {}); total {:.2} s",
                    found.len(),
                    gave_up,
                    slowest.0.as_secs_f64() * 1e3,
                    slowest.1,
                    started.elapsed().as_secs_f64()
                );
                println!("  found: {found:?}");
            }
        }
        Some("quarter") => {
            let (a, b) = (num(1, 1), num(2, 15));
            for n in a..=b {
                let (r, t) = solve(&format!("{n}x{n}"), "Rotate90", 600.0);
                println!("{n}x{n}: {} in {:.3} ms", word(&r), t.as_secs_f64() * 1e3);
                if n % 2 == 1 && n > 1 {
                    let c = format!("({},{})", n / 2, n / 2);
                    let (r, t) = solve(&format!("{n}x{n} - {c}"), "Rotate90", 600.0);
                    println!(
                        "{n}x{n} without its centre: {} in {:.3} ms (nodes {})",
                        word(&r),
                        t.as_secs_f64() * 1e3,
                        r.stats.nodes
                    );
                }
            }
        }
        _ => {
            timing("8x8", "Rotate180", 101);
            timing("8x8", "Rotate90", 101);
            timing("8x8", "MirrorFiles", 101);
            timing("6x6", "Rotate90", 101);
            timing("30x30", "Rotate180", 21);
            timing("30x30", "Rotate90", 21);
            timing("100x100", "Rotate180", 5);
            timing("302x302", "Rotate90", 3);
            timing("300x300", "Rotate180", 3);
        }
    }
}
