//! `engine run --unique` (or `solutions: Unique`): look for two solutions
//! and say whether the puzzle has exactly one (`unique`), more
//! (`multiple`, both printed with the first square where they differ) or
//! none.

use std::io::Write;
use std::time::Instant;

use engine::error::{Error, ErrorKind};
use engine::puzzle::Puzzle;
use engine::render::{json, text};
use engine::search::event::NoObserver;
use engine::solve::{Outcome, Report, Run, SolverId, runner};
use engine::verify::{verify, verify_constraints};

use super::{BUG, Format, out, progress};

/// What `--unique` prints and how.
pub struct Shown {
    /// Output format.
    pub format: Format,
    /// Print the numbered grid even for a large board.
    pub grid: bool,
    /// Print the move list even for a large board.
    pub moves: bool,
    /// No progress display.
    pub quiet: bool,
}

/// The first step (from 0) at which two tours differ, if they do.
pub fn first_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

/// Whether `path` is a solution of `puzzle`: a tour of its goal (closed
/// round, when closed) that honours its clues.
fn is_solution(puzzle: &Puzzle, path: &[u32]) -> bool {
    let (board, goal) = (&puzzle.board, &puzzle.goal);
    verify(board, &puzzle.piece, goal, path).is_ok()
        && verify_constraints(board, goal.closed, &puzzle.constraints, path).is_ok()
}

/// Runs the search for two solutions of `puzzle` and prints the answer;
/// the exit code.
pub fn exec(
    puzzle: &Puzzle,
    limits: engine::halt::Limits<'_>,
    started: Instant,
    shown: Shown,
) -> Result<u8, Error> {
    let prog = engine::progress::Progress::new();
    let solved = progress::shown("searching", &prog, shown.quiet, || {
        match puzzle.graph(&limits) {
            Ok(graph) => runner::solve_unique(
                &puzzle.task(&graph),
                puzzle.solver,
                Run::new(limits, &prog, NoObserver),
            ),
            Err(stop) => Ok((
                Report::stopped(stop, started.elapsed(), SolverId::default()),
                None,
            )),
        }
    });
    let (report, second) = match solved {
        Ok(r) => r,
        Err(bug) => {
            out::warn(bug);
            return Ok(BUG);
        }
    };
    let differ = match (&report.outcome, &second) {
        (Outcome::Found(a), Some(b)) => first_difference(a, b),
        _ => None,
    };
    let status = match (&report.outcome, &second) {
        (Outcome::Found(_), Some(_)) => "multiple",
        (Outcome::Found(_), None) => "unique",
        (Outcome::Impossible(_), _) => "impossible",
        (Outcome::GaveUp { .. }, _) => "gave_up",
        (Outcome::Interrupted { .. }, _) => "interrupted",
    };
    let board = &puzzle.board;
    let name = |k: usize, t: &[u32]| t.get(k).map(|&s| board.name(s)).unwrap_or_default();
    let text = match shown.format {
        Format::Text => {
            let grid = super::grid_choice(shown.grid, shown.moves);
            let mut s = text::report_text(
                &super::title(puzzle),
                board,
                puzzle.goal.closed,
                &report,
                grid,
            );
            match (&report.outcome, &second) {
                (Outcome::Found(_), None) => {
                    s.push_str("Unique: no other solution exists (every way was searched).\n");
                }
                (Outcome::Found(a), Some(b)) => {
                    s.push_str("\nMultiple: a second solution:\n");
                    if grid.shows(board) {
                        s.push('\n');
                        s.push_str(&text::grid(board, b));
                    }
                    s.push_str(&format!("\nTour: {}\n", text::move_list(board, b)));
                    if let Some(k) = differ {
                        s.push_str(&format!(
                            "They first differ at step {}: {} in the first, {} in the second.\n",
                            k + 1,
                            name(k, a),
                            name(k, b)
                        ));
                    }
                }
                // A limit after one solution leaves it as the path; a path
                // of every square that does not close is no solution.
                (Outcome::GaveUp { best, .. } | Outcome::Interrupted { best }, _)
                    if !best.is_empty() && is_solution(puzzle, best) =>
                {
                    s.push_str("A solution was found; that it is the only one is not proven.\n");
                }
                _ => {}
            }
            s
        }
        Format::Json => {
            let run = json::RunJson::new(
                &puzzle.name,
                board,
                &puzzle.piece,
                puzzle.goal.closed,
                &report,
                None,
            );
            json::line(&json::UniqueJson::new(
                run,
                status,
                board,
                report.outcome.path(),
                second.as_deref(),
                differ,
            ))
            .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))?
        }
    };
    let mut stdout = out::stdout();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(out::failed)?;
    Ok(match status {
        "multiple" => super::MULTIPLE,
        _ => super::exit_code(&report.outcome),
    })
}
