//! The complete backtracking solver: depth-first search over the move graph.
//! It either finds a tour or exhausts the search space, which proves that no
//! tour exists.
//!
//! Two move orders:
//! - `Given`: the piece's own move order and nothing else — the plain search
//!   the classic write-ups teach, kept deliberately free of pruning so its node
//!   counts are those of the textbook algorithm.
//! - `Warnsdorff`: the search kernel's complete search in path mode
//!   ([`crate::search::probe`]): fewest onward moves first, its prunings and
//!   its cache of dead endings, with the board's symmetries and the start
//!   squares planned here (see [`BacktrackOptions::solve`]).

use std::time::Instant;

use super::starts::{self, StartPlan};
use super::{
    Limits, Outcome, Report, Run, Solver, SolverId, SolverSpec, Starts, Stats, Stop, Task,
};
use crate::halt::{self, Cadence, Halt};
use crate::model::MoveGraph;
use crate::model::Symmetries;
use crate::model::graph::walks::predecessors_mask;
use crate::progress::{Progress, Unit};
use crate::search::driver::{Driver, Rules};
use crate::search::event::{Change, Event, Observer};
use crate::search::plain::PlainRules;
use crate::search::probe::{Probe, ProbeJob, Probing, Space};
use crate::search::{Aim, Pace};

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

/// Nodes each start square gets in the first round of a search from every
/// start; each later round doubles it.
pub const FIRST_ROUND: u64 = 1024;

/// Boards of more than 64 squares keep at most this many start squares'
/// searches open at once (each holds a copy of the board's counters).
const OPEN_SEARCHES: usize = 16;

impl Solver for BacktrackOptions {
    fn id(&self) -> SolverId {
        SolverId::of(SolverSpec::Backtrack(*self))
    }

    /// Runs the search. Nodes count against `node_limit` and the run's node
    /// budget, whichever is smaller.
    ///
    /// `Given` tries, with no fixed start, every square in board order (a
    /// closed tour only square 0, which every cycle passes).
    ///
    /// `Warnsdorff` searches:
    /// - a closed tour from the given start, or else from a square with the
    ///   fewest moves (every cycle passes it); when every move can be made
    ///   back, each cycle in one direction only;
    /// - an open tour from the given start; with only the end fixed,
    ///   backwards from the end (on the reversed graph) and reads the tour
    ///   found backwards;
    /// - an open tour from any square to any square: every square first
    ///   gets the proofs of [`starts`]; the rest, one of each orbit under
    ///   the board's symmetries, fewest moves first, are searched side by
    ///   side in rounds — [`FIRST_ROUND`] nodes each, then twice as many
    ///   each round, every search going on where it paused — so that an
    ///   easy start finds its tour before a hard one is exhausted. When
    ///   every move can be made back, a start proved to begin no tour ends
    ///   none either, so the searches still running stop looking for tours
    ///   that end there.
    ///
    /// From each start the first moves are cut to one of each orbit under
    /// the symmetries that fix the start (and the end).
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        match self.order {
            Order::Given => self.solve_given(task, run),
            Order::Warnsdorff => self.solve_complete(task, run),
        }
    }
}

impl BacktrackOptions {
    /// The textbook search.
    fn solve_given<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let started = Instant::now();
        let (g, goal) = (task.graph, &task.goal);
        let limits = run.limits.with_nodes(self.node_limit);
        let mut obs = run.observer;
        // Target lists take a second and hundreds of megabytes on the
        // largest boards: built under the limits.
        if let Err(stop) = g.prepare_lists(&limits) {
            return Report::stopped(stop, started.elapsed(), self.id());
        }
        run.progress.start(Unit::Nodes, None);
        let starts: Vec<u32> = match goal.start {
            Some(s) => vec![s],
            None if goal.closed => vec![0],
            None => (0..g.len() as u32).collect(),
        };
        let mut stats = Stats::default();
        let mut best: Vec<u32> = Vec::new();
        let mut outcome = None;
        let halt = Publishing {
            limits: &limits,
            progress: run.progress,
        };
        let mut cadence = Cadence::watched(&halt, 0, O::HEAVY);
        let mut nodes = 0u64;
        for (i, &s) in starts.iter().enumerate() {
            if i > 0 {
                stats.restarts += 1;
                obs.event(Event::Restart, &[]);
            }
            let rules = PlainRules::new(g, s, goal.closed, goal.end);
            let mut search = Driver::new(rules, 1, 1);
            let pace = search.run(u64::MAX, &mut nodes, &mut cadence, &halt, &mut obs);
            // Every square entered was stepped back from, or is on the path.
            stats.backtracks += nodes - stats.nodes - search.path().len() as u64;
            stats.nodes = nodes;
            let longest = search.longest();
            if longest.len() > best.len() {
                best = longest;
            }
            match pace {
                Pace::Done => {
                    if let Some(t) = search.first() {
                        outcome = Some(Outcome::Found(t.to_vec()));
                        break;
                    }
                }
                Pace::Stopped(stop) => {
                    outcome = Some(Outcome::stopped(stop, std::mem::take(&mut best)));
                    break;
                }
                Pace::Paused => {}
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
            starts: None,
        }
    }

    /// The complete search engine, with the start squares planned.
    fn solve_complete<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let started = Instant::now();
        let (g, goal) = (task.graph, task.goal);
        let n = g.len();
        let limits = run.limits.with_nodes(self.node_limit);
        let halt = Publishing {
            limits: &limits,
            progress: run.progress,
        };
        let mut obs = run.observer;
        let stopped = |stop: Stop| Report::stopped(stop, started.elapsed(), self.id());
        let kind = if goal.closed { "closed" } else { "open" };
        // Which way to search: backwards from a fixed end when the start is
        // free, over the reversed graph.
        let backwards = !goal.closed && goal.start.is_none() && goal.end.is_some();
        let every = !goal.closed && goal.start.is_none() && goal.end.is_none();
        if let Err(stop) = g.prepare_lists(&limits) {
            return stopped(stop);
        }
        let reversed = if !g.is_symmetric() && (backwards || every) {
            if let Err(stop) = halt::between_passes(&limits, n) {
                return stopped(stop);
            }
            let r = g.reversed();
            if let Err(stop) = r.prepare_lists(&limits) {
                return stopped(stop);
            }
            Some(r)
        } else {
            None
        };
        let rev = reversed.as_ref().unwrap_or(g);
        let graph = if backwards { rev } else { g };
        // The first square: given, the end when searching backwards, or for
        // a closed tour a square with the fewest moves.
        let first = if goal.closed {
            goal.start
                .or_else(|| (0..n as u32).min_by_key(|&s| (graph.degree(s), s)))
        } else if backwards {
            goal.end
        } else {
            goal.start
        };
        let fixed: Vec<u32> = if every {
            Vec::new()
        } else {
            first
                .iter()
                .chain(goal.end.filter(|_| !backwards).iter())
                .copied()
                .collect()
        };
        let group = if n > 1 {
            Symmetries::of_board(task.board, graph).stabiliser(&fixed)
        } else {
            Symmetries::none(n)
        };
        let plan = if every {
            match starts::plan(g, rev, &group, &limits) {
                Ok(p) => Some(p),
                Err(stop) => return stopped(stop),
            }
        } else {
            None
        };
        // The squares a tour may end on.
        let mut ends: Vec<bool> = match (goal.closed, first) {
            (true, Some(s)) => predecessors_mask(graph, s),
            (true, None) => vec![false; n],
            (false, _) if !backwards => (0..n as u32)
                .map(|w| goal.end.is_none_or(|e| e == w))
                .collect(),
            (false, _) => vec![true; n],
        };
        // A square no tour starts on ends none, when every move can be made
        // back.
        let mut forbidden: Vec<u32> = Vec::new();
        if let Some(p) = &plan
            && g.is_symmetric()
        {
            for &(s, _) in &p.ruled_out {
                ends[s as usize] = false;
                forbidden.push(s);
            }
        }
        let space = match Space::new(graph, ends, &limits) {
            Ok(e) => e,
            Err(stop) => return stopped(stop),
        };
        run.progress.start(Unit::Nodes, None);
        let mut aim = Aim::find(1, goal.closed);
        aim.one_way_round = goal.closed && graph.is_symmetric() && n >= 3;
        let starts_list: Vec<u32> = match &plan {
            Some(p) => p.order.clone(),
            None => first.into_iter().collect(),
        };
        let (result, search) = space.with_rules(InRounds {
            graph,
            group: &group,
            aim,
            starts: &starts_list,
            forbidden: &forbidden,
            reverse_ends: every && g.is_symmetric(),
            halt: &halt,
            obs: &mut obs,
        });
        let mut stats = search.stats;
        stats.nodes = search.nodes;
        // Every square entered was stepped back from, or is on a path
        // still held (the tour, or a paused search's path).
        stats.backtracks = search.nodes.saturating_sub(result.held as u64);
        run.progress.set(stats.nodes);
        let searched = result.searched;
        let outcome = match result.end {
            End::Found(mut t) => {
                if backwards {
                    t.reverse();
                }
                Outcome::Found(t)
            }
            End::Stopped(stop) => {
                let mut best = search.best;
                if backwards {
                    best.reverse();
                }
                Outcome::stopped(stop, best)
            }
            End::Exhausted => {
                let name = |s: u32| task.board.name(s);
                let from = match (&plan, first) {
                    (Some(p), _) => exhausted_every(p, searched),
                    (None, Some(s)) if goal.closed => format!(
                        "exhaustive search through {} (every closed tour passes it) found no closed tour",
                        name(s)
                    ),
                    (None, _) if backwards => {
                        "exhaustive search backwards from the given end found no open tour"
                            .to_string()
                    }
                    (None, _) => {
                        format!("exhaustive search from the given start found no {kind} tour")
                    }
                };
                Outcome::Impossible(from)
            }
        };
        stats.elapsed = started.elapsed();
        Report {
            outcome,
            stats,
            solver: self.id(),
            starts: plan.map(|p| Starts {
                candidates: p.order.len(),
                searched,
                images: p.images,
                ruled_out: p.ruled_out,
            }),
        }
    }
}

/// The reason given when every start square was exhausted or ruled out.
fn exhausted_every(p: &StartPlan, searched: usize) -> String {
    let mut why = if searched == 0 {
        "every start square is ruled out".to_string()
    } else {
        format!(
            "exhaustive search from {} found no open tour",
            match searched {
                1 => "the one start square left".to_string(),
                k => format!("each of the {k} start squares left"),
            }
        )
    };
    let mut also = Vec::new();
    if !p.ruled_out.is_empty() {
        also.push(format!("{} ruled out before searching", p.ruled_out.len()));
    }
    if p.images > 0 {
        also.push(format!("{} mirror images of squares searched", p.images));
    }
    if !also.is_empty() && searched > 0 {
        why.push_str(&format!(" (the others: {})", also.join(", ")));
    }
    why
}

/// The limits, with the node count published to the progress channel
/// whenever they are looked at.
pub(super) struct Publishing<'a> {
    limits: &'a Limits<'a>,
    progress: &'a Progress,
}

impl Halt for Publishing<'_> {
    type Stop = Stop;
    fn check(&self) -> Result<(), Stop> {
        self.limits.check()
    }
    fn check_work(&self, work: u64) -> Result<(), Stop> {
        self.progress.set(work);
        self.limits.check_work(work)
    }
    fn budget(&self) -> Option<u64> {
        self.limits.budget()
    }
}

/// How a search over start squares ended.
enum End {
    Found(Vec<u32>),
    Exhausted,
    Stopped(Stop),
}

/// What [`Rounds::run`] returns: how it ended and how many start squares it
/// searched from.
struct RoundsEnd {
    end: End,
    searched: usize,
    /// Squares on the paths still held when it ended.
    held: usize,
}

/// One start square's search in [`Rounds`]. Its probe, when open, is
/// boxed: a board of 16 million squares has as many slots, and a probe
/// held in each would take hundreds of bytes a square.
struct Slot<'e, R: Rules> {
    start: u32,
    probe: Option<Box<Probe<'e, R>>>,
    done: bool,
}

/// What the searches in rounds keep: their node count, the longest path
/// seen and the run's counters.
struct Rounds<'e> {
    space: &'e Space<'e>,
    graph: &'e MoveGraph,
    group: &'e Symmetries,
    aim: Aim,
    nodes: u64,
    cadence: Cadence,
    best: Vec<u32>,
    stats: Stats,
}

/// [`Rounds::run`] from the given start squares, with the rules that fit
/// the search space.
struct InRounds<'a, O> {
    graph: &'a MoveGraph,
    group: &'a Symmetries,
    aim: Aim,
    starts: &'a [u32],
    forbidden: &'a [u32],
    reverse_ends: bool,
    halt: &'a Publishing<'a>,
    obs: &'a mut O,
}

impl<'e, 'a: 'e, O: Observer> ProbeJob<'e> for InRounds<'a, O> {
    type Output = (RoundsEnd, Rounds<'e>);

    fn run<R: Probing<'e>>(self, space: &'e Space<'e>) -> Self::Output {
        let mut rounds = Rounds {
            space,
            graph: self.graph,
            group: self.group,
            aim: self.aim,
            nodes: 0,
            cadence: Cadence::watched(self.halt, 0, O::HEAVY),
            best: Vec::new(),
            stats: Stats::default(),
        };
        let end = rounds.run::<R, O>(
            self.starts,
            self.forbidden,
            self.reverse_ends,
            self.halt,
            self.obs,
        );
        (end, rounds)
    }
}

impl<'e> Rounds<'e> {
    /// A probe from `s`, its first moves cut to one of each orbit under the
    /// symmetries that fix `s`.
    fn probe<R: Probing<'e>>(&self, s: u32, forbidden: &[u32]) -> Probe<'e, R> {
        let mut p = self.space.probe::<R>(&[s], self.aim);
        let stab = self.group.stabiliser(&[s]);
        if stab.len() > 1 {
            let allowed: Vec<u32> = self
                .graph
                .targets(s)
                .iter()
                .copied()
                .filter(|&t| stab.canonical_weight(&[s, t]).is_some())
                .collect();
            p.restrict_first_moves(&allowed);
        }
        if !forbidden.is_empty() {
            p.forbid_ends(forbidden);
        }
        p
    }

    fn keep_best<R: Probing<'e>>(&mut self, p: &Probe<'e, R>) {
        let b = p.driver().longest();
        if b.len() > self.best.len() {
            self.best = b;
        }
    }

    /// Searches from `starts` in rounds until a tour is found, every start
    /// is exhausted, or `halt` stops it. With `reverse_ends`, a start
    /// exhausted (with its images) is taken out of the ends of the others.
    fn run<R: Probing<'e>, O: Observer>(
        &mut self,
        starts: &[u32],
        forbidden: &[u32],
        reverse_ends: bool,
        halt: &Publishing,
        obs: &mut O,
    ) -> RoundsEnd {
        let n = self.graph.len();
        let window = if n <= 64 {
            usize::MAX
        } else {
            ((1usize << 20) / n.max(1)).clamp(1, OPEN_SEARCHES)
        };
        let mut forbidden = forbidden.to_vec();
        let mut slots: Vec<Slot<R>> = starts
            .iter()
            .map(|&start| Slot {
                start,
                probe: None,
                done: false,
            })
            .collect();
        let mut searched = 0usize;
        // The slot whose path the observer holds.
        let mut shown: Option<usize> = None;
        // Even one search pauses now and then: the search space's cache grows
        // with the nodes done, when a search runs again.
        let mut budget = FIRST_ROUND;
        loop {
            let mut open = 0usize;
            let mut live = false;
            for i in 0..slots.len() {
                if slots[i].done {
                    continue;
                }
                live = true;
                if slots[i].probe.is_none() {
                    if open >= window {
                        break;
                    }
                    if searched > 0 {
                        self.stats.restarts += 1;
                        obs.event(Event::Restart, &[]);
                    }
                    searched += 1;
                    slots[i].probe = Some(Box::new(self.probe(slots[i].start, &forbidden)));
                    shown = Some(i);
                } else if shown != Some(i) {
                    if let Some(p) = &slots[i].probe {
                        obs.event(
                            Event::Rewrite {
                                from: 0,
                                how: Change::Resume,
                            },
                            p.driver().path(),
                        );
                    }
                    shown = Some(i);
                }
                open += 1;
                let Some(p) = slots[i].probe.as_mut() else {
                    continue;
                };
                let pause = self.nodes.saturating_add(budget);
                match p.run(pause, &mut self.nodes, &mut self.cadence, halt, obs) {
                    Pace::Paused => {}
                    Pace::Stopped(stop) => {
                        for s in slots.iter().filter_map(|s| s.probe.as_ref()) {
                            self.keep_best(s);
                        }
                        let held = slots
                            .iter()
                            .filter_map(|s| s.probe.as_ref())
                            .map(|p| {
                                if p.driver().started() {
                                    p.driver().path().len()
                                } else {
                                    0
                                }
                            })
                            .sum();
                        return RoundsEnd {
                            end: End::Stopped(stop),
                            searched,
                            held,
                        };
                    }
                    Pace::Done => {
                        if let Some(t) = p.driver().first() {
                            let t = t.to_vec();
                            let held = slots
                                .iter()
                                .filter_map(|s| s.probe.as_ref())
                                .map(|p| {
                                    if p.driver().started() {
                                        p.driver().path().len()
                                    } else {
                                        0
                                    }
                                })
                                .sum();
                            return RoundsEnd {
                                end: End::Found(t),
                                searched,
                                held,
                            };
                        }
                        let p = slots[i].probe.take();
                        if let Some(p) = &p {
                            self.keep_best(p);
                        }
                        slots[i].done = true;
                        open -= 1;
                        if reverse_ends {
                            let orbit: Vec<u32> = self
                                .group
                                .elements()
                                .iter()
                                .map(|e| e[slots[i].start as usize])
                                .collect();
                            for s in slots.iter_mut().filter_map(|s| s.probe.as_mut()) {
                                s.forbid_ends(&orbit);
                            }
                            forbidden.extend(orbit);
                        }
                    }
                }
            }
            if !live {
                return RoundsEnd {
                    end: End::Exhausted,
                    searched,
                    held: 0,
                };
            }
            budget = budget.saturating_mul(2);
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

impl<'s> Searching<'s> {
    /// The limits as a halt that publishes the node count when it looks.
    pub(super) fn halt(&self) -> Publishing<'s> {
        Publishing {
            limits: self.limits,
            progress: self.progress,
        }
    }

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
