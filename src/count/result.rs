//! The one result of every count, [`Count`]: the tours and cycles, whether
//! the count finished, stopped or was settled by a proof, the shard, and
//! the method that counted with what it did — the depth-first search's
//! tasks, the frontier's sweep, the clue search, or the symmetric search.

use std::time::Duration;

use crate::halt::Stop;
use crate::model::{Magic, TourSymmetry};
use crate::search::Stats;

use super::check::Check;
use super::dfs::{Counted, Shard};
use super::frontier::{FrontierCounted, Sweep};
use super::subset::SubsetCounted;

/// A count of tours, whichever method counted it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Directed tours (summed over every start when the start is `any`); a
    /// lower bound when `stopped`, and 0 when a frontier count stopped (it
    /// has no partial lower bound).
    pub tours: u128,
    /// Closed goals: twice the number of distinct cycles, a whole number in
    /// every shard so that shards add up; a lower bound when stopped. None
    /// for an open goal, for a clue count, and when a stop came before the
    /// count of a puzzle without a symmetry began.
    pub cycles_x2: Option<u128>,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Why no tour exists, when a proof settled the count without a search
    /// (the tours are then 0).
    pub proof: Option<String>,
    /// The slice of the work counted, if the count was split.
    pub shard: Option<Shard>,
    /// The method that counted, why, and what it did. None when no count
    /// began (a proof settled it, or a stop came first) — except on a
    /// puzzle with a symmetry, whose count is always the symmetric
    /// search's.
    pub method: Option<MethodUsed>,
    /// The check figure: a fingerprint of the work that a second run of
    /// the same count reproduces (frontier counts, and every shard).
    pub check: Option<Check>,
    /// What a shard covered, for its machine-readable line.
    pub split: Option<Split>,
}

/// What a shard of a split count covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The method's name (`dfs`, `frontier`).
    pub method: &'static str,
    /// The puzzle's fingerprint (sixteen hexadecimal digits; `?` when a
    /// stop came before the move graph was built): the move graph, goal,
    /// method and order of squares the shards of one count share.
    pub fingerprint: String,
    /// The units a frontier shard counted, in the line's words (pairs of
    /// ends and parts at a cut square); empty for a depth-first shard,
    /// whose tasks the search's work gives.
    pub covered: Vec<String>,
    /// The units finished.
    pub done: usize,
    /// The shard's units.
    pub units: usize,
}

/// How a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It ran to the end.
    Complete,
    /// A proof says there is no tour.
    Proven,
    /// A limit or an interrupt stopped it: the tours are a lower bound.
    Stopped,
}

impl Status {
    /// Its name in the JSON report: `complete`, `proven` or `stopped`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Proven => "proven",
            Status::Stopped => "stopped",
        }
    }
}

/// The method that counted, why it was the one, and what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodUsed {
    /// Why this method counted, in words (`as asked`, or the estimates).
    pub why: String,
    /// Whether the request named the method.
    pub asked: bool,
    /// What it did.
    pub work: Work,
}

/// What the method that counted did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// The depth-first search over prefix tasks.
    Dfs(SearchWork),
    /// Dynamic programming over the frontier.
    Frontier(FrontierWork),
    /// The clue solver's complete search counted the solutions of a puzzle
    /// with clues: one search on one thread.
    Clues {
        /// How many clues the puzzle has.
        clues: usize,
        /// Whether it has letters: the tours counted read its text.
        letters: bool,
        /// The search.
        search: SearchWork,
    },
    /// The symmetric solver's complete searches counted the tours a
    /// symmetry maps onto themselves: one search on one thread.
    Symmetric(SymmetricWork),
    /// Dynamic programming over the subsets of squares (by steps, for a
    /// puzzle with clues).
    Subset(SubsetWork),
    /// The magic search counted the tours whose sums are magic, in prefix
    /// tasks.
    Magic {
        /// The sums.
        magic: Magic,
        /// How many clues the puzzle has.
        clues: usize,
        /// The search.
        search: SearchWork,
    },
}

/// What a subset count did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubsetWork {
    /// Squares in the sets (the board's, less a fixed start).
    pub squares: usize,
    /// Layers (set sizes) done.
    pub layers_done: usize,
    /// The most counts in one layer.
    pub peak_counts: u64,
    /// The most bytes the layers took at once.
    pub peak_bytes: u64,
    /// Bits of each count (64, or 128 when 64 overflowed).
    pub count_bits: u32,
    /// Clues the steps were held to (0: none).
    pub clues: usize,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub elapsed: Duration,
}

impl SubsetWork {
    /// The work of a subset count, with `clues` clues.
    pub fn of(c: &SubsetCounted, clues: usize) -> SubsetWork {
        SubsetWork {
            squares: c.squares,
            layers_done: c.layers_done,
            peak_counts: c.peak_counts,
            peak_bytes: c.peak_bytes,
            count_bits: c.count_bits,
            clues,
            threads: c.threads,
            elapsed: c.elapsed,
        }
    }
}

impl Work {
    /// The method's name in the JSON report: `dfs`, `frontier`, `clues`,
    /// `symmetric`, `subset` or `magic`.
    pub fn name(&self) -> &'static str {
        match self {
            Work::Dfs(_) => "dfs",
            Work::Frontier(_) => "frontier",
            Work::Clues { .. } => "clues",
            Work::Symmetric(_) => "symmetric",
            Work::Subset(_) => "subset",
            Work::Magic { .. } => "magic",
        }
    }

    /// The search's work, for the methods that search (all but the
    /// frontier and the subsets).
    pub fn search(&self) -> Option<&SearchWork> {
        match self {
            Work::Dfs(s) | Work::Clues { search: s, .. } | Work::Magic { search: s, .. } => Some(s),
            Work::Symmetric(s) => Some(&s.search),
            Work::Frontier(_) | Work::Subset(_) => None,
        }
    }
}

/// How a search's count was split into tasks, and what it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchWork {
    /// Size of the symmetry group used.
    pub symmetries: usize,
    /// Prefix tasks of this run (this shard's); None when a stop came before
    /// they were listed.
    pub tasks: Option<usize>,
    /// Tasks finished.
    pub tasks_done: usize,
    /// Tasks of the whole count (all shards); None when a stop came before
    /// they were listed.
    pub tasks_all: Option<usize>,
    /// Longest prefix of a task, in squares.
    pub depth: usize,
    /// Worker threads used.
    pub threads: usize,
    /// Nodes (squares entered) and wall time.
    pub stats: Stats,
}

impl SearchWork {
    /// One search on one thread with no symmetry used (the clue and
    /// symmetric counts): one task, done unless `stopped`.
    pub fn one_search(stopped: bool, stats: Stats) -> SearchWork {
        SearchWork {
            symmetries: 1,
            tasks: Some(1),
            tasks_done: usize::from(!stopped),
            tasks_all: Some(1),
            depth: 0,
            threads: 1,
            stats,
        }
    }

    /// The work of a depth-first count.
    pub fn of(c: &Counted) -> SearchWork {
        SearchWork {
            symmetries: c.symmetries,
            tasks: c.listed.then_some(c.tasks),
            tasks_done: c.tasks_done,
            tasks_all: c.listed.then_some(c.tasks_all),
            depth: c.depth,
            threads: c.threads,
            stats: c.stats,
        }
    }
}

/// What a frontier count did: its sweep, its frontier and its states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierWork {
    /// How the board was swept.
    pub sweep: Sweep,
    /// The widest frontier (with the square being taken).
    pub width: usize,
    /// Squares taken (all of them when complete).
    pub squares_done: usize,
    /// Squares of the board.
    pub squares: usize,
    /// The most states held after one step.
    pub peak_states: u64,
    /// States after each step taken.
    pub states: Vec<u64>,
    /// The most bytes the states took at once.
    pub peak_bytes: u64,
    /// Bits of each count (64, or 128 when 64 overflowed).
    pub count_bits: u32,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Bytes written to disk in all (0 when the states fit the memory).
    pub spilled: u64,
    /// The squares a checkpoint had taken when this run took it up.
    pub resumed_at: Option<usize>,
}

impl FrontierWork {
    /// The work of a frontier count.
    pub fn of(c: &FrontierCounted) -> FrontierWork {
        FrontierWork {
            sweep: c.sweep,
            width: c.width,
            squares_done: c.squares_done,
            squares: c.squares_total,
            peak_states: c.peak_states,
            states: c.states.clone(),
            peak_bytes: c.peak_bytes,
            count_bits: c.count_bits,
            threads: c.threads,
            elapsed: c.elapsed,
            spilled: c.spilled,
            resumed_at: c.resumed_at,
        }
    }
}

/// What the symmetric searches did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymmetricWork {
    /// The symmetry.
    pub symmetry: TourSymmetry,
    /// Of the tours, those the symmetry turns and those it folds; None when
    /// it moves no square, and every closed tour was counted depth-first.
    pub split: Option<(u128, u128)>,
    /// Half-path searches run.
    pub searches: u64,
    /// The search, as one task on one thread.
    pub search: SearchWork,
}

impl Count {
    /// How the count ended.
    pub fn status(&self) -> Status {
        match (&self.proof, self.stopped) {
            (Some(_), _) => Status::Proven,
            (None, Some(_)) => Status::Stopped,
            (None, None) => Status::Complete,
        }
    }

    /// True when the count ran to the end (or a proof settled it).
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    /// Distinct cycles of a closed goal (a lower bound when stopped). Half
    /// of [`Count::cycles_x2`], for the whole count only: a shard's half may
    /// be odd.
    pub fn cycles(&self) -> Option<u128> {
        self.cycles_x2.map(|c| c.div_ceil(2))
    }

    /// What the method that counted did, if one did.
    pub fn work(&self) -> Option<&Work> {
        self.method.as_ref().map(|m| &m.work)
    }

    /// The symmetric searches' part, on a puzzle with a symmetry.
    pub fn symmetric(&self) -> Option<&SymmetricWork> {
        match self.work() {
            Some(Work::Symmetric(s)) => Some(s),
            _ => None,
        }
    }

    /// Of the tours, those the symmetry turns; None without a symmetry, or
    /// with one that moves no square.
    pub fn turned(&self) -> Option<u128> {
        self.symmetric().and_then(|s| s.split).map(|(t, _)| t)
    }

    /// Of the tours, those the symmetry folds; None as for
    /// [`Count::turned`].
    pub fn folded(&self) -> Option<u128> {
        self.symmetric().and_then(|s| s.split).map(|(_, f)| f)
    }

    /// The number of clues, for a count of a puzzle with clues.
    pub fn clues(&self) -> Option<usize> {
        match self.work() {
            Some(Work::Clues { clues, .. }) => Some(*clues),
            Some(Work::Magic { clues, .. }) if *clues > 0 => Some(*clues),
            Some(Work::Subset(s)) if s.clues > 0 => Some(s.clues),
            _ => None,
        }
    }
}
