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
use engine::render::gif::{self, GifError, GifOptions, PendingFile, Scene};
use engine::render::sample::Recorder;
use engine::render::text;
use engine::runner;
use engine::solve::{Limits, Outcome, SolverSpec};
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
    /// Write an animated GIF of the tour found to OUT.
    #[arg(long, value_name = "OUT")]
    gif: Option<PathBuf>,
    /// Write an animated GIF of the search to OUT.
    #[arg(long, value_name = "OUT")]
    search_gif: Option<PathBuf>,
    /// Pixels per board square in GIFs.
    #[arg(long, value_name = "PX", default_value_t = 48)]
    cell: u32,
    /// Frames per second of GIFs.
    #[arg(long, value_name = "N", default_value_t = 8)]
    fps: u32,
    /// The most frames a GIF may have.
    #[arg(long, value_name = "N", default_value_t = 600)]
    max_frames: usize,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The puzzle file (RON).
    puzzle: PathBuf,
    /// Print the grid even for a large board.
    #[arg(long)]
    grid: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Run(args) => run(args),
        Command::Check(args) => check_cmd(args),
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
    let gif_opts = gif_options(&args)?;
    // Checked before the search, so a bad output path fails at once; the
    // files themselves are written only at the end.
    let pending = |p: &Option<PathBuf>| -> Result<Option<PendingFile>, Error> {
        p.as_deref()
            .map(|p| {
                PendingFile::create(p).map_err(|e| {
                    Error::whole_file(
                        &p.display().to_string(),
                        format!("cannot write a GIF here: {e}"),
                    )
                })
            })
            .transpose()
    };
    let tour_out = pending(&args.gif)?;
    let search_out = pending(&args.search_gif)?;
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: stop at once, leaving no half-written GIF.
            gif::discard_pending();
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
        let r = if search_out.is_some() {
            let mut rec = Recorder::new(gif_opts.max_frames.saturating_sub(1));
            runner::solve(&puzzle, &graph, &limits, &mut rec).map(|r| (r, Some(rec)))
        } else {
            runner::solve(&puzzle, &graph, &limits, &mut NoObserver).map(|r| (r, None))
        };
        done.store(true, Ordering::SeqCst);
        r
    });
    let (report, recording) = match report {
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
    drop(stdout);
    let code = report.outcome.exit_code() as u8;
    if matches!(report.outcome, Outcome::Interrupted { .. }) {
        // No GIF after Ctrl-C: nothing has been written yet.
        return Ok(code);
    }
    let scene = Scene::new(&puzzle);
    if let Some(file) = tour_out {
        match &report.outcome {
            Outcome::Found(tour) => {
                let r =
                    file.write(|w| gif::tour_gif(w, &scene, tour, &gif_opts, Some(&INTERRUPTED)));
                if let Some(c) = gif_failed(&args.gif, r) {
                    return Ok(c);
                }
            }
            _ => eprintln!(
                "no tour, so no GIF was written to {}",
                file.path().display()
            ),
        }
    }
    if let (Some(file), Some(rec)) = (search_out, &recording) {
        let r =
            file.write(|w| gif::search_gif(w, &scene, rec, &report, &gif_opts, Some(&INTERRUPTED)));
        if let Some(c) = gif_failed(&args.search_gif, r) {
            return Ok(c);
        }
    }
    Ok(code)
}

/// The GIF flags, checked.
fn gif_options(args: &RunArgs) -> Result<GifOptions, Error> {
    let bad = |flag: &str, value: String, why: &str| {
        Error::at(flag, &value, engine::error::Span::new(0, value.len()), why)
    };
    if !(4..=256).contains(&args.cell) {
        return Err(bad(
            "--cell",
            args.cell.to_string(),
            "the cell size must be 4 to 256 pixels",
        ));
    }
    if !(1..=50).contains(&args.fps) {
        return Err(bad(
            "--fps",
            args.fps.to_string(),
            "the frame rate must be 1 to 50 frames per second",
        ));
    }
    if args.max_frames < 2 {
        return Err(bad(
            "--max-frames",
            args.max_frames.to_string(),
            "a GIF needs at least 2 frames",
        ));
    }
    Ok(GifOptions {
        cell: args.cell,
        fps: args.fps,
        max_frames: args.max_frames,
    })
}

/// Reports a failed GIF write; the exit code to end with, if it failed.
fn gif_failed<T>(path: &Option<PathBuf>, r: Result<T, GifError>) -> Option<u8> {
    let name = path
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match r {
        Ok(_) => None,
        Err(GifError::Cancelled) => {
            eprintln!("interrupted: no GIF was written to {name}");
            Some(130)
        }
        Err(GifError::Io(e)) => {
            eprintln!(
                "{}",
                Error::whole_file(&name, format!("cannot write the GIF: {e}"))
            );
            Some(2)
        }
    }
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
