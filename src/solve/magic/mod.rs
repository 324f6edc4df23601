//! The magic search: the complete search for tours whose step numbers sum
//! alike along every rank and file (and both long diagonals), with or
//! without a closed tour, clues and a symmetry. It finds a tour, proves
//! there is none, looks for a second (`--unique`), lists them, and counts
//! them on every core in prefix tasks that shards split. A file a job:
//! `plan.rs` what is prepared once, `rules.rs` the search's rules for the
//! one depth-first driver, with the pruning and why it is sound,
//! `anneal.rs` the annealing that a search for one tour runs in turns with
//! the complete search.

mod anneal;
mod plan;
mod rules;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::backtrack::{BacktrackOptions, Searching};
use super::{Outcome, Report, Run, Solver, SolverId, Stats, Stop, Task};
use crate::halt::{Cadence, Limits};
use crate::model::Magic;
use crate::model::symmetry::{square_maps, symmetries};
use crate::progress::{Progress, Unit};
use crate::search::Pace;
use crate::search::driver::{Driver, Verdict};
use crate::search::event::{NoObserver, Observer};
use plan::Plan;
use rules::Search;

/// The magic sums `task` asks for (the runner calls this search only then).
fn magic_of(task: &Task<'_>) -> Magic {
    task.constraints.magic.unwrap_or(Magic::Semi)
}

/// Why the task has no magic tour, when every way was searched.
fn no_tour(task: &Task<'_>) -> String {
    let what = magic_of(task).describe();
    match task.constraints.clues.len() {
        0 => format!("no tour is {what}: every way was searched"),
        1 => format!("no {what} tour fits the clue: every way was searched"),
        c => format!("no {what} tour fits the {c} clues: every way was searched"),
    }
}

/// What a search for solutions found.
struct Found {
    tours: Vec<Vec<u32>>,
    nodes: u64,
    best: Vec<u32>,
    stop: Option<Stop>,
    /// Which of the searches for one tour beside the complete one found
    /// it, if one did.
    by: Option<Beside>,
}

/// The searches for one tour that take turns with the complete search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Beside {
    /// The annealing.
    Annealing,
    /// The balanced search.
    Balanced,
}

/// The nodes of the complete search's first turn, and of the others'
/// first; each turn after is twice the one before. Small puzzles are
/// settled within the first turn, as if nothing else were there.
const FIRST_TURN: u64 = 1 << 17;

/// The balanced search's turns are this many times the others': of the
/// three it finds tours soonest where it serves (the knight's and the
/// king's 8x8 magic tours among them).
const BALANCED_TURNS: u64 = 4;

/// Searches `plan` for up to `cap` solutions, keeping them; numbering from
/// the first step only when an observer watches. A search for one tour
/// that no observer watches runs the complete search in turns with the
/// balanced search (the complete search held to the plan's balance, when
/// it has one) and the annealing ([`anneal`]) when the plan is one it
/// serves, each turn twice as long as the last: whichever finds a tour
/// first gives it, and only the complete search can end with none. The
/// annealing draws from `seed`.
fn search<O: Observer>(
    plan: &Plan,
    cap: usize,
    seed: u64,
    run: &mut Searching,
    obs: &mut O,
) -> Found {
    let rules: Search<'_, true> = Search::new(plan, O::ACTIVE, cap);
    let mut driver = Driver::new(rules, 0, cap.max(1) as u128);
    let mut nodes: u64 = 0;
    let alone = cap == 1 && !O::ACTIVE;
    let mut annealing = alone.then(|| anneal::Anneal::new(plan, seed)).flatten();
    let mut balanced = alone
        .then(|| Search::<true>::balanced(plan, 1))
        .flatten()
        .map(|rules| Driver::new(rules, 0, 1));
    let mut turn = FIRST_TURN;
    let (pace, by, tour) = loop {
        let pause_at = match annealing.is_some() || balanced.is_some() {
            true => nodes.saturating_add(turn),
            false => u64::MAX,
        };
        let halt = run.halt();
        let pace = driver.run(pause_at, &mut nodes, &mut run.cadence, &halt, obs);
        if !matches!(pace, Pace::Paused) {
            break (pace, None, None);
        }
        if let Some(b) = balanced.as_mut() {
            let at = nodes.saturating_add(turn.saturating_mul(BALANCED_TURNS));
            match b.run(at, &mut nodes, &mut run.cadence, &halt, &mut NoObserver) {
                Pace::Paused => {}
                Pace::Stopped(stop) => break (Pace::Stopped(stop), None, None),
                Pace::Done => match b.rules.tours.pop() {
                    Some(tour) => break (Pace::Done, Some(Beside::Balanced), Some(tour)),
                    // No balanced tour: the complete search goes on.
                    None => balanced = None,
                },
            }
        }
        if let Some(a) = annealing.as_mut() {
            match a.run(turn, &mut nodes, run) {
                Ok(Some(tour)) => break (Pace::Done, Some(Beside::Annealing), Some(tour)),
                Ok(None) => {}
                Err(stop) => break (Pace::Stopped(stop), None, None),
            }
        }
        turn = turn.saturating_mul(2);
    };
    let best = driver.longest();
    let stop = match pace {
        Pace::Stopped(stop) => Some(stop),
        _ => None,
    };
    let tours = match tour {
        Some(tour) => vec![tour],
        None => std::mem::take(&mut driver.rules.tours),
    };
    Found {
        tours,
        nodes,
        best,
        stop,
        by,
    }
}

/// Solves `task` (which asks for magic sums) under `opts`' node limit,
/// looking for up to `cap` solutions: the report (the first solution
/// found, or the proof that there is none) and every solution found.
pub fn solve<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
    cap: usize,
) -> (Report, Vec<Vec<u32>>) {
    let (report, tours, _) = solve_up_to(opts, task, run, cap);
    (report, tours)
}

/// Solves `task` for a solution and a proof that it is the only one: the
/// search for two. The report is the first solution when the search ended
/// (no second exists) or found a second, which comes beside it; a limit
/// that stops the search after one solution leaves it unproven: a stopped
/// report with that solution as its path.
pub fn unique<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
) -> (Report, Option<Vec<u32>>) {
    let (report, tours, stop) = solve_up_to(opts, task, run, 2);
    report.first_of_two(tours, stop)
}

/// [`solve`], with the limit that stopped the search, if one did.
fn solve_up_to<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
    cap: usize,
) -> (Report, Vec<Vec<u32>>, Option<Stop>) {
    let started = Instant::now();
    let limits = run.limits.with_nodes(opts.node_limit);
    let mut obs = run.observer;
    run.progress.start(Unit::Nodes, None);
    let mut searching = Searching {
        limits: &limits,
        progress: run.progress,
        cadence: Cadence::watched(&limits, 0, O::ACTIVE),
    };
    let plan = Plan::new(task, magic_of(task));
    let found = search(&plan, cap, task.seed, &mut searching, &mut obs);
    run.progress.set(found.nodes);
    let outcome = match (found.tours.first(), found.stop) {
        (Some(t), _) => Outcome::Found(t.clone()),
        (None, Some(stop)) => Outcome::stopped(stop, found.best.clone()),
        (None, None) => Outcome::Impossible(no_tour(task)),
    };
    let report = Report {
        outcome,
        stats: Stats {
            nodes: found.nodes,
            backtracks: found.nodes.saturating_sub(found.best.len() as u64),
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        solver: SolverId {
            magic: true,
            annealed: found.by == Some(Beside::Annealing),
            balanced: found.by == Some(Beside::Balanced),
            ..opts.id()
        },
        starts: None,
    };
    (report, found.tours, found.stop)
}

/// The first `most` magic tours of `task`, in the order the search finds
/// them, under `limits`; and what stopped the search before it found them,
/// if anything.
pub fn first_solutions(
    task: &Task<'_>,
    most: usize,
    limits: &Limits<'_>,
    progress: &Progress,
) -> (Vec<Vec<u32>>, Option<Stop>) {
    let mut searching = Searching {
        limits,
        progress,
        cadence: Cadence::new(limits, 0),
    };
    let plan = Plan::new(task, magic_of(task));
    let found = search(
        &plan,
        most.max(1),
        task.seed,
        &mut searching,
        &mut NoObserver,
    );
    (found.tours, found.stop)
}

/// How a magic count is split: the shard (K from 1, N) and the threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// This shard, from 1, of `of`.
    pub shard: u32,
    /// How many shards.
    pub of: u32,
    /// Worker threads.
    pub threads: usize,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            shard: 1,
            of: 1,
            threads: 1,
        }
    }
}

/// What a magic count found.
#[derive(Clone, Debug)]
pub struct MagicCount {
    /// Directed magic tours of the tasks counted, weighted (a lower bound
    /// when stopped).
    pub tours: u128,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Nodes and wall time.
    pub stats: Stats,
    /// The board's symmetries the tasks were taken up to (1: none).
    pub symmetries: usize,
    /// Tasks of the whole count (all shards), and this shard's.
    pub tasks_all: usize,
    /// This shard's tasks.
    pub tasks: usize,
    /// This shard's tasks finished.
    pub tasks_done: usize,
    /// The longest prefix of a task, in squares.
    pub depth: usize,
    /// Worker threads used.
    pub threads: usize,
    /// Each finished task's place in the whole list and its tours
    /// (weighted), in list order: what a check figure is made of.
    pub counted: Vec<(usize, u128)>,
}

/// At least this many prefix tasks for a count on all cores (more for
/// many shards): enough that the threads share the work evenly.
const TASKS_AT_LEAST: usize = 512;

/// The deepest a prefix task goes.
const TASK_DEPTH_MOST: usize = 8;

/// Counts the magic tours of `task` (directed, numbered: a closed tour's
/// every numbering that is magic counts), the slice `split` of them, under
/// `limits`. Without clues, a fixed start or end, or a symmetry, the pairs
/// of first and last squares are taken up to the board's symmetries (and
/// the tours' reversal, when every move can be made back), each pair
/// weighted by how many it stands for.
pub fn count(
    task: &Task<'_>,
    split: Split,
    limits: &Limits<'_>,
    progress: &Progress,
) -> MagicCount {
    let started = Instant::now();
    let plan = Plan::new(task, magic_of(task));
    let group = orbit_group(task, &plan);
    let shards = split.of.max(1) as usize;
    let want = TASKS_AT_LEAST.max(32 * shards);
    let tasks = list_tasks(&plan, &group, want);
    let depth = tasks.iter().map(|t| t.0.len()).max().unwrap_or(0);
    let mine: Vec<usize> = (0..tasks.len())
        .filter(|i| i % shards == split.shard as usize - 1)
        .collect();
    progress.start(Unit::Tasks, Some(mine.len() as u64));
    let nodes = AtomicU64::new(0);
    let counted = Mutex::new(Vec::new());
    let stopped = Mutex::new(None);
    let work = |&i: &usize| {
        if stopped.lock().map(|s| s.is_some()).unwrap_or(true) {
            return;
        }
        let (prefix, weight) = &tasks[i];
        let mut rules: Search<'_, false> = Search::new(&plan, false, 0);
        if !rules.replay(prefix) {
            progress.add(1);
            if let Ok(mut c) = counted.lock() {
                c.push((i, 0));
            }
            return;
        }
        let mut driver = Driver::new(rules, 0, u128::MAX);
        let mut n = 0;
        let mut cadence = Cadence::with_every(limits, 0, 1 << 16);
        let pace = driver.run(u64::MAX, &mut n, &mut cadence, limits, &mut NoObserver);
        nodes.fetch_add(n, Ordering::Relaxed);
        match pace {
            Pace::Stopped(stop) => {
                if let Ok(mut s) = stopped.lock() {
                    s.get_or_insert(stop);
                }
            }
            _ => {
                progress.add(1);
                if let Ok(mut c) = counted.lock() {
                    c.push((i, driver.count() * u128::from(*weight)));
                }
            }
        }
    };
    let threads = split.threads.max(1);
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| mine.par_iter().for_each(work)),
        Err(_) => mine.iter().for_each(work),
    }
    let mut counted = counted.into_inner().unwrap_or_default();
    counted.sort_unstable();
    let stopped = stopped.into_inner().unwrap_or(None);
    MagicCount {
        tours: counted.iter().map(|&(_, c)| c).sum(),
        stopped,
        stats: Stats {
            nodes: nodes.into_inner(),
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        symmetries: group.len().max(1),
        tasks_all: tasks.len(),
        tasks: mine.len(),
        tasks_done: counted.len(),
        depth,
        threads,
        counted,
    }
}

/// The maps of squares (and whether each reverses the tour) under which
/// the count of tours with given first and last squares is the same: the
/// board's symmetries, and each with the tours reversed when every move can
/// be made back (a magic tour read backwards is magic: each line of `m`
/// squares sums to `m(n + 1)/2` either way). Empty when the task fixes
/// anything a map would move: clues, a start or end, a symmetry.
fn orbit_group(task: &Task<'_>, plan: &Plan) -> Vec<(Vec<u32>, bool)> {
    let c = task.constraints;
    if !c.clues.is_empty()
        || c.symmetry.is_some()
        || task.goal.start.is_some()
        || task.goal.end.is_some()
    {
        return Vec::new();
    }
    let maps = square_maps(task.board, &symmetries(task.board, task.piece));
    let mut group = Vec::new();
    for m in maps {
        if plan.undirected {
            group.push((m.clone(), true));
        }
        group.push((m, false));
    }
    group
}

/// The prefix tasks of a count, in a fixed order: the numberings of the
/// first nodes, level by level, until there are at least `want` or they
/// are [`TASK_DEPTH_MOST`] squares deep; a prefix that settles early is a
/// task of its own. With a `group`, of the first and last squares only one
/// pair of each orbit is kept, weighted by the orbit's size.
fn list_tasks(plan: &Plan, group: &[(Vec<u32>, bool)], want: usize) -> Vec<(Vec<u32>, u64)> {
    let mut level: Vec<(Vec<u32>, u64)> = vec![(Vec::new(), 1)];
    let mut done: Vec<(Vec<u32>, u64)> = Vec::new();
    let mut rules: Search<'_, false> = Search::new(plan, false, 0);
    for depth in 0..TASK_DEPTH_MOST {
        if level.len() + done.len() >= want && depth > 2 {
            break;
        }
        let mut next = Vec::new();
        for (prefix, weight) in level {
            rules.reset();
            if !rules.replay(&prefix) {
                continue;
            }
            match rules.here() {
                Verdict::Leaf(0) => {}
                Verdict::Leaf(_) => done.push((prefix, weight)),
                Verdict::Branch(node) => {
                    for x in rules.tries(&node) {
                        let mut p = prefix.clone();
                        p.push(x);
                        let w = if p.len() == 2 && !group.is_empty() {
                            match orbit(&p, group) {
                                Some(size) => size,
                                None => continue,
                            }
                        } else {
                            weight
                        };
                        next.push((p, w));
                    }
                    rules.drop_node(&node);
                }
            }
        }
        level = next;
        if level.is_empty() {
            break;
        }
    }
    done.extend(level);
    done
}

/// The size of the orbit of the first and last squares `p` under `group`
/// when `p` is its least member, else None.
fn orbit(p: &[u32], group: &[(Vec<u32>, bool)]) -> Option<u64> {
    let (a, b) = (p[0], p[1]);
    let mut images: Vec<(u32, u32)> = group
        .iter()
        .map(|(m, rev)| {
            let (x, y) = (m[a as usize], m[b as usize]);
            if *rev { (y, x) } else { (x, y) }
        })
        .collect();
    images.sort_unstable();
    images.dedup();
    (images.first() == Some(&(a, b))).then_some(images.len() as u64)
}
