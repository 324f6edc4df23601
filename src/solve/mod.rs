//! Solvers. Each works on a [`MoveGraph`] and a [`Goal`] and returns a
//! [`Report`]: an [`Outcome`] plus [`Stats`].

pub mod backtrack;
mod close;
pub mod event;
pub mod record;
pub mod runner;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::model::MoveGraph;

/// What a tour must satisfy besides visiting every square once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Goal {
    /// The last square must be one move from the first.
    pub closed: bool,
    /// Fixed first square, or any.
    pub start: Option<u32>,
    /// Fixed last square, or any (open tours only).
    pub end: Option<u32>,
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--time-limit` ran out.
    Time,
    /// `node_limit` ran out.
    Nodes,
    /// `generations` ran out.
    Generations,
    /// `restarts` ran out.
    Restarts,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Time => "time limit",
            Limit::Nodes => "node limit",
            Limit::Generations => "generation limit",
            Limit::Restarts => "restart limit",
        })
    }
}

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
    /// The process exit code the command line uses for this outcome.
    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Found(_) => 0,
            Outcome::Impossible(_) => 1,
            Outcome::GaveUp { .. } => 3,
            Outcome::Interrupted { .. } => 130,
        }
    }

    /// The tour, or the best partial path.
    pub fn path(&self) -> &[u32] {
        match self {
            Outcome::Found(t) => t,
            Outcome::Impossible(_) => &[],
            Outcome::GaveUp { best, .. } | Outcome::Interrupted { best } => best,
        }
    }
}

/// Counters every solver keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Squares entered (a start square counts).
    pub nodes: u64,
    /// Steps taken back.
    pub backtracks: u64,
    /// Generations (genetic solver).
    pub generations: u64,
    /// Restarts (Warnsdorff) or extra start squares tried.
    pub restarts: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// How it ended.
    pub outcome: Outcome,
    /// What it cost.
    pub stats: Stats,
    /// The solver and its options, for people (e.g. `backtrack (order: given)`).
    pub solver: String,
}

/// Limits on a search: a deadline, a node budget and an interrupt flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop when this becomes true (set by a Ctrl-C handler).
    pub interrupt: Option<&'a AtomicBool>,
    /// Stop when this becomes true because the answer is known elsewhere
    /// (the runner's proofs found no tour can exist); reported as
    /// [`Stop::Interrupted`], which the runner then replaces.
    pub cancel: Option<&'a AtomicBool>,
    /// Where solvers publish their node count for a progress display.
    pub progress: Option<&'a AtomicU64>,
    /// Where a solver publishes its best score so far (the genetic solver's
    /// best fitness) for a progress display.
    pub best: Option<&'a AtomicU64>,
}

impl<'a> Limits<'a> {
    /// No limits at all.
    pub fn none() -> Limits<'static> {
        Limits::default()
    }

    /// A limit of `secs` seconds from now.
    pub fn with_time(self, secs: Option<f64>) -> Limits<'a> {
        self.with_time_from(Instant::now(), secs)
    }

    /// A limit of `secs` seconds from `start` (when the command began, so
    /// the limit covers reading the puzzle and building its graph too).
    pub fn with_time_from(mut self, start: Instant, secs: Option<f64>) -> Limits<'a> {
        self.deadline = secs.map(|s| start + Duration::from_secs_f64(s.max(0.0)));
        self
    }

    /// Which limit, if any, has run out after `nodes` nodes. Cheap enough to
    /// call every few thousand nodes.
    pub fn exceeded(&self, nodes: u64) -> Option<Stop> {
        if let Some(p) = self.progress {
            p.store(nodes, Ordering::Relaxed);
        }
        if self.interrupted() {
            return Some(Stop::Interrupted);
        }
        if let Some(max) = self.nodes
            && nodes >= max
        {
            return Some(Stop::Limit(Limit::Nodes));
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Some(Stop::Limit(Limit::Time));
        }
        None
    }
}

impl Limits<'_> {
    /// Whether Ctrl-C was pressed or the search was cancelled.
    pub fn interrupted(&self) -> bool {
        [self.interrupt, self.cancel]
            .into_iter()
            .flatten()
            .any(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the search should stop for a reason other than its node
    /// count: an interrupt, a cancel or the deadline. For work that is not
    /// counted in nodes (building, proofs, drawing).
    pub fn expired(&self) -> bool {
        self.interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Report {
    /// The report of a search stopped by `limits` (time limit or Ctrl-C)
    /// before it had a path: while it was still setting up.
    pub fn stopped_in_setup(limits: &Limits, elapsed: Duration, solver: String) -> Report {
        Report {
            outcome: limits
                .exceeded(0)
                .unwrap_or(Stop::Interrupted)
                .outcome(Vec::new()),
            stats: Stats {
                elapsed,
                ..Stats::default()
            },
            solver,
        }
    }
}

/// Boards with at least this many squares look at the time limit between
/// their solvers' whole-board setup passes (smaller ones finish a pass in
/// well under a millisecond, and always get their first step).
pub(crate) const LARGE_BOARD: usize = 1 << 16;

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A limit ran out.
    Limit(Limit),
    /// Interrupted.
    Interrupted,
}

impl Stop {
    /// The outcome for a search stopped this way with best path `best`.
    pub fn outcome(self, best: Vec<u32>) -> Outcome {
        match self {
            Stop::Limit(limit) => Outcome::GaveUp { limit, best },
            Stop::Interrupted => Outcome::Interrupted { best },
        }
    }
}

/// Squares from which the tour may close back to `start` (its predecessors).
pub(crate) fn predecessors_mask(g: &MoveGraph, start: u32) -> Vec<bool> {
    let mut mask = vec![false; g.len()];
    for s in 0..g.len() as u32 {
        if g.has_edge(s, start) {
            mask[s as usize] = true;
        }
    }
    mask
}
pub mod genetic;
pub mod warnsdorff;

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
}
