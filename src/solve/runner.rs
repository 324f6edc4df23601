//! Solving a puzzle end to end: quick proofs first, then the chosen solver,
//! then the independent verifier on whatever tour comes out.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::analysis;
use crate::model::MoveGraph;
use crate::puzzle::Puzzle;
use crate::solve::backtrack::{self, BacktrackOptions, Order};
use crate::solve::event::Observer;
use crate::solve::genetic;
use crate::solve::warnsdorff::{self, WarnsdorffOptions};
use crate::solve::{Limit, Limits, Outcome, Report, SolverSpec, Stats};
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

/// Boards with at least this many squares run the proofs beside the search,
/// on a second thread, instead of before it: on them the proofs take a
/// good part of the search's time. Whichever finishes first settles the
/// answer (a tour means no proof exists; a proof cancels the search).
pub const PROOFS_BESIDE: usize = 1 << 18;

/// Solves `puzzle` on its move graph `graph`: proofs first (or beside the
/// search on large boards), then the solver. Every tour is verified before
/// it is returned.
pub fn solve<O: Observer>(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    limits: &Limits,
    obs: &mut O,
) -> Result<Report, InvalidTour> {
    let started = std::time::Instant::now();
    let proofs = |stop: &dyn Fn() -> bool| {
        let name = |s| puzzle.board.name(s);
        analysis::analyse_board_until(
            graph,
            &puzzle.goal,
            &puzzle.board,
            &puzzle.piece,
            &name,
            stop,
        )
        .and_then(|a| a.impossible)
    };
    let proven = |proof: String| Report {
        outcome: Outcome::Impossible(proof),
        stats: Stats {
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        solver: "check (no search needed)".to_string(),
    };
    let report = if graph.len() < PROOFS_BESIDE {
        if let Some(proof) = proofs(&|| limits.expired()) {
            return Ok(proven(proof));
        }
        search(puzzle, graph, limits, obs)
    } else {
        let cancel = AtomicBool::new(false);
        let found = AtomicBool::new(false);
        let searching = Limits {
            cancel: Some(&cancel),
            ..*limits
        };
        let (proof, report) = std::thread::scope(|scope| {
            let checker = scope.spawn(|| {
                let proof = proofs(&|| found.load(Ordering::Relaxed) || limits.expired());
                if proof.is_some() {
                    cancel.store(true, Ordering::Relaxed);
                }
                proof
            });
            let report = search(puzzle, graph, &searching, obs);
            if matches!(report.outcome, Outcome::Found(_)) {
                found.store(true, Ordering::Relaxed);
            }
            (checker.join().ok().flatten(), report)
        });
        match proof {
            Some(proof) => return Ok(proven(proof)),
            None => report,
        }
    };
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

/// The solver the puzzle asks for (Auto: picked by size, with Warnsdorff
/// followed by backtracking if it gives up).
fn search<O: Observer>(puzzle: &Puzzle, graph: &MoveGraph, limits: &Limits, obs: &mut O) -> Report {
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
            let started = std::time::Instant::now();
            match genetic::MoveSlots::of_piece_until(&puzzle.board, &puzzle.piece, &|| {
                limits.expired()
            }) {
                Some(slots) => {
                    genetic::solve(graph, &slots, &puzzle.goal, &opts, puzzle.seed, limits, obs)
                }
                None => {
                    Report::stopped_in_setup(limits, started.elapsed(), opts.params().describe())
                }
            }
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
    report
}
