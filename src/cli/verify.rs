//! `engine verify`: check a tour written outside the engine — a student's,
//! a book's, another program's — against a puzzle, with the independent
//! verifier; exit 0 when it is a tour of the puzzle, 1 when it is not.

use std::path::PathBuf;

use engine::error::{Error, ErrorKind};
use engine::puzzle::{Use, tour};
use engine::verify::{verify, verify_constraints};

use super::source::{PuzzleArgs, StopWords};
use super::{DONE, Format, GAVE_UP, INTERRUPTED_CODE, interrupt, out, watch};

/// The exit code of a tour that is not one of the puzzle.
const NOT_A_TOUR: u8 = 1;

/// Check a tour written elsewhere (squares by name, a grid of step
/// numbers, or JSON) against a puzzle.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The tour: squares by name (`a1 b3 c5 …`), a grid of step numbers
    /// (the top rank first, `.` for a square with none), or `run --format
    /// json`'s report; `-` reads standard input.
    #[arg(value_name = "TOUR")]
    tour: PathBuf,
    #[command(flatten)]
    source: PuzzleArgs,
    /// Output format: `json` prints `valid`, `reason` and `squares`.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Stop reading the puzzle or the tour after this many seconds (exit 3;
    /// the check itself takes no time worth a limit).
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    time_limit: Option<f64>,
    /// Print nothing (errors excepted): the exit code alone says whether it
    /// is a tour (0) or not (1).
    #[arg(long, short)]
    quiet: bool,
}

/// The report of `verify --format json`.
#[derive(serde::Serialize)]
struct VerifyJson<'a> {
    /// The puzzle's name.
    name: &'a str,
    /// Whether the tour is one of the puzzle.
    valid: bool,
    /// What is wrong with it, else null.
    reason: Option<&'a str>,
    /// The squares the tour gives.
    squares: usize,
}

/// Runs `engine verify`; the exit code.
pub fn exec(args: VerifyArgs) -> Result<u8, Error> {
    if args.tour.as_os_str() == "-" && args.source.reads_stdin() {
        return Err(Error::about(
            ErrorKind::Usage,
            "engine verify",
            "the tour and the puzzle cannot both come from standard input",
        ));
    }
    let started = std::time::Instant::now();
    interrupt::install();
    let limits = interrupt::limits().with_time_from(started, args.time_limit);
    let puzzle = match args.source.load_within(&limits) {
        Ok(p) => p?,
        Err(stop) => return Ok(args.source.stopped(stop, args.format, StopWords::Valid)),
    };
    if let Some(e) = puzzle.refusal(Use::Read) {
        return Err(e);
    }
    let (file, board) = (args.tour.clone(), puzzle.board.clone());
    let path = match watch::within(&limits, move || tour::read_tour(&file, &board)) {
        Ok(p) => p?,
        Err(stop) => {
            let name = match args.tour.as_os_str() {
                s if s == "-" => engine::puzzle::STDIN_NAME.to_string(),
                _ => args.tour.display().to_string(),
            };
            out::warn(format_args!("{name}: {stop} before the tour was read"));
            return Ok(match stop {
                engine::halt::Stop::Limit(_) => GAVE_UP,
                _ => INTERRUPTED_CODE,
            });
        }
    };
    let board = &puzzle.board;
    let wrong = missed(board, &path)
        .or_else(|| verify(board, &puzzle.piece, &puzzle.goal, &path).err())
        .or_else(|| {
            verify_constraints(board, puzzle.goal.closed, &puzzle.constraints, &path).err()
        });
    if !args.quiet {
        let title = super::title(&puzzle);
        let kind = if puzzle.goal.closed {
            "a closed"
        } else {
            "an open"
        };
        out::print(&match args.format {
            Format::Text => match &wrong {
                None => format!(
                    "{title}\nvalid: {kind} tour of {} squares, every move checked\n",
                    path.len()
                ),
                Some(why) => format!("{title}\nnot a tour: {why}\n"),
            },
            Format::Json => engine::render::json::line(&VerifyJson {
                name: &puzzle.name,
                valid: wrong.is_none(),
                reason: wrong.as_deref(),
                squares: path.len(),
            })
            .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))?,
        })?;
    }
    Ok(if wrong.is_some() { NOT_A_TOUR } else { DONE })
}

/// The squares a tour with too few or too many leaves out or repeats, in
/// words; None when it has one square for each of the board's (the
/// verifier then says the rest).
fn missed(board: &engine::model::Board, path: &[u32]) -> Option<String> {
    let n = board.len();
    if path.len() == n {
        return None;
    }
    let mut seen = vec![0u32; n];
    for &s in path {
        seen[s as usize] += 1;
    }
    let list = |pick: &dyn Fn(u32) -> bool| -> (usize, String) {
        let squares: Vec<String> = (0..n as u32)
            .filter(|&s| pick(seen[s as usize]))
            .map(|s| board.name(s))
            .collect();
        let shown = squares
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = squares.len().saturating_sub(10);
        let text = if more > 0 {
            format!("{shown} and {more} more")
        } else {
            shown
        };
        (squares.len(), text)
    };
    let mut parts = vec![format!(
        "the tour has {} squares; the board has {n}",
        path.len()
    )];
    let (missing, names) = list(&|c| c == 0);
    if missing > 0 {
        parts.push(format!("never visited: {names}"));
    }
    let (twice, names) = list(&|c| c > 1);
    if twice > 0 {
        parts.push(format!("visited more than once: {names}"));
    }
    Some(parts.join("; "))
}
