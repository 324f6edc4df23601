//! `engine count` timings for the targets in BENCHMARKS.md:
//! 5x5 open from every start, 6x6 closed from a1, 6x6 open from every
//! start, each on 1 and 2 threads.
//!
//! Run: `cargo bench --bench count`.

use criterion::{Criterion, criterion_group, criterion_main};
use engine::count::{self, CountOptions};
use engine::halt::{Limits, Never};
use engine::model::Symmetries;
use engine::model::{Board, Goal, MoveGraph, Piece};
use engine::progress::Progress;

fn knight_count(n: u32, goal: Goal, threads: usize) -> u128 {
    let board = Board::rectangle(n, n);
    let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
    let sym = Symmetries::of_board(&board, &g);
    let opts = CountOptions {
        threads: Some(threads),
        ..CountOptions::default()
    };
    count::dfs::count(&g, &goal, &sym, &opts, &Limits::none(), &Progress::new()).tours
}

fn bench(c: &mut Criterion) {
    let open = Goal::default();
    let closed_a1 = Goal {
        closed: true,
        start: Some(0),
        end: None,
    };
    let mut small = c.benchmark_group("count");
    for threads in [1, 2] {
        small.bench_function(
            format!("knight 5x5 open, every start, {threads} thread(s)"),
            |b| b.iter(|| assert_eq!(knight_count(5, open, threads), 1728)),
        );
        small.bench_function(
            format!("knight 6x6 closed from a1, {threads} thread(s)"),
            |b| b.iter(|| assert_eq!(knight_count(6, closed_a1, threads), 19724)),
        );
    }
    small.finish();
    let mut big = c.benchmark_group("count-long");
    big.sample_size(10);
    for threads in [1, 2] {
        big.bench_function(
            format!("knight 6x6 open, every start, {threads} thread(s)"),
            |b| b.iter(|| assert_eq!(knight_count(6, open, threads), 6_637_920)),
        );
    }
    big.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
