//! Measurements of the Warnsdorff solver (a bench binary, not criterion:
//! most figures are single runs on boards of millions of squares, and the
//! sweeps count failures rather than time).
//!
//! ```sh
//! cargo bench --bench warnsdorff                      # timings (1000x1000, 4000x4000)
//! cargo bench --bench warnsdorff -- pipeline 4000     # run's phases on 4000x4000
//! cargo bench --bench warnsdorff -- sweep 5 2000      # open tours from a1 on n x n
//! cargo bench --bench warnsdorff -- compare 5 300     # tie-break rules, no restarts
//! cargo bench --bench warnsdorff -- rect 5 60         # open tours on every m x n
//! cargo bench --bench warnsdorff -- closed 6 1000     # closed tours on even n x n
//! cargo bench --bench warnsdorff -- leapers           # giraffe, zebra, torus knight
//! ```
//!
//! Every tour found is checked with `engine::verify::verify`.

use std::time::{Duration, Instant};

use engine::halt::Never;
use engine::model::{Board, MoveGraph, Piece, Topology};
use engine::progress::Progress;
use engine::search::event::NoObserver;
use engine::solve::warnsdorff::{self, DEFAULT_RESTARTS, Policy, Second, TieBreak};
use engine::solve::{Goal, Limits, Outcome, Report, Run};

fn knight() -> Piece {
    Piece::leaper(1, 2, 1)
}

fn from_a1() -> Goal {
    Goal {
        start: Some(0),
        ..Goal::default()
    }
}

fn closed() -> Goal {
    Goal {
        closed: true,
        ..Goal::default()
    }
}

/// Runs `policy` with `restarts` and checks any tour found.
fn run(
    board: &Board,
    piece: &Piece,
    g: &MoveGraph,
    goal: &Goal,
    policy: Policy,
    restarts: u32,
) -> Report {
    let progress = Progress::new();
    let r = warnsdorff::solve_with(
        g,
        goal,
        policy,
        restarts,
        0,
        Run::new(Limits::none(), &progress, NoObserver),
    );
    check(board, piece, goal, r)
}

/// Verifies the tour of `r`, if any.
fn check(board: &Board, piece: &Piece, goal: &Goal, r: Report) -> Report {
    if let Outcome::Found(t) = &r.outcome
        && let Err(e) = engine::verify::verify(board, piece, goal, t)
    {
        panic!("{}: invalid tour: {e}", board.describe());
    }
    r
}

fn found(r: &Report) -> bool {
    matches!(r.outcome, Outcome::Found(_))
}

fn lookahead() -> Policy {
    Policy::of(TieBreak::Lookahead)
}

/// CPU time all threads of this process have run, from Linux's scheduler
/// statistics (the machine is shared, so wall time alone overstates the
/// cost of a run when others are busy).
fn cpu_now() -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| {
            s.split_whitespace()
                .next()
                .and_then(|t| t.parse::<u64>().ok())
        })
        .sum();
    Duration::from_nanos(ns)
}

/// Wall and CPU time of one run.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1?} wall / {:.1?} cpu", self.wall, self.cpu)
    }
}

/// The fastest of `k` runs of `f` (by CPU time).
fn best_of<T>(k: usize, mut f: impl FnMut() -> T) -> (Timing, T) {
    let mut best = Timing {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };
    let mut out = None;
    for _ in 0..k {
        let (t, c) = (Instant::now(), cpu_now());
        let v = f();
        let run = Timing {
            wall: t.elapsed(),
            cpu: cpu_now() - c,
        };
        if run.cpu < best.cpu {
            best = run;
        }
        out = Some(v);
    }
    (best, out.unwrap_or_else(|| unreachable!()))
}

/// The solver with default options, unverified (for timing).
fn solve(g: &MoveGraph, goal: &Goal) -> Report {
    let progress = Progress::new();
    warnsdorff::solve_with(
        g,
        goal,
        Policy::of(TieBreak::Lookahead),
        DEFAULT_RESTARTS,
        0,
        Run::new(Limits::none(), &progress, NoObserver),
    )
}

/// The repairs and rotations a run made, for people.
fn repairs(r: &Report) -> String {
    format!(
        "{} repairs, {} rotations",
        r.stats.repairs, r.stats.rotations
    )
}

fn timings(sizes: &[u32]) {
    let piece = knight();
    for &n in sizes {
        let (tb, board) = best_of(3, || Board::rectangle(n, n));
        let (tg, g) = best_of(3, || {
            MoveGraph::build(&board, &piece, &Never).unwrap_or_else(|never| match never {})
        });
        let runs = if n <= 1000 { 5 } else { 2 };
        let (ts, r) = best_of(runs, || solve(&g, &from_a1()));
        let r = check(&board, &piece, &from_a1(), r);
        println!(
            "{n}x{n} open from a1: board {tb}, graph {tg}, search {ts} (best of {runs}), found {}, restarts {}, {}",
            found(&r),
            r.stats.restarts,
            repairs(&r)
        );
        if n <= 2000 {
            let (tc, r) = best_of(3, || solve(&g, &closed()));
            let r = check(&board, &piece, &closed(), r);
            println!(
                "{n}x{n} closed:       search {tc} (best of 3), found {}, restarts {}, {}",
                found(&r),
                r.stats.restarts,
                repairs(&r)
            );
        }
    }
}

/// The whole pipeline of `engine run` on an open n x n knight's tour from
/// a1: each phase alone, then `runner::solve` as `engine run` calls it
/// (proofs beside the search, then the verifier) and the text output.
fn pipeline(n: u32) {
    let text =
        format!(r#"Puzzle(board: "{n}x{n}", piece: "knight", start: "a1", solver: Warnsdorff())"#);
    let (tp, p) = best_of(1, || {
        engine::puzzle::Puzzle::parse("bench.ron", &text).unwrap_or_else(|e| panic!("{e}"))
    });
    let (tg, g) = best_of(1, || p.graph(&Never).unwrap_or_else(|never| match never {}));
    let (tc, a) = best_of(1, || {
        engine::analysis::analyse_board(&g, &p.goal, &p.board, &p.piece, &Never)
            .unwrap_or_else(|never| match never {})
    });
    assert!(a.impossible.is_none());
    let (ts, r) = best_of(1, || {
        engine::solve::Solver::solve_quietly(&warnsdorff::WarnsdorffOptions::default(), &p.task(&g))
    });
    let Outcome::Found(t) = &r.outcome else {
        panic!("no tour");
    };
    let (tv, ok) = best_of(1, || engine::verify::verify(&p.board, &p.piece, &p.goal, t));
    assert_eq!(ok, Ok(()));
    drop(r);
    println!(
        "{n}x{n} phases alone: parse + board {tp}; graph {tg}; check {tc}; search {ts}; verify {tv}"
    );
    let total = (Instant::now(), cpu_now());
    let (tp, p) = best_of(1, || {
        engine::puzzle::Puzzle::parse("bench.ron", &text).unwrap_or_else(|e| panic!("{e}"))
    });
    let (tg, g) = best_of(1, || p.graph(&Never).unwrap_or_else(|never| match never {}));
    let (tr, r) = best_of(1, || {
        let progress = Progress::new();
        engine::solve::runner::solve(
            &p.task(&g),
            p.solver,
            Run::new(Limits::none(), &progress, NoObserver),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    });
    assert!(matches!(r.outcome, Outcome::Found(_)));
    // Streamed as `engine run` does, to a sink that only counts the bytes.
    let (to, bytes) = best_of(1, || {
        let mut sink = Counted(0);
        engine::render::text::write_report_text(
            &mut sink,
            "bench",
            &p.board,
            false,
            &r,
            Default::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        sink.0
    });
    let all = Timing {
        wall: total.0.elapsed(),
        cpu: cpu_now() - total.1,
    };
    println!(
        "{n}x{n} as `engine run`: parse + board {tp}; graph {tg}; solve (proofs beside the search, then verify) {tr}; text ({} MB) {to}; total {all}",
        bytes >> 20
    );
}

/// A writer that keeps nothing and counts bytes.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Open tours from a1 on every n x n, default settings; failures listed.
fn sweep(lo: u32, hi: u32, step: usize) {
    let piece = knight();
    let started = Instant::now();
    let mut fails = Vec::new();
    let mut restarted = Vec::new();
    let mut repaired = 0;
    let mut count = 0;
    for n in (lo..=hi).step_by(step) {
        count += 1;
        let board = Board::rectangle(n, n);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        let r = run(
            &board,
            &piece,
            &g,
            &from_a1(),
            lookahead(),
            DEFAULT_RESTARTS,
        );
        if !found(&r) {
            fails.push(n);
        } else if r.stats.restarts > 0 {
            restarted.push((n, r.stats.restarts));
        }
        if r.stats.repairs > 0 || r.stats.rotations > 0 {
            repaired += 1;
        }
        if n % 100 == 0 {
            eprintln!("… {n} ({:.0?})", started.elapsed());
        }
    }
    println!(
        "open knight's tours from a1, n x n for n = {lo}..={hi} step {step}: {count} boards, {} failed {:?}; {} needed rotations; restarts needed on {:?}; total {:.1?}",
        fails.len(),
        fails,
        repaired,
        restarted,
        started.elapsed()
    );
}

/// Tie-break rules compared on n x n from a1: first walk only, no restarts.
fn compare(lo: u32, hi: u32) {
    let piece = knight();
    let plain = |tie: TieBreak, second: Second, repair: bool| Policy {
        second,
        repair,
        ..Policy::of(tie)
    };
    let rules: [(&str, Policy); 7] = [
        (
            "first (textbook)",
            plain(TieBreak::First, Second::Off, false),
        ),
        (
            "first + Pohl min",
            plain(TieBreak::First, Second::Min, false),
        ),
        (
            "first + Pohl sum",
            plain(TieBreak::First, Second::Sum, false),
        ),
        (
            "random (seed 0)",
            plain(TieBreak::Random, Second::Off, false),
        ),
        ("lookahead", plain(TieBreak::Lookahead, Second::Off, false)),
        ("first + repair", plain(TieBreak::First, Second::Off, true)),
        (
            "lookahead + repair",
            plain(TieBreak::Lookahead, Second::Off, true),
        ),
    ];
    for (name, policy) in rules {
        let started = Instant::now();
        let mut fails = Vec::new();
        for n in lo..=hi {
            let board = Board::rectangle(n, n);
            let Ok(g) = MoveGraph::build(&board, &piece, &Never);
            if !found(&run(&board, &piece, &g, &from_a1(), policy, 0)) {
                fails.push(n);
            }
        }
        let first = fails.first().map_or("none".to_string(), u32::to_string);
        println!(
            "{name:20} n = {lo}..={hi}: {:3} failures, first at {first}; {:.1?}",
            fails.len(),
            started.elapsed()
        );
        if fails.len() <= 12 {
            println!("{:20} {:?}", "", fails);
        }
    }
}

/// Open tours from a1 on every m x n rectangle.
fn rect(lo: u32, hi: u32) {
    let piece = knight();
    let started = Instant::now();
    let mut fails = Vec::new();
    let mut count = 0;
    for m in lo..=hi {
        for n in lo..=hi {
            let board = Board::rectangle(m, n);
            let Ok(g) = MoveGraph::build(&board, &piece, &Never);
            count += 1;
            if !found(&run(
                &board,
                &piece,
                &g,
                &from_a1(),
                lookahead(),
                DEFAULT_RESTARTS,
            )) {
                fails.push((m, n));
            }
        }
    }
    println!(
        "open tours from a1 on m x n, {lo} <= m, n <= {hi}: {count} boards, {} failed {:?}; {:.1?}",
        fails.len(),
        fails,
        started.elapsed()
    );
}

/// Closed tours on even n x n.
fn closed_sweep(lo: u32, hi: u32, step: usize) {
    let piece = knight();
    let started = Instant::now();
    let mut fails = Vec::new();
    let mut count = 0;
    let mut slowest = (Duration::ZERO, 0);
    for n in (lo..=hi).step_by(step).filter(|n| n % 2 == 0) {
        let board = Board::rectangle(n, n);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        let t = Instant::now();
        let r = run(&board, &piece, &g, &closed(), lookahead(), DEFAULT_RESTARTS);
        slowest = slowest.max((t.elapsed(), n));
        count += 1;
        if !found(&r) {
            fails.push(n);
        }
    }
    println!(
        "closed tours on even n x n, n = {lo}..={hi} step {step}: {count} boards, {} failed {:?}; slowest {:.1?} at n = {}; total {:.1?}",
        fails.len(),
        fails,
        slowest.0,
        slowest.1,
        started.elapsed()
    );
}

/// Open tours of other leapers on n x n, from every... the first square.
fn leapers() {
    let cases: [(&str, Piece, Topology, u32, u32); 4] = [
        (
            "giraffe (1,4)",
            Piece::leaper(1, 4, 1),
            Topology::Plain,
            1,
            120,
        ),
        (
            "zebra (2,3)",
            Piece::leaper(2, 3, 1),
            Topology::Plain,
            1,
            120,
        ),
        (
            "camel (1,3)",
            Piece::leaper(1, 3, 1),
            Topology::Plain,
            1,
            40,
        ),
        (
            "knight, torus",
            Piece::leaper(1, 2, 1),
            Topology::Torus,
            1,
            200,
        ),
    ];
    for (name, piece, topology, lo, hi) in cases {
        let started = Instant::now();
        let mut found_on = Vec::new();
        let mut failed = Vec::new();
        let mut proven = Vec::new();
        for n in lo..=hi {
            let board = Board::new(n, n, topology, |_| true);
            let Ok(g) = MoveGraph::build(&board, &piece, &Never);
            let goal = Goal::default();
            let Ok(analysis) = engine::analysis::analyse(&g, &goal, &board, &Never);
            if analysis.impossible.is_some() {
                proven.push(n);
                continue;
            }
            let r = run(&board, &piece, &g, &goal, lookahead(), DEFAULT_RESTARTS);
            if found(&r) {
                found_on.push(n);
            } else {
                failed.push(n);
            }
        }
        println!(
            "{name}: n x n, n = {lo}..={hi}: found on {} boards ({}), no tour by `check` on {:?}, gave up on {:?}; {:.1?}",
            found_on.len(),
            ranges(&found_on),
            proven,
            failed,
            started.elapsed()
        );
    }
}

/// `[5, 6, 7, 9]` as `5..=7, 9`.
fn ranges(v: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}..={}", v[i], v[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let num = |i: usize, d: u32| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    match args.first().map(String::as_str) {
        None | Some("timing") => {
            let sizes: Vec<u32> = if args.len() > 1 {
                (1..args.len()).map(|i| num(i, 1000)).collect()
            } else {
                vec![1000, 4000]
            };
            timings(&sizes);
        }
        Some("pipeline") => pipeline(num(1, 4000)),
        Some("sweep") => sweep(num(1, 5), num(2, 2000), num(3, 1) as usize),
        Some("compare") => compare(num(1, 5), num(2, 300)),
        Some("rect") => rect(num(1, 5), num(2, 60)),
        Some("closed") => closed_sweep(num(1, 6), num(2, 1000), num(3, 1) as usize),
        Some("leapers") => leapers(),
        Some(other) => {
            eprintln!("unknown mode `{other}`; see the comment at the top of benches/warnsdorff.rs")
        }
    }
}
