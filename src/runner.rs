//! Solving a puzzle end to end: quick proofs first, then the chosen solver,
//! then the independent verifier on whatever tour comes out.

use crate::check;
use crate::model::MoveGraph;
use crate::observe::Observer;
use crate::solve::backtrack::{self, BacktrackOptions, Order};
use crate::solve::warnsdorff;
use crate::solve::{Limits, Outcome, Report, SolverSpec, Stats};
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

/// What `Auto` picks for a puzzle, and why.
pub fn auto_choice(_puzzle: &Puzzle, _graph: &MoveGraph) -> (SolverSpec, String) {
    (
        SolverSpec::Backtrack(BacktrackOptions {
            order: Order::Warnsdorff,
            node_limit: None,
        }),
        "auto picked backtrack (order: warnsdorff): complete, so it finds a tour or proves there is none".to_string(),
    )
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
    let analysis = check::analyse(graph, &puzzle.goal, &|s| puzzle.board.name(s));
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
    let (spec, note) = match puzzle.solver {
        SolverSpec::Auto => {
            let (s, why) = auto_choice(puzzle, graph);
            (s, Some(why))
        }
        s => (s, None),
    };
    let mut report = match spec {
        SolverSpec::Backtrack(opts) => backtrack::solve(graph, &puzzle.goal, &opts, limits, obs),
        SolverSpec::Warnsdorff(opts) => {
            warnsdorff::solve(graph, &puzzle.goal, &opts, puzzle.seed, limits, obs)
        }
        SolverSpec::Auto | SolverSpec::Genetic(_) => backtrack::solve(
            graph,
            &puzzle.goal,
            &BacktrackOptions::default(),
            limits,
            obs,
        ),
    };
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
