//! GIF benchmarks: writing the tour and search GIFs, against the targets in
//! BENCHMARKS.md. Run with `cargo bench --bench gif`; it prints one line per
//! figure (best of several runs).

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::observe::NoObserver;
use engine::render::gif::{GifOptions, Scene, search_gif, tour_gif};
use engine::render::sample::Recorder;
use engine::runner;
use engine::solve::{Limits, Outcome};
use engine::spec::Puzzle;
use engine::verify::verify;

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        last = Some(v);
    }
    (best, last.expect("at least one run"))
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn puzzle(text: &str) -> Puzzle {
    Puzzle::parse("bench.ron", text).expect("bench puzzle parses")
}

fn solved(p: &Puzzle) -> Vec<u32> {
    let g = p.graph();
    let r = runner::solve(p, &g, &Limits::none(), &mut NoObserver).expect("verified");
    let Outcome::Found(t) = r.outcome else {
        panic!("bench puzzle has a tour")
    };
    verify(&p.board, &p.piece, &p.goal, &t).expect("valid tour");
    t
}

/// A boustrophedon wazir tour of a w x h board: rank 1 left to right, rank
/// 2 right to left, and so on.
fn boustrophedon(w: u32, h: u32) -> Vec<u32> {
    let mut t = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for i in 0..w {
            let x = if y % 2 == 0 { i } else { w - 1 - i };
            t.push(y * w + x);
        }
    }
    t
}

fn main() {
    let opts = GifOptions::default();
    println!(
        "machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    // 1. 8x8 knight's tour GIF at cell 48.
    let p = puzzle(
        r#"Puzzle(name: "Knight's tour 8x8", board: "8x8", piece: "knight", start: "a1", tour: Closed)"#,
    );
    let tour = solved(&p);
    let scene = Scene::new(&p);
    let (t, bytes) = best(30, || {
        let mut out = Vec::new();
        tour_gif(&mut out, &scene, &tour, &opts, None).expect("gif");
        black_box(out)
    });
    println!(
        "tour 8x8, cell 48: {} to encode, {} bytes ({:.1} KB)",
        ms(t),
        bytes.len(),
        bytes.len() as f64 / 1024.0
    );

    // 2. The plain 8x8 backtracking search, with and without recording.
    let p = puzzle(
        r#"Puzzle(name: "Knight 8x8, plain backtracking", board: "8x8",
           piece: "jumps (1,2), (1,-2), (-1,2), (-1,-2), (2,1), (2,-1), (-2,1), (-2,-1)",
           start: "(0,1)", solver: Backtrack(order: Given))"#,
    );
    let g = p.graph();
    let scene = Scene::new(&p);
    let (plain, report) = best(3, || {
        runner::solve(&p, &g, &Limits::none(), &mut NoObserver).expect("verified")
    });
    println!(
        "search 8x8 given order, no recording: {} ({} nodes)",
        ms(plain),
        report.stats.nodes
    );
    let (recorded, (report, rec)) = best(3, || {
        let mut rec = Recorder::new(opts.max_frames - 1);
        let r = runner::solve(&p, &g, &Limits::none(), &mut rec).expect("verified");
        (r, rec)
    });
    println!(
        "search 8x8 given order, recording: {} ({} events, {} snapshots kept, stride {})",
        ms(recorded),
        rec.events(),
        rec.len(),
        rec.stride()
    );
    let (enc, (bytes, info)) = best(3, || {
        let mut out = Vec::new();
        let info = search_gif(&mut out, &scene, &rec, &report, &opts, None).expect("gif");
        (out, info)
    });
    println!(
        "search GIF: {} to encode, {} frames, {:.1} KB; search + recording + GIF = {} = {:.2}x the plain search",
        ms(enc),
        info.frames,
        bytes.len() as f64 / 1024.0,
        ms(recorded + enc),
        (recorded + enc).as_secs_f64() / plain.as_secs_f64()
    );

    // 3. A 1000x1000 tour (boustrophedon wazir), path-only style.
    let p = puzzle(
        r#"Puzzle(name: "Wazir 1000x1000", board: "1000x1000", piece: "leaper 0 1", start: "a1")"#,
    );
    let tour = boustrophedon(1000, 1000);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("valid tour");
    let scene = Scene::new(&p);
    let (t, (bytes, info)) = best(3, || {
        let mut out = Vec::new();
        let info = tour_gif(&mut out, &scene, &tour, &opts, None).expect("gif");
        (out, info)
    });
    println!(
        "tour 1000x1000: {} to encode, {} frames of {}x{}, {:.2} MB",
        ms(t),
        info.frames,
        info.width,
        info.height,
        bytes.len() as f64 / 1048576.0
    );
}
