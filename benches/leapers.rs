//! Tour counts of three leapers that have few published ones — the zebra
//! {2,3}, the giraffe {1,4} and the {2,5}-leaper — on every k x n board with
//! k ≤ n ≤ 10 (a k x n board and its n x k turn have the same counts), open
//! and closed, by the frontier counter; each checked by the depth-first
//! counter where that finishes within its time limit. Prints the table of
//! README.md's "New numbers".
//!
//! ```sh
//! cargo bench --bench leapers                        # 120 s per frontier count, 10 s per check
//! cargo bench --bench leapers -- --limit 600 --check 30 --max 8
//! ```
//!
//! A count proved impossible without search (`engine check`'s proofs: the
//! board falls apart, a colour class too big, squares with no moves, Knuth's
//! connectivity theorem) prints 0 with the proof's kind; a count that is
//! neither proved, nor finished within the limit, nor counted within the
//! memory budget prints `—`. Boards of fewer than three squares are left
//! out.

use std::time::{Duration, Instant};

use engine::analysis;
use engine::count::{self, CountOptions, frontier};
use engine::halt::{Limits, Never};
use engine::model::Symmetries;
use engine::model::{Board, Goal, MoveGraph, Piece};
use engine::progress::Progress;

/// One count's outcome.
enum Outcome {
    /// Proved impossible without search.
    Proved,
    /// Counted: directed tours (summed over every start), distinct cycles
    /// for closed tours, whether depth-first search agreed (None: it did
    /// not finish), the frontier's time and peak states.
    Counted {
        tours: u128,
        cycles: Option<u128>,
        checked: Option<Duration>,
        took: Duration,
        peak: u64,
    },
    /// Not counted (why).
    Not(String),
}

fn count_one(board: &Board, piece: &Piece, closed: bool, limit: f64, check: f64) -> Outcome {
    let Ok(g) = MoveGraph::build(board, piece, &Never);
    let goal = Goal {
        closed,
        ..Goal::default()
    };
    let Ok(a) = analysis::analyse_board(&g, &goal, board, piece, &Never);
    if a.impossible.is_some() {
        return Outcome::Proved;
    }
    let plan = match frontier::fit(board, &g) {
        Ok(p) => p,
        Err(e) => return Outcome::Not(e.to_string()),
    };
    let t = Instant::now();
    let f = match frontier::count(
        &g,
        &goal,
        &plan,
        &frontier::FrontierOptions::default(),
        &Limits::none().with_time(Some(limit)),
        &Progress::new(),
    ) {
        Ok(c) if c.complete() => c,
        Ok(_) => return Outcome::Not(format!("over {limit} s")),
        Err(e) => return Outcome::Not(e.to_string()),
    };
    let took = t.elapsed();
    let t = Instant::now();
    let d = count::dfs::count(
        &g,
        &goal,
        &Symmetries::of_board(board, &g),
        &CountOptions::default(),
        &Limits::none().with_time(Some(check)),
        &Progress::new(),
    );
    let checked = d.complete().then(|| {
        assert_eq!(
            (d.tours, d.cycles()),
            (f.tours, f.cycles()),
            "{} {piece:?} closed {closed}: depth-first and frontier disagree",
            board.describe()
        );
        t.elapsed()
    });
    Outcome::Counted {
        tours: f.tours,
        cycles: f.cycles(),
        checked,
        took,
        peak: f.peak_states,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<f64>().ok())
    };
    let limit = arg("--limit").unwrap_or(120.0);
    let check = arg("--check").unwrap_or(10.0);
    let max = arg("--max").map_or(10, |m| m as u32);
    let pieces = [
        ("zebra {2,3}", Piece::leaper(2, 3, 1)),
        ("giraffe {1,4}", Piece::leaper(1, 4, 1)),
        ("{2,5}-leaper", Piece::leaper(2, 5, 1)),
    ];
    println!("| piece | board | open tours (directed, every start) | closed tours (cycles) |");
    println!("|---|---|---|---|");
    for (name, piece) in &pieces {
        for k in 1..=max {
            for n in k..=max {
                if k * n < 3 {
                    // No frontier to speak of; left out of the table.
                    continue;
                }
                // Sweep along the longer side: n files of k squares.
                let board = Board::rectangle(n, k);
                let cells: Vec<String> = [false, true]
                    .into_iter()
                    .map(|closed| {
                        let o = count_one(&board, piece, closed, limit, check);
                        let cell = match &o {
                            Outcome::Proved => "0 (proof)".to_string(),
                            Outcome::Counted {
                                tours,
                                cycles,
                                checked,
                                ..
                            } => {
                                let v = if closed {
                                    cycles.unwrap_or(0)
                                } else {
                                    *tours
                                };
                                let mark = if checked.is_some() { " ✓" } else { "" };
                                format!("{}{mark}", group(v))
                            }
                            Outcome::Not(_) => "—".to_string(),
                        };
                        match &o {
                            Outcome::Counted {
                                took,
                                checked,
                                peak,
                                ..
                            } => eprintln!(
                                "{name} {k}x{n} {}: frontier {:.2} s, {peak} states at most; depth-first {}",
                                if closed { "closed" } else { "open" },
                                took.as_secs_f64(),
                                checked.map_or("did not finish".to_string(), |d| format!(
                                    "{:.2} s",
                                    d.as_secs_f64()
                                ))
                            ),
                            Outcome::Not(why) => eprintln!(
                                "{name} {k}x{n} {}: not counted: {why}",
                                if closed { "closed" } else { "open" }
                            ),
                            Outcome::Proved => {}
                        }
                        cell
                    })
                    .collect();
                if cells.iter().all(|c| c == "0 (proof)") {
                    continue;
                }
                println!("| {name} | {k}x{n} | {} | {} |", cells[0], cells[1]);
            }
        }
    }
}

/// `1234567` as `1,234,567`.
fn group(v: u128) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
