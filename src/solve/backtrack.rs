//! The complete backtracking solver: depth-first search over the move graph.
//! It either finds a tour or exhausts the search space, which proves that no
//! tour exists.
//!
//! Two move orders:
//! - `Given`: the piece's own move order and nothing else — the plain search
//!   the classic write-ups teach, kept deliberately free of pruning so its node
//!   counts are those of the textbook algorithm.
//! - `Warnsdorff`: candidates sorted by their number of onward moves (fewest
//!   first, ties in move order), plus three sound prunings that never cut a
//!   branch containing a tour (see the `Pruned` search in this module).

use std::time::Instant;

use super::event::{Event, Observer};
use super::{Goal, Limits, Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Stop, Task};
use crate::halt::{self, Cadence, Halt};
use crate::model::MoveGraph;
use crate::model::graph::walks::predecessors_mask;
use crate::progress::{Progress, Unit};

/// The order in which candidate moves are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub enum Order {
    /// The piece's move order.
    Given,
    /// Fewest onward moves first, with sound pruning.
    #[default]
    Warnsdorff,
}

/// Options of the backtracking solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct BacktrackOptions {
    /// Move order.
    pub order: Order,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
}

impl Solver for BacktrackOptions {
    fn id(&self) -> SolverId {
        SolverId::of(SolverSpec::Backtrack(*self))
    }

    /// Runs the search. With no fixed start, an open tour is looked for from
    /// every square in board order; a closed tour only from square 0 (every
    /// cycle passes through it). Nodes count against `node_limit` and the
    /// run's node budget, whichever is smaller.
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let started = Instant::now();
        let (g, goal) = (task.graph, &task.goal);
        let limits = run.limits.with_nodes(self.node_limit);
        let mut obs = run.observer;
        // Target lists take a second and hundreds of megabytes on the
        // largest boards: built under the limits.
        let setup = || -> Result<Option<Pruned>, Stop> {
            g.prepare_lists(&limits)?;
            match self.order {
                Order::Given => Ok(None),
                Order::Warnsdorff => Ok(Some(Pruned::new(g, &limits)?)),
            }
        };
        let mut pruned = match setup() {
            Ok(p) => p,
            Err(stop) => return Report::stopped(stop, started.elapsed(), self.id()),
        };
        run.progress.start(Unit::Nodes, None);
        let starts: Vec<u32> = match goal.start {
            Some(s) => vec![s],
            None if goal.closed => vec![0],
            None => (0..g.len() as u32).collect(),
        };
        let mut stats = Stats::default();
        let mut best: Vec<u32> = Vec::new();
        let mut outcome = None;
        let mut search = Searching {
            limits: &limits,
            progress: run.progress,
            cadence: Cadence::new(&limits, 0),
        };
        for (i, &s) in starts.iter().enumerate() {
            if i > 0 {
                stats.restarts += 1;
                obs.event(Event::Restart, &[]);
            }
            let mut goal_s = *goal;
            goal_s.start = Some(s);
            let r = match pruned.as_mut() {
                None => given(g, &goal_s, &mut search, &mut obs, &mut stats),
                Some(p) => p.search(g, &goal_s, &mut search, &mut obs, &mut stats),
            };
            match r {
                Search::Found(t) => {
                    outcome = Some(Outcome::Found(t));
                    break;
                }
                Search::Exhausted(b) => {
                    if b.len() > best.len() {
                        best = b;
                    }
                }
                Search::Stopped(stop, b) => {
                    if b.len() > best.len() {
                        best = b;
                    }
                    outcome = Some(Outcome::stopped(stop, std::mem::take(&mut best)));
                    break;
                }
            }
        }
        run.progress.set(stats.nodes);
        let outcome = outcome.unwrap_or_else(|| {
            let from = if goal.start.is_some() {
                "from the given start".to_string()
            } else if goal.closed {
                "through the first square (every closed tour passes it)".to_string()
            } else {
                format!("from all {} start squares", starts.len())
            };
            Outcome::Impossible(format!(
                "exhaustive search {from} found no {} tour",
                if goal.closed { "closed" } else { "open" }
            ))
        });
        stats.elapsed = started.elapsed();
        Report {
            outcome,
            stats,
            solver: self.id(),
        }
    }
}

/// What a search looks at as it goes: its limits, at the cadence, and the
/// progress channel it publishes its node count into.
pub(super) struct Searching<'s> {
    pub(super) limits: &'s Limits<'s>,
    pub(super) progress: &'s Progress,
    pub(super) cadence: Cadence,
}

impl Searching<'_> {
    /// After each node: publishes the count and looks at the limits when a
    /// look is due.
    #[inline(always)]
    pub(super) fn tick(&mut self, nodes: u64) -> Result<(), Stop> {
        if self.cadence.due(nodes) {
            self.progress.set(nodes);
            return self.cadence.look(self.limits, nodes);
        }
        Ok(())
    }
}

/// The result of one search from one start.
pub(super) enum Search {
    Found(Vec<u32>),
    /// Every branch tried; the longest path seen.
    Exhausted(Vec<u32>),
    Stopped(Stop, Vec<u32>),
}

/// Keeps the longest path seen, copying it lazily: a new record is copied only
/// when the search first steps back from it, so a deep straight descent costs
/// no copies at all.
pub(super) struct Best {
    len: usize,
    path: Vec<u32>,
    dirty: bool,
}

impl Best {
    pub(super) fn new() -> Best {
        Best {
            len: 0,
            path: Vec::new(),
            dirty: false,
        }
    }
    #[inline]
    pub(super) fn reached(&mut self, len: usize) {
        if len > self.len {
            self.len = len;
            self.dirty = true;
        }
    }
    /// Called before `path` loses its last square.
    #[inline]
    pub(super) fn retreating(&mut self, path: &[u32]) {
        if self.dirty {
            self.path.clear();
            self.path.extend_from_slice(path);
            self.dirty = false;
        }
    }
    /// Attaches the longest path to a stopped or exhausted search.
    pub(super) fn finish(mut self, result: Search, path: &[u32]) -> Search {
        match result {
            Search::Stopped(stop, _) => {
                self.retreating(path);
                Search::Stopped(stop, self.path)
            }
            Search::Exhausted(_) => Search::Exhausted(self.path),
            found => found,
        }
    }
}

/// Plain depth-first search in move order.
fn given<O: Observer>(
    g: &MoveGraph,
    goal: &Goal,
    run: &mut Searching,
    obs: &mut O,
    stats: &mut Stats,
) -> Search {
    let n = g.len();
    let (off, tg) = g.raw();
    let Some(start) = goal.start else {
        return Search::Exhausted(Vec::new());
    };
    let closes = goal.closed.then(|| predecessors_mask(g, start));
    let end = if goal.closed { None } else { goal.end };
    let mut visited = vec![false; n];
    let mut path: Vec<u32> = Vec::with_capacity(n);
    // pos[d]: next index into `tg` to try from path[d].
    let mut pos: Vec<u32> = vec![0; n];
    let mut best = Best::new();
    let mut nodes = stats.nodes;
    let mut backtracks = stats.backtracks;

    // The budget is looked at before each node is entered: a limit of n
    // enters n nodes, and the n-th is still checked for a tour.
    if let Err(stop) = run.tick(nodes) {
        return Search::Stopped(stop, Vec::new());
    }
    visited[start as usize] = true;
    path.push(start);
    pos[0] = off[start as usize];
    nodes += 1;
    obs.event(Event::Advance, &path);
    let result = loop {
        let d = path.len() - 1;
        let v = path[d] as usize;
        if path.len() == n {
            let ok = match (&closes, end) {
                (Some(mask), _) => mask[v],
                (None, Some(e)) => v == e as usize,
                (None, None) => true,
            };
            if ok {
                break Search::Found(path.clone());
            }
        } else {
            let stop = off[v + 1];
            let mut p = pos[d];
            let mut next = u32::MAX;
            while p < stop {
                let t = tg[p as usize];
                p += 1;
                // A fixed end may only be entered last.
                if !visited[t as usize] && (end != Some(t) || path.len() + 1 == n) {
                    next = t;
                    break;
                }
            }
            pos[d] = p;
            if next != u32::MAX {
                if let Err(stop) = run.tick(nodes) {
                    break Search::Stopped(stop, Vec::new());
                }
                visited[next as usize] = true;
                path.push(next);
                pos[d + 1] = off[next as usize];
                nodes += 1;
                best.reached(path.len());
                obs.event(Event::Advance, &path);
                continue;
            }
        }
        // Dead end: step back.
        best.retreating(&path);
        visited[v] = false;
        path.pop();
        backtracks += 1;
        obs.event(Event::Retreat(v as u32), &path);
        if path.is_empty() {
            break Search::Exhausted(Vec::new());
        }
    };
    stats.nodes = nodes;
    stats.backtracks = backtracks;
    best.finish(result, &path)
}

/// Search state for the Warnsdorff-ordered, pruned search. The three prunings,
/// all sound (they only cut branches that contain no tour):
///
/// 1. **Entry rule.** Every unvisited square must still be entered, from an
///    unvisited square or from the current head. `free_in[w]` counts the
///    unvisited squares with a move to `w`. If a target `w` of the head has
///    `free_in[w] == 0`, the head is the last square that can enter it, so
///    the next move must be to `w`; two such targets mean a dead end.
/// 2. **Exit rule.** Every unvisited square except the last one of the tour
///    must still be left to an unvisited square. `free_out[w]` counts the
///    unvisited targets of `w`; a square with none must be the tour's last.
///    So two such squares, or one that cannot be last (not the fixed end, or
///    with no move back to the start of a closed tour), mean a dead end.
/// 3. **Closing rule.** A closed tour's last square moves back to the start,
///    so some square that can do so must stay unvisited until the end.
struct Pruned {
    /// The reversed graph; None when the graph is its own reverse.
    rev: Option<MoveGraph>,
    free_out: Vec<u32>,
    free_in: Vec<u32>,
    visited: Vec<bool>,
}

impl Pruned {
    /// The search's tables for `g`: the reversed graph's lists (a directed
    /// graph only), built under `halt`.
    fn new<H: Halt>(g: &MoveGraph, halt: &H) -> Result<Pruned, H::Stop> {
        let rev = if g.is_symmetric() {
            None
        } else {
            halt::between_passes(halt, g.len())?;
            let r = g.reversed();
            r.prepare_lists(halt)?;
            Some(r)
        };
        Ok(Pruned {
            free_out: Vec::new(),
            free_in: Vec::new(),
            visited: Vec::new(),
            rev,
        })
    }

    fn search<O: Observer>(
        &mut self,
        g: &MoveGraph,
        goal: &Goal,
        run: &mut Searching,
        obs: &mut O,
        stats: &mut Stats,
    ) -> Search {
        let n = g.len();
        let Some(start) = goal.start else {
            return Search::Exhausted(Vec::new());
        };
        let rev = match &self.rev {
            Some(r) => r,
            None => g,
        };
        // The passes below each sweep every square: on large boards they
        // add up, so look at the limits between them.
        let limits = run.limits;
        let closes = goal.closed.then(|| predecessors_mask(g, start));
        if let Err(stop) = halt::between_passes(limits, n) {
            return Search::Stopped(stop, Vec::new());
        }
        let end = if goal.closed { None } else { goal.end };
        // A square with no unvisited target may be last only if it can end the tour.
        let can_end = |w: u32| match (&closes, end) {
            (Some(mask), _) => mask[w as usize],
            (None, Some(e)) => w == e,
            (None, None) => true,
        };
        self.free_out = (0..n as u32).map(|s| g.degree(s) as u32).collect();
        self.free_in = (0..n as u32).map(|s| rev.degree(s) as u32).collect();
        self.visited = vec![false; n];
        if let Err(stop) = halt::between_passes(limits, n) {
            return Search::Stopped(stop, Vec::new());
        }
        // Closed tours: unvisited squares that can move back to the start.
        let closer = |w: u32| closes.as_ref().is_some_and(|m| m[w as usize]);
        let mut closers_left: u32 = if goal.closed {
            (0..n as u32).filter(|&w| closer(w)).count() as u32
        } else {
            u32::MAX
        };
        let mut zeros = 0u32; // unvisited squares with free_out == 0
        let mut bad_zeros = 0u32; // of those, ones that cannot be last
        for w in 0..n as u32 {
            if self.free_out[w as usize] == 0 {
                zeros += 1;
                bad_zeros += u32::from(!can_end(w));
            }
        }
        let mut path: Vec<u32> = Vec::with_capacity(n);
        // Candidates of depth d live in cands[cbase[d]..cbase[d + 1]]; cur[d] is the cursor.
        let mut cands: Vec<u32> = Vec::with_capacity(n * 2);
        let mut cbase: Vec<usize> = Vec::with_capacity(n + 1);
        let mut cur: Vec<usize> = Vec::with_capacity(n);
        let mut best = Best::new();
        let mut nodes = stats.nodes;
        let mut backtracks = stats.backtracks;

        // Enter `t`: mark visited, update counts.
        macro_rules! enter {
            ($t:expr) => {{
                let t: u32 = $t;
                self.visited[t as usize] = true;
                if closer(t) {
                    closers_left -= 1;
                }
                if self.free_out[t as usize] == 0 {
                    zeros -= 1;
                    bad_zeros -= u32::from(!can_end(t));
                }
                for &u in rev.targets(t) {
                    let f = &mut self.free_out[u as usize];
                    *f -= 1;
                    if *f == 0 && !self.visited[u as usize] {
                        zeros += 1;
                        bad_zeros += u32::from(!can_end(u));
                    }
                }
                for &w in g.targets(t) {
                    self.free_in[w as usize] -= 1;
                }
                path.push(t);
            }};
        }
        macro_rules! leave {
            () => {{
                let t = path.pop().unwrap_or_default();
                for &w in g.targets(t) {
                    self.free_in[w as usize] += 1;
                }
                for &u in rev.targets(t) {
                    let f = &mut self.free_out[u as usize];
                    if *f == 0 && !self.visited[u as usize] {
                        zeros -= 1;
                        bad_zeros -= u32::from(!can_end(u));
                    }
                    *f += 1;
                }
                self.visited[t as usize] = false;
                if closer(t) {
                    closers_left += 1;
                }
                if self.free_out[t as usize] == 0 {
                    zeros += 1;
                    bad_zeros += u32::from(!can_end(t));
                }
                t
            }};
        }

        // As in `given`: the budget before each node.
        if let Err(stop) = run.tick(nodes) {
            return Search::Stopped(stop, Vec::new());
        }
        enter!(start);
        nodes += 1;
        obs.event(Event::Advance, &path);
        let mut need_cands = true;
        let result = loop {
            let d = path.len() - 1;
            if need_cands {
                need_cands = false;
                cbase.truncate(d);
                cur.truncate(d);
                let base = cands.len();
                cbase.push(base);
                cur.push(base);
                let v = path[d];
                let complete = path.len() == n;
                if complete {
                    if can_end(v) {
                        break Search::Found(path.clone());
                    }
                } else if zeros <= 1 && bad_zeros == 0 && closers_left > 0 {
                    let mut forced = u32::MAX;
                    let mut dead = false;
                    for &t in g.targets(v) {
                        if self.visited[t as usize] {
                            continue;
                        }
                        if self.free_in[t as usize] == 0 {
                            if forced != u32::MAX {
                                dead = true;
                                break;
                            }
                            forced = t;
                        }
                    }
                    if !dead {
                        let last = path.len() + 1 == n;
                        let ok = |t: u32| last || end != Some(t);
                        if forced != u32::MAX {
                            if ok(forced) {
                                cands.push(forced);
                            }
                        } else {
                            for &t in g.targets(v) {
                                if self.visited[t as usize] || !ok(t) {
                                    continue;
                                }
                                // Insertion by onward count, stable for ties;
                                // on ties a closed tour keeps the start's
                                // neighbours for later.
                                let rank =
                                    |w: u32| 2 * self.free_out[w as usize] + u32::from(closer(w));
                                let key = rank(t);
                                let mut i = cands.len();
                                cands.push(t);
                                while i > base && rank(cands[i - 1]) > key {
                                    cands[i] = cands[i - 1];
                                    i -= 1;
                                }
                                cands[i] = t;
                            }
                        }
                    }
                }
            }
            let c = cur[d];
            if c < cands.len() {
                cur[d] = c + 1;
                let t = cands[c];
                if let Err(stop) = run.tick(nodes) {
                    break Search::Stopped(stop, Vec::new());
                }
                enter!(t);
                nodes += 1;
                best.reached(path.len());
                obs.event(Event::Advance, &path);
                need_cands = true;
                continue;
            }
            // No candidate left at depth d: drop its list and step back.
            cands.truncate(cbase[d]);
            best.retreating(&path);
            let t = leave!();
            backtracks += 1;
            obs.event(Event::Retreat(t), &path);
            if path.is_empty() {
                break Search::Exhausted(Vec::new());
            }
        };
        stats.nodes = nodes;
        stats.backtracks = backtracks;
        best.finish(result, &path)
    }
}
