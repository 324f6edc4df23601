//! The counters every run keeps.

use std::time::Duration;

/// What a run cost: the counters every solver keeps.
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
    /// Stuck walks repaired (Warnsdorff).
    pub repairs: u64,
    /// Pósa rotations made (Warnsdorff).
    pub rotations: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

impl Stats {
    /// Adds the counters of a later stage of the same run.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.generations += other.generations;
        self.restarts += other.restarts;
        self.repairs += other.repairs;
        self.rotations += other.rotations;
        self.elapsed += other.elapsed;
    }
}
