//! The complete search of a puzzle with clues (step numbers fixed on
//! squares): depth-first over the steps, the square of a clued step forced,
//! and every other square kept only if it can still reach the next clue in
//! time. It finds a tour, proves there is none, or enumerates the
//! solutions up to a cap (for `--unique` and `engine count`).
//!
//! Pruning, all sound:
//! - step `k` of a clue `(k, s)` is `s`, and `s` is entered at no other step;
//! - a square `v` at step `j` before the next clue `(k, s)` needs
//!   `dist(v, s) <= k - j`, and where the move graph is bipartite the same
//!   parity — distances from each clue square computed once;
//! - when every move can be made back: an unvisited square with fewer than
//!   two squares left to arrive from and go on to can only be the tour's
//!   last (none may for a closed tour, whose last square also needs the
//!   first), so at most one may be so, and it must be the end when that is
//!   fixed;
//! - when every move can be made back: an unclued square must be visited
//!   by its latest possible step over the gaps between clues (distances
//!   from and to the clues around it), computed once.

use std::collections::VecDeque;
use std::time::Instant;

pub mod deduce;
pub mod letters;
pub mod sat;

use super::backtrack::{BacktrackOptions, Searching};
use super::{Goal, Outcome, Report, Run, Solver, Stats, Stop, Task};
use crate::halt::{Cadence, Halt, Limit, POLL_EVERY, between_passes, poll};
use crate::model::{Constraints, Letters, MoveGraph};
use crate::progress::Unit;
use crate::search::Pace;
use crate::search::driver::{Driver, Rules, Sofar, Verdict};
use crate::search::event::{Event, Observer, Why};

/// A square no clue is on, or a distance too far to matter.
const NONE: u32 = u32::MAX;

/// What a search over the clues found.
#[derive(Debug)]
pub struct Found {
    /// The solutions found, in search order, at most as many as asked to
    /// keep.
    pub tours: Vec<Vec<u32>>,
    /// How many solutions were found (kept or not).
    pub solutions: u64,
    /// Squares entered.
    pub nodes: u64,
    /// Steps taken back.
    pub backtracks: u64,
    /// The longest path seen.
    pub best: Vec<u32>,
}

/// The clues of a puzzle on its move graph, prepared once.
struct Clues<'g> {
    g: &'g MoveGraph,
    goal: Goal,
    /// The square of each step (0-based), or `NONE`.
    fixed: Vec<u32>,
    /// The step (0-based) each square is clued with, or `NONE`.
    clue_of: Vec<u32>,
    /// For each step, the next clued step at or after it, or `NONE`.
    next_clue: Vec<u32>,
    /// For each clued step (by index into `clue_steps`), the distance from
    /// every square to its square.
    dist_to: Vec<Vec<u32>>,
    /// Index into `dist_to` of each clued step.
    clue_index: Vec<u32>,
    /// Each square's colour, when the move graph is bipartite.
    colour: Option<Vec<u8>>,
    /// Every move can be made back.
    undirected: bool,
    /// Two-way moves only: for each step `j` (0-based), the unclued squares
    /// whose latest possible step is `j` — between the clues around it, no
    /// later step is in reach of both — so that must be visited once step
    /// `j` is taken.
    due: Vec<Vec<u32>>,
    /// The units on the squares and the text the tour reads, if any.
    letters: Option<&'g Letters>,
}

impl<'g> Clues<'g> {
    /// The plan of `clues` on `g` for `goal`, looking at `halt` as it goes
    /// (distances from a thousand clues on a million squares take seconds).
    fn new<H: Halt + ?Sized>(
        g: &'g MoveGraph,
        goal: Goal,
        clues: &[(u32, u32)],
        letters: Option<&'g Letters>,
        halt: &H,
    ) -> Result<Clues<'g>, H::Stop> {
        let n = g.len();
        let mut fixed = vec![NONE; n];
        for &(step, sq) in clues {
            if let Some(slot) = fixed.get_mut(step as usize - 1) {
                *slot = sq;
            }
        }
        if let (Some(s), Some(f)) = (goal.start, fixed.first_mut()) {
            *f = s;
        }
        if !goal.closed
            && let (Some(e), Some(l)) = (goal.end, fixed.last_mut())
        {
            *l = e;
        }
        let mut clue_of = vec![NONE; n];
        for (k, &s) in fixed.iter().enumerate() {
            if s != NONE {
                clue_of[s as usize] = k as u32;
            }
        }
        let mut next_clue = vec![NONE; n];
        let mut next = NONE;
        for k in (0..n).rev() {
            if fixed[k] != NONE {
                next = k as u32;
            }
            next_clue[k] = next;
        }
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for s in 0..n as u32 {
            poll(halt, s as usize)?;
            for t in g.neighbours(s) {
                preds[t as usize].push(s);
            }
        }
        // Distances from the clues next to an unclued step: the others
        // bound no step (see `keeps_distances`).
        let mut dist_to = Vec::new();
        let mut clue_index = vec![NONE; n];
        let mut work = 0usize;
        for (k, &s) in fixed.iter().enumerate() {
            if s == NONE || !keeps_distances(&fixed, k) {
                continue;
            }
            between_passes(halt, n)?;
            clue_index[k] = dist_to.len() as u32;
            let mut d = vec![NONE; n];
            let mut queue = VecDeque::from([s]);
            d[s as usize] = 0;
            while let Some(v) = queue.pop_front() {
                work += 1;
                poll(halt, work)?;
                for &u in &preds[v as usize] {
                    if d[u as usize] == NONE {
                        d[u as usize] = d[v as usize] + 1;
                        queue.push_back(u);
                    }
                }
            }
            dist_to.push(d);
        }
        let colour = colours(g, &preds, halt)?;
        let mut plan = Clues {
            g,
            goal,
            fixed,
            clue_of,
            next_clue,
            dist_to,
            clue_index,
            colour,
            undirected: g.is_symmetric(),
            due: Vec::new(),
            letters,
        };
        if plan.undirected {
            plan.due = plan.due_steps(halt)?;
        }
        Ok(plan)
    }

    /// The distance from square `v` to the square of clued step `k`, or
    /// `NONE` for a clue that keeps no distances.
    #[inline(always)]
    fn dist(&self, k: usize, v: usize) -> u32 {
        match self.clue_index[k] {
            NONE => NONE,
            i => self.dist_to[i as usize][v],
        }
    }

    /// [`Clues::due`]: a square `u` can stand at step `j` between clues
    /// `(a, s)` and `(b, t)` only if `dist(s, u) <= j - a` and
    /// `dist(u, t) <= b - j` (distances either way round, as every move can
    /// be made back); its latest step is the largest such `j` over all
    /// gaps between clues (the last gap, after the last clue of an open
    /// tour with no fixed end, reaches step `n - 1`). A square with no
    /// possible step is due at step 0. Gaps with no step in them bound
    /// nothing and are passed over.
    fn due_steps<H: Halt + ?Sized>(&self, halt: &H) -> Result<Vec<Vec<u32>>, H::Stop> {
        let n = self.g.len();
        let clued: Vec<usize> = (0..n).filter(|&k| self.fixed[k] != NONE).collect();
        // Gaps: before the first clue, between clues, after the last; only
        // those with an unclued step.
        let mut bounds: Vec<(Option<usize>, Option<usize>)> = Vec::new();
        bounds.push((None, clued.first().copied()));
        bounds.extend(clued.windows(2).map(|w| (Some(w[0]), Some(w[1]))));
        bounds.push((clued.last().copied(), None));
        bounds.retain(|&(a, b)| {
            let first = a.map_or(0, |a| a + 1);
            let end = b.unwrap_or(n);
            first < end
        });
        let mut due = vec![Vec::new(); n];
        let mut work = 0usize;
        for u in 0..n {
            if self.clue_of[u] != NONE {
                continue;
            }
            work += bounds.len() + 1;
            if work >= POLL_EVERY {
                work = 0;
                halt.check()?;
            }
            let mut latest: Option<usize> = None;
            for &(a, b) in &bounds {
                let hi = match b {
                    Some(b) => match self.dist(b, u) {
                        NONE => continue,
                        d => match b.checked_sub(d as usize) {
                            Some(j) => j,
                            None => continue,
                        },
                    },
                    None => n - 1,
                };
                let lo = match a {
                    Some(a) => match self.dist(a, u) {
                        NONE => continue,
                        d => a + d as usize,
                    },
                    None => 0,
                };
                if self.letters.is_some() {
                    // A unit allows some steps only: the latest of them.
                    work += hi.saturating_sub(lo);
                    if let Some(j) = (lo..=hi).rev().find(|&j| self.allowed(u as u32, j)) {
                        latest = latest.max(Some(j));
                    }
                } else if lo <= hi && self.allowed(u as u32, hi) {
                    latest = latest.max(Some(hi));
                } else if lo < hi {
                    // A step of the wrong parity: the one before may do.
                    if self.allowed(u as u32, hi - 1) {
                        latest = latest.max(Some(hi - 1));
                    }
                }
            }
            due[latest.unwrap_or(0)].push(u as u32);
        }
        Ok(due)
    }

    /// Whether `v` at step `j` can still make the next clue in time.
    fn in_time(&self, v: u32, j: usize) -> bool {
        let k = self.next_clue[j];
        if k == NONE {
            return true;
        }
        let k = k as usize;
        let d = self.dist(k, v as usize);
        let left = (k - j) as u32;
        if d == NONE || d > left {
            return false;
        }
        match &self.colour {
            Some(c) => (c[v as usize] ^ c[self.fixed[k] as usize]) as u32 == left % 2,
            None => true,
        }
    }

    /// Whether `v` may stand at step `j`: its own clue, or none and in
    /// time; and its unit, if any, read there ([`Letters::allows`]).
    fn allowed(&self, v: u32, j: usize) -> bool {
        if self.letters.is_some_and(|l| !l.allows(j, v)) {
            return false;
        }
        let f = self.fixed[j];
        if f != NONE {
            return f == v;
        }
        self.clue_of[v as usize] == NONE && self.in_time(v, j)
    }
}

/// Whether clued step `k` (from 0) of `fixed` keeps its distances: when a
/// step beside it has no clue. A square's distance to clue `k` bounds the
/// unclued steps of the gaps on either side of it (the next clue's, for a
/// step before it; the latest step, for the gaps around it); a clue between
/// two clued steps (or the board's end) has no such gap.
fn keeps_distances(fixed: &[u32], k: usize) -> bool {
    let unclued = |j: Option<usize>| j.and_then(|j| fixed.get(j)).is_some_and(|&s| s == NONE);
    unclued(k.checked_sub(1)) || unclued(Some(k + 1))
}

/// Bytes per square of the search over the steps besides the distances:
/// the reversed moves' lists (24), the plan's steps, clues, next clues and
/// distance indexes (4 each), the colours (1), the due lists (28), and the
/// search's path, availability (4 each), visits (1) and candidates (32).
const BYTES_PER_SQUARE: u64 = 24 + 16 + 1 + 28 + 8 + 1 + 32;

/// Bytes the search over the steps takes on a move graph of `squares`
/// squares and `moves` moves when `distances` clues keep their distances
/// ([`distance_clues`]): a distance to each of them per square (4 bytes),
/// the reversed moves (4 bytes a move) and `BYTES_PER_SQUARE`.
pub fn estimate_bytes(squares: usize, moves: u64, distances: usize) -> u64 {
    let n = squares as u64;
    (distances as u64)
        .saturating_mul(n)
        .saturating_mul(4)
        .saturating_add(moves.saturating_mul(4))
        .saturating_add(n.saturating_mul(BYTES_PER_SQUARE))
}

/// How many clues keep their distances in the search over the steps of a
/// tour of `squares` squares with clues on `steps` (from 1, any order; the
/// start as step 1 and a fixed end as the last step count as clues): those
/// next to a step with no clue.
pub fn distance_clues(squares: usize, steps: &[u32]) -> usize {
    let mut sorted: Vec<usize> = steps
        .iter()
        .filter(|&&k| k >= 1 && k as usize <= squares)
        .map(|&k| k as usize - 1)
        .collect();
    sorted.sort_unstable();
    sorted.dedup();
    let clued = |j: usize| sorted.binary_search(&j).is_ok();
    sorted
        .iter()
        .filter(|&&k| (k > 0 && !clued(k - 1)) || (k + 1 < squares && !clued(k + 1)))
        .count()
}

/// Each square's colour when the moves (either way round) make a bipartite
/// graph, else `None`.
fn colours<H: Halt + ?Sized>(
    g: &MoveGraph,
    preds: &[Vec<u32>],
    halt: &H,
) -> Result<Option<Vec<u8>>, H::Stop> {
    let n = g.len();
    let mut c = vec![u8::MAX; n];
    let mut work = 0usize;
    for root in 0..n {
        if c[root] != u8::MAX {
            continue;
        }
        c[root] = 0;
        let mut queue = VecDeque::from([root as u32]);
        while let Some(v) = queue.pop_front() {
            work += 1;
            poll(halt, work)?;
            let cv = c[v as usize];
            for u in g.neighbours(v).chain(preds[v as usize].iter().copied()) {
                match c[u as usize] {
                    u8::MAX => {
                        c[u as usize] = cv ^ 1;
                        queue.push_back(u);
                    }
                    cu if cu == cv => return Ok(None),
                    _ => {}
                }
            }
        }
    }
    Ok(Some(c))
}

/// The rules of the search over the steps: the path, the squares on it,
/// and what the pruning needs. A node keeps where its squares to try begin
/// on one list (fewest onward moves first; the next node's follow) and the
/// next one to try.
struct Steps<'p, 'g> {
    plan: &'p Clues<'g>,
    path: Vec<u32>,
    seen: Vec<bool>,
    /// Per square, how many of its neighbours are unvisited, the path's
    /// end, or (closed tours) its first square (undirected graphs only).
    avail: Vec<u32>,
    /// `(onward moves, square)` of every node's squares to try.
    cands: Vec<(u32, u32)>,
    /// Solutions found (kept or not), and the first `keep` of them.
    solutions: u64,
    tours: Vec<Vec<u32>>,
    keep: usize,
    /// The units read along the path, when some squares read nothing
    /// (else [`Clues::allowed`] checks the units exactly).
    reader: Option<letters::Reader<'p>>,
}

impl Steps<'_, '_> {
    /// Puts `v` on the path.
    #[inline(always)]
    fn push(&mut self, v: u32) {
        if self.plan.undirected
            && let Some(&c) = self.path.last()
            && !(self.plan.goal.closed && self.path.len() == 1)
        {
            for w in self.plan.g.neighbours(c) {
                self.avail[w as usize] -= 1;
            }
        }
        self.seen[v as usize] = true;
        self.path.push(v);
        if let Some(r) = &mut self.reader {
            r.enter(v);
        }
    }

    /// Takes the last square off the path.
    #[inline(always)]
    fn pop(&mut self) {
        if let Some(v) = self.path.pop() {
            self.seen[v as usize] = false;
            if let Some(r) = &mut self.reader {
                r.leave(v);
            }
        }
        if self.plan.undirected
            && let Some(&c) = self.path.last()
            && !(self.plan.goal.closed && self.path.len() == 1)
        {
            for w in self.plan.g.neighbours(c) {
                self.avail[w as usize] += 1;
            }
        }
    }

    /// Whether every square whose latest possible step was the one just
    /// taken has been visited.
    fn in_due_time(&self) -> bool {
        let j = self.path.len() - 1;
        self.plan
            .due
            .get(j)
            .is_none_or(|d| d.iter().all(|&u| self.seen[u as usize]))
    }

    /// False when the unvisited squares provably cannot all be toured:
    /// checked around the square that just stopped being the end.
    fn alive(&self) -> bool {
        if !self.plan.undirected || self.path.len() < 2 {
            return true;
        }
        let n = self.plan.g.len();
        let before = self.path[self.path.len() - 2];
        let end = self.plan.fixed[n - 1];
        let mut low = 0;
        for w in self.plan.g.neighbours(before) {
            if self.seen[w as usize] {
                continue;
            }
            let a = self.avail[w as usize];
            if a == 0 || (a == 1 && (self.plan.goal.closed || (end != NONE && end != w))) {
                return false;
            }
            if a == 1 {
                low += 1;
            }
        }
        low <= 1
    }

    /// Why the path's last square holds no solution, for a watched search
    /// ([`Rules::why_leaf`]): [`Steps::alive`] and [`Steps::in_due_time`]
    /// again, naming the square they found.
    fn explain(&self) -> Why {
        let n = self.plan.g.len();
        if self.path.len() == n {
            return Why::WrongEnd;
        }
        let j = self.path.len() - 1;
        if let Some(d) = self.plan.due.get(j)
            && let Some(&u) = d.iter().find(|&&u| !self.seen[u as usize])
        {
            return Why::Clue(u);
        }
        if self.plan.undirected && self.path.len() >= 2 {
            let before = self.path[self.path.len() - 2];
            let end = self.plan.fixed[n - 1];
            let mut low = Vec::new();
            for w in self.plan.g.neighbours(before) {
                if self.seen[w as usize] {
                    continue;
                }
                let a = self.avail[w as usize];
                if a == 0 {
                    return Why::NoEntry(w);
                }
                if a == 1 && (self.plan.goal.closed || (end != NONE && end != w)) {
                    return Why::LastNotEnd(w);
                }
                if a == 1 {
                    low.push(w);
                }
            }
            if let [a, b, ..] = low[..] {
                return Why::TwoLast(a, b);
            }
        }
        Why::Unsaid
    }

    /// Arrives at the current path: a solution if it covers the board (and
    /// closes, for a closed tour), else the squares to try next, fewest
    /// onward moves first.
    #[inline(always)]
    fn arrive(&mut self) -> Verdict<(usize, usize)> {
        let n = self.plan.g.len();
        let j = self.path.len();
        if j == n {
            let closes = !self.plan.goal.closed
                || n == 1
                || self.plan.g.has_edge(self.path[n - 1], self.path[0]);
            if closes {
                self.solutions += 1;
                if self.tours.len() < self.keep {
                    self.tours.push(self.path.clone());
                }
            }
            return Verdict::Leaf(u64::from(closes));
        }
        let Some(&c) = self.path.last() else {
            return Verdict::Leaf(0);
        };
        let (plan, seen, reader) = (self.plan, &self.seen, &self.reader);
        let base = self.cands.len();
        self.cands.extend(
            plan.g
                .neighbours(c)
                .filter(|&v| {
                    !seen[v as usize]
                        && plan.allowed(v, j)
                        && reader.as_ref().is_none_or(|r| r.fits(v))
                })
                .map(|v| {
                    let onward = plan.g.neighbours(v).filter(|&w| !seen[w as usize]).count() as u32;
                    (onward, v)
                }),
        );
        self.cands[base..].sort_unstable();
        Verdict::Branch((base, base))
    }
}

impl Rules for Steps<'_, '_> {
    const PATHS: bool = true;
    type Node = (usize, usize);

    fn root(&mut self, _: Sofar) -> Verdict<(usize, usize)> {
        self.arrive()
    }

    #[inline(always)]
    fn next(&mut self, &mut (_, next): &mut (usize, usize)) -> Option<u32> {
        self.cands.get(next).map(|&(_, v)| v)
    }

    #[inline(always)]
    fn take(&mut self, node: &mut (usize, usize), _: u32) {
        node.1 += 1;
    }

    #[inline(always)]
    fn descend(&mut self, _: &(usize, usize), to: u32, _: Sofar) -> Verdict<(usize, usize)> {
        self.push(to);
        if self.alive() && self.in_due_time() {
            self.arrive()
        } else {
            Verdict::Leaf(0)
        }
    }

    #[inline(always)]
    fn finished(&mut self, &(base, _): &(usize, usize), _: u128) {
        self.cands.truncate(base);
    }

    #[inline(always)]
    fn ascend(&mut self) {
        self.pop();
    }

    fn path(&self) -> &[u32] {
        &self.path
    }

    fn why_leaf(&self, _: Option<&(usize, usize)>, tours: u64) -> Why {
        if tours > 0 { Why::Tour } else { self.explain() }
    }

    /// No candidate at all: no unvisited square next, or the clues allow
    /// none of them.
    fn why_tried(&self, &(base, next): &(usize, usize)) -> Why {
        if next > base {
            return Why::Tried;
        }
        let Some(&c) = self.path.last() else {
            return Why::Tried;
        };
        let j = self.path.len();
        let open: Vec<u32> = self
            .plan
            .g
            .neighbours(c)
            .filter(|&v| !self.seen[v as usize])
            .collect();
        match open.iter().find(|&&v| !self.plan.allowed(v, j)) {
            _ if open.is_empty() => Why::NoMoves,
            Some(&v) if open.iter().all(|&v| !self.plan.allowed(v, j)) => {
                // The step's own clue, else the square whose clue is elsewhere.
                Why::Clue(match self.plan.fixed.get(j) {
                    Some(&f) if f != NONE => f,
                    _ => v,
                })
            }
            _ => Why::Tried,
        }
    }
}

/// Searches the tours of `g` for `goal` with the clues (`(step, square)`,
/// steps from 1) and letters of `c`, stopping after `cap` solutions and keeping the first
/// `keep`; a closed tour's solutions are its numberings (with no clue and
/// no start, every rotation and direction of a cycle is one). `Err` when a
/// limit stopped it, with what was found so far.
pub(super) fn search<O: Observer>(
    g: &MoveGraph,
    goal: Goal,
    c: &Constraints,
    (cap, keep): (u64, usize),
    run: &mut Searching,
    obs: &mut O,
) -> Result<Found, (Stop, Found)> {
    let n = g.len();
    let cap = cap.max(1);
    let mut found = Found {
        tours: Vec::new(),
        solutions: 0,
        nodes: 0,
        backtracks: 0,
        best: Vec::new(),
    };
    let letters = c.letters.as_ref();
    let clues = letters::with_implied(&c.clues, letters);
    let plan = match Clues::new(g, goal, &clues, letters, run.limits) {
        Ok(plan) => plan,
        Err(stop) => return Err((stop, found)),
    };
    if n == 0 {
        return Ok(found);
    }
    let mut steps = Steps {
        plan: &plan,
        path: Vec::with_capacity(n),
        seen: vec![false; n],
        avail: (0..n as u32)
            .map(|s| g.neighbours(s).count() as u32)
            .collect(),
        cands: Vec::with_capacity(4 * n),
        solutions: 0,
        tours: Vec::new(),
        keep,
        reader: letters.filter(|l| l.blanks() > 0).map(letters::Reader::new),
    };
    let firsts: Vec<u32> = match plan.fixed[0] {
        NONE => (0..n as u32).filter(|&s| plan.allowed(s, 0)).collect(),
        s => vec![s],
    };
    let halt = run.halt();
    let mut stopped = None;
    for s in firsts {
        found.nodes += 1;
        if let Err(stop) = run.tick(found.nodes) {
            stopped = Some(stop);
            break;
        }
        steps.push(s);
        obs.event(Event::Restart, &[]);
        obs.event(Event::Advance, &steps.path);
        // The first square is this loop's: the driver enters none.
        let before = found.nodes;
        let mut driver = Driver::new(steps, 0, u128::from(cap - found.solutions));
        let pace = driver.run(u64::MAX, &mut found.nodes, &mut run.cadence, &halt, obs);
        let longest = driver.longest();
        if longest.len() > found.best.len() {
            found.best = longest;
        }
        steps = driver.rules;
        let entered = found.nodes - before;
        match pace {
            // A search stopped by a limit gives back every square.
            Pace::Stopped(stop) => {
                found.backtracks += entered;
                stopped = Some(stop);
            }
            // Every square entered was stepped back from, or is on the path.
            _ => found.backtracks += entered - (steps.path.len() as u64 - 1),
        }
        while steps.path.len() > 1 {
            steps.pop();
        }
        steps.pop();
        found.solutions = steps.solutions;
        if stopped.is_some() || found.solutions >= cap {
            break;
        }
    }
    found.solutions = steps.solutions;
    found.tours = steps.tours;
    match stopped {
        Some(stop) => Err((stop, found)),
        None => Ok(found),
    }
}

/// Solves `task` with its clues under `opts`' node limit, looking for up
/// to `cap` solutions: the report (the first solution found, or the proof
/// that there is none) and every solution found.
pub fn solve<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
    cap: usize,
) -> (Report, Vec<Vec<u32>>) {
    let (report, tours, _) = solve_up_to(opts, task, run, cap);
    (report, tours)
}

/// Nodes of the search over the steps for `--unique` before the
/// clause-learning search takes over.
pub const UNIQUE_STEPS_FIRST: u64 = 1 << 16;

/// Solves `task` for `--unique`: looks for two solutions. The search over
/// the steps runs for [`UNIQUE_STEPS_FIRST`] nodes; if that settles
/// nothing, the clause-learning search of [`crate::solve::clued::sat`] (far
/// stronger at proving that no second solution exists) takes over with
/// what is left of `opts`' node limit, each of its conflicts counted as a
/// node; on a puzzle too large for it, the search over the steps goes on
/// instead. With an observer of the search, the search over the steps
/// alone. The report is as [`unique_by_steps`] gives it, its solver
/// marked [`clause_learning`](crate::solve::SolverId::clause_learning)
/// when the clause-learning search had the last word.
pub fn unique<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
) -> (Report, Option<Vec<u32>>) {
    if O::ACTIVE {
        return unique_by_steps(opts, task, run);
    }
    let started = Instant::now();
    let (limits, progress) = (run.limits, run.progress);
    let left = |used: u64| opts.node_limit.map_or(u64::MAX, |l| l.saturating_sub(used));
    let first = BacktrackOptions {
        node_limit: Some(left(0).min(UNIQUE_STEPS_FIRST)),
        ..opts
    };
    let (mut report, second) = unique_by_steps(first, task, run);
    let mut used = report.stats.nodes;
    let out_of_nodes = matches!(
        report.outcome,
        Outcome::GaveUp {
            limit: Limit::Nodes,
            ..
        }
    );
    if !out_of_nodes || left(used) == 0 {
        return (report, second);
    }
    // The start and end are clues 1 and n to the deductions.
    let n = task.graph.len() as u32;
    let mut clues = task.constraints.clues.clone();
    for (step, square) in [(1, task.goal.start), (n, task.goal.end)] {
        if let Some(s) = square
            && !clues.iter().any(|&(k, _)| k == step)
        {
            clues.push((step, s));
        }
    }
    let closed = task.goal.closed;
    let found = crate::solve::clued::sat::solutions_with(
        task.graph,
        closed,
        &clues,
        task.constraints.letters.as_ref(),
        None,
        (2, left(used)),
        &limits,
    );
    let (found, nodes) = match found {
        Ok(f) => f,
        Err(stop) => {
            if let Outcome::GaveUp { best, .. } = report.outcome {
                report.outcome = Outcome::stopped(stop, best);
            }
            report.solver.clause_learning = true;
            report.stats.elapsed = started.elapsed();
            return (report, second);
        }
    };
    used += nodes;
    if let crate::solve::clued::sat::Answer::Tours(mut tours) = found {
        report.outcome = match tours.first() {
            Some(t) => Outcome::Found(t.clone()),
            None => Outcome::Impossible(no_tour(task)),
        };
        report.solver.clause_learning = true;
        report.stats.nodes = used;
        report.stats.elapsed = started.elapsed();
        let second = (tours.len() >= 2).then(|| tours.swap_remove(1));
        return (report, second);
    }
    if left(used) == 0 {
        // The clause-learning search ran out of conflicts (one too large
        // for it takes none).
        report.solver.clause_learning = true;
        report.stats.nodes = used;
        report.stats.elapsed = started.elapsed();
        return (report, second);
    }
    let rest = BacktrackOptions {
        node_limit: opts.node_limit.map(|_| left(used)),
        ..opts
    };
    let run = Run::new(limits, progress, crate::search::event::NoObserver);
    let (mut report, second) = unique_by_steps(rest, task, run);
    report.stats.nodes += used;
    report.stats.elapsed = started.elapsed();
    (report, second)
}

/// [`unique`] by the search over the steps alone: the report is the first
/// solution when the search ended (no second exists) or found a second,
/// which comes beside it; a limit that stops the search after one solution
/// leaves it unproven: a stopped report with that solution as its path.
pub fn unique_by_steps<O: Observer>(
    opts: BacktrackOptions,
    task: &Task<'_>,
    run: Run<'_, O>,
) -> (Report, Option<Vec<u32>>) {
    let (report, tours, stop) = solve_up_to(opts, task, run, 2);
    report.first_of_two(tours, stop)
}

/// Why a puzzle with clues has no tour, when every way was searched.
fn no_tour(task: &Task<'_>) -> String {
    if task.constraints.letters.is_some() {
        return match task.constraints.clues.len() {
            0 => "no tour reads the text: every way was searched".to_string(),
            _ => "no tour reads the text and fits the clues: every way was searched".to_string(),
        };
    }
    match task.constraints.clues.len() {
        0 => "no tour exists: every way was searched".to_string(),
        1 => "no tour fits the clue: every way was searched".to_string(),
        c => format!("no tour fits the {c} clues: every way was searched"),
    }
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
        cadence: Cadence::watched(&limits, 0, O::HEAVY),
    };
    let result = search(
        task.graph,
        task.goal,
        task.constraints,
        (cap as u64, cap),
        &mut searching,
        &mut obs,
    );
    let (found, stop) = match result {
        Ok(f) => (f, None),
        Err((stop, f)) => (f, Some(stop)),
    };
    run.progress.set(found.nodes);
    let outcome = match (found.tours.first(), stop) {
        (Some(t), _) => Outcome::Found(t.clone()),
        (None, Some(stop)) => Outcome::stopped(stop, found.best.clone()),
        (None, None) => Outcome::Impossible(no_tour(task)),
    };
    let report = Report {
        outcome,
        stats: Stats {
            nodes: found.nodes,
            backtracks: found.backtracks,
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        solver: opts.id(),
        starts: None,
    };
    (report, found.tours, stop)
}

/// The first `most` solutions of `task` with its clues, in the order the
/// complete search finds them (as [`count`] counts them), under `limits`;
/// and what stopped the search before it found them, if anything.
pub fn first_solutions(
    task: &Task<'_>,
    most: usize,
    limits: &crate::halt::Limits<'_>,
    progress: &crate::progress::Progress,
) -> (Vec<Vec<u32>>, Option<Stop>) {
    let mut searching = Searching {
        limits,
        progress,
        cadence: Cadence::new(limits, 0),
    };
    let most = most.max(1);
    match search(
        task.graph,
        task.goal,
        task.constraints,
        (most as u64, most),
        &mut searching,
        &mut crate::search::event::NoObserver,
    ) {
        Ok(found) => (found.tours, None),
        Err((stop, found)) => (found.tours, Some(stop)),
    }
}

/// What [`count`] found: the solutions of a puzzle with clues.
#[derive(Clone, Debug)]
pub struct ClueCount {
    /// Solutions (numberings of the squares that fit the clues); a lower
    /// bound when `stopped`.
    pub solutions: u64,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Squares entered and wall time.
    pub stats: Stats,
}

/// Counts every solution of `task` with its clues: the complete search
/// run to the end without keeping the solutions, under `limits`.
pub fn count(
    task: &Task<'_>,
    limits: &crate::halt::Limits<'_>,
    progress: &crate::progress::Progress,
) -> ClueCount {
    let started = Instant::now();
    progress.start(Unit::Nodes, None);
    let mut searching = Searching {
        limits,
        progress,
        cadence: Cadence::new(limits, 0),
    };
    let result = search(
        task.graph,
        task.goal,
        task.constraints,
        (u64::MAX, 0),
        &mut searching,
        &mut crate::search::event::NoObserver,
    );
    let (found, stopped) = match result {
        Ok(f) => (f, None),
        Err((stop, f)) => (f, Some(stop)),
    };
    progress.set(found.nodes);
    ClueCount {
        solutions: found.solutions,
        stopped,
        stats: Stats {
            nodes: found.nodes,
            backtracks: found.backtracks,
            elapsed: started.elapsed(),
            ..Stats::default()
        },
    }
}
