//! The JSON reports of `engine archive stats` ([`StatsJson`]) and `engine
//! archive list` ([`ListJson`]): the archive's file and its rows, each
//! with the figures the text tables show.

use crate::archive::{RunRow, StatsRow};

/// The report of `engine archive stats --format json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StatsJson<'a> {
    /// The archive's file.
    pub archive: String,
    /// One row a puzzle (as grouped) and solver kind.
    pub rows: Vec<StatsRowJson<'a>>,
}

/// One row of [`StatsJson`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StatsRowJson<'a> {
    /// The puzzle's id in the archive.
    pub puzzle_id: i64,
    /// The puzzle's name.
    pub puzzle: &'a str,
    /// `open` or `closed`.
    pub tour: &'a str,
    /// The solver kind.
    pub solver: &'a str,
    /// Runs saved.
    pub runs: u64,
    /// Runs that found a tour.
    pub found: u64,
    /// Distinct tours among them.
    pub distinct: u64,
    /// `found / runs`, 0 for no runs.
    pub success_rate: f64,
    /// Each run's nodes.
    pub nodes: &'a [u64],
    /// Each run's generations.
    pub generations: &'a [u64],
    /// Each run's time in milliseconds.
    pub times_ms: &'a [f64],
}

impl<'a> StatsJson<'a> {
    /// The report of `rows`, read from the archive at `archive`.
    pub fn new(archive: &std::path::Path, rows: &'a [StatsRow]) -> StatsJson<'a> {
        StatsJson {
            archive: archive.display().to_string(),
            rows: rows
                .iter()
                .map(|r| StatsRowJson {
                    puzzle_id: r.puzzle_id,
                    puzzle: &r.puzzle,
                    tour: &r.tour,
                    solver: &r.solver,
                    runs: r.runs,
                    found: r.found,
                    distinct: r.distinct,
                    success_rate: r.success_rate(),
                    nodes: &r.nodes,
                    generations: &r.generations,
                    times_ms: &r.times_ms,
                })
                .collect(),
        }
    }
}

/// The report of `engine archive list --format json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ListJson<'a> {
    /// The archive's file.
    pub archive: String,
    /// The most recent runs, the most recent first.
    pub runs: Vec<RunRowJson<'a>>,
}

/// One run of [`ListJson`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunRowJson<'a> {
    /// The run's id (`archive show ID`).
    pub id: i64,
    /// When it was saved.
    pub created: &'a str,
    /// The puzzle's name.
    pub name: &'a str,
    /// `open` or `closed`.
    pub tour: &'a str,
    /// How it ended (`found`, `impossible`, `gave_up`, `interrupted`).
    pub status: &'a str,
    /// The solver.
    pub solver: &'a str,
    /// Nodes searched.
    pub nodes: u64,
    /// Generations run.
    pub generations: u64,
    /// Time in milliseconds.
    pub time_ms: f64,
    /// The tour's id, when one was found.
    pub tour_id: Option<i64>,
}

impl<'a> ListJson<'a> {
    /// The report of `rows`, read from the archive at `archive`.
    pub fn new(archive: &std::path::Path, rows: &'a [RunRow]) -> ListJson<'a> {
        ListJson {
            archive: archive.display().to_string(),
            runs: rows
                .iter()
                .map(|r| RunRowJson {
                    id: r.id,
                    created: &r.created,
                    name: &r.name,
                    tour: &r.tour,
                    status: &r.status,
                    solver: &r.solver,
                    nodes: r.nodes,
                    generations: r.generations,
                    time_ms: r.time_ms,
                    tour_id: r.tour_id,
                })
                .collect(),
        }
    }
}
