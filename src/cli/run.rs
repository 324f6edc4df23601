//! `engine run`: find a tour (or prove there is none), print it, and on
//! request save it and draw the tour and the search as GIFs.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::ValueEnum;

use engine::error::{Error, ErrorKind};
use engine::halt::Limits;

use engine::progress::Progress;
use engine::puzzle::{Solutions, Use};
use engine::render::gif::{self, Scene};
use engine::render::svg;
use engine::render::trace::{self, Trace};
use engine::render::{json, text};
use engine::search::event::{NoObserver, Observer};
use engine::solve::{Outcome, Report, Run, SolverId, SolverSpec, runner};

use super::gif::{GifFlags, StepsFlag};
use super::interrupt;
use super::source::{PuzzleArgs, StopWords};
use super::{ArchiveFlag, BUG, Format, out, progress};

/// Which solver `--solver` names.
#[derive(Clone, Copy, ValueEnum)]
pub enum SolverName {
    /// Pick by the puzzle's size.
    Auto,
    /// Complete backtracking.
    Backtrack,
    /// Warnsdorff's rule.
    Warnsdorff,
    /// The genetic algorithm.
    Genetic,
    /// The search for symmetric tours (the puzzle's `symmetry`).
    Symmetric,
}

/// Find a tour and print it.
#[derive(clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    source: PuzzleArgs,
    /// Use this solver with its default options instead of the file's.
    #[arg(long, value_enum)]
    solver: Option<SolverName>,
    /// Seed of every random choice.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Stop after this many seconds (exit 3).
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    time_limit: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Print the numbered grid even for a large board.
    #[arg(long)]
    grid: bool,
    /// Print the tour's move list even for a large board (over 40 squares
    /// a side, the text is a summary).
    #[arg(long)]
    moves: bool,
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
    #[command(flatten)]
    steps: StepsFlag,
    /// Write the tour found to OUT as a PNG picture (the tour GIF's last
    /// frame).
    #[arg(long, value_name = "OUT")]
    png: Option<PathBuf>,
    /// Write the tour found to OUT as an SVG picture (for print).
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    /// Look for two solutions: prove the one found is the only one (status
    /// `unique`) or print two (status `multiple`, exit 4). Also
    /// `solutions: Unique` in the file.
    #[arg(long)]
    unique: bool,
    /// Write the search's events to OUT as JSON lines.
    #[arg(long, value_name = "OUT")]
    trace: Option<PathBuf>,
    /// Write to the trace only the samples a search GIF draws (--steps,
    /// --max-frames), each with its whole path.
    #[arg(long, requires = "trace")]
    trace_sampled: bool,
    /// Write the search to OUT as a player: one self-contained HTML page
    /// that plays it, pauses, steps forward and back, scrubs a timeline
    /// with markers and says why every backtrack happened (--steps and
    /// --max-frames apply; by default events 1..500 one by one and 1000
    /// samples in all).
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// With --html: search with each of these solvers (comma-separated,
    /// like backtrack,warnsdorff) and play them side by side on one page,
    /// instead of the run's own search.
    #[arg(long, value_name = "SOLVERS", value_delimiter = ',', requires = "html")]
    compare: Option<Vec<SolverName>>,
    /// Replace an output file that exists even when it seems to be of
    /// another kind (judged by its first bytes: a puzzle file, a database,
    /// a text…); without it such a file is refused.
    #[arg(long)]
    force: bool,
}

/// The solver a name stands for, with its default options.
pub fn spec_of(name: SolverName) -> SolverSpec {
    match name {
        SolverName::Auto => SolverSpec::Auto,
        SolverName::Backtrack => SolverSpec::Backtrack(Default::default()),
        SolverName::Warnsdorff => SolverSpec::Warnsdorff(Default::default()),
        SolverName::Genetic => SolverSpec::Genetic(Default::default()),
        SolverName::Symmetric => SolverSpec::Symmetric(Default::default()),
    }
}

/// Runs `engine run`; the exit code.
pub fn exec(args: RunArgs) -> Result<u8, Error> {
    let started = Instant::now();
    // First of all: reading a huge board takes a moment too.
    interrupt::install();
    let mut puzzle = match args
        .source
        .load_within(&interrupt::limits().with_time_from(started, args.time_limit))
    {
        Ok(p) => p?,
        Err(stop) => return Ok(args.source.stopped(stop, args.format, StopWords::Status)),
    };
    if let Some(seed) = args.seed {
        puzzle.seed = seed;
    }
    if let Some(name) = args.solver {
        puzzle.set_solver(spec_of(name));
    }
    if args.unique {
        puzzle.ask_unique();
    }
    if args.save {
        puzzle.ask_save();
    }
    // The first output asked, which a search for two solutions refuses.
    let drawn = [
        ("--gif", &args.gif),
        ("--search-gif", &args.search_gif),
        ("--png", &args.png),
        ("--svg", &args.svg),
        ("--trace", &args.trace),
        ("--html", &args.html),
    ]
    .into_iter()
    .find_map(|(flag, path)| path.as_ref().map(|p| (flag, p.display().to_string())));
    let draws = drawn.as_ref().map(|(flag, path)| (*flag, path.as_str()));
    if let Some(e) = puzzle.refusal(Use::Solve { draws }) {
        return Err(e);
    }
    // The solvers to play side by side, each checked against the puzzle
    // as `--solver` would be, before any search.
    let mut compared: Vec<engine::puzzle::Puzzle> = Vec::new();
    for &name in args.compare.iter().flatten() {
        let mut p = puzzle.clone();
        p.set_solver(spec_of(name));
        if let Some(e) = p.refusal(Use::Solve { draws }) {
            return Err(e);
        }
        if let SolverSpec::Genetic(opts) = &p.solver
            && let Some((message, help)) = engine::puzzle::genetic_too_big(&p.board, &p.piece, opts)
        {
            let value = p.solver.kind().to_string();
            return Err(
                super::flag_error(ErrorKind::TooBig, "--compare", &value, message).with_help(help),
            );
        }
        compared.push(p);
    }
    if puzzle.solutions == Solutions::Unique {
        let limits = interrupt::limits().with_time_from(started, args.time_limit);
        let shown = super::unique::Shown {
            format: args.format,
            grid: args.grid,
            moves: args.moves,
            quiet: args.quiet,
        };
        return super::unique::exec(&puzzle, limits, started, shown);
    }
    // The file's genetic options were checked on the file's board and piece;
    // a solver or a board from the command line is checked here.
    let changed = match args.solver {
        Some(_) => Some(("--solver", "genetic")),
        None => args.source.changed_board_or_piece(),
    };
    if let Some((flag, value)) = changed
        && let SolverSpec::Genetic(opts) = &puzzle.solver
        && let Some((message, help)) =
            engine::puzzle::genetic_too_big(&puzzle.board, &puzzle.piece, opts)
    {
        return Err(super::flag_error(ErrorKind::TooBig, flag, value, message).with_help(help));
    }
    let archive = if puzzle.save {
        Some(args.archive.path()?)
    } else {
        None
    };
    let gif_opts = args.look.options(args.steps.steps.as_deref())?;
    super::gif::check_memory(
        &puzzle,
        &gif_opts,
        args.gif.is_some(),
        args.search_gif.is_some(),
    )?;
    let [tour_out, search_out, trace_out, png_out, svg_out, html_out] = super::gif::outputs(
        args.source.file(),
        &[args.archive.archive.as_deref(), archive.as_deref()],
        [
            ("--gif", args.gif.as_deref()),
            ("--search-gif", args.search_gif.as_deref()),
            ("--trace", args.trace.as_deref()),
            ("--png", args.png.as_deref()),
            ("--svg", args.svg.as_deref()),
            ("--html", args.html.as_deref()),
        ],
        args.force,
    )?;
    // The archive is opened only when every output has passed its check,
    // and before any search, so a bad archive fails at once and a refused
    // output leaves no new archive behind; a new one is made only when the
    // run is saved, so an interrupted run leaves none either.
    let mut store = match &archive {
        Some(path) => Some(engine::archive::SaveTo::prepare(path)?),
        None => None,
    };
    // A whole trace is written as the search goes; a sampled one after it.
    let (full_trace, sampled_trace) = if args.trace_sampled {
        (None, trace_out)
    } else {
        (trace_out, None)
    };
    let record = search_out.is_some() || sampled_trace.is_some();
    // The player records the run's own search, unless it compares others.
    let play = html_out.is_some() && compared.is_empty();
    let mut trace_written: Option<std::io::Result<()>> = None;
    let trace_result = &mut trace_written;
    let limits = interrupt::limits().with_time_from(started, args.time_limit);
    let progress = Progress::new();
    let solved = progress::shown("searching", &progress, args.quiet, || {
        // The time limit covers building the move graph: seconds on the
        // largest boards.
        let graph = match puzzle.graph(&limits) {
            Ok(g) => g,
            Err(stop) => {
                return Ok((
                    Report::stopped(stop, started.elapsed(), SolverId::default()),
                    None,
                ));
            }
        };
        let mut rec = record.then(|| gif_opts.search_recorder(&puzzle.board));
        let mut played = play.then(|| super::player::recorder(&gif_opts));
        let solved = match full_trace {
            Some(file) => {
                let mut solved = None;
                let written = file.write(|w| {
                    let mut trace = Trace::new(w, &puzzle.board);
                    let r = solve_with(
                        &puzzle,
                        &graph,
                        limits,
                        &progress,
                        ((rec.as_mut(), played.as_mut()), &mut trace),
                    );
                    let ended = match &r {
                        // No trace after Ctrl-C, as no GIF.
                        Ok(report) if matches!(report.outcome, Outcome::Interrupted { .. }) => {
                            Err(std::io::Error::other("interrupted"))
                        }
                        Ok(report) => trace.finish(report),
                        Err(_) => Err(std::io::Error::other("no trace of a failed run")),
                    };
                    solved = Some(r);
                    ended
                });
                *trace_result = Some(written);
                solved.unwrap_or_else(|| {
                    // The file could not be opened: search without it.
                    solve_with(
                        &puzzle,
                        &graph,
                        limits,
                        &progress,
                        (rec.as_mut(), played.as_mut()),
                    )
                })
            }
            None if record || play => solve_with(
                &puzzle,
                &graph,
                limits,
                &progress,
                (rec.as_mut(), played.as_mut()),
            ),
            None => solve_with(&puzzle, &graph, limits, &progress, NoObserver),
        };
        // The search GIF and the player keep the graph: they draw
        // candidates and proofs.
        solved.map(|r| {
            let kept = (rec.is_some() || played.is_some() || html_out.is_some())
                .then_some((rec, played, graph));
            (r, kept)
        })
    });
    let (report, recording) = match solved {
        Ok(r) => r,
        Err(bug) => {
            out::warn(bug);
            return Ok(BUG);
        }
    };
    // Saved before anything is printed, so the JSON can give the run's id.
    let saved = match store.as_mut() {
        Some(store) => store.record(&puzzle, &report)?,
        None => None,
    };
    let mut stdout = out::stdout();
    // Streamed: a 4096x4096 tour's move list is over 100 MB. Parts of it
    // larger than the buffer go straight through.
    let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
    match args.format {
        Format::Text => text::write_report_text(
            &mut w,
            &super::title(&puzzle),
            &puzzle.board,
            puzzle.goal.closed,
            &report,
            super::grid_choice(args.grid, args.moves),
        )
        .and_then(|()| match (&store, saved) {
            (Some(store), Some(id)) => {
                writeln!(w, "Saved as run {id} in {}", store.path().display())
            }
            _ => Ok(()),
        }),
        Format::Json => json::RunJson::new(
            &puzzle.name,
            &puzzle.board,
            &puzzle.piece,
            puzzle.goal.closed,
            &report,
            saved,
        )
        .write(&mut w)
        .and_then(|()| writeln!(w)),
    }
    .and_then(|()| w.flush())
    .map_err(out::failed)?;
    drop(w);
    stdout.flush().map_err(out::failed)?;
    drop(stdout);
    let code = super::exit_code(&report.outcome);
    if matches!(report.outcome, Outcome::Interrupted { .. }) {
        // No file after Ctrl-C: nothing has been written yet, and the
        // files asked for are named, so that their absence is no surprise.
        let asked: Vec<String> = [
            &args.gif,
            &args.search_gif,
            &args.png,
            &args.svg,
            &args.trace,
            &args.html,
        ]
        .into_iter()
        .flatten()
        .map(|p| p.display().to_string())
        .collect();
        if let Some((last, rest)) = asked.split_last() {
            let files = if rest.is_empty() {
                last.clone()
            } else {
                format!("{} and {last}", rest.join(", "))
            };
            out::warn(format_args!(
                "interrupted, so nothing was written to {files}"
            ));
        }
        return Ok(code);
    }
    let scene = Scene::new(&puzzle);
    if let Some(file) = tour_out {
        match &report.outcome {
            Outcome::Found(tour) => {
                let r = file.write(|w| gif::tour_gif(w, &scene, tour, &gif_opts, &limits));
                if let Some(c) = super::gif::failed("GIF", &args.gif, r) {
                    return Ok(c);
                }
            }
            _ => out::warn(format_args!(
                "no tour, so no GIF was written to {}",
                file.path().display()
            )),
        }
    }
    if let Some(file) = png_out {
        match &report.outcome {
            Outcome::Found(tour) => {
                let r = file.write(|w| gif::tour_png(w, &scene, tour, &gif_opts, &limits));
                if let Some(c) = super::gif::failed("PNG", &args.png, r) {
                    return Ok(c);
                }
            }
            _ => out::warn(format_args!(
                "no tour, so no PNG was written to {}",
                file.path().display()
            )),
        }
    }
    if let Some(file) = svg_out {
        match &report.outcome {
            Outcome::Found(tour) => {
                let r = file.write(|w| svg::write_svg(w, &scene, tour, &limits));
                if let Some(c) = super::gif::failed("SVG", &args.svg, r) {
                    return Ok(c);
                }
            }
            _ => out::warn(format_args!(
                "no tour, so no SVG was written to {}",
                file.path().display()
            )),
        }
    }
    if let Some(Err(e)) = trace_written
        && !matches!(report.outcome, Outcome::Interrupted { .. })
    {
        let name = args.trace.as_deref().map(|p| p.display().to_string());
        out::warn(Error::about(
            ErrorKind::Io,
            &name.unwrap_or_default(),
            format!("cannot write the trace: {e}"),
        ));
        return Ok(super::BAD_INPUT);
    }
    if let (Some(file), Some((Some(rec), _, _))) = (sampled_trace, &recording) {
        let r = file.write(|w| trace::write_samples(w, &puzzle.board, rec, &report));
        if let Err(e) = r {
            let name = args.trace.as_deref().map(|p| p.display().to_string());
            out::warn(Error::about(
                ErrorKind::Io,
                &name.unwrap_or_default(),
                format!("cannot write the trace: {e}"),
            ));
            return Ok(super::BAD_INPUT);
        }
    }
    if let (Some(file), Some((Some(rec), _, graph))) = (search_out, &recording) {
        let scene = scene.clone().with_graph(graph);
        let r = file.write(|w| gif::search_gif(w, &scene, rec, &report, &gif_opts, &limits));
        if let Some(c) = super::gif::failed("GIF", &args.search_gif, r) {
            return Ok(c);
        }
    }
    if let (Some(file), Some((_, played, graph))) = (html_out, &recording) {
        // The run's own search, or each solver compared, searched in turn
        // under the run's limits.
        let mut runs: Vec<(Report, engine::render::record::Recorder)> = Vec::new();
        for p in &compared {
            let limits = interrupt::limits().with_time_from(started, args.time_limit);
            match super::player::record(p, graph, p.solver, limits, &Progress::new(), &gif_opts) {
                Ok(run) => runs.push(run),
                Err(bug) => {
                    out::warn(bug);
                    return Ok(BUG);
                }
            }
            if runs
                .iter()
                .any(|(r, _)| matches!(r.outcome, Outcome::Interrupted { .. }))
            {
                out::warn(format_args!(
                    "interrupted: no player was written to {}",
                    file.path().display()
                ));
                return Ok(super::INTERRUPTED_CODE);
            }
        }
        let pairs: Vec<(&Report, &engine::render::record::Recorder)> = match played {
            Some(rec) => vec![(&report, rec)],
            None => runs.iter().map(|(r, rec)| (r, rec)).collect(),
        };
        if let Err(e) = super::player::write(file, &puzzle, graph, &pairs) {
            let name = args.html.as_deref().map(|p| p.display().to_string());
            out::warn(Error::about(
                ErrorKind::Io,
                &name.unwrap_or_default(),
                format!("cannot write the player: {e}"),
            ));
            return Ok(super::BAD_INPUT);
        }
    }
    Ok(code)
}

/// Solves the puzzle on its graph, watched by `observer`.
fn solve_with<O: Observer>(
    puzzle: &engine::puzzle::Puzzle,
    graph: &engine::model::MoveGraph,
    limits: Limits<'_>,
    progress: &Progress,
    observer: O,
) -> Result<Report, runner::InvalidTour> {
    runner::solve(
        &puzzle.task(graph),
        puzzle.solver,
        Run::new(limits, progress, observer),
    )
}
