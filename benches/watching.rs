//! What watching costs a search, inside one process: the textbook search
//! of 8x8 from d4 (the cheapest search per node) to a node limit, run
//! unwatched (as `engine run`), recorded for the player (as `run --html`),
//! and recorded and tapped live (as the studio), alternating, ROUNDS
//! times each. `benches/serve.sh` measures the studio end to end.
//!
//! Usage: cargo bench --bench watching -- [NODES] [ROUNDS]

use std::time::Instant;

use engine::halt::{Limits, Never};
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::render::html::live::{Control, Tap};
use engine::render::record::Recorder;
use engine::search::event::NoObserver;
use engine::solve::backtrack::{BacktrackOptions, Order};
use engine::solve::{Run, Solver};

/// The player's recording budget (`run --html`): samples, and the events
/// kept one by one.
const SAMPLES: usize = 999;
const STEPS: u64 = 500;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let nodes = args.first().copied().unwrap_or(100_000_000);
    let rounds = args.get(1).copied().unwrap_or(5);
    let text = r#"Puzzle(board: "8x8", piece: "knight", start: "d4")"#;
    let p = Puzzle::parse("d4.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let Ok(g) = p.graph(&Never);
    let task = p.task(&g);
    let opts = BacktrackOptions {
        order: Order::Given,
        node_limit: Some(nodes),
    };
    let progress = Progress::new();
    let mut times: [Vec<f64>; 3] = Default::default();
    for _ in 0..rounds {
        let t = Instant::now();
        let r = opts.solve(&task, Run::new(Limits::none(), &progress, NoObserver));
        times[0].push(t.elapsed().as_secs_f64());
        assert_eq!(r.stats.nodes, nodes);

        let t = Instant::now();
        let mut rec = Recorder::with_steps(SAMPLES, 0..STEPS);
        opts.solve(&task, Run::new(Limits::none(), &progress, &mut rec));
        times[1].push(t.elapsed().as_secs_f64());
        assert_eq!(rec.nodes(), nodes);

        let t = Instant::now();
        let mut rec = Recorder::with_steps(SAMPLES, 0..STEPS);
        let control = Control::new();
        let (tx, rx) = std::sync::mpsc::channel();
        // The samples are read as the studio's stream reads them.
        let reader = std::thread::spawn(move || rx.iter().count());
        let mut tap = Tap::new(&p.board, &control, tx);
        opts.solve(
            &task,
            Run::new(Limits::none(), &progress, (&mut tap, &mut rec)),
        );
        drop(tap);
        let samples = reader.join().unwrap_or(0);
        times[2].push(t.elapsed().as_secs_f64());
        assert!(samples > 0 && rec.nodes() == nodes);
    }
    let median = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    };
    let alone = median(&times[0]);
    println!("the textbook search of 8x8 from d4, {nodes} nodes, {rounds} rounds (median, range):");
    for (name, t) in [
        "unwatched",
        "recorded (run --html)",
        "recorded and tapped (the studio)",
    ]
    .iter()
    .zip(&times)
    {
        let (lo, hi) = t
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        println!(
            "  {name:34} {:.3} s ({lo:.3}-{hi:.3}), {:.3}x",
            median(t),
            median(t) / alone
        );
    }
}
