//! Backtracking speed: the plain search of the classic JavaScript write-up
//! (8x8 knight from (0,1), its fixed move order, first open tour).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::halt::Never;
use engine::puzzle::Puzzle;
use engine::solve::backtrack::{BacktrackOptions, Order};
use engine::solve::{Outcome, Solver};

const JS_ORDER: &str = r#"Puzzle(
    board: "8x8",
    piece: "jumps (1,2), (1,-2), (-1,2), (-1,-2), (2,1), (2,-1), (-2,1), (-2,-1)",
    start: "(0,1)",
    solver: Backtrack(order: Given),
)"#;

fn bench(c: &mut Criterion) {
    let p = match Puzzle::parse("js-order.ron", JS_ORDER) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let Ok(g) = p.graph(&Never);
    let given = BacktrackOptions {
        order: Order::Given,
        node_limit: None,
    };
    // One run outside criterion to report nodes and the rate.
    let t = Instant::now();
    let r = given.solve_quietly(&p.task(&g));
    let secs = t.elapsed().as_secs_f64();
    assert!(matches!(r.outcome, Outcome::Found(_)));
    eprintln!(
        "js-order 8x8 (order: Given): {} nodes, {} backtracks, {:.3} s, {:.1} M nodes/s",
        r.stats.nodes,
        r.stats.backtracks,
        secs,
        r.stats.nodes as f64 / secs / 1e6
    );
    let mut group = c.benchmark_group("backtrack");
    group.sample_size(10);
    group.bench_function("js_order_8x8_given", |b| {
        b.iter(|| given.solve_quietly(&p.task(black_box(&g))))
    });
    let warnsdorff = BacktrackOptions::default();
    group.bench_function("knight_8x8_from_b1_warnsdorff", |b| {
        b.iter(|| warnsdorff.solve_quietly(&p.task(black_box(&g))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
