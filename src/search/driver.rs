//! The one depth-first driver: every search here — counting, the complete
//! backtracker in both orders, the checks of uniqueness, the clue and the
//! symmetric searches — is this loop over a rule set ([`Rules`]).
//!
//! The rules own the search state (the path, the unvisited set, counters)
//! and decide what a node is: settled outright ([`Verdict::Leaf`], with the
//! tours it holds) or a branch with moves to try ([`Verdict::Branch`], whose
//! record the driver keeps on its own stack while the moves are tried).
//! The driver owns the walk: which node is next, the node count and the
//! budget, the halt, the observer's events, the tours counted, the first
//! tour and the longest path. It holds its whole stack, so a run can pause
//! at a node count and go on later where it stopped.
//!
//! Two modes, fixed by the rules ([`Rules::PATHS`]):
//! - *counting*: every tour below the first node is counted; the halt is
//!   looked at after each node entered; no events;
//! - *path mode*: the search shows its path — every square entered and left
//!   is told to the observer, the first tour is kept, the search stops once
//!   `stop_at` tours are counted, and the budget is looked at before each
//!   node, so a node limit of `k` enters exactly `k` squares.
//!
//! An observer that samples the search may leave advances and retreats
//! untold ([`Observer::skip`]): the driver then counts them off in locals
//! of its loop, with the least length the path fell to, and tells the
//! observer their sum ([`Observer::skipped`]) before the next event it
//! tells and before it returns. Watched that way (as the studio and the
//! player watch), the cheapest search per node runs within a few percent of
//! its speed unwatched (BENCHMARKS.md); told every event, about a third
//! slower.
//!
//! Nodes are squares entered, the first path's squares included (path
//! mode). Every square entered is either stepped back from or still on the
//! path, so the backtracks of a run are its nodes less the path it holds.

use super::aim::{Best, Pace};
use super::event::{Event, Observer, Skipped, Why};
use crate::halt::{Cadence, Halt};

/// What the rules make of a node.
pub enum Verdict<N> {
    /// Settled without going deeper: the tours it holds (0: none).
    Leaf(u64),
    /// Moves to try; the record the driver keeps while they are tried.
    Branch(N),
}

/// What the driver has found so far, for rules that depend on it.
#[derive(Clone, Copy, Debug)]
pub struct Sofar {
    /// Tours counted so far.
    pub total: u128,
    /// Path mode: a tour is in hand (so a cached count of tours below a
    /// node may stand for them; before, only a cached "none" may).
    pub tour: bool,
}

/// A rule set: the search state and what a node is. Every method is called
/// in the order of a depth-first walk: [`Rules::root`] once, then for each
/// node on the stack [`Rules::next`] and [`Rules::take`] for each of its
/// moves, [`Rules::descend`] into it and, once the child is settled or its
/// moves are all tried, [`Rules::ascend`] back.
pub trait Rules {
    /// Path mode (see the module docs); counting when false.
    const PATHS: bool;

    /// What a node keeps while its moves are tried.
    type Node: Default;

    /// Whether the driver has [`Rules::descend_into`] write a branch's
    /// record in place on its stack (worth it for large records, measured
    /// on the 64-bit masks' 136 bytes) rather than move the one
    /// [`Rules::descend`] returns (cheaper for records of a word or two).
    const IN_PLACE: bool = false;

    /// The first node: the path the rules were set up with.
    fn root(&mut self, found: Sofar) -> Verdict<Self::Node>;

    /// The next move of `node` to try, or None when every move was tried.
    /// It may skip moves that are not allowed, but not take the one it
    /// returns: the driver may pause before taking it.
    fn next(&mut self, node: &mut Self::Node) -> Option<u32>;

    /// Takes `to`, the move [`Rules::next`] returned, out of `node`.
    fn take(&mut self, node: &mut Self::Node, to: u32);

    /// Moves the path from `node` on to `to` and looks at the node reached.
    fn descend(&mut self, node: &Self::Node, to: u32, found: Sofar) -> Verdict<Self::Node>;

    /// [`Rules::descend`], writing a branch's record into `child` (None)
    /// instead of returning it; a leaf's tours are returned. Rules whose
    /// records are large write them in place, which saves a copy a node.
    #[inline(always)]
    fn descend_into(
        &mut self,
        node: &Self::Node,
        to: u32,
        found: Sofar,
        child: &mut Self::Node,
    ) -> Option<u64> {
        match self.descend(node, to, found) {
            Verdict::Leaf(c) => Some(c),
            Verdict::Branch(n) => {
                *child = n;
                None
            }
        }
    }

    /// Undoes the last [`Rules::descend`] whose node is settled.
    fn ascend(&mut self);

    /// Every move of `node` was tried; `total` tours are counted now (a
    /// cache keeps what was found below it).
    #[inline]
    fn finished(&mut self, node: &Self::Node, total: u128) {
        let _ = (node, total);
    }

    /// The path (path mode; counting rules may keep none).
    fn path(&self) -> &[u32];

    /// Why the search steps back from the path's last square, just settled
    /// as a leaf holding `tours` tours; `parent` is the node it was entered
    /// from (None: the first node). Asked only in path mode, and only when
    /// the observer wants it ([`Observer::wants_why`]), so working it out
    /// costs a search that nobody watches nothing.
    #[inline]
    fn why_leaf(&self, parent: Option<&Self::Node>, tours: u64) -> Why {
        let _ = parent;
        if tours > 0 { Why::Tour } else { Why::Unsaid }
    }

    /// Why the search steps back from `node`, the path's last square, whose
    /// moves were all tried (asked as [`Rules::why_leaf`] is, before
    /// [`Rules::finished`]).
    #[inline]
    fn why_tried(&self, node: &Self::Node) -> Why {
        let _ = node;
        Why::Tried
    }

    /// Takes `square` out of the squares a tour may end on, from now on
    /// (path mode: each cycle once, see [`Driver::one_way_round`]).
    #[inline]
    fn forbid_end(&mut self, square: u32) {
        let _ = square;
    }
}

/// The stretch of advances and retreats the observer lets go untold
/// ([`Observer::skip`]), counted off as the search goes; a local of
/// [`Driver::run`], so that the compiler may keep it in registers.
#[derive(Clone, Copy, Debug)]
struct Quiet {
    /// Events that may still go untold.
    left: u64,
    /// An advance past this length is told.
    above: usize,
    /// `left` when the untold events began.
    granted: u64,
    /// The path's length then, and the least since.
    from: usize,
    low: usize,
}

impl Quiet {
    /// Nothing untold: every event is told (observers that take none).
    const NONE: Quiet = Quiet {
        left: 0,
        above: 0,
        granted: 0,
        from: 0,
        low: 0,
    };

    /// What `obs` lets go untold from a path of `len` squares on.
    #[inline(always)]
    fn ask<O: Observer>(obs: &O, len: usize) -> Quiet {
        if !O::SKIPS {
            return Quiet::NONE;
        }
        let skip = obs.skip();
        Quiet {
            left: skip.events,
            above: skip.above,
            granted: skip.events,
            from: len,
            low: len,
        }
    }

    /// Whether an advance to a path of `len` squares may go untold; counts
    /// it if so.
    #[inline(always)]
    fn advance(&mut self, len: usize) -> bool {
        if self.left > 0 && len <= self.above {
            self.left -= 1;
            true
        } else {
            false
        }
    }

    /// Whether a retreat to a path of `len` squares may go untold; counts
    /// it if so.
    #[inline(always)]
    fn retreat(&mut self, len: usize) -> bool {
        if self.left > 0 {
            self.left -= 1;
            self.low = self.low.min(len);
            true
        } else {
            false
        }
    }

    /// Tells `obs` the events that went untold, the path now `len` squares
    /// long; what is left of the stretch goes on.
    #[inline(always)]
    fn flush<O: Observer>(&mut self, obs: &mut O, len: usize) {
        if !O::SKIPS {
            return;
        }
        let events = self.granted - self.left;
        if events > 0 {
            // Each event moved the length by one: advances less retreats
            // is how far it moved.
            let advances = (events + len as u64).saturating_sub(self.from as u64) / 2;
            obs.skipped(Skipped {
                events,
                advances,
                low: self.low.min(len),
            });
            self.granted = self.left;
            self.from = len;
            self.low = len;
        }
    }

    /// Tells `obs` what went untold and then `event` (the path `path` after
    /// it, `before` squares long before it), and asks for the next stretch.
    #[inline(always)]
    fn tell<O: Observer>(&mut self, obs: &mut O, event: Event, path: &[u32], before: usize) {
        if O::SKIPS {
            self.tell_now(obs, event, path, before);
        } else {
            obs.event(event, path);
        }
    }

    /// [`Quiet::tell`] to an observer that skips: out of the search's
    /// loop, as it is seldom called.
    #[cold]
    #[inline(never)]
    fn tell_now<O: Observer>(&mut self, obs: &mut O, event: Event, path: &[u32], before: usize) {
        self.flush(obs, before);
        obs.event(event, path);
        *self = Quiet::ask(obs, path.len());
    }
}

/// Where a [`Driver`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Its first path is set but not yet entered.
    Unstarted,
    /// Searching.
    Running,
    /// Every branch tried, or the tours asked for found.
    Done,
}

/// A depth-first search over the rules `R` that can stop and go on later.
pub struct Driver<R: Rules> {
    /// The rules and their state.
    pub rules: R,
    /// The nodes whose moves are being tried are `stack[..depth]`; the
    /// records above are room for the next (written in place).
    stack: Vec<R::Node>,
    depth: usize,
    total: u128,
    stop_at: u128,
    root: usize,
    phase: Phase,
    /// Path mode: the first tour found, and the longest path seen.
    first: Option<Vec<u32>>,
    best: Best,
    one_way_round: bool,
    /// Path mode: every tour is walked to its last square and shown to the
    /// observer ([`Driver::each_tour`]).
    each: bool,
    /// The squares of the path left when the search ended and gave its
    /// first squares back.
    kept: Option<usize>,
}

impl<R: Rules> Driver<R> {
    /// A search from the rules' path, whose last `root` squares it enters
    /// first (path mode: counts them as nodes, tells the observer, and gives
    /// them back at the end; the squares before them are the caller's),
    /// stopping once `stop_at` tours are counted in path mode.
    pub fn new(rules: R, root: usize, stop_at: u128) -> Driver<R> {
        Driver {
            rules,
            stack: Vec::new(),
            depth: 0,
            total: 0,
            stop_at: stop_at.max(1),
            root,
            phase: Phase::Unstarted,
            first: None,
            best: Best::new(),
            one_way_round: false,
            each: false,
            kept: None,
        }
    }

    /// Starts over from the rules' path as they were just reset (of `root`
    /// squares), keeping the stack's room.
    pub fn restart(&mut self, root: usize) {
        self.depth = 0;
        self.total = 0;
        self.root = root;
        self.phase = Phase::Unstarted;
        self.first = None;
        self.best = Best::new();
        self.kept = None;
    }

    /// Path mode, closed tours on a graph whose moves can all be made back:
    /// each cycle is found in one direction only — the square first
    /// entered from the first square is taken out of the ends.
    pub fn one_way_round(mut self, on: bool) -> Driver<R> {
        self.one_way_round = on;
        self
    }

    /// Path mode: every tour is walked square by square and handed to the
    /// observer ([`Observer::tour`]) — the cache may stand only for "no
    /// tour below", never for a number of tours it would not show.
    pub fn each_tour(mut self, on: bool) -> Driver<R> {
        self.each = on;
        self
    }

    /// True once every branch is tried or the tours asked for are found.
    pub fn done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// True once it has entered its first squares.
    pub fn started(&self) -> bool {
        self.phase != Phase::Unstarted
    }

    /// Tours counted so far.
    pub fn count(&self) -> u128 {
        self.total
    }

    /// The first tour found (path mode).
    pub fn first(&self) -> Option<&[u32]> {
        self.first.as_deref()
    }

    /// The current path (path mode).
    pub fn path(&self) -> &[u32] {
        let path = self.rules.path();
        &path[..self.kept.unwrap_or(path.len()).min(path.len())]
    }

    /// The longest path seen (path mode).
    pub fn longest(&self) -> Vec<u32> {
        self.best.longest(self.path())
    }

    fn found(&self) -> Sofar {
        Sofar {
            total: self.total,
            // A tour in hand lets the cache stand for tours not walked.
            tour: self.first.is_some() && !self.each,
        }
    }

    /// Searches on until done, paused (path mode: before entering a node
    /// when `nodes` has reached `pause_at`) or stopped by `halt` at the
    /// `cadence`. `nodes` counts squares entered and goes on from what it
    /// holds.
    #[inline]
    pub fn run<H: Halt, O: Observer>(
        &mut self,
        pause_at: u64,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &H,
        obs: &mut O,
    ) -> Pace<H::Stop> {
        if !R::PATHS || !O::SKIPS {
            let mut none = Quiet::NONE;
            return self.walk(pause_at, nodes, cadence, halt, obs, &mut none);
        }
        let mut quiet = Quiet::ask(obs, self.rules.path().len());
        let pace = self.walk(pause_at, nodes, cadence, halt, obs, &mut quiet);
        quiet.flush(obs, self.rules.path().len());
        pace
    }

    /// [`Driver::run`], with the observer's untold stretch `quiet`.
    #[inline(always)]
    fn walk<H: Halt, O: Observer>(
        &mut self,
        pause_at: u64,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &H,
        obs: &mut O,
        quiet: &mut Quiet,
    ) -> Pace<H::Stop> {
        if self.phase == Phase::Unstarted {
            if R::PATHS {
                if *nodes >= pause_at {
                    return Pace::Paused;
                }
                if let Err(s) = cadence.tick(halt, *nodes) {
                    return Pace::Stopped(s);
                }
                // The first squares count as entered.
                *nodes += self.root as u64;
                let path = self.rules.path();
                for i in path.len().saturating_sub(self.root) + 1..=path.len() {
                    quiet.tell(obs, Event::Advance, &path[..i], i - 1);
                }
                self.best.reached(path.len());
            }
            self.phase = Phase::Running;
            match self.rules.root(self.found()) {
                Verdict::Leaf(c) => {
                    self.total += u128::from(c);
                    if R::PATHS {
                        if c > 0 {
                            self.first = Some(self.rules.path().to_vec());
                            if self.each {
                                quiet.flush(obs, self.rules.path().len());
                                obs.tour(self.rules.path());
                            }
                        }
                        if self.total < self.stop_at {
                            let why = if O::ACTIVE && obs.wants_why() {
                                self.rules.why_leaf(None, c)
                            } else {
                                Why::Unsaid
                            };
                            self.retreat_all(obs, why, quiet);
                        }
                    }
                    self.phase = Phase::Done;
                }
                Verdict::Branch(node) => {
                    if self.stack.is_empty() {
                        self.stack.push(node);
                    } else {
                        self.stack[0] = node;
                    }
                    self.depth = 1;
                }
            }
        }
        if self.phase == Phase::Done {
            return Pace::Done;
        }
        loop {
            let Some(top) = self
                .depth
                .checked_sub(1)
                .and_then(|d| self.stack.get_mut(d))
            else {
                self.phase = Phase::Done;
                return Pace::Done;
            };
            let Some(to) = self.rules.next(top) else {
                // Every move of this node tried.
                // The reason only for a retreat that is told (at the first
                // node, all of them are).
                let why = if R::PATHS
                    && O::ACTIVE
                    && (quiet.left == 0 || self.depth == 1)
                    && obs.wants_why()
                {
                    self.rules.why_tried(top)
                } else {
                    Why::Unsaid
                };
                self.depth -= 1;
                if let Some(node) = self.stack.get(self.depth) {
                    self.rules.finished(node, self.total);
                }
                if self.depth == 0 {
                    if R::PATHS {
                        self.retreat_all(obs, why, quiet);
                    }
                    self.phase = Phase::Done;
                    return Pace::Done;
                }
                self.retreat(obs, why, quiet);
                continue;
            };
            if R::PATHS {
                // The budget before each node: a limit of n enters n.
                if *nodes >= pause_at {
                    return Pace::Paused;
                }
                if let Err(s) = cadence.tick(halt, *nodes) {
                    return Pace::Stopped(s);
                }
                if self.one_way_round && self.depth == 1 {
                    // Each cycle once: its first square is never its last.
                    self.rules.forbid_end(to);
                }
            }
            let depth = self.depth;
            let Some(top) = self.stack.get_mut(depth - 1) else {
                continue;
            };
            self.rules.take(top, to);
            *nodes += 1;
            if !R::PATHS
                && let Err(s) = cadence.tick(halt, *nodes)
            {
                return Pace::Stopped(s);
            }
            let sofar = self.found();
            let leaf = if R::IN_PLACE {
                if self.stack.len() == depth {
                    self.stack.push(R::Node::default());
                }
                let (below, above) = self.stack.split_at_mut(depth);
                let (Some(top), Some(child)) = (below.last(), above.first_mut()) else {
                    continue;
                };
                self.rules.descend_into(top, to, sofar, child)
            } else {
                match self.rules.descend(&self.stack[depth - 1], to, sofar) {
                    Verdict::Leaf(c) => Some(c),
                    Verdict::Branch(node) => {
                        if self.stack.len() == depth {
                            self.stack.push(node);
                        } else {
                            self.stack[depth] = node;
                        }
                        None
                    }
                }
            };
            if R::PATHS {
                let path = self.rules.path();
                self.best.reached(path.len());
                if !(O::SKIPS && quiet.advance(path.len())) {
                    quiet.tell(obs, Event::Advance, path, path.len().saturating_sub(1));
                }
            }
            match leaf {
                Some(c) => {
                    self.total += u128::from(c);
                    if R::PATHS {
                        if c > 0 && self.first.is_none() {
                            self.first = Some(self.rules.path().to_vec());
                        }
                        if c > 0 && self.each {
                            quiet.flush(obs, self.rules.path().len());
                            obs.tour(self.rules.path());
                        }
                        if self.total >= self.stop_at {
                            self.phase = Phase::Done;
                            return Pace::Done;
                        }
                    }
                    let why = if R::PATHS && O::ACTIVE && quiet.left == 0 && obs.wants_why() {
                        self.rules.why_leaf(self.stack.get(depth - 1), c)
                    } else {
                        Why::Unsaid
                    };
                    self.retreat(obs, why, quiet);
                }
                None => self.depth += 1,
            }
        }
    }

    /// Steps back from the path's last square, for the reason `why`.
    #[inline(always)]
    fn retreat<O: Observer>(&mut self, obs: &mut O, why: Why, quiet: &mut Quiet) {
        if R::PATHS {
            self.best.retreating(self.rules.path());
            let h = self.rules.path().last().copied();
            self.rules.ascend();
            let path = self.rules.path();
            if let Some(h) = h
                && !(O::SKIPS && quiet.retreat(path.len()))
            {
                quiet.tell(obs, Event::Retreat(h, why), path, path.len() + 1);
            }
        } else {
            self.rules.ascend();
        }
    }

    /// Path mode, when the search is over: its first squares are given back
    /// one by one, so the observer sees the path as it was before them; the
    /// last for the reason `why`, the others with every move tried.
    fn retreat_all<O: Observer>(&mut self, obs: &mut O, why: Why, quiet: &mut Quiet) {
        let path = self.rules.path();
        self.best.retreating(path);
        let keep = path.len().saturating_sub(self.root);
        for k in (keep..path.len()).rev() {
            let why = if k + 1 == path.len() { why } else { Why::Tried };
            quiet.tell(obs, Event::Retreat(path[k], why), &path[..k], k + 1);
        }
        self.kept = Some(keep);
    }
}
