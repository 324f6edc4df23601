//! `engine check`: parse a puzzle and print what is known without
//! searching; exit 1 when a proof rules every tour out. The time limit and
//! Ctrl-C cover building the move graph and the proofs, as in `run`. With
//! `--quiet` nothing is printed but errors: the exit code is the answer.

use std::time::Instant;

use engine::analysis;
use engine::error::{Error, ErrorKind};
use engine::halt::{Limits, Stop};
use engine::puzzle::{Puzzle, Use};
use engine::render::{json, text};

use super::source::{PuzzleArgs, StopWords};
use super::{DONE, Format, GAVE_UP, IMPOSSIBLE, INTERRUPTED_CODE, interrupt, out};

/// Parse a puzzle and print what is known without searching.
#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    source: PuzzleArgs,
    /// Output format (JSON keys in the README).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Print the grid even for a large board.
    #[arg(long)]
    grid: bool,
    /// Stop after this many seconds (exit 3; nothing is proven).
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    time_limit: Option<f64>,
    /// Print nothing (errors excepted): the exit code alone says whether
    /// the puzzle is valid (0), has no tour (1), is bad (2) or the checks
    /// stopped (3).
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `engine check`; the exit code.
pub fn exec(args: CheckArgs) -> Result<u8, Error> {
    let started = Instant::now();
    interrupt::install();
    let limits = interrupt::limits().with_time_from(started, args.time_limit);
    let puzzle = match args.source.load_within(&limits) {
        Ok(p) => p?,
        Err(stop) => return Ok(args.source.stopped(stop, args.format, StopWords::Stopped)),
    };
    if let Some(e) = puzzle.refusal(Use::Read) {
        return Err(e);
    }
    let title = super::title(&puzzle);
    let print = |text: &str| if args.quiet { Ok(()) } else { out::print(text) };
    // The JSON report: the findings, or what stopped the checks.
    let json = |found| {
        json::line(&json::CheckJson::new(
            &puzzle.name,
            &puzzle.board,
            &puzzle.piece_text,
            &puzzle.piece,
            found,
        ))
        .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))
    };
    let stopped = |stop: Stop| {
        print(&match args.format {
            Format::Text => {
                format!("{title}\nchecks stopped: {stop} before they finished; nothing is proven\n")
            }
            Format::Json => json(Err(stop))?,
        })?;
        Ok(match stop {
            Stop::Limit(_) => GAVE_UP,
            Stop::Interrupted | Stop::Cancelled => INTERRUPTED_CODE,
        })
    };
    let found = match findings(&puzzle, &limits, args.grid, args.format) {
        Ok(found) => found?,
        Err(stop) => return stopped(stop),
    };
    print(&found.report)?;
    Ok(if found.impossible { IMPOSSIBLE } else { DONE })
}

/// What `engine check` prints of a puzzle.
pub struct Findings {
    /// The report, as text or as a JSON line.
    pub report: String,
    /// Whether a proof rules every tour out.
    pub impossible: bool,
}

/// Builds `puzzle`'s move graph, runs the proofs and words what they found
/// as `engine check` prints it (`grid`: the grid even for a large board);
/// `Err` when `limits` stopped the checks. Shared with the studio, which
/// shows the same report beside its editor.
pub fn findings(
    puzzle: &Puzzle,
    limits: &Limits<'_>,
    grid: bool,
    format: Format,
) -> Result<Result<Findings, Error>, Stop> {
    let graph = puzzle.graph(limits)?;
    let a = analysis::analyse_board(&graph, &puzzle.goal, &puzzle.board, &puzzle.piece, limits)?;
    let report = match format {
        Format::Text => {
            // Each square's part, to letter the grid, when there are parts.
            let grid = super::grid_choice(grid, false);
            let parts = if a.components > 1 && grid.shows(&puzzle.board) {
                Some(analysis::shape::parts(&graph, limits)?.0)
            } else {
                None
            };
            text::check_report(
                &super::title(puzzle),
                &puzzle.board,
                &puzzle.piece_text,
                &puzzle.piece,
                &a,
                parts.as_deref(),
                grid,
            )
        }
        Format::Json => match json::line(&json::CheckJson::new(
            &puzzle.name,
            &puzzle.board,
            &puzzle.piece_text,
            &puzzle.piece,
            Ok(&a),
        )) {
            Ok(line) => line,
            Err(e) => {
                return Ok(Err(Error::about(
                    ErrorKind::Internal,
                    "the JSON output",
                    e.to_string(),
                )));
            }
        },
    };
    Ok(Ok(Findings {
        report,
        impossible: a.impossible.is_some(),
    }))
}
