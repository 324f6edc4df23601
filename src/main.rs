//! The `engine` command line: wires flags to the library, shows progress,
//! and maps outcomes to exit codes.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use engine::analysis;
use engine::archive::{self, Archive};
use engine::count;
use engine::error::Error;
use engine::output::{self, PendingFile};
use engine::puzzle::Puzzle;
use engine::render::gif::{self, GifError, GifOptions, Scene};
use engine::render::text;
use engine::solve::event::NoObserver;
use engine::solve::record::Recorder;
use engine::solve::runner;
use engine::solve::{Limits, Outcome, SolverSpec, Stop};

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
    /// The local archive of tours saved with `run --save`.
    #[command(subcommand)]
    Archive(ArchiveCommand),
}

#[derive(Subcommand)]
enum ArchiveCommand {
    /// Per puzzle and solver: runs, distinct tours, nodes or generations, time, success rate.
    Stats {
        /// Only this puzzle (a puzzle file).
        puzzle: Option<PathBuf>,
        #[command(flatten)]
        archive: ArchiveFlag,
    },
    /// The most recent runs.
    List {
        /// How many runs to list.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        archive: ArchiveFlag,
    },
    /// One run, printed as `run` prints it.
    Show {
        /// The run's id (from `archive list`).
        id: String,
        /// Print the numbered grid even for a large board.
        #[arg(long)]
        grid: bool,
        #[command(flatten)]
        archive: ArchiveFlag,
        /// Write an animated GIF of the run's tour to OUT.
        #[arg(long, value_name = "OUT")]
        gif: Option<PathBuf>,
        #[command(flatten)]
        look: GifFlags,
    },
}

#[derive(clap::Args)]
struct ArchiveFlag {
    /// The archive file (default: $ENGINE_ARCHIVE, else the platform's data directory).
    #[arg(long, value_name = "DB")]
    archive: Option<PathBuf>,
}

impl ArchiveFlag {
    fn open(&self) -> Result<Archive, Error> {
        let path = archive::resolve_path(self.archive.as_deref()).ok_or_else(|| {
            Error::whole_file(
                "--archive",
                "no data directory is known on this system; give --archive DB",
            )
        })?;
        Archive::open(&path)
    }
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
    /// Save the run to the archive (also `save: true` in the file).
    #[arg(long)]
    save: bool,
    #[command(flatten)]
    archive: ArchiveFlag,
    /// Write an animated GIF of the tour found to OUT.
    #[arg(long, value_name = "OUT")]
    gif: Option<PathBuf>,
    /// Write an animated GIF of the search to OUT.
    #[arg(long, value_name = "OUT")]
    search_gif: Option<PathBuf>,
    #[command(flatten)]
    look: GifFlags,
}

/// How GIFs look (for `run` and `archive show`).
#[derive(clap::Args)]
struct GifFlags {
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
        Command::Archive(cmd) => archive_cmd(cmd),
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
    let started = std::time::Instant::now();
    // First of all: reading a huge board takes a moment too.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: stop at once, leaving no half-written GIF.
            output::discard_pending();
            std::process::exit(130);
        }
    });
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
        // The file's own genetic options were checked when it was read.
        if let SolverSpec::Genetic(opts) = &puzzle.solver
            && let Some((message, help)) =
                engine::puzzle::genetic_too_big(&puzzle.board, &puzzle.piece, opts)
        {
            return Err(Error::at(
                "--solver",
                "genetic",
                engine::error::Span::new(0, "genetic".len()),
                message,
            )
            .with_help(help));
        }
    }
    check_time_limit(args.time_limit)?;
    // Open the archive first, so a bad archive fails before any search.
    let mut store = if args.save || puzzle.save {
        Some(args.archive.open()?)
    } else {
        None
    };
    let gif_opts = gif_options(&args.look)?;
    check_gif_memory(
        &puzzle,
        &gif_opts,
        args.gif.is_some(),
        args.search_gif.is_some(),
    )?;
    let tour_out = pending_gif(args.gif.as_deref())?;
    let search_out = pending_gif(args.search_gif.as_deref())?;
    let progress = AtomicU64::new(0);
    let best = AtomicU64::new(0);
    let limits = Limits {
        interrupt: Some(&INTERRUPTED),
        progress: Some(&progress),
        best: Some(&best),
        ..Limits::none()
    }
    .with_time_from(started, args.time_limit);
    // The time limit covers building the move graph: seconds on the largest boards.
    let graph = puzzle.graph_until(&|| limits.expired());
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        if show_progress {
            let (done, progress) = (&done, &progress);
            // The genetic solver counts generations and reports its best fitness.
            let ga = matches!(puzzle.solver, SolverSpec::Genetic(_))
                .then_some((&best, puzzle.board.len()));
            scope.spawn(move || spinner(done, progress, ga));
        }
        let r = match &graph {
            None => Ok((
                engine::solve::Report::stopped_in_setup(
                    &limits,
                    started.elapsed(),
                    "none (stopped while building the move graph)".to_string(),
                ),
                None,
            )),
            Some(graph) if search_out.is_some() => {
                let mut rec = Recorder::new(gif_opts.max_frames.saturating_sub(1));
                runner::solve(&puzzle, graph, &limits, &mut rec).map(|r| (r, Some(rec)))
            }
            Some(graph) => {
                runner::solve(&puzzle, graph, &limits, &mut NoObserver).map(|r| (r, None))
            }
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
    let mut stdout = std::io::stdout().lock();
    match args.format {
        Format::Text => {
            // Streamed: a 4096x4096 tour's move list is over 100 MB.
            // Parts of the move list larger than the buffer go straight through.
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
            let _ = text::write_report_text(
                &mut w,
                &title(&puzzle),
                &puzzle.board,
                puzzle.goal.closed,
                &report,
                args.grid,
            );
            let _ = w.flush();
        }
        Format::Json => {
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
            let _ = text::write_report_json(
                &mut w,
                &puzzle.name,
                &puzzle.board,
                &puzzle.piece,
                puzzle.goal.closed,
                &report,
            );
            let _ = writeln!(w);
            let _ = w.flush();
        }
    }
    let _ = stdout.flush();
    if let Some(store) = store.as_mut()
        && let Some(id) = store.record(&puzzle, &report)?
        && args.format == Format::Text
    {
        let _ = writeln!(stdout, "Saved as run {id} in {}", store.path().display());
    }
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

/// The GIF output file at `path`, if one is asked for: checked before any
/// work, so a bad output path fails at once; it is written only at the end.
fn pending_gif(path: Option<&std::path::Path>) -> Result<Option<PendingFile>, Error> {
    path.map(|p| {
        PendingFile::create(p).map_err(|e| {
            Error::whole_file(
                &p.display().to_string(),
                format!("cannot write a GIF here: {e}"),
            )
        })
    })
    .transpose()
}

/// `--time-limit`, checked: a non-negative number of seconds.
fn check_time_limit(secs: Option<f64>) -> Result<(), Error> {
    match secs {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            let text = t.to_string();
            Err(Error::at(
                "--time-limit",
                &text,
                engine::error::Span::new(0, text.len()),
                "the time limit must be a non-negative number of seconds",
            ))
        }
        _ => Ok(()),
    }
}

/// The GIF flags, checked.
fn gif_options(args: &GifFlags) -> Result<GifOptions, Error> {
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

/// Refuses GIFs that would need more than [`gif::GIF_BUDGET`], before the
/// search starts: at `--max-frames` when the search's snapshots are what
/// does not fit, else at `--cell`.
fn check_gif_memory(
    puzzle: &Puzzle,
    opts: &GifOptions,
    tour: bool,
    search: bool,
) -> Result<(), Error> {
    let need = gif::memory(&puzzle.board, opts, tour, search);
    if need.total() <= gif::GIF_BUDGET {
        return Ok(());
    }
    let size = engine::puzzle::bytes;
    let image = format!(
        "{}x{}-pixel images ({} to draw and encode)",
        need.width,
        need.height,
        size(need.drawing)
    );
    let why = |frames: &str| {
        format!(
            "the {} could need {}: {image}{frames}, more than the {} allowed",
            if tour && search { "GIFs" } else { "GIF" },
            engine::puzzle::bytes_over(need.total(), gif::GIF_BUDGET),
            size(gif::GIF_BUDGET)
        )
    };
    let at = |flag: &str, value: String, message: String, help: String| {
        Error::at(
            flag,
            &value,
            engine::error::Span::new(0, value.len()),
            message,
        )
        .with_help(help)
    };
    if need.drawing <= gif::GIF_BUDGET {
        // The snapshots do not fit: the most frames that do (the estimate
        // grows with them; 2 is the least a GIF has).
        let fits = |frames: usize| {
            gif::memory(
                &puzzle.board,
                &GifOptions {
                    max_frames: frames,
                    ..*opts
                },
                tour,
                search,
            )
            .total()
                <= gif::GIF_BUDGET
        };
        let frames = format!(
            " and up to {} snapshots of the search over {} squares, kept until its GIF is drawn ({})",
            opts.max_frames - 1,
            puzzle.board.len(),
            size(need.recording)
        );
        let help = if fits(2) {
            let (mut lo, mut hi) = (2, opts.max_frames);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if fits(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            format!("--max-frames {lo} fits")
        } else {
            "no search GIF fits a board this large; --gif draws the tour alone".to_string()
        };
        return Err(at(
            "--max-frames",
            opts.max_frames.to_string(),
            why(&frames),
            help,
        ));
    }
    // Not reached with today's layout, which keeps an image within 4,096
    // pixels of board a side (see the GIF module's tests).
    Err(at(
        "--cell",
        opts.cell.to_string(),
        why(""),
        "a smaller --cell fits".to_string(),
    ))
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

fn archive_cmd(cmd: ArchiveCommand) -> Result<u8, Error> {
    match cmd {
        ArchiveCommand::Stats { puzzle, archive } => {
            let only = puzzle.as_deref().map(load).transpose()?;
            let store = archive.open()?;
            let rows = store.stats(only.as_ref())?;
            if rows.is_empty() {
                println!("No runs saved in {} yet.", store.path().display());
                return Ok(0);
            }
            println!(
                "{:<28} {:<32} {:>5} {:>8} {:>8} {:>12} {:>12} {:>10}",
                "puzzle",
                "solver",
                "runs",
                "success",
                "distinct",
                "mean n/gen",
                "median",
                "mean time"
            );
            for r in rows {
                let generations = r.generations.iter().any(|&g| g > 0);
                let values = if generations {
                    &r.generations
                } else {
                    &r.nodes
                };
                let (mean, median) = archive::StatsRow::mean_median(values);
                println!(
                    "{:<28} {:<32} {:>5} {:>7.0}% {:>8} {:>12.1} {:>12.1} {:>10}",
                    r.puzzle,
                    r.solver,
                    r.runs,
                    r.success_rate() * 100.0,
                    r.distinct,
                    mean,
                    median,
                    text::duration(Duration::from_secs_f64(r.mean_time_ms() / 1e3)),
                );
                if generations {
                    println!(
                        "  found {} different tours with an average of {:.1} generations",
                        r.distinct, mean
                    );
                }
            }
            Ok(0)
        }
        ArchiveCommand::List { limit, archive } => {
            let store = archive.open()?;
            for r in store.list(limit)? {
                let work = if r.generations > 0 {
                    format!("{} generations", r.generations)
                } else {
                    format!("{} nodes", r.nodes)
                };
                println!(
                    "{:>5}  {}  {:<24} {:<10} {:<32} {work}, {}{}",
                    r.id,
                    r.created,
                    r.name,
                    r.status,
                    r.solver,
                    text::duration(Duration::from_secs_f64(r.time_ms.max(0.0) / 1e3)),
                    r.tour_id
                        .map(|t| format!(", tour #{t}"))
                        .unwrap_or_default()
                );
            }
            Ok(0)
        }
        ArchiveCommand::Show {
            id,
            grid,
            archive,
            gif: gif_path,
            look,
        } => {
            let gif_opts = gif_options(&look)?;
            let number: i64 = id.trim().parse().map_err(|_| {
                Error::at(
                    "ID",
                    &id,
                    engine::error::Span::new(0, id.len()),
                    "a run id is a whole number (see `engine archive list`)",
                )
            })?;
            let store = archive.open()?;
            let Some(run) = store.show(number)? else {
                return Err(Error::at(
                    "ID",
                    &id,
                    engine::error::Span::new(0, id.len()),
                    format!("no run {number} in {}", store.path().display()),
                ));
            };
            let p = &run.puzzle;
            check_gif_memory(p, &gif_opts, gif_path.is_some(), false)?;
            let out = pending_gif(gif_path.as_deref())?;
            print!(
                "{}",
                text::report_text(&title(p), &p.board, p.goal.closed, &run.report, grid)
            );
            println!("Saved {} from {}", run.created, p.file);
            if let Some(file) = out {
                let Outcome::Found(tour) = &run.report.outcome else {
                    eprintln!(
                        "run {number} has no tour, so no GIF was written to {}",
                        file.path().display()
                    );
                    return Ok(0);
                };
                let _ = ctrlc::set_handler(|| {
                    INTERRUPTED.store(true, Ordering::SeqCst);
                });
                let scene = Scene::new(p);
                let r =
                    file.write(|w| gif::tour_gif(w, &scene, tour, &gif_opts, Some(&INTERRUPTED)));
                if let Some(c) = gif_failed(&gif_path, r) {
                    return Ok(c);
                }
            }
            Ok(0)
        }
    }
}

/// A progress spinner on stderr: nodes so far and elapsed time; for the
/// genetic solver (`ga`: its best fitness and the square count) the
/// generation, the best fitness and generations per second.
fn spinner(done: &AtomicBool, progress: &AtomicU64, ga: Option<(&AtomicU64, usize)>) {
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} searching… {msg} [{elapsed}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    while !done.load(Ordering::SeqCst) {
        let count = progress.load(Ordering::Relaxed);
        bar.set_message(match ga {
            None => format!("{count} nodes"),
            Some((best, n)) => format!(
                "generation {count} · best fitness {}/{n} · {:.0} generations/s",
                best.load(Ordering::Relaxed),
                count as f64 / started.elapsed().as_secs_f64().max(1e-3)
            ),
        });
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

fn check_cmd(args: CheckArgs) -> Result<u8, Error> {
    let puzzle = load(&args.puzzle)?;
    let graph = puzzle.graph();
    let a = analysis::analyse_board(&graph, &puzzle.goal, &puzzle.board, &puzzle.piece, &|s| {
        puzzle.board.name(s)
    });
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
    for note in &a.notes {
        out.push_str(&format!("{note}.\n"));
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
    let started = std::time::Instant::now();
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let puzzle = load(&args.puzzle)?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    check_time_limit(args.time_limit)?;
    let limits = Limits {
        interrupt: Some(&INTERRUPTED),
        ..Limits::none()
    }
    .with_time_from(started, args.time_limit);
    // The limit covers building the graph and the proofs too.
    let stop = || limits.expired();
    let stopped_before = |what: &str| {
        let why = match limits.exceeded(0) {
            Some(Stop::Limit(l)) => format!("the {l} ran out"),
            _ => "interrupted".to_string(),
        };
        println!(
            "{}
at least 0 {what} (a lower bound: {why} before counting began)",
            title(&puzzle)
        );
        Ok(if INTERRUPTED.load(Ordering::SeqCst) {
            130
        } else {
            3
        })
    };
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
    let Some(graph) = puzzle.graph_until(&stop) else {
        return stopped_before(&what);
    };
    let in_shard = shard.map_or(String::new(), |s| format!(" in shard {}/{}", s.k(), s.n()));
    let mut out = format!("{}\n", title(&puzzle));
    let Some(analysis) = analysis::analyse_until(&graph, &goal, &|s| puzzle.board.name(s), &stop)
    else {
        return stopped_before(&what);
    };
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
