//! The `engine` command line: wires flags to the library, shows progress,
//! and maps outcomes to exit codes.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use engine::check;
use engine::error::Error;
use engine::observe::NoObserver;
use engine::render::text;
use engine::runner;
use engine::solve::{Limits, SolverSpec, Stop, count};
use engine::spec::Puzzle;

/// Set by the Ctrl-C handler; solvers poll it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Tours of a piece over a board, from a declarative puzzle file.
#[derive(Parser)]
#[command(name = "engine", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find a tour and print it.
    Run(RunArgs),
    /// Parse a puzzle and print what is known without searching.
    Check(CheckArgs),
    /// Count every tour exactly (directed; from the start square, or summed
    /// over every start).
    Count(CountArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum SolverName {
    Auto,
    Backtrack,
    Warnsdorff,
    Genetic,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
struct RunArgs {
    /// The puzzle file (RON).
    puzzle: PathBuf,
    /// Use this solver (with its default options) instead of the file's.
    #[arg(long, value_enum)]
    solver: Option<SolverName>,
    /// Start square, like `b1`, `(1,0)` or `any`.
    #[arg(long, value_name = "SQ")]
    start: Option<String>,
    /// Ask for a closed tour.
    #[arg(long)]
    closed: bool,
    /// Seed of every random choice.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Stop after this many seconds (exit 3).
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Print the numbered grid even for a large board.
    #[arg(long)]
    grid: bool,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The puzzle file (RON).
    puzzle: PathBuf,
    /// Print the grid even for a large board.
    #[arg(long)]
    grid: bool,
}

#[derive(clap::Args)]
struct CountArgs {
    /// The puzzle file (RON).
    puzzle: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Count only the K-th of N slices of the work (e.g. `3/8`) and print a
    /// machine-readable line; the N counts add up to the whole count.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Stop after this many seconds (exit 3; the count so far is a lower bound).
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Run(args) => run(args),
        Command::Check(args) => check_cmd(args),
        Command::Count(args) => count_cmd(args),
    };
    match code {
        Ok(c) => ExitCode::from(c),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn load(path: &std::path::Path) -> Result<Puzzle, Error> {
    Puzzle::load(path)
}

fn title(p: &Puzzle) -> String {
    format!(
        "{} — {} on {} — {} tour{}",
        p.name,
        p.piece_text,
        p.board.describe(),
        if p.goal.closed { "closed" } else { "open" },
        match p.goal.start {
            Some(s) => format!(" from {}", p.board.name(s)),
            None => String::new(),
        }
    )
}

fn run(args: RunArgs) -> Result<u8, Error> {
    let mut puzzle = load(&args.puzzle)?;
    if let Some(s) = &args.start {
        puzzle.set_start(s)?;
    }
    if args.closed {
        puzzle.set_closed()?;
    }
    if let Some(seed) = args.seed {
        puzzle.seed = seed;
    }
    if let Some(name) = args.solver {
        puzzle.solver = match (name, puzzle.solver) {
            (SolverName::Backtrack, s @ SolverSpec::Backtrack(_))
            | (SolverName::Warnsdorff, s @ SolverSpec::Warnsdorff(_))
            | (SolverName::Genetic, s @ SolverSpec::Genetic(_)) => s,
            (SolverName::Auto, _) => SolverSpec::Auto,
            (SolverName::Backtrack, _) => SolverSpec::Backtrack(Default::default()),
            (SolverName::Warnsdorff, _) => SolverSpec::Warnsdorff(Default::default()),
            (SolverName::Genetic, _) => SolverSpec::Genetic(Default::default()),
        };
    }
    if let Some(t) = args.time_limit
        && !(t.is_finite() && t >= 0.0)
    {
        let text = t.to_string();
        return Err(Error::at(
            "--time-limit",
            &text,
            engine::error::Span::new(0, text.len()),
            "the time limit must be a non-negative number of seconds",
        ));
    }
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: stop at once.
            std::process::exit(130);
        }
    });
    let progress = AtomicU64::new(0);
    let limits = Limits {
        interrupt: Some(&INTERRUPTED),
        progress: Some(&progress),
        ..Limits::none()
    }
    .with_time(args.time_limit);
    let graph = puzzle.graph();
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        if show_progress {
            let (done, progress) = (&done, &progress);
            scope.spawn(move || spinner(done, progress));
        }
        let r = runner::solve(&puzzle, &graph, &limits, &mut NoObserver);
        done.store(true, Ordering::SeqCst);
        r
    });
    let report = match report {
        Ok(r) => r,
        Err(bug) => {
            eprintln!("{bug}");
            return Ok(101);
        }
    };
    let out = match args.format {
        Format::Text => text::report_text(
            &title(&puzzle),
            &puzzle.board,
            puzzle.goal.closed,
            &report,
            args.grid,
        ),
        Format::Json => {
            let mut s = text::report_json(
                &puzzle.name,
                &puzzle.board,
                &puzzle.piece,
                puzzle.goal.closed,
                &report,
            );
            s.push('\n');
            s
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    Ok(report.outcome.exit_code() as u8)
}

/// A progress spinner on stderr: nodes so far and elapsed time.
fn spinner(done: &AtomicBool, progress: &AtomicU64) {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} searching… {msg} [{elapsed}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    while !done.load(Ordering::SeqCst) {
        bar.set_message(format!("{} nodes", progress.load(Ordering::Relaxed)));
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

fn check_cmd(args: CheckArgs) -> Result<u8, Error> {
    let puzzle = load(&args.puzzle)?;
    let graph = puzzle.graph();
    let a = check::analyse(&graph, &puzzle.goal, &|s| puzzle.board.name(s));
    let mut out = String::new();
    out.push_str(&title(&puzzle));
    out.push_str("\n\n");
    if args.grid || text::grid_fits(&puzzle.board) {
        out.push_str(&text::grid(&puzzle.board, &[]));
    } else {
        out.push_str("(board too large to print; --grid prints it anyway)\n");
    }
    out.push_str(&format!(
        "\nPiece: {}\nMoves: {}\n\n{}",
        puzzle.piece_text,
        puzzle.piece,
        text::move_diagram(&puzzle.piece)
    ));
    out.push_str(&format!(
        "\nSquares: {} ({} removed)\nMoves on this board: {}{}\n",
        a.squares,
        puzzle.board.removed_count(),
        a.moves,
        if a.symmetric {
            ""
        } else {
            " (some cannot be made back)"
        }
    ));
    let hist: Vec<String> = a
        .degree_histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(d, c)| format!("{d}: {c}"))
        .collect();
    out.push_str(&format!("Degrees (moves: squares): {}\n", hist.join(", ")));
    out.push_str(&format!("Connected parts: {}\n", a.components));
    if let Some((x, y)) = a.bipartite {
        out.push_str(&format!(
            "Every move changes colour: {x} squares of one colour, {y} of the other\n"
        ));
    }
    let code = match &a.impossible {
        Some(proof) => {
            out.push_str(&format!("\nNo tour exists: {proof}.\n"));
            1
        }
        None => {
            out.push_str("\nNo quick proof that a tour is impossible; `engine run` searches.\n");
            0
        }
    };
    print!("{out}");
    Ok(code)
}

/// Parses `--shard K/N` (1 ≤ K ≤ N).
fn parse_shard(text: &str) -> Result<count::Shard, Error> {
    let bad = |msg: &str| {
        Error::at(
            "--shard",
            text,
            engine::error::Span::new(0, text.len()),
            msg.to_string(),
        )
    };
    let Some((k, n)) = text.split_once('/') else {
        return Err(bad("a shard is written K/N, like 3/8 (the 3rd of 8)"));
    };
    let k: u32 = k
        .trim()
        .parse()
        .map_err(|_| bad("K in K/N must be a whole number from 1 to N"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| bad("N in K/N must be a whole number, at least 1"))?;
    count::Shard::new(k, n).ok_or_else(|| {
        bad(&format!(
            "there is no shard {k} of {n}: K must be from 1 to N"
        ))
    })
}

fn count_cmd(args: CountArgs) -> Result<u8, Error> {
    let puzzle = load(&args.puzzle)?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if let Some(t) = args.time_limit
        && !(t.is_finite() && t >= 0.0)
    {
        let text = t.to_string();
        return Err(Error::at(
            "--time-limit",
            &text,
            engine::error::Span::new(0, text.len()),
            "the time limit must be a non-negative number of seconds",
        ));
    }
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let graph = puzzle.graph();
    let goal = puzzle.goal;
    let n = puzzle.board.len();
    let what = format!(
        "directed {} tours{}",
        if goal.closed { "closed" } else { "open" },
        match (goal.start, goal.end) {
            (Some(s), Some(e)) =>
                format!(" from {} to {}", puzzle.board.name(s), puzzle.board.name(e)),
            (Some(s), None) => format!(" from {}", puzzle.board.name(s)),
            (None, Some(e)) => format!(
                " to {}, summed over every start square",
                puzzle.board.name(e)
            ),
            (None, None) => format!(", summed over all {n} start squares"),
        }
    );
    let in_shard = shard.map_or(String::new(), |s| format!(" in shard {}/{}", s.k(), s.n()));
    let mut out = format!("{}\n", title(&puzzle));
    let analysis = check::analyse(&graph, &goal, &|s| puzzle.board.name(s));
    if let Some(proof) = analysis.impossible {
        out.push_str(&format!("0 {what} (no tour exists: {proof})\n"));
        if goal.closed {
            out.push_str("0 distinct cycles\n");
        }
        if let Some(s) = shard {
            out.push_str(&format!(
                "shard={}/{} tours=0{} status=complete tasks=0/0\n",
                s.k(),
                s.n(),
                if goal.closed { " cycles_x2=0" } else { "" }
            ));
        }
        print!("{out}");
        return Ok(0);
    }
    let sym = count::Symmetries::of_board(&puzzle.board, &graph);
    let opts = count::CountOptions {
        threads: args.threads.map(usize::from),
        shard,
        ..count::CountOptions::default()
    };
    let limits = Limits {
        interrupt: Some(&INTERRUPTED),
        ..Limits::none()
    }
    .with_time(args.time_limit);
    let progress = count::Progress::default();
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let counted = std::thread::scope(|scope| {
        if show_progress {
            let (done, progress) = (&done, &progress);
            scope.spawn(move || task_bar(done, progress));
        }
        let c = count::count(&graph, &goal, &sym, &opts, &limits, Some(&progress));
        done.store(true, Ordering::SeqCst);
        c
    });
    match counted.stopped {
        None => {
            out.push_str(&format!("{} {what}{in_shard}\n", counted.tours));
            match (counted.cycles(), shard, counted.cycles_x2) {
                (Some(_), Some(_), Some(x2)) => out.push_str(&format!(
                    "{x2} = this shard's part of twice the distinct cycles (add up cycles_x2 over the shards, then halve)\n"
                )),
                (Some(c), _, _) => out.push_str(&format!(
                    "{c} distinct cycles (each counted once, whatever its start and direction)\n"
                )),
                _ => {}
            }
        }
        Some(stop) => {
            let why = match stop {
                Stop::Interrupted => "interrupted".to_string(),
                Stop::Limit(l) => format!("the {l} ran out"),
            };
            out.push_str(&format!(
                "at least {} {what}{in_shard} (a lower bound: {why} after {} of {} tasks)\n",
                counted.tours, counted.tasks_done, counted.tasks
            ));
            if let Some(c) = counted.cycles()
                && shard.is_none()
            {
                out.push_str(&format!("at least {c} distinct cycles\n"));
            }
        }
    }
    out.push_str(&format!(
        "count: {} symmetr{} · {} task{}{} · {} thread{} · {} nodes · {}\n",
        counted.symmetries,
        if counted.symmetries == 1 { "y" } else { "ies" },
        counted.tasks,
        if counted.tasks == 1 { "" } else { "s" },
        if counted.depth > 0 {
            format!(" (prefixes of up to {} squares)", counted.depth)
        } else {
            String::new()
        },
        counted.threads,
        if counted.threads == 1 { "" } else { "s" },
        counted.stats.nodes,
        text::duration(counted.stats.elapsed)
    ));
    if let Some(s) = shard {
        out.push_str(&format!(
            "shard={}/{} tours={}{} status={} tasks={}/{}\n",
            s.k(),
            s.n(),
            counted.tours,
            counted
                .cycles_x2
                .map_or(String::new(), |c| format!(" cycles_x2={c}")),
            if counted.complete() {
                "complete"
            } else {
                "partial"
            },
            counted.tasks_done,
            counted.tasks
        ));
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    Ok(match counted.stopped {
        None => 0,
        Some(Stop::Limit(_)) => 3,
        Some(Stop::Interrupted) => 130,
    })
}

/// A progress bar over the count's prefix tasks, with an estimate of the
/// time left (from the average time per task so far), on stderr. A spinner
/// stands in while the task list is built.
fn task_bar(done: &AtomicBool, progress: &count::Progress) {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} building the task list… {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let mut counting: Option<std::time::Instant> = None;
    while !done.load(Ordering::SeqCst) {
        let total = progress.total.load(Ordering::Relaxed);
        let finished = progress.done.load(Ordering::Relaxed);
        if total > 0 && counting.is_none() {
            counting = Some(std::time::Instant::now());
            bar.set_length(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} tasks · {elapsed_precise} · {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
        }
        if let Some(since) = counting {
            bar.set_position(finished);
            bar.set_message(if finished == 0 {
                "estimating the time left".to_string()
            } else {
                let per_task = since.elapsed().as_secs_f64() / finished as f64;
                let left = Duration::from_secs_f64(per_task * (total - finished.min(total)) as f64);
                format!("about {} left", indicatif::HumanDuration(left))
            });
        }
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}
