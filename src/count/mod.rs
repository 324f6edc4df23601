//! Exact tour counts. [`count_job`] (or [`count_task`], on a move graph
//! already built) is the one entry point: it runs the proofs, picks the
//! counter — for a puzzle with clues the subsets counted by steps when they
//! are few, else the clue search; the symmetric search for one with a
//! symmetry; else the depth-first search ([`dfs`]), the frontier
//! ([`frontier`]) or the subsets ([`subset`]), as asked or as [`method`]
//! estimates the cheapest — falls back from the frontier to the search when
//! the frontier's states outgrow the memory (unless they may spill to
//! disk), splits a frontier count into shards ([`shard`]; `merge` adds
//! them up), and returns one [`Count`] whatever counted.
//!
//! Counting every tour uses the solvers' searches for clues and symmetry
//! (`solve::clued`, `solve::symmetric`); no solver needs a count, so this
//! module sits above `solve`.

pub mod check;
pub mod dfs;
pub mod frontier;
pub mod list;
pub mod merge;
pub mod method;
mod result;
pub mod shard;
pub mod subset;

pub use check::Check;
pub use dfs::{CountOptions, Counted, DEFAULT_TASKS, Shard, TASKS_PER_SHARD};
pub use method::Method;
pub use result::{
    Count, FrontierWork, MethodUsed, SearchWork, Split, Status, SubsetWork, SymmetricWork, Work,
};

use crate::analysis;
use crate::halt::{Halt, Limits, Stop};
use crate::model::{Board, Constraints, Goal, Magic, MoveGraph, Piece, Symmetries, TourSymmetry};
use crate::progress::Progress;
use crate::solve::symmetric::{self, SymmetricCount};
use crate::solve::{self, Task, clued};

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
    /// Count only this slice of the work: of the search's prefix tasks, or
    /// of the frontier's pairs of ends and parts at a cut square.
    pub shard: Option<Shard>,
    /// Worker threads (default: one per core; at most
    /// [`budget::max_threads`](crate::budget::max_threads), more are that many).
    pub threads: Option<usize>,
    /// The most bytes a frontier count's states may take in memory.
    pub memory: u64,
    /// The folder a frontier count writes its states to when they pass
    /// `memory` (in a folder of its own, removed at the end); None: such a
    /// count is refused, or (chosen by the estimates) left to the search.
    pub spill: Option<&'static std::path::Path>,
    /// Where a frontier count saves itself as it goes, and takes up what
    /// it saved before (see [`frontier::resume`]).
    pub checkpoint: Option<&'static frontier::resume::Checkpoint>,
}

impl Default for CountRequest {
    fn default() -> CountRequest {
        CountRequest {
            method: None,
            shard: None,
            threads: None,
            memory: crate::budget::FRONTIER,
            spill: None,
            checkpoint: None,
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
    /// The magic search counts a puzzle asking for these sums (in shards
    /// too, but never by the frontier or the subsets).
    Magic(Magic),
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
    /// The frontier was asked for and cannot count this puzzle (found
    /// before it starts, or its states passed the memory budget).
    FrontierUnfit(frontier::Unfit),
    /// A frontier count failed where no request is to blame: a count
    /// outgrew 128 bits, or a frontier the estimates chose could not count.
    /// No count is known and nothing is proven.
    FrontierFailed(frontier::Unfit),
    /// The subset method was asked for and cannot count this puzzle (too
    /// few or too many squares, too little memory, a count past 128 bits).
    SubsetUnfit(subset::Unfit),
    /// The subset method was asked for a count in shards, or of a puzzle
    /// with a symmetry.
    SubsetRefused(&'static str),
}

impl CountError {
    /// The field of the request that cannot be met; None for a failure.
    pub fn field(&self) -> Option<Field> {
        match self {
            CountError::OneSearchInShards(_) => Some(Field::Shard),
            CountError::FrontierOfOneSearch(_)
            | CountError::FrontierUnfit(_)
            | CountError::SubsetUnfit(_)
            | CountError::SubsetRefused(_) => Some(Field::Method),
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
            CountError::OneSearchInShards(OneSearch::Magic(_)) => {
                f.write_str("a magic count is split into shards by its prefix tasks")
            }
            CountError::FrontierOfOneSearch(OneSearch::Magic(magic)) => write!(
                f,
                "the frontier count does not take magic sums: a puzzle asking for a {} tour is counted by the magic search",
                magic.describe()
            ),
            CountError::FrontierOfOneSearch(OneSearch::Symmetry(sym)) => write!(
                f,
                "the frontier count does not take a symmetry: a puzzle with one is counted by the symmetric search ({} here)",
                sym.describe()
            ),
            CountError::FrontierUnfit(unfit) | CountError::FrontierFailed(unfit) => {
                write!(f, "{unfit}")
            }
            CountError::SubsetUnfit(unfit) => write!(f, "{unfit}"),
            CountError::SubsetRefused(why) => f.write_str(why),
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
    let magic = task.constraints.magic;
    if let (Some(sym), None) = (task.constraints.symmetry, magic) {
        return Ok(count_symmetric(task, sym, proof, request, limits, progress));
    }
    if let Some(proof) = proof {
        let method = match magic {
            Some(_) => MAGIC_METHOD,
            None => request.method.unwrap_or(Method::Dfs).name(),
        };
        return Ok(Count {
            tours: 0,
            cycles_x2: goal.closed.then_some(0),
            stopped: None,
            proof: Some(proof),
            shard: request.shard,
            method: None,
            check: request.shard.map(|_| Check::default()),
            split: request.shard.map(|_| Split {
                method,
                fingerprint: shard::fingerprint(g, &goal, method, None),
                covered: Vec::new(),
                done: 0,
                units: 0,
            }),
        });
    }
    if let Err(stop) = setup.check() {
        return not_begun(stop);
    }
    if let Some(magic) = magic {
        return Ok(count_magic(task, magic, request, limits, progress));
    }
    if task.constraints.on_steps() {
        return count_clued(task, request, limits, progress);
    }
    if request.method == Some(Method::Subset) {
        if request.shard.is_some() {
            return Err(CountError::SubsetRefused(
                "a subset count is one pass over the sets and cannot be split into shards",
            ));
        }
        return count_subset(
            task,
            request,
            "as asked".to_string(),
            true,
            limits,
            progress,
        );
    }
    if let (Some(Method::Frontier), Some(sh)) = (request.method, request.shard) {
        return count_frontier_shard(task, sh, request, limits, progress);
    }
    // A frontier count that may spill is held to the disk, not the memory.
    let spills = request.spill.is_some() && request.method == Some(Method::Frontier);
    let choice = method::choose(
        task.board,
        g,
        &goal,
        request.method,
        request.shard.is_some(),
        if spills { u64::MAX } else { request.memory },
        Some(request.memory),
        limits,
    )
    .map_err(CountError::FrontierUnfit)?;
    if let (true, Some(plan), Some(folder)) = (spills, &choice.plan, request.spill) {
        check_disk(task.board, g, &goal, plan, request.memory, folder)
            .map_err(CountError::FrontierUnfit)?;
    }
    let asked = request.method.is_some();
    if choice.method == Method::Subset {
        return count_subset(task, request, choice.why, false, limits, progress);
    }
    let mut why = choice.why.clone();
    if let Some(plan) = &choice.plan {
        let opts = frontier::FrontierOptions {
            threads: request
                .threads
                .map(|t| t.clamp(1, crate::budget::max_threads())),
            budget: request.memory,
            spill: request.spill,
            checkpoint: request.checkpoint,
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
                    check: Some(c.check),
                    split: None,
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
        check: request.shard.map(|_| c.check),
        split: request.shard.map(|_| Split {
            method: Method::Dfs.name(),
            fingerprint: shard::fingerprint(g, &goal, Method::Dfs.name(), None),
            covered: Vec::new(),
            done: c.tasks_done,
            units: c.tasks,
        }),
    })
}

/// Refuses a frontier count whose states, estimated before the start, are
/// over the memory budget and would not fit the free space of the spill
/// `folder` either (the estimate in a table's bytes, about three times a
/// state's bytes on disk: room for the runs of a step and their merge).
fn check_disk(
    board: &crate::model::Board,
    g: &MoveGraph,
    goal: &Goal,
    plan: &frontier::Plan,
    memory: u64,
    folder: &std::path::Path,
) -> Result<(), frontier::Unfit> {
    let (lines, across) = method::lines(board, plan);
    if !frontier::within_fit(plan, across, method::reach(board, g))
        || method::estimates_unfitted(board, g).is_some()
    {
        return Ok(());
    }
    let need = frontier::estimate_bytes(plan, lines, goal.closed);
    if need <= memory {
        return Ok(());
    }
    match frontier::spill::free_bytes(folder) {
        Some(free) if free < need => Err(frontier::Unfit::NoDisk {
            need,
            free,
            folder: folder.display().to_string(),
        }),
        _ => Ok(()),
    }
}

/// Refuses what a count that is one search cannot do: be split into
/// shards, or be counted by the frontier.
fn refuse_one_search(constraints: &Constraints, request: &CountRequest) -> Result<(), CountError> {
    // A symmetric count is refused before the move graph is built; a clue
    // count after the proofs, which may settle it first. A magic count is
    // the magic search's, in shards or not, whatever else the puzzle asks.
    if let Some(magic) = constraints.magic {
        return match request.method {
            Some(Method::Frontier) => Err(CountError::FrontierOfOneSearch(OneSearch::Magic(magic))),
            Some(Method::Subset) => Err(CountError::SubsetRefused(
                "the subset count does not take magic sums: a puzzle asking for them is counted by the magic search",
            )),
            _ => Ok(()),
        };
    }
    let Some(sym) = constraints.symmetry else {
        return Ok(());
    };
    if request.shard.is_some() {
        return Err(CountError::OneSearchInShards(OneSearch::Symmetry(sym)));
    }
    if request.method == Some(Method::Frontier) {
        return Err(CountError::FrontierOfOneSearch(OneSearch::Symmetry(sym)));
    }
    if request.method == Some(Method::Subset) {
        return Err(CountError::SubsetRefused(
            "the subset count does not take a symmetry: a puzzle with one is counted by the symmetric search",
        ));
    }
    Ok(())
}

/// The count that `stop` stopped before it began (building the move graph,
/// the proofs or the task list). A puzzle with a symmetry reports its
/// symmetric search, with nothing found.
fn not_begun(goal: Goal, constraints: &Constraints, request: &CountRequest, stop: Stop) -> Count {
    match constraints.symmetry {
        Some(sym) if constraints.magic.is_none() => {
            let mut c = SymmetricCount::none(goal.closed);
            c.stopped = Some(stop);
            symmetric_count(sym, c)
        }
        _ => Count {
            tours: 0,
            cycles_x2: None,
            stopped: Some(stop),
            proof: None,
            shard: request.shard,
            method: None,
            check: None,
            split: None,
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
        check: None,
        split: None,
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
        check: None,
        split: None,
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

/// The method's name on a magic count's shard line.
const MAGIC_METHOD: &str = "magic";

/// The count of a task asking for `magic` sums, by the magic search: its
/// prefix tasks on every core (or the threads asked), every N-th for a
/// shard, with the check figure of the tasks counted.
fn count_magic(
    task: &Task<'_>,
    magic: Magic,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Count {
    let threads = request
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .clamp(1, crate::budget::max_threads());
    let split = solve::magic::Split {
        shard: request.shard.map_or(1, |s| s.k()),
        of: request.shard.map_or(1, |s| s.n()),
        threads,
    };
    let c = solve::magic::count(task, split, limits, progress);
    let check = c.counted.iter().fold(Check::default(), |acc, &(i, t)| {
        acc.plus(Check::term(i as u64 + 1, t))
    });
    let (g, goal) = (task.graph, task.goal);
    Count {
        tours: c.tours,
        cycles_x2: None,
        stopped: c.stopped,
        proof: None,
        shard: request.shard,
        method: Some(MethodUsed {
            why: format!(
                "the puzzle asks for a {} tour: the magic search counts them",
                magic.describe()
            ),
            asked: false,
            work: Work::Magic {
                magic,
                clues: task.constraints.clues.len(),
                search: SearchWork {
                    symmetries: c.symmetries,
                    tasks: Some(c.tasks),
                    tasks_done: c.tasks_done,
                    tasks_all: Some(c.tasks_all),
                    depth: c.depth,
                    threads: c.threads,
                    stats: c.stats,
                },
            },
        }),
        check: request.shard.map(|_| check),
        split: request.shard.map(|_| Split {
            method: MAGIC_METHOD,
            fingerprint: shard::fingerprint(g, &goal, &magic_fingerprint(task.constraints), None),
            covered: Vec::new(),
            done: c.tasks_done,
            units: c.tasks,
        }),
    }
}

/// What a magic count's shards share besides the move graph and the goal:
/// the method, the sums, the clues and the symmetry, in words.
fn magic_fingerprint(c: &Constraints) -> String {
    format!(
        "{MAGIC_METHOD} {:?} {:?} {:?}",
        c.magic, c.clues, c.symmetry
    )
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
    // By steps, when the sets are few: the clue search's cost grows with
    // the solutions, the sets' does not.
    let clues = &task.constraints.clues;
    if request.method.is_none()
        && task.constraints.letters.is_none()
        && !task.goal.closed
        && subset::fit(task.graph, &task.goal, request.memory).is_ok()
        && subset::Steps::new(task.graph.len(), clues.iter().map(|&(k, s)| (s, k))).is_some()
    {
        let micros = subset::estimate_micros(task.graph, &task.goal);
        if micros < CLUES_BY_STEPS_BELOW {
            let why = format!(
                "the puzzle has clues; its sets of squares are few (estimated {}): counted by steps",
                method::time(micros)
            );
            return count_subset(task, request, why, false, limits, progress);
        }
    }
    let c = clued::count(task, limits, progress);
    Ok(Count {
        check: None,
        split: None,
        tours: u128::from(c.solutions),
        cycles_x2: None,
        stopped: c.stopped,
        proof: None,
        shard: None,
        method: Some(MethodUsed {
            why: if task.constraints.letters.is_some() {
                "the puzzle has letters: the clue search counts the tours that read its text"
            } else {
                "the puzzle has clues: the clue search counts its solutions"
            }
            .to_string(),
            asked: false,
            work: Work::Clues {
                clues: task.constraints.clues.len(),
                letters: task.constraints.letters.is_some(),
                search: SearchWork::one_search(c.stopped.is_some(), c.stats),
            },
        }),
    })
}

/// The count of shard `sh` of a frontier count split into shards
/// ([`shard`]): the plan of the whole count (the order of squares does not
/// depend on a deadline, so every shard finds the same), then each of the
/// shard's units — pairs of ends, parts at a cut square — counted in turn.
fn count_frontier_shard(
    task: &Task<'_>,
    sh: Shard,
    request: &CountRequest,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Count, CountError> {
    let (g, goal) = (task.graph, task.goal);
    let setup = request.setup_limits(limits);
    // The estimate of the whole count's memory says nothing of a unit's:
    // each unit's count keeps to the budget as it goes.
    let choice = method::choose(
        task.board,
        g,
        &goal,
        Some(Method::Frontier),
        false,
        u64::MAX,
        None,
        &setup,
    )
    .map_err(CountError::FrontierUnfit)?;
    let Some(plan) = choice.plan else {
        return Err(CountError::FrontierFailed(frontier::Unfit::Small));
    };
    let sym = Symmetries::of_board(task.board, g);
    let all = shard::units(g, &goal, &sym, sh.n());
    let fingerprint = shard::fingerprint(g, &goal, Method::Frontier.name(), Some(&plan));
    if all.is_empty() {
        return Ok(Count {
            tours: 0,
            cycles_x2: goal.closed.then_some(0),
            stopped: None,
            proof: Some(
                "the colours rule out every pair of squares as the ends of a tour".to_string(),
            ),
            shard: Some(sh),
            method: None,
            check: Some(Check::default()),
            split: Some(Split {
                method: Method::Frontier.name(),
                fingerprint,
                covered: Vec::new(),
                done: 0,
                units: 0,
            }),
        });
    }
    let mine = shard::mine(all.len(), sh.k(), sh.n());
    let started = std::time::Instant::now();
    let (mut peak_states, mut peak_bytes) = (0, 0);
    let counted = shard::count_units(task.board, &goal, &all, &mine, |unit_goal, cut| {
        let opts = frontier::FrontierOptions {
            threads: request.threads,
            budget: request.memory,
            spill: request.spill,
            checkpoint: request.checkpoint,
            cut,
            ..frontier::FrontierOptions::default()
        };
        let c = frontier::count(g, unit_goal, &plan, &opts, limits, progress)?;
        peak_states = c.peak_states.max(peak_states);
        peak_bytes = c.peak_bytes.max(peak_bytes);
        Ok(c)
    });
    let s = match counted {
        Ok(s) => s,
        Err(frontier::Unfit::Overflow) => {
            return Err(CountError::FrontierFailed(frontier::Unfit::Overflow));
        }
        Err(unfit) => return Err(CountError::FrontierUnfit(unfit)),
    };
    let stopped = s.last.as_ref().and_then(|c| c.stopped);
    let work = s.last.as_ref().map(|c| {
        let mut w = FrontierWork::of(c);
        w.peak_states = peak_states;
        w.peak_bytes = peak_bytes;
        w.elapsed = started.elapsed();
        w
    });
    Ok(Count {
        tours: s.tours,
        cycles_x2: s.cycles_x2,
        stopped,
        proof: None,
        shard: Some(sh),
        method: work.map(|w| MethodUsed {
            why: choice.why.clone(),
            asked: true,
            work: Work::Frontier(w),
        }),
        check: Some(s.check),
        split: Some(Split {
            method: Method::Frontier.name(),
            fingerprint,
            covered: s.covered,
            done: s.done,
            units: s.units,
        }),
    })
}

/// Puzzles with clues whose subset count is estimated under this many
/// microseconds are counted by steps rather than solution by solution.
pub const CLUES_BY_STEPS_BELOW: f64 = 1e6;

/// The count of `task` by the subset method (see [`subset`]); `why` it was
/// chosen, `asked` whether the request named it. A puzzle with clues is
/// counted by steps (open tours only).
fn count_subset(
    task: &Task<'_>,
    request: &CountRequest,
    why: String,
    asked: bool,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Count, CountError> {
    let (g, goal) = (task.graph, task.goal);
    let clues = &task.constraints.clues;
    if !clues.is_empty() && goal.closed {
        return Err(CountError::SubsetRefused(
            "the subset count takes clues for open tours only: a closed puzzle with clues is counted by the clue search",
        ));
    }
    let Some(steps) = subset::Steps::new(g.len(), clues.iter().map(|&(step, sq)| (sq, step)))
    else {
        return Err(CountError::SubsetRefused(
            "the clues name steps past the board's squares: the clue search counts this puzzle",
        ));
    };
    let c = subset::count(
        g,
        &goal,
        &steps,
        request.threads,
        request.memory,
        limits,
        progress,
    )
    .map_err(CountError::SubsetUnfit)?;
    Ok(Count {
        tours: c.tours,
        cycles_x2: c.cycles_x2,
        stopped: c.stopped,
        proof: None,
        shard: None,
        method: Some(MethodUsed {
            why,
            asked,
            work: Work::Subset(SubsetWork::of(&c, clues.len())),
        }),
        check: None,
        split: None,
    })
}
