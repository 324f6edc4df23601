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
    /// The check figure (sixteen hexadecimal digits), for a frontier count
    /// and a shard; else null.
    pub check: Option<String>,
    /// Whether closed tours were counted.
    pub closed: bool,
    /// The number of clues of a count with clues, else null.
    pub clues: Option<usize>,
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
    /// The tours listed (each a list of the squares' names, each checked by
    /// the verifier), when a list was asked for; else null.
    pub listed: Option<Vec<Vec<String>>>,
    /// `dfs`, `frontier`, `clues`, `symmetric`, `subset`, or null when no
    /// count ran.
    pub method: Option<&'static str>,
    /// The puzzle's name.
    pub name: String,
    /// The proof that no tour exists, with `status` `proven`; else null.
    pub proof: Option<String>,
    /// The shard counted, or null.
    pub shard: Option<ShardJson>,
    /// The start square, by name, or null.
    pub start: Option<String>,
    /// A search's work; null for a frontier or subset count or when no
    /// count ran.
    pub stats: Option<CountStats>,
    /// A subset count's sets and counts; else null.
    pub subset: Option<SubsetJson>,
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

/// A shard: the K-th of N, and what it covered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ShardJson {
    /// A frontier shard's units (pairs of ends, parts at a cut square), in
    /// the words of its `shard=` line; empty for a depth-first shard.
    pub covered: Vec<String>,
    /// K, from 1.
    pub k: u32,
    /// N.
    pub n: u32,
    /// The puzzle's fingerprint the shards of one count share, or null
    /// when a stop came before it was known.
    pub puzzle: Option<String>,
}

/// The report of `engine count --merge --format json`: the shards added
/// up.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MergeJson {
    /// The shards' check figures added (sixteen hexadecimal digits).
    pub check: String,
    /// Distinct cycles of a closed goal; null for an open one.
    pub cycles: Option<u128>,
    /// Twice the distinct cycles; null for an open goal.
    pub cycles_x2: Option<u128>,
    /// True when every shard is there and complete: `tours` is the count.
    pub exact: bool,
    /// `dfs` or `frontier`.
    pub method: String,
    /// Shards of which no line was given.
    pub missing: Vec<u32>,
    /// Shards whose lines are all partial.
    pub partial: Vec<u32>,
    /// The puzzle's fingerprint.
    pub puzzle: String,
    /// N, the shards the count was split into.
    pub shards: u32,
    /// Directed tours: the count, or a lower bound when not `exact`.
    pub tours: u128,
}

impl MergeJson {
    /// The report of the shards added up.
    pub fn new(m: &crate::count::merge::Merged) -> MergeJson {
        MergeJson {
            check: m.check.hex(),
            cycles: m.cycles(),
            cycles_x2: m.cycles_x2,
            exact: m.complete(),
            method: m.method.clone(),
            missing: m.missing.clone(),
            partial: m.partial.clone(),
            puzzle: m.puzzle.clone(),
            shards: m.n,
            tours: m.tours,
        }
    }
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
    /// Bytes of states written to disk in all (0 when they fit the
    /// memory).
    pub spilled_bytes: u64,
    /// The squares a checkpoint had taken when this run took it up
    /// (absent when it started afresh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed_at: Option<usize>,
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

/// A subset count's sets and counts.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SubsetJson {
    /// Bits of each count: 64, or 128 when 64 overflowed.
    pub count_bits: u32,
    /// Layers (set sizes) done.
    pub layers_done: usize,
    /// The most bytes the layers took at once.
    pub peak_bytes: u64,
    /// The most counts in one layer.
    pub peak_counts: u64,
    /// Squares in the sets (the board's, less a fixed start).
    pub squares: usize,
    /// Worker threads.
    pub threads: usize,
    /// Wall time in milliseconds.
    pub time_ms: f64,
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
            check: count.check.map(|c| c.hex()),
            closed: goal.closed,
            clues: count.clues(),
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
                    spilled_bytes: f.spilled,
                    resumed_at: f.resumed_at,
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
            listed: None,
            method: count.work().map(Work::name),
            name: name.to_string(),
            proof: count.proof.clone(),
            shard: count.shard.map(|s| ShardJson {
                covered: count
                    .split
                    .as_ref()
                    .map(|x| x.covered.clone())
                    .unwrap_or_default(),
                k: s.k(),
                n: s.n(),
                puzzle: count.split.as_ref().map(|x| x.fingerprint.clone()),
            }),
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
            subset: match count.work() {
                Some(Work::Subset(s)) => Some(SubsetJson {
                    count_bits: s.count_bits,
                    layers_done: s.layers_done,
                    peak_bytes: s.peak_bytes,
                    peak_counts: s.peak_counts,
                    squares: s.squares,
                    threads: s.threads,
                    time_ms: millis(s.elapsed),
                }),
                _ => None,
            },
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

impl CountJson {
    /// The report with the tours listed, on `board`.
    pub fn with_listed(mut self, board: &Board, tours: &[Vec<u32>]) -> CountJson {
        self.listed = Some(
            tours
                .iter()
                .map(|t| t.iter().map(|&s| board.name(s)).collect())
                .collect(),
        );
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{MethodUsed, SearchWork, Shard};
    use crate::search::Stats;

    /// A complete depth-first count of `tours` in `shard`.
    fn counted(tours: u128, cycles_x2: Option<u128>, shard: Option<Shard>) -> Count {
        Count {
            tours,
            cycles_x2,
            stopped: None,
            proof: None,
            shard,
            method: Some(MethodUsed {
                why: "as asked".to_string(),
                asked: true,
                work: Work::Dfs(SearchWork::one_search(false, Stats::default())),
            }),
            check: None,
            split: None,
        }
    }

    #[test]
    fn counts_past_64_bits_stay_exact_and_keys_sorted() {
        let board = Board::rectangle(10, 6);
        let goal = Goal::default();
        let c = counted(22_559_393_222_574_518_324_524, None, None);
        let text = super::super::line(&CountJson::new("king", &board, &goal, &c))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            text.contains(r#""tours":22559393222574518324524"#),
            "{text}"
        );
        assert!(text.ends_with("}\n"));
        let keys: Vec<&str> = [
            "check",
            "closed",
            "clues",
            "cycles",
            "cycles_x2",
            "end",
            "exact",
            "frontier",
            "listed",
            "method",
            "name",
            "proof",
            "shard",
            "start",
            "stats",
            "status",
            "stopped",
            "subject",
            "subset",
            "symmetry",
            "tours",
        ]
        .into_iter()
        .collect();
        let at: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap_or(usize::MAX))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn a_shard_halves_no_cycles() {
        let board = Board::rectangle(6, 6);
        let goal = Goal {
            closed: true,
            ..Goal::default()
        };
        let whole = CountJson::new("k", &board, &goal, &counted(6, Some(3), None));
        assert_eq!((whole.cycles, whole.cycles_x2), (Some(2), Some(3)));
        let shard = CountJson::new("k", &board, &goal, &counted(6, Some(3), Shard::new(1, 2)));
        assert_eq!((shard.cycles, shard.cycles_x2), (None, Some(3)));
        assert_eq!(
            shard.shard,
            Some(ShardJson {
                covered: Vec::new(),
                k: 1,
                n: 2,
                puzzle: None
            })
        );
        assert_eq!((shard.status, shard.method), ("complete", Some("dfs")));
    }
}
