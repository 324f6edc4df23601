//! One search from one path that can stop and go on ([`Probe`]), run in a
//! [`Space`] that its probes share: the tables of one graph and end set
//! and a bounded cache of endings keyed by the unvisited set and the
//! current square. The search is the kernel's, with every rule of the
//! [module docs](super).
//! `count` runs it to count every tour; `Backtrack(order: Warnsdorff)` runs
//! it in *path mode* to find one, and a check of uniqueness runs it to stop
//! at the second.
//!
//! A caller asks through an [`Aim`]: how many tours to stop at (the first,
//! the second, all), and whether to try moves in Warnsdorff's order. A
//! [`Probe`] is one search from one path (usually one start square); it
//! holds its own stack, so a caller can run several side by side under
//! growing node budgets ([`Probe::run`] pauses at a node count and goes on
//! where it stopped). In path mode a node is a square entered, the first
//! squares and a tour's last square included, and the budget is looked at
//! before each.
//!
//! Rules a caller may add between runs, when it searches for one tour only:
//! [`Probe::forbid_ends`] takes squares out of the set a tour may end on
//! (a square no tour starts on, when every move can be made back, is one
//! no tour ends on). The cache then stays exact for that search: it only
//! ever records "no tour from here", which a smaller end set keeps true.
//! Fixed squares at given steps (clue puzzles) would be one more rule of
//! this kind, checked where a move is tried.

use std::sync::OnceLock;

use super::Pruning;
use super::aim::{Aim, Pace};
use super::bits::BitRules;
use super::driver::{Driver, Rules};
use super::event::{NoObserver, Observer};
use super::general::GeneralRules;
use super::memo::{Memo, memo_bits};
use super::tables::{Tables, memo_min};
use crate::halt::{Cadence, Halt};
use crate::model::MoveGraph;
use crate::model::graph::walks::predecessors_mask;

/// The tables and the cache of one graph and end set, shared by the
/// probes run on it.
pub struct Space<'g> {
    tables: Tables<'g>,
    /// No cache, for the first nodes.
    none: Memo,
    /// The cache grows with the work done (each step starts empty): most
    /// searches for one tour end in a few thousand nodes, and clearing a
    /// cache of 2^20 slots (33 MB) would cost them far more than they take.
    steps: [(u64, u32, OnceLock<Memo>); 3],
}

impl<'g> Space<'g> {
    /// The search space of walks of `g` that end on a square of `ends`, built
    /// under `halt` (on the largest boards the tables take seconds).
    pub fn new<H: Halt>(g: &'g MoveGraph, ends: Vec<bool>, halt: &H) -> Result<Space<'g>, H::Stop> {
        let n = g.len();
        let tables = Tables::new(
            g,
            vec![ends],
            vec![vec![false; n]],
            Pruning::ALL,
            memo_min(n),
            halt,
        )?;
        let full = memo_bits(&tables);
        Ok(Space {
            tables,
            none: Memo::new(0),
            steps: [
                (1 << 16, full.min(14), OnceLock::new()),
                (1 << 19, full.min(17), OnceLock::new()),
                (1 << 22, full, OnceLock::new()),
            ],
        })
    }

    /// The cache to use after `nodes` nodes.
    fn memo(&self, nodes: u64) -> &Memo {
        match self
            .steps
            .iter()
            .rev()
            .find(|(after, _, _)| nodes >= *after)
        {
            Some((_, bits, memo)) if *bits > 0 => memo.get_or_init(|| Memo::new(*bits)),
            _ => &self.none,
        }
    }

    /// Runs `job` with the rules that fit this space: bit masks on boards
    /// of at most 64 squares (one-way moves or not), general sets beyond.
    /// The one place that picks the representation of a path-mode search.
    pub fn with_rules<'e, J: ProbeJob<'e>>(&'e self, job: J) -> J::Output {
        if !self.tables.small() {
            job.run::<GeneralRules<'e, true>>(self)
        } else if self.tables.sym {
            job.run::<BitRules<'e, false, true>>(self)
        } else {
            job.run::<BitRules<'e, true, true>>(self)
        }
    }

    /// A search from the path `prefix` (distinct squares along moves) with
    /// the rules `R` ([`Space::with_rules`] picks them).
    pub fn probe<'e, R: Probing<'e>>(&'e self, prefix: &[u32], aim: Aim) -> Probe<'e, R> {
        let rules = R::start(self, prefix, aim);
        Probe {
            space: self,
            driver: Driver::new(rules, prefix.len(), aim.stop_at).one_way_round(aim.one_way_round),
        }
    }
}

/// Work done with probes of whichever rules fit a space (see
/// [`Space::with_rules`]).
pub trait ProbeJob<'e> {
    /// What the work returns.
    type Output;
    /// Does the work with probes of the rules `R`.
    fn run<R: Probing<'e>>(self, space: &'e Space<'e>) -> Self::Output;
}

/// Path-mode rules a [`Probe`] runs: the kernel's, on masks or general sets.
pub trait Probing<'e>: Rules + Sized {
    /// The rules for a search of `space` from `prefix`.
    fn start(space: &'e Space<'e>, prefix: &[u32], aim: Aim) -> Self;
    /// Uses `memo` as the cache from now on.
    fn use_memo(&mut self, memo: &'e Memo);
    /// Allows only these first moves (before the first run).
    fn first_moves(&mut self, allowed: &[u32]);
    /// Takes `squares` out of the end set from now on.
    fn no_ends(&mut self, squares: &[u32]);
}

fn mask(squares: &[u32]) -> u64 {
    squares.iter().fold(0, |m, &s| m | 1 << (s & 63))
}

impl<'e, const DIRECTED: bool> Probing<'e> for BitRules<'e, DIRECTED, true> {
    fn start(space: &'e Space<'e>, prefix: &[u32], aim: Aim) -> Self {
        BitRules::new(&space.tables, &space.none, 0, prefix, aim)
    }
    fn use_memo(&mut self, memo: &'e Memo) {
        self.set_memo(memo);
    }
    fn first_moves(&mut self, allowed: &[u32]) {
        self.restrict_first_moves(mask(allowed));
    }
    fn no_ends(&mut self, squares: &[u32]) {
        self.forbid_ends(mask(squares));
    }
}

impl<'e> Probing<'e> for GeneralRules<'e, true> {
    fn start(space: &'e Space<'e>, prefix: &[u32], aim: Aim) -> Self {
        let mut r = GeneralRules::new(&space.tables, &space.none, aim);
        r.reset(prefix, 0);
        r
    }
    fn use_memo(&mut self, memo: &'e Memo) {
        self.set_memo(memo);
    }
    fn first_moves(&mut self, allowed: &[u32]) {
        self.restrict_first_moves(allowed);
    }
    fn no_ends(&mut self, squares: &[u32]) {
        for &s in squares {
            self.st.forbid_end(s);
        }
    }
}

/// One search from one path, which can stop and go on.
pub struct Probe<'e, R: Rules> {
    space: &'e Space<'e>,
    driver: Driver<R>,
}

impl<'e, R: Probing<'e>> Probe<'e, R> {
    /// Searches on until done, paused (when `nodes` reaches `pause_at`,
    /// before entering a node) or stopped by `halt` at the `cadence`.
    /// `nodes` counts squares entered and goes on from what it holds.
    pub fn run<H: Halt, O: Observer>(
        &mut self,
        pause_at: u64,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &H,
        obs: &mut O,
    ) -> Pace<H::Stop> {
        self.driver.rules.use_memo(self.space.memo(*nodes));
        self.driver.run(pause_at, nodes, cadence, halt, obs)
    }

    /// Allows only these first moves (the others are images of them under a
    /// symmetry that fixes the path so far). Before the first run only.
    pub fn restrict_first_moves(&mut self, allowed: &[u32]) {
        self.driver.rules.first_moves(allowed);
    }

    /// Takes `squares` out of the end set from now on. Only for a search
    /// for one tour (see the module docs).
    pub fn forbid_ends(&mut self, squares: &[u32]) {
        self.driver.rules.no_ends(squares);
    }

    /// Walks every tour to its last square and shows it to the observer
    /// ([`Driver::each_tour`]). Before the first run only.
    pub fn each_tour(mut self) -> Probe<'e, R> {
        self.driver = self.driver.each_tour(true);
        self
    }

    /// The search itself: whether it is done, its count, first tour, path
    /// and longest path.
    pub fn driver(&self) -> &Driver<R> {
        &self.driver
    }
}

/// What a caller wants of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// The first tour.
    First,
    /// Stop at the `k`-th tour (2: "is it unique?").
    UpTo(u128),
    /// Every tour.
    All,
}

/// What [`solutions`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tours {
    /// Tours counted (at most the number asked for; a lower bound when
    /// stopped).
    pub count: u128,
    /// The first tour found.
    pub first: Option<Vec<u32>>,
    /// Nodes (squares entered).
    pub nodes: u64,
}

/// Directed tours of `goal` on `g` from `goal.start` (a closed goal with no
/// start: from square 0, so each cycle counts twice when its reverse is a
/// cycle too), up to what `want` asks for, in path mode: one thread, moves
/// in Warnsdorff's order, the first tour kept. For counting every tour on
/// all cores, see [`crate::count`]. `Err` holds the stop and what was found.
///
/// ```
/// use engine::search::{solutions, Want};
/// use engine::halt::Never;
/// use engine::model::{Board, Goal, MoveGraph, Piece};
/// let Ok(g) = MoveGraph::build(&Board::rectangle(5, 5), &Piece::leaper(1, 2, 1), &Never);
/// let goal = Goal { start: Some(0), ..Goal::default() };
/// let Ok(two) = solutions(&g, &goal, Want::UpTo(2), &Never);
/// assert_eq!(two.count, 2);
/// let Ok(all) = solutions(&g, &goal, Want::All, &Never);
/// assert_eq!(all.count, 304);
/// ```
pub fn solutions<H: Halt>(
    g: &MoveGraph,
    goal: &crate::model::Goal,
    want: Want,
    halt: &H,
) -> Result<Tours, (H::Stop, Tours)> {
    let n = g.len();
    let start = goal.start.or(goal.closed.then_some(0));
    let none = Tours {
        count: 0,
        first: None,
        nodes: 0,
    };
    let Some(start) = start.filter(|&s| (s as usize) < n) else {
        return Ok(none);
    };
    let ends = if goal.closed {
        predecessors_mask(g, start)
    } else {
        (0..n as u32)
            .map(|w| goal.end.is_none_or(|e| e == w))
            .collect()
    };
    let space = Space::new(g, ends, halt).map_err(|s| (s, none.clone()))?;
    let stop_at = match want {
        Want::First => 1,
        Want::UpTo(k) => k,
        Want::All => u128::MAX,
    };
    space.with_rules(Solve {
        start,
        stop_at,
        closed: goal.closed,
        halt,
    })
}

/// [`solutions`]' search, with the rules that fit.
struct Solve<'h, H> {
    start: u32,
    stop_at: u128,
    closed: bool,
    halt: &'h H,
}

impl<'e, H: Halt> ProbeJob<'e> for Solve<'_, H> {
    type Output = Result<Tours, (H::Stop, Tours)>;

    fn run<R: Probing<'e>>(self, space: &'e Space<'e>) -> Self::Output {
        let halt = self.halt;
        let mut probe = space.probe::<R>(&[self.start], Aim::find(self.stop_at, self.closed));
        let mut nodes = 0;
        let mut cadence = Cadence::new(halt, 0);
        // Pausing now and then lets the cache grow.
        let mut pace = Pace::Paused;
        let mut step = 1u64 << 16;
        while matches!(pace, Pace::Paused) {
            pace = probe.run(
                nodes + step,
                &mut nodes,
                &mut cadence,
                halt,
                &mut NoObserver,
            );
            step = step.saturating_mul(2);
        }
        let found = Tours {
            count: probe.driver().count(),
            first: probe.driver().first().map(<[u32]>::to_vec),
            nodes,
        };
        match pace {
            Pace::Stopped(s) => Err((s, found)),
            Pace::Done | Pace::Paused => Ok(found),
        }
    }
}

/// The first `most` directed tours of `goal` on `g`, in the convention of a
/// count: from `goal.start`, or from each square in turn when it has none;
/// closed, or ending on `goal.end` when one is given. Each start's tours
/// come in the order of a path-mode search (moves in Warnsdorff's order),
/// every one walked to its last square. With the tours, what stopped the
/// search before it found `most`, if anything.
///
/// ```
/// use engine::search::probe::first_tours;
/// use engine::halt::Never;
/// use engine::model::{Board, Goal, MoveGraph, Piece};
/// let Ok(g) = MoveGraph::build(&Board::rectangle(5, 5), &Piece::leaper(1, 2, 1), &Never);
/// let goal = Goal { start: Some(0), ..Goal::default() };
/// let (all, _) = first_tours(&g, &goal, usize::MAX, &Never);
/// assert_eq!(all.len(), 304);
/// ```
pub fn first_tours<H: Halt>(
    g: &MoveGraph,
    goal: &crate::model::Goal,
    most: usize,
    halt: &H,
) -> (Vec<Vec<u32>>, Option<H::Stop>) {
    let n = g.len() as u32;
    let starts: Vec<u32> = match goal.start {
        Some(s) if s < n => vec![s],
        Some(_) => Vec::new(),
        None => (0..n).collect(),
    };
    let mut list = TourList { tours: Vec::new() };
    let mut nodes = 0;
    let mut cadence = Cadence::new(halt, 0);
    // An open goal's end set is one for every start; a closed goal's is
    // the start's own.
    let open_ends = || -> Vec<bool> { (0..n).map(|w| goal.end.is_none_or(|e| e == w)).collect() };
    let mut shared = None;
    for start in starts {
        if list.tours.len() >= most {
            break;
        }
        let built;
        let space = if goal.closed {
            built = match Space::new(g, predecessors_mask(g, start), halt) {
                Ok(space) => space,
                Err(stop) => return (list.tours, Some(stop)),
            };
            &built
        } else {
            if shared.is_none() {
                match Space::new(g, open_ends(), halt) {
                    Ok(space) => shared = Some(space),
                    Err(stop) => return (list.tours, Some(stop)),
                }
            }
            let Some(space) = shared.as_ref() else {
                continue;
            };
            space
        };
        let stop_at = (most - list.tours.len()) as u128;
        let pace = space.with_rules(Listing {
            start,
            stop_at,
            closed: goal.closed,
            halt,
            nodes: &mut nodes,
            cadence: &mut cadence,
            list: &mut list,
        });
        if let Pace::Stopped(stop) = pace {
            return (list.tours, Some(stop));
        }
    }
    (list.tours, None)
}

/// Keeps the tours a search shows, and nothing else: every step may go
/// untold (the driver tells each tour all the same).
struct TourList {
    tours: Vec<Vec<u32>>,
}

impl Observer for TourList {
    const HEAVY: bool = false;
    const SKIPS: bool = true;
    #[inline(always)]
    fn event(&mut self, _: crate::search::event::Event, _: &[u32]) {}
    #[inline(always)]
    fn skip(&self) -> crate::search::event::Skip {
        crate::search::event::Skip::ALL
    }
    #[inline(always)]
    fn wants_why(&self) -> bool {
        false
    }
    fn tour(&mut self, tour: &[u32]) {
        self.tours.push(tour.to_vec());
    }
}

/// [`first_tours`]' search from one start, with the rules that fit.
struct Listing<'h, 'l, H: Halt> {
    start: u32,
    stop_at: u128,
    closed: bool,
    halt: &'h H,
    nodes: &'l mut u64,
    cadence: &'l mut Cadence,
    list: &'l mut TourList,
}

impl<'e, H: Halt> ProbeJob<'e> for Listing<'_, '_, H> {
    type Output = Pace<H::Stop>;

    fn run<R: Probing<'e>>(self, space: &'e Space<'e>) -> Self::Output {
        let mut probe = space
            .probe::<R>(&[self.start], Aim::find(self.stop_at, self.closed))
            .each_tour();
        // Pausing now and then lets the cache (of "no tour below") grow.
        let mut step = 1u64 << 16;
        loop {
            let pace = probe.run(
                *self.nodes + step,
                self.nodes,
                self.cadence,
                self.halt,
                &mut *self.list,
            );
            if !matches!(pace, Pace::Paused) {
                return pace;
            }
            step = step.saturating_mul(2);
        }
    }
}
