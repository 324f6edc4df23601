//! The genetic solver over many seeds: success rate, generations, time and
//! generations per second for knight's tours from a corner. Prints Markdown
//! tables (the ones in BENCHMARKS.md).
//!
//! ```sh
//! cargo bench --bench genetic                        # the BENCHMARKS.md tables
//! cargo bench --bench genetic -- --preset classic --sizes 6,8 --seeds 30
//! cargo bench --bench genetic -- --closed --sizes 6,8,10
//! ```
//!
//! Flags: `--preset classic|tuned`, `--sizes 8,10,..` (square boards),
//! `--seeds N` (seeds 1..=N), `--closed`, `--generations N`,
//! `--population N`, `--mutation P`, `--elitism N`,
//! `--selection roulette|tournament`, `--repair cycle|warnsdorff`,
//! `--slots piece|graph` (how genes name moves), `--time-limit SECS` (per run),
//! `--list` (one line per run on stderr), `--piece EXPR` (default `knight`),
//! `--board EXPR` (`{n}` stands for the size; default `{n}x{n}`),
//! `--no-reserve` (do not keep a tour's last square for last),
//! `--sequential` / `--parallel` (never / always evaluate fitness in
//! parallel; by default from population × squares of
//! [`genetic::PARALLEL_WORK`]).

use std::time::{Duration, Instant};

use engine::halt::Never;
use engine::model::MoveGraph;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::NoObserver;
use engine::solve::genetic::{self, GeneticOptions, MoveSlots, Preset, Repair, Selection};
use engine::solve::{self, Goal, Limits, Outcome, SolverSpec, Task};

struct Args {
    opts: GeneticOptions,
    sizes: Vec<u32>,
    seeds: u64,
    closed: bool,
    graph_slots: bool,
    time_limit: Option<f64>,
    all: bool,
    list: bool,
    piece: String,
    board: String,
    no_reserve: bool,
    sequential: bool,
    parallel: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        opts: GeneticOptions::default(),
        sizes: vec![8, 10, 12, 16],
        seeds: 30,
        closed: false,
        graph_slots: false,
        time_limit: None,
        all: true,
        list: false,
        piece: "knight".into(),
        board: "{n}x{n}".into(),
        no_reserve: false,
        sequential: false,
        parallel: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<f64>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            // `cargo bench` passes this to every bench binary.
            "--bench" => {}
            "--preset" => {
                a.all = false;
                a.opts.preset = match value()?.as_str() {
                    "classic" => Preset::Classic,
                    _ => Preset::Tuned,
                }
            }
            "--sizes" => {
                a.all = false;
                a.sizes = value()?
                    .split(',')
                    .map(|s| s.trim().parse().map_err(|e| format!("{s}: {e}")))
                    .collect::<Result<_, _>>()?
            }
            "--seeds" => a.seeds = num(value()?)? as u64,
            "--closed" => {
                a.all = false;
                a.closed = true
            }
            "--generations" => a.opts.generations = Some(num(value()?)? as u64),
            "--population" => a.opts.population = Some(num(value()?)? as usize),
            "--mutation" => a.opts.mutation = Some(num(value()?)?),
            "--elitism" => a.opts.elitism = Some(num(value()?)? as usize),
            "--selection" => {
                a.opts.selection = Some(match value()?.as_str() {
                    "roulette" => Selection::Roulette,
                    _ => Selection::Tournament,
                })
            }
            "--repair" => {
                a.opts.repair = Some(match value()?.as_str() {
                    "cycle" => Repair::Cycle,
                    _ => Repair::Warnsdorff,
                })
            }
            "--slots" => a.graph_slots = value()? == "graph",
            "--time-limit" => a.time_limit = Some(num(value()?)?),
            "--list" => a.list = true,
            "--no-reserve" => a.no_reserve = true,
            "--sequential" => a.sequential = true,
            "--parallel" => a.parallel = true,
            "--piece" => {
                a.all = false;
                a.piece = value()?
            }
            "--board" => {
                a.all = false;
                a.board = value()?
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(a)
}

struct Run {
    found: bool,
    generations: u64,
    time: Duration,
}

/// CPU time of this process so far, all threads (Linux, in clock ticks of
/// 10 ms), to tell the solver's speed apart from other load on a shared
/// machine.
fn process_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn median<T: Copy + Ord>(v: &mut [T]) -> Option<T> {
    v.sort_unstable();
    (!v.is_empty()).then(|| v[v.len() / 2])
}

fn fmt_time(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// Runs `seeds` seeds on a `size`x`size` tour from a1 and prints one table
/// row.
fn row(a: &Args, opts: &GeneticOptions, size: u32, closed: bool) {
    let board_text = a.board.replace("{n}", &size.to_string());
    let text = format!(
        "Puzzle(board: {board_text:?}, piece: {:?}, start: \"a1\")",
        a.piece
    );
    let puzzle = match Puzzle::parse("bench.ron", &text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (board, piece) = (puzzle.board, puzzle.piece);
    let Ok(graph) = MoveGraph::build(&board, &piece, &Never);
    let slots = if a.graph_slots {
        MoveSlots::of_graph(&graph)
    } else {
        let Ok(slots) = MoveSlots::of_piece(&board, &piece, &Never);
        slots
    };
    let goal = Goal {
        closed,
        ..puzzle.goal
    };
    let mut params = opts.params();
    if a.no_reserve {
        params.reserve_end = false;
    }
    if a.sequential {
        params.parallel_work = usize::MAX;
    }
    if a.parallel {
        params.parallel_work = 0;
    }
    let mut runs = Vec::new();
    let cpu0 = process_cpu();
    for seed in 1..=a.seeds {
        let limits = Limits::none().with_time(a.time_limit);
        let t = Instant::now();
        let task = Task::new(&graph, &board, &piece, goal).with_seed(seed);
        let progress = Progress::new();
        let run = solve::Run::new(limits, &progress, NoObserver);
        let r = genetic::solve_with(&task, &slots, &params, run);
        let time = t.elapsed();

        let found = match &r.outcome {
            Outcome::Impossible(why) => {
                eprintln!("{board_text}: {why}");
                std::process::exit(2);
            }
            Outcome::Found(tour) => {
                if let Err(e) = engine::verify::verify(&board, &piece, &goal, tour) {
                    eprintln!("seed {seed}: invalid tour: {e}");
                    std::process::exit(1);
                }
                true
            }
            _ => false,
        };
        if a.list {
            eprintln!(
                "{size}x{size} seed {seed}: {} generations, {}, {}",
                r.stats.generations,
                if found { "found" } else { "gave up" },
                fmt_time(time)
            );
        }
        runs.push(Run {
            found,
            generations: r.stats.generations,
            time,
        });
    }
    let ok: Vec<&Run> = runs.iter().filter(|r| r.found).collect();
    let mut gens: Vec<u64> = ok.iter().map(|r| r.generations).collect();
    let mut times: Vec<Duration> = ok.iter().map(|r| r.time).collect();
    let all_gens: u64 = runs.iter().map(|r| r.generations).sum();
    let all_time: f64 = runs.iter().map(|r| r.time.as_secs_f64()).sum();
    let all_cpu = process_cpu()
        .zip(cpu0)
        .map(|(b, a)| b.saturating_sub(a).as_secs_f64());
    let (lo, hi) = (
        gens.iter().min().copied().unwrap_or(0),
        gens.iter().max().copied().unwrap_or(0),
    );
    let mg = median(&mut gens);
    let mt = median(&mut times);
    println!(
        "| {board_text} | {}/{} | {} | {}–{} | {} | {:.0} | {} |",
        ok.len(),
        runs.len(),
        mg.map_or("—".into(), |g| g.to_string()),
        lo,
        hi,
        mt.map_or("—".into(), fmt_time),
        all_gens as f64 / all_time.max(1e-9),
        all_cpu
            .filter(|&c| c >= 0.1)
            .map_or("—".into(), |c| format!("{:.0}", all_gens as f64 / c)),
    );
}

fn table(a: &Args, opts: &GeneticOptions, sizes: &[u32], closed: bool) {
    println!(
        "\n{} — {} {} tours from a1, seeds 1..={}\n",
        SolverSpec::Genetic(*opts),
        if closed { "closed" } else { "open" },
        a.piece,
        a.seeds
    );
    println!(
        "| board | found | median generations | range | median time | generations/s | generations/CPU-s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for &s in sizes {
        row(a, opts, s, closed);
    }
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if a.all {
        let classic = GeneticOptions {
            preset: Preset::Classic,
            ..a.opts
        };
        let tuned = GeneticOptions {
            preset: Preset::Tuned,
            ..a.opts
        };
        table(&a, &classic, &[5, 6, 7, 8, 9, 10, 11, 12], false);
        table(&a, &tuned, &[8, 10, 12, 16, 20, 30], false);
        table(&a, &classic, &[6, 8, 10], true);
        table(&a, &tuned, &[6, 8, 10, 20, 30], true);
    } else {
        table(&a, &a.opts, &a.sizes, a.closed);
    }
}
