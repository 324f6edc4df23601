//! GIF benchmarks: writing the tour and search GIFs, against the targets in
//! BENCHMARKS.md. Run with `cargo bench --bench gif`; it prints one line per
//! figure (best of several runs).

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::halt::Never;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::render::gif::{GifOptions, Scene, search_gif, tour_gif};
use engine::search::event::NoObserver;
use engine::solve::runner;
use engine::solve::{Limits, Outcome, Run};
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

/// CPU time of this process so far (all threads), from /proc; zero where
/// there is no /proc.
fn cpu() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the command name (which ends with ')'): utime is the
    // 12th, stime the 13th, in clock ticks of 10 ms.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    Duration::from_millis(f.iter().sum::<u64>() * 10)
}

fn median(v: &[Duration]) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[v.len() / 2]
}

fn min(v: &[Duration]) -> Duration {
    v.iter().copied().min().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn puzzle(text: &str) -> Puzzle {
    Puzzle::parse("bench.ron", text).expect("bench puzzle parses")
}

fn solved(p: &Puzzle) -> Vec<u32> {
    let Ok(g) = p.graph(&Never);
    let r = runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(Limits::none(), &Progress::new(), NoObserver),
    )
    .expect("verified");
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
        tour_gif(&mut out, &scene, &tour, &opts, &Limits::none()).expect("gif");
        black_box(out)
    });
    println!(
        "tour 8x8, cell 48: {} to encode, {} bytes ({:.1} KB)",
        ms(t),
        bytes.len(),
        bytes.len() as f64 / 1024.0
    );

    // 2. The plain 8x8 backtracking search, with and without recording.
    let p = puzzle(include_str!("gif-search-8x8.ron"));
    let Ok(g) = p.graph(&Never);
    let scene = Scene::new(&p).with_graph(&g);
    // Interleaved rounds, so that a busy machine slows all three alike.
    const ROUNDS: usize = 5;
    let (mut plain, mut recorded, mut encoded) = (Vec::new(), Vec::new(), Vec::new());
    let mut cpu_time = [Duration::ZERO; 3];
    let mut last = None;
    for _ in 0..ROUNDS {
        let (t, c) = (Instant::now(), cpu());
        let r = runner::solve(
            &p.task(&g),
            p.solver,
            Run::new(Limits::none(), &Progress::new(), NoObserver),
        )
        .expect("verified");
        plain.push(t.elapsed());
        cpu_time[0] += cpu() - c;
        black_box(r);
        let (t, c) = (Instant::now(), cpu());
        let mut rec = opts.recorder();
        let report = runner::solve(
            &p.task(&g),
            p.solver,
            Run::new(Limits::none(), &Progress::new(), &mut rec),
        )
        .expect("verified");
        recorded.push(t.elapsed());
        cpu_time[1] += cpu() - c;
        let (t, c) = (Instant::now(), cpu());
        let mut out = Vec::new();
        let info =
            search_gif(&mut out, &scene, &rec, &report, &opts, &Limits::none()).expect("gif");
        encoded.push(t.elapsed());
        cpu_time[2] += cpu() - c;
        last = Some((report, rec, out, info));
    }
    let Some((report, rec, bytes, info)) = last else {
        return;
    };
    let Outcome::Found(tour) = &report.outcome else {
        panic!("the benchmark search finds a tour")
    };
    verify(&p.board, &p.piece, &p.goal, tour).expect("valid tour");
    let (pm, rm, em) = (median(&plain), median(&recorded), median(&encoded));
    println!(
        "search 8x8 given order: {} nodes, {} events; median (best) of {ROUNDS}: \
         no recording {} ({}), recording {} ({}), GIF {} ({})",
        report.stats.nodes,
        rec.events(),
        ms(pm),
        ms(min(&plain)),
        ms(rm),
        ms(min(&recorded)),
        ms(em),
        ms(min(&encoded)),
    );
    println!(
        "search GIF: {} frames ({} snapshots kept, every {} events), {:.1} KB; \
         search + recording + GIF = {:.2}x the plain search (medians), {:.2}x (bests)",
        info.frames,
        rec.len(),
        rec.stride(),
        bytes.len() as f64 / 1024.0,
        (rm + em).as_secs_f64() / pm.as_secs_f64(),
        (min(&recorded) + min(&encoded)).as_secs_f64() / min(&plain).as_secs_f64(),
    );
    let per = |d: Duration| ms(d / ROUNDS as u32);
    println!(
        "CPU time per round (all threads): no recording {}, recording {}, GIF {}; \
         recording + GIF = {:.2}x the plain search",
        per(cpu_time[0]),
        per(cpu_time[1]),
        per(cpu_time[2]),
        (cpu_time[1] + cpu_time[2]).as_secs_f64() / cpu_time[0].as_secs_f64().max(1e-9),
    );

    // The same through the command line: wall time of the whole run with
    // and without --search-gif, and the peak memory of the run with it.
    let exe = env!("CARGO_BIN_EXE_engine");
    let ron = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/gif-search-8x8.ron");
    let out = std::env::temp_dir().join("engine-bench-search.gif");
    let run = |gif: bool| {
        let mut c = std::process::Command::new(exe);
        c.args(["run", ron, "--quiet"]);
        if gif {
            c.arg("--search-gif").arg(&out);
        }
        let t = Instant::now();
        let status = c
            .stdout(std::process::Stdio::null())
            .status()
            .expect("engine runs");
        assert!(status.success());
        t.elapsed()
    };
    let (mut without, mut with, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (a, b) = (run(false), run(true));
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
        without.push(a);
        with.push(b);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "engine run, median (best) of {ROUNDS}: {} ({}) without, {} ({}) with --search-gif; \
         ratio per pair: median {:.2}x, range {:.2}x to {:.2}x",
        ms(median(&without)),
        ms(min(&without)),
        ms(median(&with)),
        ms(min(&with)),
        ratios[ROUNDS / 2],
        ratios[0],
        ratios[ROUNDS - 1],
    );
    if let Ok(o) = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .args([exe, "run", ron, "--quiet", "--search-gif"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .output()
    {
        let kb = String::from_utf8_lossy(&o.stderr);
        if let Some(kb) = kb.lines().last().and_then(|l| l.trim().parse::<f64>().ok()) {
            println!("engine run --search-gif: peak memory {:.1} MB", kb / 1024.0);
        }
    }
    let _ = std::fs::remove_file(&out);

    // 3. 1000x1000 tours, path-only: a boustrophedon, and a spiral from the
    // outside in (the worst shape for changed rectangles: every frame
    // turns a corner of a long ring, as Warnsdorff's walks do).
    let p = puzzle(
        r#"Puzzle(name: "Wazir 1000x1000", board: "1000x1000", piece: "leaper 0 1", start: "a1")"#,
    );
    let scene = Scene::new(&p);
    for (name, tour) in [
        ("boustrophedon", boustrophedon(1000, 1000)),
        ("spiral", spiral(1000)),
    ] {
        verify(&p.board, &p.piece, &p.goal, &tour).expect("valid tour");
        let (t, (bytes, info)) = best(3, || {
            let mut out = Vec::new();
            let info = tour_gif(&mut out, &scene, &tour, &opts, &Limits::none()).expect("gif");
            (out, info)
        });
        println!(
            "tour 1000x1000 {name}: {} to encode, {} frames of {}x{}, {:.2} MB",
            ms(t),
            info.frames,
            info.width,
            info.height,
            bytes.len() as f64 / 1048576.0
        );
    }
}

/// A wazir tour of an n x n board spiralling in from a1.
fn spiral(n: u32) -> Vec<u32> {
    let mut t = Vec::with_capacity((n * n) as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (0i64, 0i64, i64::from(n) - 1, i64::from(n) - 1);
    let n = i64::from(n);
    let mut push = |x: i64, y: i64| t.push((y * n + x) as u32);
    while x0 <= x1 && y0 <= y1 {
        (x0..=x1).for_each(|x| push(x, y0));
        (y0 + 1..=y1).for_each(|y| push(x1, y));
        if y0 < y1 {
            (x0..x1).rev().for_each(|x| push(x, y1));
        }
        if x0 < x1 {
            (y0 + 1..y1).rev().for_each(|y| push(x0, y));
        }
        (x0, y0, x1, y1) = (x0 + 1, y0 + 1, x1 - 1, y1 - 1);
    }
    t
}
