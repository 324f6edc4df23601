//! Solving a puzzle end to end: quick proofs first, then the chosen solver,
//! then the independent verifier on whatever tour comes out.

use crate::check;
use crate::model::MoveGraph;
use crate::observe::Observer;
use crate::solve::backtrack::{self, BacktrackOptions, Order};
use crate::solve::genetic;
use crate::solve::warnsdorff::{self, WarnsdorffOptions};
use crate::solve::{Limit, Limits, Outcome, Report, SolverSpec, Stats};
use crate::spec::Puzzle;
use crate::verify::verify;

/// A solver's answer failed verification: a bug, never a user error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidTour {
    /// The solver that produced it.
    pub solver: String,
    /// What the verifier found wrong.
    pub problem: String,
}

impl std::fmt::Display for InvalidTour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: {} produced a tour that fails verification: {}",
            self.solver, self.problem
        )
    }
}

/// Boards up to this many squares are small enough for `Auto` to search
/// exhaustively from the start (open tours).
pub const AUTO_SMALL_OPEN: usize = 64;

/// The same for closed tours, which backtracking finds much more slowly
/// (a closed 6x6 knight's tour takes it about 11 million nodes).
pub const AUTO_SMALL_CLOSED: usize = 30;

/// What `Auto` picks for a puzzle, and why. Small boards get the complete
/// backtracker; larger ones Warnsdorff's rule, which [`solve`] follows with
/// the backtracker if it gives up.
pub fn auto_choice(puzzle: &Puzzle, graph: &MoveGraph) -> (SolverSpec, String) {
    let n = graph.len();
    let small = if puzzle.goal.closed {
        AUTO_SMALL_CLOSED
    } else {
        AUTO_SMALL_OPEN
    };
    if n <= small {
        (
            SolverSpec::Backtrack(BacktrackOptions {
                order: Order::Warnsdorff,
                node_limit: None,
            }),
            format!(
                "auto picked backtrack (order: warnsdorff): {n} squares is small enough to search exhaustively, so it finds a tour or proves there is none"
            ),
        )
    } else {
        (
            SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
            format!(
                "auto picked warnsdorff: {n} squares is too many to search exhaustively, and the rule finds tours in linear time; if it gives up, backtracking follows"
            ),
        )
    }
}

/// Solves `puzzle` on its move graph `graph`: proofs first, then the solver.
/// Every tour is verified before it is returned.
pub fn solve<O: Observer>(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    limits: &Limits,
    obs: &mut O,
) -> Result<Report, InvalidTour> {
    let started = std::time::Instant::now();
    let analysis = check::analyse_board(graph, &puzzle.goal, &puzzle.board, &puzzle.piece, &|s| {
        puzzle.board.name(s)
    });
    if let Some(proof) = analysis.impossible {
        return Ok(Report {
            outcome: Outcome::Impossible(proof),
            stats: Stats {
                elapsed: started.elapsed(),
                ..Stats::default()
            },
            solver: "check (no search needed)".to_string(),
        });
    }
    let auto = puzzle.solver == SolverSpec::Auto;
    let (spec, note) = match puzzle.solver {
        SolverSpec::Auto => {
            let (s, why) = auto_choice(puzzle, graph);
            (s, Some(why))
        }
        s => (s, None),
    };
    let mut report = match spec {
        SolverSpec::Backtrack(opts) => backtrack::solve(graph, &puzzle.goal, &opts, limits, obs),
        SolverSpec::Genetic(opts) => {
            let slots = genetic::MoveSlots::of_piece(&puzzle.board, &puzzle.piece);
            genetic::solve(graph, &slots, &puzzle.goal, &opts, puzzle.seed, limits, obs)
        }
        SolverSpec::Warnsdorff(opts) => {
            warnsdorff::solve(graph, &puzzle.goal, &opts, puzzle.seed, limits, obs)
        }
        SolverSpec::Auto => backtrack::solve(
            graph,
            &puzzle.goal,
            &BacktrackOptions::default(),
            limits,
            obs,
        ),
    };
    // Auto's fallback: Warnsdorff's rule gave up, so search exhaustively
    // (within whatever time limit is left).
    if auto
        && let Outcome::GaveUp {
            limit: Limit::Restarts,
            ..
        } = report.outcome
    {
        let first = report;
        obs.restart();
        report = backtrack::solve(
            graph,
            &puzzle.goal,
            &BacktrackOptions::default(),
            limits,
            obs,
        );
        report.solver = format!("{}, then {}", first.solver, report.solver);
        report.stats.nodes += first.stats.nodes;
        report.stats.restarts += first.stats.restarts;
        report.stats.elapsed += first.stats.elapsed;
    }
    if let Some(note) = note {
        report.solver = format!("{} [{note}]", report.solver);
    }
    if let Outcome::Found(tour) = &report.outcome {
        verify(&puzzle.board, &puzzle.piece, &puzzle.goal, tour).map_err(|problem| {
            InvalidTour {
                solver: report.solver.clone(),
                problem,
            }
        })?;
    }
    Ok(report)
}
