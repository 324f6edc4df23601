//! The frontier counter and `engine count`'s choice of method on the
//! knight-graph counting challenge's whole table (every k x n board with
//! 3 ≤ k, n ≤ 12 and k·n ≤ 40, open and closed), side by side with the peer
//! in one run when its two programs are given.
//!
//! ```sh
//! cargo bench --bench frontier                          # this engine only
//! cargo bench --bench frontier -- --peer DIR [--rounds N]
//! ```
//!
//! `DIR` holds the peer's `knightspaths` and `knightscycles` built as its
//! README says; each runs its whole table when given no arguments. Rounds
//! alternate: the peer's paths, ours, the peer's cycles, ours. Each of our
//! counts is checked against the peer's printed value (undirected paths,
//! OEIS A390833; cycles, A392000).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use engine::count::method::{self, Method};
use engine::count::{self, CountOptions, frontier};
use engine::halt::{Limits, Never};
use engine::model::Symmetries;
use engine::model::{Board, Goal, MoveGraph, Piece};
use engine::progress::Progress;

/// The peer's boards, in its order: k ranks of n files.
fn boards() -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for k in 3..=12u32 {
        for n in 3..=12u32 {
            if k * n <= 40 {
                v.push((k, n));
            }
        }
    }
    v
}

/// One count by `engine count`'s rule: undirected paths or cycles, the
/// method used and the time.
fn ours(k: u32, n: u32, closed: bool) -> (u128, Method, Duration) {
    let t = Instant::now();
    let board = Board::rectangle(n, k);
    let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
    let goal = Goal {
        closed,
        ..Goal::default()
    };
    let choice = match method::choose(
        &board,
        &g,
        &goal,
        None,
        false,
        engine::budget::FRONTIER,
        Some(engine::budget::FRONTIER),
        &Limits::none(),
    ) {
        Ok(c) => c,
        Err(e) => panic!("{k}x{n}: {e}"),
    };
    let (tours, cycles) = match &choice.plan {
        Some(plan) => {
            let Ok(c) = frontier::count(
                &g,
                &goal,
                plan,
                &frontier::FrontierOptions::default(),
                &Limits::none(),
                &Progress::new(),
            ) else {
                panic!("{k}x{n}: the frontier refused");
            };
            (c.tours, c.cycles())
        }
        None => {
            let sym = Symmetries::of_board(&board, &g);
            let c = count::dfs::count(
                &g,
                &goal,
                &sym,
                &CountOptions::default(),
                &Limits::none(),
                &Progress::new(),
            );
            (c.tours, c.cycles())
        }
    };
    let value = if closed {
        cycles.unwrap_or(0)
    } else {
        tours / 2
    };
    (value, choice.method, t.elapsed())
}

/// Runs one of the peer's programs on its whole table: its values by board,
/// and the wall time.
fn peer(program: &PathBuf) -> (HashMap<(u32, u32), u128>, Duration) {
    let t = Instant::now();
    let out = Command::new(program)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let took = t.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut values = HashMap::new();
    for line in text.lines() {
        // A(k,n) = value  	Time: …
        let Some(rest) = line.strip_prefix("A(") else {
            continue;
        };
        let Some((kn, rest)) = rest.split_once(')') else {
            continue;
        };
        let Some((k, n)) = kn.split_once(',') else {
            continue;
        };
        let v = rest
            .trim_start_matches([' ', '='])
            .split_whitespace()
            .next();
        if let (Ok(k), Ok(n), Some(Ok(v))) = (k.parse(), n.parse(), v.map(str::parse)) {
            values.insert((k, n), v);
        }
    }
    (values, took)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let peer_dir = arg("--peer").map(PathBuf::from);
    let rounds: usize = arg("--rounds").and_then(|r| r.parse().ok()).unwrap_or(1);
    for round in 1..=rounds {
        for closed in [false, true] {
            let kind = if closed { "closed" } else { "open" };
            let peer_values = peer_dir.as_ref().map(|d| {
                let prog = d.join(if closed {
                    "knightscycles"
                } else {
                    "knightspaths"
                });
                peer(&prog)
            });
            let mut total = Duration::ZERO;
            let mut lines = Vec::new();
            for (k, n) in boards() {
                let (v, m, t) = ours(k, n, closed);
                total += t;
                if let Some((values, _)) = &peer_values {
                    match values.get(&(k, n)) {
                        Some(&p) => {
                            assert_eq!(p, v, "{k}x{n} {kind}: the peer says {p}, we say {v}")
                        }
                        None => panic!("{k}x{n} {kind}: no value from the peer"),
                    }
                }
                lines.push(format!(
                    "  {k}x{n} {kind}: {v} ({}, {:.1} ms)",
                    m.name(),
                    t.as_secs_f64() * 1e3
                ));
            }
            for l in &lines {
                println!("{l}");
            }
            print!(
                "round {round}, {kind}: engine {:.3} s for {} boards",
                total.as_secs_f64(),
                lines.len()
            );
            match peer_values {
                Some((_, pt)) => println!(
                    "; peer {:.3} s; peer / engine = {:.0}; every count agrees",
                    pt.as_secs_f64(),
                    pt.as_secs_f64() / total.as_secs_f64()
                ),
                None => println!(),
            }
        }
    }
}
