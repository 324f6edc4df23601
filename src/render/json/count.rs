//! The JSON report of `engine count` ([`CountJson`]), from its one result
//! ([`Count`]): what was counted, how it ended, the tours and cycles as
//! exact integers, and the parts of the method that counted.

use super::{millis, square_name};
use crate::count::frontier::Sweep;
use crate::count::{Count, Status, Work};
use crate::model::{Board, Goal};
use crate::render::text::count::subject;

/// The report of `engine count --format json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CountJson {
    /// The number of clues of a count with clues, else null.
    pub clues: Option<usize>,
    /// Whether closed tours were counted.
    pub closed: bool,
    /// Distinct cycles of a closed goal (each once, whatever its start and
    /// direction); null for an open goal and in a shard.
    pub cycles: Option<u128>,
    /// Twice the distinct cycles, a whole number in every shard (the
    /// shards' add up); null for an open goal.
    pub cycles_x2: Option<u128>,
    /// The end square, by name, or null.
    pub end: Option<String>,
    /// False when the count stopped: `tours` is then a lower bound.
    pub exact: bool,
    /// A frontier count's sweep, frontier and states; else null.
    pub frontier: Option<FrontierJson>,
    /// `dfs`, `frontier`, `clues`, `symmetric`, or null when no count ran.
    pub method: Option<&'static str>,
    /// The puzzle's name.
    pub name: String,
    /// The proof that no tour exists, with `status` `proven`; else null.
    pub proof: Option<String>,
    /// The shard counted, or null.
    pub shard: Option<ShardJson>,
    /// The start square, by name, or null.
    pub start: Option<String>,
    /// A search's work; null for a frontier count or when no count ran.
    pub stats: Option<CountStats>,
    /// `complete`, `proven` or `stopped`.
    pub status: &'static str,
    /// What stopped the count (`the time limit ran out`, `interrupted`),
    /// else null.
    pub stopped: Option<String>,
    /// What is counted, in words.
    pub subject: String,
    /// A puzzle's symmetry and how it acts on the tours counted; else null.
    pub symmetry: Option<SymmetryJson>,
    /// Directed tours: exact, or a lower bound when stopped (0 for a
    /// stopped frontier count).
    pub tours: u128,
}

/// A shard: the K-th of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ShardJson {
    /// K, from 1.
    pub k: u32,
    /// N.
    pub n: u32,
}

/// A search's work in a count.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CountStats {
    /// The longest prefix of a task, in squares.
    pub depth: usize,
    /// Squares entered.
    pub nodes: u64,
    /// The size of the symmetry group used.
    pub symmetries: usize,
    /// Tasks of this run (this shard's); null when a stop came before they
    /// were listed.
    pub tasks: Option<usize>,
    /// Tasks of the whole count; null as `tasks`.
    pub tasks_all: Option<usize>,
    /// Tasks finished.
    pub tasks_done: usize,
    /// Worker threads.
    pub threads: usize,
    /// Wall time in milliseconds.
    pub time_ms: f64,
}

/// A frontier count's sweep, frontier and states.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FrontierJson {
    /// Bits of each count: 64, or 128 when 64 overflowed.
    pub count_bits: u32,
    /// The most bytes the states took at once.
    pub peak_bytes: u64,
    /// The most states held after one step.
    pub peak_states: u64,
    /// Squares of the board.
    pub squares: usize,
    /// Squares taken (all of them when complete).
    pub squares_done: usize,
    /// `files`, `ranks` or `greedy`.
    pub sweep: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// Wall time in milliseconds.
    pub time_ms: f64,
    /// The widest frontier, with the square being taken.
    pub width: usize,
}

/// A symmetry and how it acts on the tours counted.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SymmetryJson {
    /// Of the tours, those it folds (reverses); null when it moves no
    /// square.
    pub folded: Option<u128>,
    /// Its name in a puzzle file: `Rotate180`, `Rotate90`, `MirrorFiles`,
    /// `MirrorRanks`, `MirrorDiagonal`.
    pub name: String,
    /// Half-path searches run.
    pub searches: u64,
    /// Of the tours, those it turns (rotates along the cycle); null when
    /// it moves no square.
    pub turned: Option<u128>,
}

impl CountJson {
    /// The report of `count`, of the puzzle `name` on `board` for `goal`.
    pub fn new(name: &str, board: &Board, goal: &Goal, count: &Count) -> CountJson {
        let status = count.status();
        CountJson {
            clues: count.clues(),
            closed: goal.closed,
            // Halving is for the whole count only: a shard's half may be odd.
            cycles: count.cycles().filter(|_| count.shard.is_none()),
            cycles_x2: count.cycles_x2,
            end: square_name(board, goal.end),
            exact: status != Status::Stopped,
            frontier: match count.work() {
                Some(Work::Frontier(f)) => Some(FrontierJson {
                    count_bits: f.count_bits,
                    peak_bytes: f.peak_bytes,
                    peak_states: f.peak_states,
                    squares: f.squares,
                    squares_done: f.squares_done,
                    sweep: match f.sweep {
                        Sweep::Files => "files",
                        Sweep::Ranks => "ranks",
                        Sweep::Greedy => "greedy",
                    },
                    threads: f.threads,
                    time_ms: millis(f.elapsed),
                    width: f.width,
                }),
                _ => None,
            },
            method: count.work().map(Work::name),
            name: name.to_string(),
            proof: count.proof.clone(),
            shard: count.shard.map(|s| ShardJson { k: s.k(), n: s.n() }),
            start: square_name(board, goal.start),
            stats: count.work().and_then(Work::search).map(|s| CountStats {
                depth: s.depth,
                nodes: s.stats.nodes,
                symmetries: s.symmetries,
                tasks: s.tasks,
                tasks_all: s.tasks_all,
                tasks_done: s.tasks_done,
                threads: s.threads,
                time_ms: millis(s.stats.elapsed),
            }),
            status: status.name(),
            stopped: count.stopped.map(|s| s.to_string()),
            subject: subject(board, goal, count, false),
            symmetry: count.symmetric().map(|s| SymmetryJson {
                folded: s.split.map(|(_, f)| f),
                name: format!("{:?}", s.symmetry),
                searches: s.searches,
                turned: s.split.map(|(t, _)| t),
            }),
            tours: count.tours,
        }
    }
}
