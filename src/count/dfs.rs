//! Exact tour counts, on all cores, and in shards for a cluster.
//!
//! [`count`] counts the directed tours of a goal — from its start square, or
//! summed over every start when the start is `any` — open or closed,
//! honouring the fixed end. For a closed goal it also counts the distinct
//! cycles (each once, whatever its start and direction).
//!
//! How:
//! 1. **Prefix tasks.** The search tree is cut at a depth where it has many
//!    more nodes than there are cores (at least [`DEFAULT_TASKS`]); each
//!    prefix is one task. The list depends only on the puzzle and the shard
//!    count, never on the threads, so every run (and every shard) sees the
//!    same list.
//! 2. **Symmetry.** Of every orbit of prefixes under the board's
//!    symmetries (see [`Symmetries`]) only the least prefix is counted, and
//!    its count is multiplied by the orbit's size. A symmetry `σ` maps the
//!    tours that begin with `p` one-to-one onto those that begin with `σ(p)`,
//!    and the prefix list is closed under the group, so the sum is the same.
//!    Only symmetries that keep the goal (its fixed start and end) are used.
//! 3. **Reversal.** For open tours between any two squares on a graph whose
//!    moves can all be made back, each tour is counted in one direction only
//!    where that is possible (see `reversal_classes`).
//! 4. **Pruned search** of each task with a cache of endings (`search`:
//!    each rule is proved there; `bits` is the same search on boards of at
//!    most 64 squares, with bit masks).
//! 5. **Threads** (rayon) pull tasks one at a time; **shards** take every
//!    N-th task.
//!
//! Closed tours are counted from one start `s`: every directed cycle passes
//! `s` once, so the number `D` of directed closed tours from `s` is the
//! number of directed cycles, and summed over all `n` starts there are
//! `n · D`. A cycle whose reverse is also a cycle is one cycle counted twice
//! in `D`. When every move can be made back, that is every cycle, so there
//! are `D / 2` distinct cycles. Otherwise a second count, `B`, of the closed
//! tours from `s` using only moves that can be made back gives the directed
//! cycles whose reverse is a cycle too, and there are `D − B / 2` (with two
//! squares the one cycle is its own reverse: `D` cycles).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::check::Check;
use crate::halt::{self, Cadence, Halt, Limits, Stop};
use crate::model::Symmetries;
use crate::model::graph::walks::predecessors_mask;
use crate::model::{Goal, MoveGraph};
use crate::progress::{Progress, Unit};
use crate::search::bits::BitRules;
use crate::search::driver::{Driver, Rules};
use crate::search::event::NoObserver;
use crate::search::general::{Expand, GeneralRules, State};
use crate::search::memo::{Memo, memo_bits};
use crate::search::tables::Tables;
use crate::search::{Aim, Pace, Pruning, Stats};

/// The least number of prefix tasks a count is split into.
pub const DEFAULT_TASKS: usize = 4096;

/// Prefix tasks per shard, at least, when a count is split into shards.
/// (Every shard enumerates the whole task list to find its own, so this is
/// kept small; a shard is meant to be a long job on few cores.)
pub const TASKS_PER_SHARD: usize = 16;

/// The K-th of N slices of the prefix tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Shard `k` of `n`, counting from 1 (`1 ≤ k ≤ n`); None otherwise.
    pub fn new(k: u32, n: u32) -> Option<Shard> {
        (k >= 1 && k <= n).then(|| Shard {
            index: k - 1,
            count: n,
        })
    }

    /// K, from 1.
    pub fn k(&self) -> u32 {
        self.index + 1
    }

    /// N.
    pub fn n(&self) -> u32 {
        self.count
    }

    fn takes(&self, task: usize) -> bool {
        task % self.count as usize == self.index as usize
    }
}

/// Options of [`count`].
#[derive(Clone, Copy, Debug, Default)]
pub struct CountOptions {
    /// Worker threads (default: one per core; at most
    /// [`budget::max_threads`](crate::budget::max_threads), more are that many).
    pub threads: Option<usize>,
    /// Count only this slice of the tasks.
    pub shard: Option<Shard>,
    /// Prunings to use (default: all).
    pub pruning: Pruning,
    /// Least number of prefix tasks (default: [`DEFAULT_TASKS`], or
    /// [`TASKS_PER_SHARD`] per shard if that is more).
    pub tasks: Option<usize>,
    /// Cache the counts of endings of at least this many squares (default:
    /// three eighths of the board; smaller endings are cheaper to recount
    /// than to look up).
    pub memo_min: Option<u32>,
    /// Use the general search even on boards of at most 64 squares, which
    /// otherwise get the faster bitboard search. The counts are the same.
    pub general_search: bool,
}

/// The result of [`count`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Directed tours (summed over every start when the start is `any`);
    /// a lower bound when `stopped`.
    pub tours: u128,
    /// Closed goals: twice the number of distinct cycles. It is a whole
    /// number for every shard, so shards add up; a lower bound when stopped.
    pub cycles_x2: Option<u128>,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Prefix tasks in this run (this shard's), and how many finished.
    pub tasks: usize,
    /// Tasks finished.
    pub tasks_done: usize,
    /// Tasks of the whole count (all shards).
    pub tasks_all: usize,
    /// Whether the task list was built: false when a stop came first, and
    /// `tasks` and `tasks_all` then say nothing of the count's tasks.
    pub listed: bool,
    /// Longest prefix of a task, in squares.
    pub depth: usize,
    /// Size of the symmetry group used.
    pub symmetries: usize,
    /// Worker threads used.
    pub threads: usize,
    /// Nodes (squares entered) and wall time.
    pub stats: Stats,
    /// The check figure: each finished task's weighted count (and two-way
    /// count) times its place in the task list, added mod the prime.
    pub check: Check,
}

impl Counted {
    /// Distinct cycles of a closed goal (a lower bound when stopped).
    pub fn cycles(&self) -> Option<u128> {
        self.cycles_x2.map(|c| c.div_ceil(2))
    }

    /// True when the count ran to the end.
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// The searches of a count: the graph's tables, for a directed closed goal
/// also the tables of its two-way moves, and the prefix tasks with their
/// orbit sizes.
struct Pass<'g> {
    tables: Tables<'g>,
    /// Directed closed goals: the graph of the moves that can be made back.
    /// Every tour of it is a tour of the main graph, so it extends exactly
    /// one task of the same list, and per task its count is at most the
    /// main count.
    two_way: Option<Tables<'g>>,
    /// The end class of the tasks from each start square.
    class_of: Vec<usize>,
    /// Task `i` is `prefixes[spans[i].0 .. spans[i].0 + spans[i].1]`.
    prefixes: Vec<u32>,
    spans: Vec<(usize, usize)>,
    weights: Vec<u64>,
    depth: usize,
}

impl Pass<'_> {
    /// Builds the task list: the prefixes of some depth `d`, the least `d`
    /// (up to a third of the squares) that gives at least `target` of them.
    /// A prefix that is counted outright before depth `d` is a task as it
    /// is; one with no tour is dropped. Only prefixes that are the least of
    /// their orbit are kept: a prefix that is not least has no extension
    /// that is, so it is dropped as soon as it is seen. The tasks are
    /// numbered in the order found; only the shard's are kept. Returns the
    /// number of tasks of the whole count, or why `limits` stopped it (it is
    /// checked at every start square, for boards with very many).
    fn build_tasks(
        &mut self,
        starts: &[u32],
        group: &Symmetries,
        target: usize,
        shard: Option<Shard>,
        limits: &Limits,
    ) -> Result<usize, Stop> {
        let max_depth = (self.tables.n / 3).max(1);
        let mut st = State::new(&self.tables);
        let mut sink = Sink {
            shard,
            group,
            limits,
            stop: None,
            nodes: 0,
            seen: 0,
            prefixes: Vec::new(),
            spans: Vec::new(),
            weights: Vec::new(),
            depth: 0,
        };
        for depth in 1..=max_depth {
            sink.clear();
            let mut deeper = false;
            for &s in starts {
                if group.canonical_weight(&[s]).is_none() {
                    continue;
                }
                limits.check()?;
                st.reset(s, 0);
                deeper |= collect(&mut st, group, depth, &mut sink);
                if let Some(stop) = sink.stop {
                    return Err(stop);
                }
            }
            if sink.seen >= target || !deeper {
                break;
            }
        }
        self.prefixes = sink.prefixes;
        self.spans = sink.spans;
        self.weights = sink.weights;
        self.depth = sink.depth;
        Ok(sink.seen)
    }

    fn task(&self, i: usize) -> &[u32] {
        let (a, len) = self.spans[i];
        &self.prefixes[a..a + len]
    }
}

/// Where [`collect`] puts the tasks it finds: it numbers them all and keeps
/// the shard's, with their orbit sizes, in flat arrays.
struct Sink<'a> {
    shard: Option<Shard>,
    group: &'a Symmetries,
    limits: &'a Limits<'a>,
    /// Set when `limits` ran out: the search for tasks stops.
    stop: Option<Stop>,
    /// Nodes looked at, for checking `limits` now and then.
    nodes: u64,
    seen: usize,
    prefixes: Vec<u32>,
    spans: Vec<(usize, usize)>,
    weights: Vec<u64>,
    depth: usize,
}

impl Sink<'_> {
    fn clear(&mut self) {
        self.seen = 0;
        self.prefixes.clear();
        self.spans.clear();
        self.weights.clear();
        self.depth = 0;
    }

    fn take(&mut self, prefix: &[u32]) {
        if self.shard.is_none_or(|s| s.takes(self.seen)) {
            self.depth = self.depth.max(prefix.len());
            self.spans.push((self.prefixes.len(), prefix.len()));
            self.prefixes.extend_from_slice(prefix);
            self.weights
                .push(self.group.canonical_weight(prefix).unwrap_or(0));
        }
        self.seen += 1;
    }
}

/// Passes to `sink` the canonical prefixes of length `depth` that extend
/// the state's path, and the shorter ones counted outright with a nonzero
/// count; true if some path could still go deeper than `depth`.
fn collect(st: &mut State, group: &Symmetries, depth: usize, sink: &mut Sink) -> bool {
    sink.nodes += 1;
    if let Err(stop) = halt::poll(sink.limits, sink.nodes as usize) {
        sink.stop = sink.stop.or(Some(stop));
    }
    if sink.stop.is_some() {
        return false;
    }
    let mut cands = Vec::new();
    match st.expand::<false>(&mut cands) {
        Expand::Dead | Expand::Leaf(0) => false,
        Expand::Leaf(_) => {
            sink.take(&st.path);
            false
        }
        Expand::Moves if cands.is_empty() => false,
        Expand::Moves if st.path.len() >= depth => {
            sink.take(&st.path);
            true
        }
        Expand::Moves => {
            let mut deeper = false;
            for t in cands {
                st.path.push(t);
                let keep = group.canonical_weight(&st.path).is_some();
                st.path.pop();
                if keep {
                    st.enter(t);
                    deeper |= collect(st, group, depth, sink);
                    st.leave();
                }
            }
            deeper
        }
    }
}

/// What the workers share.
struct Shared<'a> {
    limits: &'a Limits<'a>,
    nodes: AtomicU64,
    stop: AtomicBool,
    why: Mutex<Option<Stop>>,
    progress: &'a Progress,
}

impl Shared<'_> {
    /// Adds `delta` nodes; true when the count must stop.
    fn check(&self, delta: u64) -> bool {
        let total = self.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Err(why) = self.limits.check_work(total) {
            if let Ok(mut w) = self.why.lock() {
                w.get_or_insert(why);
            }
            self.stop.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// One worker's halt: its node count goes into the shared total, which is
/// what the limits' node budget counts; any worker's stop stops them all.
struct Worker<'s> {
    shared: &'s Shared<'s>,
    /// Nodes of this worker already added to the total.
    reported: AtomicU64,
}

impl Worker<'_> {
    /// Adds the nodes not yet reported to the total.
    fn flush(&self, nodes: u64) {
        let delta = nodes - self.reported.swap(nodes, Ordering::Relaxed);
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed);
    }
}

impl Halt for Worker<'_> {
    type Stop = ();
    fn check(&self) -> Result<(), ()> {
        if self.shared.stop.load(Ordering::Relaxed) {
            Err(())
        } else {
            Ok(())
        }
    }
    fn check_work(&self, nodes: u64) -> Result<(), ()> {
        let delta = nodes - self.reported.swap(nodes, Ordering::Relaxed);
        if self.shared.check(delta) {
            Err(())
        } else {
            Ok(())
        }
    }
}

/// A worker's view of one graph: its searches, kept from task to task,
/// and the cache of endings all workers share.
struct Searcher<'t> {
    tables: &'t Tables<'t>,
    memo: &'t Memo,
    general: Option<Driver<GeneralRules<'t, false>>>,
    two_way: Option<Driver<BitRules<'t, false, false>>>,
    one_way: Option<Driver<BitRules<'t, true, false>>>,
}

impl<'t> Searcher<'t> {
    fn new(tables: &'t Tables<'t>, memo: &'t Memo) -> Searcher<'t> {
        Searcher {
            tables,
            memo,
            general: None,
            two_way: None,
            one_way: None,
        }
    }

    /// Counts the tours extending `prefix`; `Err` holds a lower bound.
    fn count(
        &mut self,
        prefix: &[u32],
        class: usize,
        bitboard: bool,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &Worker,
    ) -> Result<u128, u128> {
        let (t, memo) = (self.tables, self.memo);
        if !bitboard {
            let d = self.general.get_or_insert_with(|| {
                Driver::new(GeneralRules::new(t, memo, Aim::COUNT), 0, u128::MAX)
            });
            d.rules.reset(prefix, class);
            d.restart(prefix.len());
            count_on(d, nodes, cadence, halt)
        } else if t.sym {
            let d = self.two_way.get_or_insert_with(|| {
                Driver::new(
                    BitRules::new(t, memo, class, prefix, Aim::COUNT),
                    0,
                    u128::MAX,
                )
            });
            d.rules.reset(class, prefix);
            d.restart(prefix.len());
            count_on(d, nodes, cadence, halt)
        } else {
            let d = self.one_way.get_or_insert_with(|| {
                Driver::new(
                    BitRules::new(t, memo, class, prefix, Aim::COUNT),
                    0,
                    u128::MAX,
                )
            });
            d.rules.reset(class, prefix);
            d.restart(prefix.len());
            count_on(d, nodes, cadence, halt)
        }
    }
}

/// Counts every tour below the driver's first path; `Err` holds the count
/// found before `halt` stopped it (a lower bound).
fn count_on<R: Rules>(
    d: &mut Driver<R>,
    nodes: &mut u64,
    cadence: &mut Cadence,
    halt: &Worker,
) -> Result<u128, u128> {
    match d.run(u64::MAX, nodes, cadence, halt, &mut NoObserver) {
        Pace::Stopped(()) => Err(d.count()),
        Pace::Done | Pace::Paused => Ok(d.count()),
    }
}

/// Counts the tasks `mine` of `pass` on `threads` workers. Returns the
/// weighted count of the main graph, of the two-way graph, the number of
/// tasks finished, and their check figure.
fn run_pass(
    pass: &Pass<'_>,
    mine: &[usize],
    threads: usize,
    general: bool,
    shared: &Shared,
) -> (u128, u128, usize, Check) {
    let next = AtomicUsize::new(0);
    let bitboard = !general && pass.tables.small();
    let memo = Memo::new(memo_bits(&pass.tables));
    let memo_back = pass.two_way.as_ref().map(|t| Memo::new(memo_bits(t)));
    let worker = || -> (u128, u128, usize, Check) {
        let mut main = Searcher::new(&pass.tables, &memo);
        let mut back = pass
            .two_way
            .as_ref()
            .zip(memo_back.as_ref())
            .map(|(t, m)| Searcher::new(t, m));
        let (mut sum, mut sum_back, mut done) = (0u128, 0u128, 0usize);
        let mut check = Check::default();
        let halt = Worker {
            shared,
            reported: AtomicU64::new(0),
        };
        let mut nodes = 0u64;
        let mut cadence = Cadence::with_every(&halt, 0, crate::search::general::CHECK_EVERY);
        while !shared.stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&task) = mine.get(i) else {
                break;
            };
            let prefix = pass.task(task);
            let class = pass.class_of[prefix[0] as usize];
            let w = u128::from(pass.weights[task]);
            // Tours found before a stop are real tours: a lower bound.
            match main.count(prefix, class, bitboard, &mut nodes, &mut cadence, &halt) {
                Ok(c) => {
                    sum += c * w;
                    check = check.plus(Check::term(task as u64 + 1, c * w));
                }
                Err(c) => {
                    sum += c * w;
                    break;
                }
            }
            if let (Some(b), Some(t)) = (back.as_mut(), pass.two_way.as_ref())
                && t.is_path(prefix)
            {
                match b.count(prefix, class, bitboard, &mut nodes, &mut cadence, &halt) {
                    Ok(c) => {
                        sum_back += c * w;
                        check = check.plus(Check::term(!(task as u64), c * w));
                    }
                    Err(_) => break,
                }
            }
            done += 1;
            shared.progress.add(1);
        }
        halt.flush(nodes);
        (sum, sum_back, done, check)
    };
    let results: Vec<(u128, u128, usize, Check)> = if threads <= 1 {
        vec![worker()]
    } else if threads == rayon::current_num_threads() && rayon::current_thread_index().is_none() {
        // Rayon's shared pool has the threads asked for: building a pool
        // costs more than a small count.
        rayon::broadcast(|_| worker())
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.broadcast(|_| worker()),
            Err(_) => vec![worker()],
        }
    };
    results
        .into_iter()
        .fold((0, 0, 0, Check::default()), |(a, b, c, k), (x, y, z, l)| {
            (a + x, b + y, c + z, k.plus(l))
        })
}

/// Counts the tours of `goal` on `g` exactly; see the module docs.
/// `sym` may be [`Symmetries::of_board`] (only its elements that are
/// automorphisms of `g` and keep the goal are used) or [`Symmetries::none`].
/// A limit in `limits` stops the count early with a lower bound; so does
/// one during its setup (with a count of 0 and no task list). A shard's
/// setup is not cut short by the deadline, only by the other limits: the
/// shard's tasks are part of what it reports, and the deadline then stops
/// the count before its first task. Progress counts tasks.
///
/// ```
/// use engine::model::{Board, MoveGraph, Piece};
/// use engine::halt::{Limits, Never};
/// use engine::model::Goal;
/// use engine::progress::Progress;
/// use engine::count::dfs::{count, CountOptions};
/// use engine::model::Symmetries;
/// let board = Board::rectangle(5, 5);
/// let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
/// let sym = Symmetries::of_board(&board, &g);
/// let progress = Progress::new();
/// let c = count(&g, &Goal::default(), &sym, &CountOptions::default(), &Limits::none(), &progress);
/// assert_eq!(c.tours, 1728);
/// ```
pub fn count(
    g: &MoveGraph,
    goal: &Goal,
    sym: &Symmetries,
    opts: &CountOptions,
    limits: &Limits,
    progress: &Progress,
) -> Counted {
    let started = Instant::now();
    let n = g.len();
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .clamp(1, crate::budget::max_threads());
    let mut counted = Counted {
        tours: 0,
        cycles_x2: goal.closed.then_some(0),
        stopped: None,
        tasks: 0,
        tasks_done: 0,
        tasks_all: 0,
        listed: false,
        depth: 0,
        symmetries: 1,
        threads,
        stats: Stats::default(),
        check: Check::default(),
    };
    // A shard's setup (tables and task list) ignores the deadline.
    let setup_limits = if opts.shard.is_some() {
        Limits {
            deadline: None,
            ..*limits
        }
    } else {
        *limits
    };
    if n == 0 {
        counted.listed = true;
        return counted;
    }
    let closed = goal.closed;
    let start = if closed {
        Some(goal.start.unwrap_or(0))
    } else {
        goal.start
    };
    let end = if closed { None } else { goal.end };
    if start.is_some_and(|s| s as usize >= n) || end.is_some_and(|e| e as usize >= n) {
        counted.listed = true;
        return counted;
    }
    let is_end: Vec<bool> = match (start, end) {
        (Some(s), _) if closed => predecessors_mask(g, s),
        (_, Some(e)) => (0..n).map(|i| i == e as usize).collect(),
        _ => vec![true; n],
    };
    let fixed: Vec<u32> = start.iter().chain(end.iter()).copied().collect();
    let group = if opts.pruning.symmetry && sym.squares() == n {
        sym.automorphisms_of(g).stabiliser(&fixed)
    } else {
        Symmetries::none(n)
    };
    counted.symmetries = group.len();
    let starts: Vec<u32> = match start {
        Some(s) => vec![s],
        None => (0..n as u32).collect(),
    };
    let shards = opts.shard.map_or(1, |s| s.n() as usize);
    let target = opts
        .tasks
        .unwrap_or(DEFAULT_TASKS)
        .max(TASKS_PER_SHARD.saturating_mul(shards))
        .max(1);
    // Directed closed tours: also count those that use only moves that can
    // be made back (see the module docs).
    let second = closed && n >= 3 && !g.is_symmetric();
    let memo_min = opts
        .memo_min
        .unwrap_or_else(|| crate::search::tables::memo_min(n));
    let reversal = opts.pruning.reversal
        && !closed
        && start.is_none()
        && end.is_none()
        && g.is_symmetric()
        && n <= 64;
    let (ends, doubles, class_of) = if reversal {
        reversal_classes(g, &group)
    } else {
        (vec![is_end.clone()], vec![vec![false; n]], vec![0; n])
    };
    // The tables and the task list take a while on the largest boards: a
    // limit stops them there too, before counting anything (0 is then the
    // lower bound).
    // The graph of the two-way moves outlives the tables that borrow it.
    let both = if second {
        match two_way(g, &setup_limits) {
            Ok(b) => Some(b),
            Err(stop) => {
                counted.stopped = Some(stop);
                counted.stats.elapsed = started.elapsed();
                return counted;
            }
        }
    } else {
        None
    };
    let setup = || -> Result<(Pass, usize), Stop> {
        let tables = Tables::new(g, ends, doubles, opts.pruning, memo_min, &setup_limits)?;
        let two_way = if let Some(both) = &both {
            // A two-way cycle also closes by a two-way move.
            let back = predecessors_mask(both, start.unwrap_or(0));
            let back = vec![back];
            Some(Tables::new(
                both,
                back,
                vec![vec![false; n]],
                opts.pruning,
                memo_min,
                &setup_limits,
            )?)
        } else {
            None
        };
        let mut pass = Pass {
            tables,
            two_way,
            class_of,
            prefixes: Vec::new(),
            spans: Vec::new(),
            weights: Vec::new(),
            depth: 0,
        };
        let all = pass.build_tasks(&starts, &group, target, opts.shard, &setup_limits)?;
        Ok((pass, all))
    };
    let pass = match setup() {
        Ok((pass, all)) => {
            counted.tasks_all = all;
            counted.listed = true;
            pass
        }
        Err(stop) => {
            counted.stopped = Some(stop);
            counted.stats.elapsed = started.elapsed();
            return counted;
        }
    };
    let mine: Vec<usize> = (0..pass.spans.len()).collect();
    counted.tasks = mine.len();
    counted.depth = pass.depth;
    progress.start(Unit::Tasks, Some(counted.tasks as u64));
    let shared = Shared {
        limits,
        nodes: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        why: Mutex::new(None),
        progress,
    };
    let (d, b, done, check) = run_pass(&pass, &mine, threads, opts.general_search, &shared);
    counted.check = check;
    counted.tasks_done = done;
    counted.stopped = shared.why.lock().ok().and_then(|w| *w);
    counted.tours = if closed && goal.start.is_none() {
        d * n as u128
    } else {
        d
    };
    if closed {
        counted.cycles_x2 = Some(if counted.stopped.is_some() {
            // Each distinct cycle is at most two directed ones: 2·cycles ≥ D.
            d
        } else if n <= 2 {
            2 * d
        } else if second {
            // Per task the two-way count is at most the main one: no underflow.
            2 * d - b
        } else {
            d
        });
    }

    counted.stats = Stats {
        nodes: shared.nodes.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
        ..Stats::default()
    };
    counted
}

/// End classes for the reversal rule. When every move can be made back, a
/// tour from `s` to `e` read backwards is a tour from `e` to `s`, so among
/// the tours between any two squares the directed count is twice the count
/// in one direction. Give every square a rank, constant on the orbits of
/// `group` (so that the symmetry rule, which maps a tour's ends to squares
/// of the same orbits, still applies); count from `s` only the tours ending
/// on a square ranked at least as high — twice those ranked higher, once
/// those ranked the same (both directions are counted then). Every directed
/// tour is then accounted for exactly once. Returns each class's ends and
/// doubled ends, and the class (= rank) of each start square; class 0, the
/// lowest rank, allows every end.
fn reversal_classes(
    g: &MoveGraph,
    group: &Symmetries,
) -> (Vec<Vec<bool>>, Vec<Vec<bool>>, Vec<usize>) {
    let n = g.len();
    // Orbits, each named by its least square.
    let mut orbit = vec![u32::MAX; n];
    for s in 0..n as u32 {
        for p in group.elements() {
            let t = p[s as usize] as usize;
            orbit[t] = orbit[t].min(s);
        }
    }
    // Rank orbits by their number of moves, fewest first: tours from the
    // well-connected squares are then searched only towards well-connected
    // ends, which few tours have, so those searches are cut short early.
    // (Measured: on 6x6 this order needs 2.8 times less work than none, the
    // reverse order only 1.25 times.)
    let mut reps: Vec<u32> = (0..n as u32).filter(|&s| orbit[s as usize] == s).collect();
    reps.sort_by_key(|&s| (g.degree(s), s));
    let mut rank_of_rep = vec![0usize; n];
    for (r, &s) in reps.iter().enumerate() {
        rank_of_rep[s as usize] = r;
    }
    let rank: Vec<usize> = (0..n).map(|s| rank_of_rep[orbit[s] as usize]).collect();
    let classes = reps.len();
    let ends = (0..classes)
        .map(|c| rank.iter().map(|&r| r >= c).collect())
        .collect();
    let doubles = (0..classes)
        .map(|c| rank.iter().map(|&r| r > c).collect())
        .collect();
    (ends, doubles, rank)
}

/// The graph of the moves of `g` that can be made back, built under `halt`.
fn two_way<H: Halt>(g: &MoveGraph, halt: &H) -> Result<MoveGraph, H::Stop> {
    let mut lists: Vec<Vec<u32>> = Vec::with_capacity(g.len());
    for s in 0..g.len() as u32 {
        halt::poll(halt, s as usize)?;
        lists.push(g.neighbours(s).filter(|&t| g.has_edge(t, s)).collect());
    }
    Ok(MoveGraph::from_lists(&lists))
}
