//! Exact tour counts. [`count_job`] (or [`count_task`], on a move graph
//! already built) is the one entry point: it runs the proofs, picks the
//! counter — the clue search for a puzzle with clues, the symmetric search
//! for one with a symmetry, else the depth-first search ([`dfs`]) or the
//! frontier ([`frontier`]), as asked or as [`method`] estimates the
//! cheaper — falls back from the frontier to the search when the
//! frontier's states outgrow the memory, and returns one [`Count`] whatever
//! counted.
//!
//! Counting every tour uses the solvers' searches for clues and symmetry
//! (`solve::clued`, `solve::symmetric`); no solver needs a count, so this
//! module sits above `solve`.

pub mod dfs;
pub mod frontier;
pub mod method;
mod result;

pub use dfs::{CountOptions, Counted, DEFAULT_TASKS, Shard, TASKS_PER_SHARD};
pub use method::Method;
pub use result::{Count, FrontierWork, MethodUsed, SearchWork, Status, SymmetricWork, Work};

use crate::analysis;
use crate::halt::{Halt, Limits, Stop};
use crate::model::{Board, Constraints, Goal, MoveGraph, Piece, Symmetries, TourSymmetry};
use crate::progress::Progress;
use crate::solve::symmetric::{self, SymmetricCount};
use crate::solve::{Task, clued};

/// What to count: the tours of a piece over a board, for a goal, with the
/// constraints beyond it (clues, a symmetry).
#[derive(Clone, Copy, Debug)]
pub struct Job<'j> {
    /// The board.
    pub board: &'j Board,
    /// The piece.
    pub piece: &'j Piece,
    /// Open or closed, start and end.
    pub goal: Goal,
    /// Clues and symmetry.
    pub constraints: &'j Constraints,
}

/// How to count: what the caller asks of the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRequest {
    /// The method; None: the one estimated to be faster.
    pub method: Option<Method>,
    /// Count only this slice of the work (depth-first only).
    pub shard: Option<Shard>,
    /// Worker threads (default: one per core; at most
    /// [`budget::max_threads`](crate::budget::max_threads), more are that many).
    pub threads: Option<usize>,
    /// The most bytes a frontier count's states may take.
    pub memory: u64,
}

impl Default for CountRequest {
    fn default() -> CountRequest {
        CountRequest {
            method: None,
            shard: None,
            threads: None,
            memory: crate::budget::FRONTIER,
        }
    }
}

impl CountRequest {
    /// The limits of the work before the count: the move graph, the
    /// proofs, the task list. A shard's report gives its tasks, so the
    /// deadline does not stop a shard's setup: it stops the count before
    /// the first task instead. An interrupt stops it at once.
    pub fn setup_limits<'a>(&self, limits: &Limits<'a>) -> Limits<'a> {
        if self.shard.is_some() {
            Limits {
                deadline: None,
                ..*limits
            }
        } else {
            *limits
        }
    }
}

/// A count that is one search: of a puzzle with clues, or with a symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneSearch {
    /// The clue search counts a puzzle with clues.
    Clues,
    /// The symmetric search counts a puzzle with this symmetry.
    Symmetry(TourSymmetry),
}

/// The part of a [`CountRequest`] a refusal is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// [`CountRequest::method`].
    Method,
    /// [`CountRequest::shard`].
    Shard,
}

/// Why a count gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// Shards were asked of a count that is one search.
    OneSearchInShards(OneSearch),
    /// The frontier was asked for a count that is one search.
    FrontierOfOneSearch(OneSearch),
    /// The frontier was asked for a count in shards.
    FrontierInShards,
    /// The frontier was asked for and cannot count this puzzle (found
    /// before it starts, or its states passed the memory budget).
    FrontierUnfit(frontier::Unfit),
    /// A frontier count failed where no request is to blame: a count
    /// outgrew 128 bits, or a frontier the estimates chose could not count.
    /// No count is known and nothing is proven.
    FrontierFailed(frontier::Unfit),
}

impl CountError {
    /// The field of the request that cannot be met; None for a failure.
    pub fn field(&self) -> Option<Field> {
        match self {
            CountError::OneSearchInShards(_) => Some(Field::Shard),
            CountError::FrontierOfOneSearch(_)
            | CountError::FrontierInShards
            | CountError::FrontierUnfit(_) => Some(Field::Method),
            CountError::FrontierFailed(_) => None,
        }
    }
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::OneSearchInShards(OneSearch::Clues) => f.write_str(
                "a count with clues is one search and cannot be split into shards",
            ),
            CountError::OneSearchInShards(OneSearch::Symmetry(_)) => f.write_str(
                "a count of symmetric tours is one search and cannot be split into shards",
            ),
            CountError::FrontierOfOneSearch(OneSearch::Clues) => f.write_str(
                "the frontier count does not take clues: a puzzle with clues is counted by the clue search",
            ),
            CountError::FrontierOfOneSearch(OneSearch::Symmetry(sym)) => write!(
                f,
                "the frontier count does not take a symmetry: a puzzle with one is counted by the symmetric search ({} here)",
                sym.describe()
            ),
            CountError::FrontierInShards => {
                f.write_str("a frontier count cannot be split into shards")
            }
            CountError::FrontierUnfit(unfit) | CountError::FrontierFailed(unfit) => {
                write!(f, "{unfit}")
            }
        }
    }
}

impl std::error::Error for CountError {}

/// Counts the tours of `job` as `request` asks, under `limits` (which cover
/// building the move graph and the proofs too), the work shown on
/// `progress`: builds the move graph, then [`count_task`].
pub fn count_job(
    job: &Job<'_>,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Count, CountError> {
    refuse_one_search(job.constraints, request)?;
    let graph = match MoveGraph::build(job.board, job.piece, &request.setup_limits(limits)) {
        Ok(g) => g,
        Err(stop) => return Ok(not_begun(job.goal, job.constraints, request, stop)),
    };
    let task = Task::new(&graph, job.board, job.piece, job.goal).with_constraints(job.constraints);
    count_task(&task, request, limits, progress)
}

/// Counts the tours of `task` as `request` asks, under `limits`, the work
/// shown on `progress`. First the proofs of `engine check`: one that rules
/// every tour out settles the count. Then the counter: the symmetric search
/// for a task with a symmetry (the depth-first count when the symmetry
/// moves no square of a closed goal's board: every closed tour is
/// symmetric), the clue search for one with clues, else the method asked
/// for or chosen by [`method::choose`] — and the depth-first search when a
/// frontier count it chose outgrows the memory. Err when the request cannot
/// be met, or a frontier count fails.
pub fn count_task(
    task: &Task<'_>,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Count, CountError> {
    refuse_one_search(task.constraints, request)?;
    let setup = request.setup_limits(limits);
    let (g, goal) = (task.graph, task.goal);
    let not_begun = |stop| Ok(not_begun(goal, task.constraints, request, stop));
    let proof = match analysis::analyse_board(g, &goal, task.board, task.piece, &setup) {
        Ok(a) => a.impossible,
        Err(stop) => return not_begun(stop),
    };
    if let Some(sym) = task.constraints.symmetry {
        return Ok(count_symmetric(task, sym, proof, request, limits, progress));
    }
    if let Some(proof) = proof {
        return Ok(Count {
            tours: 0,
            cycles_x2: goal.closed.then_some(0),
            stopped: None,
            proof: Some(proof),
            shard: request.shard,
            method: None,
        });
    }
    if let Err(stop) = setup.check() {
        return not_begun(stop);
    }
    if !task.constraints.clues.is_empty() {
        return count_clued(task, request, limits, progress);
    }
    if request.method == Some(Method::Frontier) && request.shard.is_some() {
        return Err(CountError::FrontierInShards);
    }
    let choice = method::choose(
        task.board,
        g,
        &goal,
        request.method,
        request.shard.is_some(),
        request.memory,
        limits,
    )
    .map_err(CountError::FrontierUnfit)?;
    let asked = request.method.is_some();
    let mut why = choice.why.clone();
    if let Some(plan) = &choice.plan {
        let opts = frontier::FrontierOptions {
            threads: request
                .threads
                .map(|t| t.clamp(1, crate::budget::max_threads())),
            budget: request.memory,
            ..frontier::FrontierOptions::default()
        };
        match frontier::count(g, &goal, plan, &opts, limits, progress) {
            Ok(c) => {
                return Ok(Count {
                    tours: c.tours,
                    cycles_x2: c.cycles_x2,
                    stopped: c.stopped,
                    proof: None,
                    shard: None,
                    method: Some(MethodUsed {
                        why,
                        asked,
                        work: Work::Frontier(FrontierWork::of(&c)),
                    }),
                });
            }
            // Chosen with no estimate, or an estimate under the budget, its
            // states passed it: the search counts, as when the estimate is
            // over it.
            Err(frontier::Unfit::TooBig { at, budget, .. }) if !asked => {
                why = format!(
                    "{}; its states passed {} at square {at} of {}",
                    choice.why,
                    crate::budget::bytes(budget),
                    g.len()
                );
            }
            Err(frontier::Unfit::Overflow) => {
                return Err(CountError::FrontierFailed(frontier::Unfit::Overflow));
            }
            Err(unfit) if asked => return Err(CountError::FrontierUnfit(unfit)),
            Err(unfit) => return Err(CountError::FrontierFailed(unfit)),
        }
    }
    let opts = CountOptions {
        threads: request
            .threads
            .map(|t| t.clamp(1, crate::budget::max_threads())),
        shard: request.shard,
        ..CountOptions::default()
    };
    let sym = Symmetries::of_board(task.board, g);
    let c = dfs::count(g, &goal, &sym, &opts, limits, progress);
    Ok(Count {
        tours: c.tours,
        cycles_x2: c.cycles_x2,
        stopped: c.stopped,
        proof: None,
        shard: request.shard,
        method: Some(MethodUsed {
            why,
            asked,
            work: Work::Dfs(SearchWork::of(&c)),
        }),
    })
}

/// Refuses what a count that is one search cannot do: be split into
/// shards, or be counted by the frontier.
fn refuse_one_search(constraints: &Constraints, request: &CountRequest) -> Result<(), CountError> {
    // A symmetric count is refused before the move graph is built; a clue
    // count after the proofs, which may settle it first.
    let Some(sym) = constraints.symmetry else {
        return Ok(());
    };
    if request.shard.is_some() {
        return Err(CountError::OneSearchInShards(OneSearch::Symmetry(sym)));
    }
    if request.method == Some(Method::Frontier) {
        return Err(CountError::FrontierOfOneSearch(OneSearch::Symmetry(sym)));
    }
    Ok(())
}

/// The count that `stop` stopped before it began (building the move graph,
/// the proofs or the task list). A puzzle with a symmetry reports its
/// symmetric search, with nothing found.
fn not_begun(goal: Goal, constraints: &Constraints, request: &CountRequest, stop: Stop) -> Count {
    match constraints.symmetry {
        Some(sym) => {
            let mut c = SymmetricCount::none(goal.closed);
            c.stopped = Some(stop);
            symmetric_count(sym, c)
        }
        None => Count {
            tours: 0,
            cycles_x2: None,
            stopped: Some(stop),
            proof: None,
            shard: request.shard,
            method: None,
        },
    }
}

/// The count of a task with symmetry `sym`, after the proofs (`proof`, if
/// one rules every tour out).
fn count_symmetric(
    task: &Task<'_>,
    sym: TourSymmetry,
    proof: Option<String>,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Count {
    if proof.is_some() {
        let mut c = SymmetricCount::none(task.goal.closed);
        c.proof = proof;
        return symmetric_count(sym, c);
    }
    if let Some(c) = symmetric::count(task, limits, progress) {
        return symmetric_count(sym, c);
    }
    // The symmetry moves no square: every closed tour is symmetric, and
    // the depth-first count counts them all.
    let (g, goal) = (task.graph, task.goal);
    let opts = CountOptions {
        threads: request
            .threads
            .map(|t| t.clamp(1, crate::budget::max_threads())),
        ..CountOptions::default()
    };
    let c = dfs::count(
        g,
        &goal,
        &Symmetries::of_board(task.board, g),
        &opts,
        limits,
        progress,
    );
    Count {
        tours: c.tours,
        cycles_x2: c.cycles_x2,
        stopped: c.stopped,
        proof: None,
        shard: None,
        method: Some(MethodUsed {
            why: format!(
                "{} moves no square of this board, so every closed tour counts: the depth-first count",
                sym.describe()
            ),
            asked: false,
            work: Work::Symmetric(SymmetricWork {
                symmetry: sym,
                split: None,
                searches: 0,
                search: SearchWork::one_search(c.stopped.is_some(), c.stats),
            }),
        }),
    }
}

/// The [`Count`] of the symmetric searches' count `c`.
fn symmetric_count(sym: TourSymmetry, c: SymmetricCount) -> Count {
    Count {
        tours: c.tours,
        cycles_x2: c.cycles_x2,
        stopped: c.stopped,
        proof: c.proof,
        shard: None,
        method: Some(MethodUsed {
            why: "the puzzle has a symmetry: the symmetric search counts the tours it maps onto themselves".to_string(),
            asked: false,
            work: Work::Symmetric(SymmetricWork {
                symmetry: sym,
                split: Some((c.turned, c.folded)),
                searches: c.searches,
                search: SearchWork::one_search(c.stopped.is_some(), c.stats),
            }),
        }),
    }
}

/// The count of a task with clues, by the clue search (one thread, no
/// shards, no frontier).
fn count_clued(
    task: &Task<'_>,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Count, CountError> {
    if request.shard.is_some() {
        return Err(CountError::OneSearchInShards(OneSearch::Clues));
    }
    if request.method == Some(Method::Frontier) {
        return Err(CountError::FrontierOfOneSearch(OneSearch::Clues));
    }
    let c = clued::count(task, limits, progress);
    Ok(Count {
        tours: u128::from(c.solutions),
        cycles_x2: None,
        stopped: c.stopped,
        proof: None,
        shard: None,
        method: Some(MethodUsed {
            why: "the puzzle has clues: the clue search counts its solutions".to_string(),
            asked: false,
            work: Work::Clues {
                clues: task.constraints.clues.len(),
                search: SearchWork::one_search(c.stopped.is_some(), c.stats),
            },
        }),
    })
}
