//! Solvers, and the one interface they share.
//!
//! Every solver implements [`Solver`]: it takes a [`Task`] (the move graph,
//! the board and piece it came from, the goal and the seed) and a [`Run`]
//! (the limits to obey, the progress channel to publish into, the observer
//! to tell its search events to) and returns a [`Report`]: an [`Outcome`],
//! [`Stats`] and the [`SolverId`] that produced it. The options type of each
//! solver is the solver. [`runner`] is the one place that chooses among
//! them (`Auto` and its fallback live there).

pub mod backtrack;
mod close;
pub mod clued;
pub mod genetic;
mod identity;
pub mod magic;
pub mod runner;
pub mod starts;
pub mod symmetric;
pub mod warnsdorff;

use std::time::Duration;

pub use crate::halt::{Limit, Limits, Stop};
pub use crate::model::Goal;
pub use crate::search::Stats;
pub use identity::{AutoPick, SolverId};

use crate::model::{Board, Constraints, MoveGraph, Piece};
use crate::progress::Progress;
use crate::search::event::{self, Observer};

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour: squares in visiting order.
    Found(Vec<u32>),
    /// Proven: no tour exists. The reason is for people.
    Impossible(String),
    /// A limit ran out; nothing is proven. `best` is the longest path seen.
    GaveUp {
        /// The limit that ran out.
        limit: Limit,
        /// The longest partial path found.
        best: Vec<u32>,
    },
    /// Stopped by an interrupt (Ctrl-C); `best` is the longest path seen.
    Interrupted {
        /// The longest partial path found.
        best: Vec<u32>,
    },
}

impl Outcome {
    /// The tour, or the best partial path.
    pub fn path(&self) -> &[u32] {
        match self {
            Outcome::Found(t) => t,
            Outcome::Impossible(_) => &[],
            Outcome::GaveUp { best, .. } | Outcome::Interrupted { best } => best,
        }
    }

    /// The outcome of work stopped by `stop` with best path `best`. A
    /// cancelled search reads as interrupted; the runner, which cancelled
    /// it, replaces it with the answer it has.
    pub fn stopped(stop: Stop, best: Vec<u32>) -> Outcome {
        match stop {
            Stop::Limit(limit) => Outcome::GaveUp { limit, best },
            Stop::Interrupted | Stop::Cancelled => Outcome::Interrupted { best },
        }
    }
}

/// A solver's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// How it ended.
    pub outcome: Outcome,
    /// What it cost.
    pub stats: Stats,
    /// Which solver, with which options.
    pub solver: SolverId,
    /// A complete search from every start square: what it did with them.
    pub starts: Option<Starts>,
}

/// What a complete search from every start square did with the squares.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Starts {
    /// Squares to search from: neither ruled out nor images of others.
    pub candidates: usize,
    /// Of those, the squares searched from (to the end, or until a tour
    /// was found).
    pub searched: usize,
    /// Squares left out as images of searched ones under a symmetry.
    pub images: usize,
    /// Squares proved to start no tour before searching, with the rule.
    pub ruled_out: Vec<(u32, starts::StartRule)>,
}

impl Report {
    /// The report of work stopped by `stop` before it had a path (while it
    /// was still setting up).
    pub fn stopped(stop: Stop, elapsed: Duration, solver: SolverId) -> Report {
        Report {
            outcome: Outcome::stopped(stop, Vec::new()),
            stats: Stats {
                elapsed,
                ..Stats::default()
            },
            solver,
            starts: None,
        }
    }

    /// The answer of a search for two solutions, from its report, the
    /// `tours` it found and the limit that stopped it, if one did: the
    /// report of the first solution when the search ended (no second
    /// exists) or found a second, which comes beside it; a limit that
    /// stopped the search after one solution leaves it unproven, a stopped
    /// report with that solution as its path.
    pub fn first_of_two(
        mut self,
        mut tours: Vec<Vec<u32>>,
        stop: Option<Stop>,
    ) -> (Report, Option<Vec<u32>>) {
        if tours.len() == 1
            && let Some(stop) = stop
        {
            self.outcome = Outcome::stopped(stop, tours.remove(0));
        }
        let second = (tours.len() >= 2).then(|| tours.swap_remove(1));
        (self, second)
    }
}

/// What to solve: the move graph, the board and piece it was built from,
/// the goal, the constraints beyond it (clues, symmetry) and the seed of
/// every random choice.
#[derive(Clone, Copy, Debug)]
pub struct Task<'t> {
    /// The move graph: all most solvers see.
    pub graph: &'t MoveGraph,
    /// The board the graph was built on.
    pub board: &'t Board,
    /// The piece the graph was built from.
    pub piece: &'t Piece,
    /// Open or closed, start and end.
    pub goal: Goal,
    /// Clues and symmetry. Only the solvers that honour them are given a
    /// task with any (the runner refuses the rest).
    pub constraints: &'t Constraints,
    /// Seed of every random choice.
    pub seed: u64,
}

/// No clues, no symmetry, no magic sums.
pub static NO_CONSTRAINTS: Constraints = Constraints {
    clues: Vec::new(),
    symmetry: None,
    letters: None,
    magic: None,
};

impl<'t> Task<'t> {
    /// The task of `graph`, built from `piece` on `board`, for `goal`, with
    /// no constraints, seed 0.
    pub fn new(graph: &'t MoveGraph, board: &'t Board, piece: &'t Piece, goal: Goal) -> Task<'t> {
        Task {
            graph,
            board,
            piece,
            goal,
            constraints: &NO_CONSTRAINTS,
            seed: 0,
        }
    }

    /// This task with the constraints `c`.
    pub fn with_constraints(self, c: &'t Constraints) -> Task<'t> {
        Task {
            constraints: c,
            ..self
        }
    }

    /// This task with another seed.
    pub fn with_seed(self, seed: u64) -> Task<'t> {
        Task { seed, ..self }
    }
}

/// How to run a solver: the limits it obeys, where it publishes progress,
/// and who watches its search (an observer, or `&mut` one: a borrowed
/// observer observes too).
pub struct Run<'r, O> {
    /// When to stop.
    pub limits: Limits<'r>,
    /// Where to publish progress.
    pub progress: &'r Progress,
    /// Who is told every search event.
    pub observer: O,
}

impl<'r, O: Observer> Run<'r, O> {
    /// A run with `limits`, publishing into `progress`, watched by `observer`.
    pub fn new(limits: Limits<'r>, progress: &'r Progress, observer: O) -> Run<'r, O> {
        Run {
            limits,
            progress,
            observer,
        }
    }

    /// The same run, borrowed for one stage of a longer one.
    pub fn reborrow(&mut self) -> Run<'_, &mut O> {
        Run {
            limits: self.limits,
            progress: self.progress,
            observer: &mut self.observer,
        }
    }
}

/// A solver: its options type, run on a task.
pub trait Solver {
    /// Solves `task` within `run`.
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report;

    /// Who this solver is, as data.
    fn id(&self) -> SolverId;

    /// Solves `task` with no limits, publishing nowhere and watched by no
    /// one (for examples and tests).
    fn solve_quietly(&self, task: &Task<'_>) -> Report {
        let progress = Progress::new();
        self.solve(task, Run::new(Limits::none(), &progress, event::NoObserver))
    }
}

/// Which solver a puzzle asks for, with its options.
#[derive(Clone, Copy, Debug, PartialEq, Default, serde::Deserialize, serde::Serialize)]
pub enum SolverSpec {
    /// Pick by the puzzle's size.
    #[default]
    Auto,
    /// Complete backtracking.
    Backtrack(backtrack::BacktrackOptions),
    /// Warnsdorff's rule.
    Warnsdorff(warnsdorff::WarnsdorffOptions),
    /// Genetic algorithm.
    Genetic(genetic::GeneticOptions),
    /// The search for symmetric tours (needs `symmetry`).
    Symmetric(symmetric::SymmetricOptions),
}

impl SolverSpec {
    /// The solver's kind, as a short name (`auto`, `backtrack`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            SolverSpec::Auto => "auto",
            SolverSpec::Backtrack(_) => "backtrack",
            SolverSpec::Warnsdorff(_) => "warnsdorff",
            SolverSpec::Genetic(_) => "genetic",
            SolverSpec::Symmetric(_) => "symmetric",
        }
    }
}
