//! The counting search for boards of at most 64 squares: the rules of
//! `search` (proved there) with every set of squares a 64-bit mask, and the
//! counters `inh` and `outr` held *bit-sliced* — plane `i` holds bit `i` of
//! every square's counter — so that taking one off the counters of a whole
//! set of squares is a handful of word operations, and "which squares have
//! a count of 0, of 1, of at most 1" are masks. A node's state is a few words
//! and lives on the stack, so stepping back is just popping it.
//!
//! The same loop, in *path mode*, is the search `Backtrack` runs on these
//! boards: see `BitWalk`.

use super::aim::{Aim, Best, Pace};
use super::event::{Event, NoObserver, Observer};
use super::memo::Memo;
use super::tables::{MEMO_MAX, PARTS_MIN, Tables};
use crate::halt::{Cadence, Halt};

/// Planes of a counter: enough for 63, the most moves into a square of a
/// 64-square board.
const PLANES: usize = 6;

/// One small counter per square, bit-sliced.
#[derive(Clone, Copy, Default)]
struct Counts([u64; PLANES]);

impl Counts {
    fn new(n: usize, count: impl Fn(usize) -> u32) -> Counts {
        let mut c = Counts::default();
        for s in 0..n {
            let v = count(s);
            for (i, plane) in c.0.iter_mut().enumerate() {
                if v >> i & 1 == 1 {
                    *plane |= 1 << s;
                }
            }
        }
        c
    }

    /// Takes one off the counter of every square in `m` (binary subtraction
    /// with a borrow per square, all squares at once). Counters that were 0
    /// wrap; only squares outside `R` can be there, and their counters are
    /// never read again.
    #[inline]
    fn minus(self, m: u64) -> Counts {
        let mut c = self.0;
        let mut borrow = m;
        for plane in &mut c {
            let old = *plane;
            *plane = old ^ borrow;
            borrow &= !old;
        }
        Counts(c)
    }

    /// Squares whose counter is at most 1.
    #[inline]
    fn at_most_one(&self) -> u64 {
        !(self.0[1] | self.0[2] | self.0[3] | self.0[4] | self.0[5])
    }

    /// Squares whose counter is 0.
    #[inline]
    fn zero(&self) -> u64 {
        !self.0[0] & self.at_most_one()
    }

    /// Squares whose counter is 1.
    #[inline]
    fn one(&self) -> u64 {
        self.0[0] & self.at_most_one()
    }

    /// Squares whose counter is 2.
    #[inline]
    fn two(&self) -> u64 {
        !self.0[0] & self.0[1] & !(self.0[2] | self.0[3] | self.0[4] | self.0[5])
    }
}

/// A node on the stack: head, unvisited squares, counters, the moves still
/// to try, and the count before it (for the cache).
struct Node {
    rest: u64,
    inh: Counts,
    outr: Counts,
    head: u32,
    moves: u64,
    base: u128,
    cached: bool,
}

/// A task's end class as masks: `E`, and the ends that count twice.
#[derive(Clone, Copy)]
struct Ends {
    all: u64,
    double: u64,
}

impl Ends {
    /// What the tours ending on the squares of `m` count for.
    #[inline]
    fn weight(self, m: u64) -> u64 {
        u64::from((m & self.all).count_ones() + (m & self.double).count_ones())
    }
}

/// A node's verdict: counted outright (0 when dead), or these moves to try.
enum Eval {
    Count(u64),
    Moves(u64),
}

/// No previous head: the node is a task's first.
const ROOT: u32 = u32::MAX;

/// The rules at a node with head `h` and unvisited squares `rest`, reached
/// by a move from `prev` (or [`ROOT`]). With `PATHS` an ending of one
/// square is not counted outright: its move is returned, if it can end a
/// tour, so that the last square is entered like every other.
#[inline]
#[allow(clippy::too_many_arguments)]
fn eval<const DIRECTED: bool, const PATHS: bool>(
    t: &Tables,
    ends: Ends,
    prev: u32,
    h: u32,
    rest: u64,
    inh: &Counts,
    outr: &Counts,
) -> Eval {
    let rules = t.rules;
    let succ = t.succ_mask[h as usize] & rest;
    let r = rest.count_ones();
    // When every move changes class, the walk ends on the class the
    // number of moves left gives.
    let ends = match t.classes {
        Some(c) if rules.ends => {
            let class = c[((c[1] >> h) as usize & 1) ^ (r as usize & 1)];
            Ends {
                all: ends.all & class,
                double: ends.double & class,
            }
        }
        _ => ends,
    };
    match r {
        0 => return Eval::Count(ends.weight(1 << h)),
        1 if PATHS => return Eval::Moves(succ & ends.all),
        1 => return Eval::Count(ends.weight(succ)),
        _ => {}
    }
    if rules.entry && rest & inh.zero() != 0 {
        return Eval::Count(0);
    }
    let ends_left = rest & ends.all;
    let last = rest
        & if DIRECTED {
            outr.zero()
        } else {
            inh.at_most_one()
        };
    if rules.ends && (last.count_ones() > 1 || last & !ends.all != 0 || ends_left == 0) {
        return Eval::Count(0);
    }
    if rules.parts && r >= PARTS_MIN {
        let whole = DIRECTED || prev == ROOT;
        let ok = if whole {
            t.reaches_all(h, rest)
        } else {
            still_connected(t, prev, h, rest)
        };
        if !ok {
            return Eval::Count(0);
        }
    }
    let mut moves = succ;
    if rules.entry {
        let forced = moves & inh.one();
        if forced.count_ones() > 1 {
            return Eval::Count(0);
        }
        if forced != 0 {
            moves = forced;
        }
    }
    if rules.ends {
        moves &= !last;
        if ends_left.count_ones() == 1 {
            moves &= !ends_left;
        }
    }
    if !DIRECTED && rules.pairs {
        match pairs(t, ends, h, rest, inh, last) {
            Pairs::Dead => return Eval::Count(0),
            Pairs::Next(m) => moves &= m,
            Pairs::Free => {}
        }
    }
    Eval::Moves(moves)
}

/// What the pairs rule says of a node.
enum Pairs {
    /// No tour goes on from here.
    Dead,
    /// The next square is one of these.
    Next(u64),
    /// Nothing.
    Free,
}

/// The pairs rule, when every move can be made back. A square `w` of `R`
/// with exactly two ways in (`inh = 2`: two squares of `R ∪ {h}` joined to
/// it) is either the last square or, as `uᵢ` with `i < r`, joined on the
/// walk to both of them. So:
/// - of the squares with two ways in joined to the head, all but one are
///   last unless the one left is `u₁` (the head has one move left): three
///   or more make the node dead; two mean one is next and the other last
///   (dead if a square of `L` must be last, or neither is an end; the one
///   that is not an end is next); one,
///   `w`, is next when it cannot be last (a square of `L` is, or `w` is not
///   an end);
/// - a square `u` of `R` is on the walk beside at most two squares (one if
///   it is last): four or more of them joined to it leave two to be last,
///   which is dead; three leave one, dead when a square of `L` must be last;
///   two joined to the square of `L` (which is last) leave one, dead.
#[inline]
fn pairs(t: &Tables, ends: Ends, h: u32, rest: u64, inh: &Counts, last: u64) -> Pairs {
    let two = rest & inh.two();
    if two == 0 {
        return Pairs::Free;
    }
    // How many squares of `two` each square of R is joined to: 1, 2, 3, 4+.
    let (mut once, mut twice, mut thrice, mut four) = (0u64, 0u64, 0u64, 0u64);
    let mut m = two;
    while m != 0 {
        let s = t.succ_mask[m.trailing_zeros() as usize] & rest;
        m &= m - 1;
        four |= thrice & s;
        thrice |= twice & s;
        twice |= once & s;
        once |= s;
    }
    if four != 0 || (last != 0 && (thrice != 0 || twice & last != 0)) {
        return Pairs::Dead;
    }
    let near = t.succ_mask[h as usize] & two;
    match near.count_ones() {
        0 => Pairs::Free,
        1 if last != 0 || near & !ends.all != 0 => Pairs::Next(near),
        1 => Pairs::Free,
        2 if last != 0 || near & ends.all == 0 => Pairs::Dead,
        // The one that is not an end, if one is not, must be next.
        2 if near & !ends.all != 0 => Pairs::Next(near & !ends.all),
        2 => Pairs::Next(near),
        _ => Pairs::Dead,
    }
}

/// The parts rule at a child, when every move can be made back. The parent
/// passed it (it had at least as many unvisited squares, so it was checked,
/// or it was a task's first node, checked whole), so `C = R ∪ {h} ∪ {prev}`
/// was connected; now `C` has lost `prev`. Removing one square from a
/// connected graph leaves its other squares connected exactly when the
/// squares that were joined to it still reach each other — every other path
/// can be rerouted through them. So flood from `h` (one of them) until all
/// are reached.
#[inline]
fn still_connected(t: &Tables, prev: u32, h: u32, rest: u64) -> bool {
    let c = rest | 1 << h;
    let need = t.succ_mask[prev as usize] & c;
    if need & need.wrapping_sub(1) == 0 {
        return true;
    }
    let mut reach = 1u64 << h;
    let mut frontier = reach;
    while frontier != 0 {
        if need & !reach == 0 {
            return true;
        }
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            next |= t.succ_mask[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & c & !reach;
        reach |= frontier;
    }
    need & !reach == 0
}

/// Counts the tours that extend `prefix` (a path of distinct squares along
/// moves); like `search::count_from`.
pub(crate) fn count_prefix<H: Halt>(
    t: &Tables,
    class: usize,
    prefix: &[u32],
    memo: &Memo,
    nodes: &mut u64,
    cadence: &mut Cadence,
    halt: &H,
) -> Result<u128, u128> {
    let mut walk = BitWalk::new(t, class, prefix, Aim::COUNT);
    let pace = if t.sym {
        walk.run::<false, false, H, _>(memo, u64::MAX, nodes, cadence, halt, &mut NoObserver)
    } else {
        walk.run::<true, false, H, _>(memo, u64::MAX, nodes, cadence, halt, &mut NoObserver)
    };
    match pace {
        Pace::Stopped(_) => Err(walk.total),
        Pace::Done | Pace::Paused => Ok(walk.total),
    }
}

/// Where a [`BitWalk`] stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Its first squares are set but not yet entered (path mode counts them).
    Unstarted,
    /// Searching.
    Running,
    /// Every branch tried, or the tours asked for found.
    Done,
}

/// The search on boards of at most 64 squares, holding its own stack so that
/// it can stop and go on later. Two instantiations of one loop, as
/// `search::Walk`: counting (`PATHS = false`) and path mode (`PATHS =
/// true`: moves in the order of [`Aim`], events, the first tour kept, the
/// budget looked at before each node).
pub(crate) struct BitWalk<'t> {
    t: &'t Tables<'t>,
    ends: Ends,
    /// The cache key's head carries the end class: counts depend on both.
    tag: u32,
    stack: Vec<Node>,
    /// Path mode: the whole path, its first squares included.
    path: Vec<u32>,
    root: usize,
    phase: Phase,
    aim: Aim,
    /// Moves allowed from the first node (symmetry: one of each orbit).
    pub root_moves: u64,
    /// Tours counted so far.
    pub total: u128,
    /// Path mode: the first tour found, and the longest path seen.
    pub first: Option<Vec<u32>>,
    pub best: Best,
}

impl<'t> BitWalk<'t> {
    /// A walk from `prefix` (a path of distinct squares along moves),
    /// counting end class `class`.
    pub fn new(t: &'t Tables<'t>, class: usize, prefix: &[u32], aim: Aim) -> BitWalk<'t> {
        BitWalk {
            t,
            ends: Ends {
                all: t.end_masks[class],
                double: t.double_masks[class],
            },
            tag: 64 * class as u32,
            stack: Vec::with_capacity(t.n + 1),
            path: prefix.to_vec(),
            root: prefix.len(),
            phase: Phase::Unstarted,
            aim,
            root_moves: u64::MAX,
            total: 0,
            first: None,
            best: Best::new(),
        }
    }

    /// What the walk is after.
    pub fn aim(&self) -> Aim {
        self.aim
    }

    /// The path (path mode).
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// True once every branch is tried or the tours asked for are found.
    pub fn done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// True once it has entered its first squares.
    pub fn started(&self) -> bool {
        self.phase != Phase::Unstarted
    }

    /// Takes the squares of `m` out of `E` from now on (a search for one
    /// tour only; see `search::State::forbid_end`).
    pub fn forbid_ends(&mut self, m: u64) {
        self.ends.all &= !m;
    }

    #[inline]
    fn cacheable(&self, rest: u64) -> bool {
        self.t.rules.memo && (self.t.memo_min..=MEMO_MAX).contains(&rest.count_ones())
    }

    /// Makes the first node, or settles the walk there (a node counted
    /// outright). Returns the count of a settled first node.
    fn open(&mut self, directed: bool) -> Option<u64> {
        let t = self.t;
        let (Some(&head), false) = (self.path.last(), self.path.is_empty()) else {
            return Some(0);
        };
        let rest = self.path.iter().fold(t.all_mask, |m, &s| m & !(1 << s));
        let open = rest | 1 << head;
        let inh = Counts::new(t.n, |w| (t.pred_mask[w] & open).count_ones());
        let outr = Counts::new(t.n, |w| (t.succ_mask[w] & rest).count_ones());
        let verdict = match (directed, self.aim.paths) {
            (true, true) => eval::<true, true>(t, self.ends, ROOT, head, rest, &inh, &outr),
            (true, false) => eval::<true, false>(t, self.ends, ROOT, head, rest, &inh, &outr),
            (false, true) => eval::<false, true>(t, self.ends, ROOT, head, rest, &inh, &outr),
            (false, false) => eval::<false, false>(t, self.ends, ROOT, head, rest, &inh, &outr),
        };
        match verdict {
            Eval::Count(c) => Some(c),
            Eval::Moves(moves) => {
                let cached = self.cacheable(rest);
                self.stack.push(Node {
                    rest,
                    inh,
                    outr,
                    head,
                    moves: moves & self.root_moves,
                    base: 0,
                    cached,
                });
                None
            }
        }
    }

    /// The next move to try from `top`: in path mode with an order, the
    /// one with the fewest onward moves (on ties a closed tour keeps the
    /// squares next to its start for later, then the lowest square);
    /// otherwise the lowest square.
    #[inline]
    fn pick(&self, top: &Node) -> u32 {
        if !self.aim.ordered {
            return top.moves.trailing_zeros();
        }
        let closers = if self.aim.closed { self.ends.all } else { 0 };
        let mut best = u32::MAX;
        let mut pick = top.moves.trailing_zeros();
        let mut m = top.moves;
        while m != 0 {
            let w = m.trailing_zeros();
            m &= m - 1;
            let onward = (self.t.succ_mask[w as usize] & top.rest & !(1 << w)).count_ones();
            let key = 2 * onward + (closers >> w & 1) as u32;
            if key < best {
                best = key;
                pick = w;
            }
        }
        pick
    }

    /// Searches on until done, paused (path mode: before entering a node
    /// when `nodes` has reached `pause_at`) or stopped by `halt`. `PATHS`
    /// must match the walk's [`Aim::paths`].
    #[allow(clippy::too_many_arguments)]
    pub fn run<const DIRECTED: bool, const PATHS: bool, H: Halt, O: Observer>(
        &mut self,
        memo: &Memo,
        pause_at: u64,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &H,
        obs: &mut O,
    ) -> Pace<H::Stop> {
        let t = self.t;
        if self.phase == Phase::Unstarted {
            if PATHS {
                if *nodes >= pause_at {
                    return Pace::Paused;
                }
                if let Err(s) = cadence.tick(halt, *nodes) {
                    return Pace::Stopped(s);
                }
                // The first squares count as entered.
                *nodes += self.root as u64;
                for i in 1..=self.root {
                    obs.event(Event::Advance, &self.path[..i]);
                }
                self.best.reached(self.path.len());
            }
            self.phase = Phase::Running;
            if let Some(c) = self.open(DIRECTED) {
                self.total += u128::from(c);
                if PATHS {
                    if c > 0 {
                        self.first = Some(self.path.clone());
                    }
                    if self.total < self.aim.stop_at {
                        self.retreat_all(obs);
                    }
                }
                self.phase = Phase::Done;
            }
        }
        if self.phase == Phase::Done {
            return Pace::Done;
        }
        let aim = self.aim;
        while let Some(top) = self.stack.last() {
            if top.moves == 0 {
                if top.cached
                    && let Ok(c) = u64::try_from(self.total - top.base)
                {
                    memo.put((top.rest, top.head + self.tag), c);
                }
                self.stack.pop();
                if PATHS {
                    if self.stack.is_empty() {
                        self.retreat_all(obs);
                    } else {
                        self.retreat(obs);
                    }
                }
                continue;
            }
            let to = if PATHS {
                self.pick(top)
            } else {
                top.moves.trailing_zeros()
            };
            if PATHS {
                // The budget before each node: a limit of n enters n.
                if *nodes >= pause_at {
                    return Pace::Paused;
                }
                if let Err(s) = cadence.tick(halt, *nodes) {
                    return Pace::Stopped(s);
                }
                if aim.one_way_round && self.stack.len() == 1 {
                    // Each cycle once: its first square is never its last.
                    self.ends.all &= !(1 << to);
                }
            }
            let depth = self.stack.len() - 1;
            let top = &mut self.stack[depth];
            top.moves &= !(1 << to);
            let top_head = top.head;
            let rest = top.rest & !(1 << to);
            // The old head leaves R ∪ {head}; `to` leaves R.
            let inh = top.inh.minus(t.succ_mask[top.head as usize]);
            let outr = if DIRECTED {
                top.outr.minus(t.pred_mask[to as usize])
            } else {
                top.outr
            };
            *nodes += 1;
            if PATHS {
                self.path.push(to);
                self.best.reached(self.path.len());
                obs.event(Event::Advance, &self.path);
            } else if let Err(s) = cadence.tick(halt, *nodes) {
                return Pace::Stopped(s);
            }
            match eval::<DIRECTED, PATHS>(t, self.ends, top_head, to, rest, &inh, &outr) {
                Eval::Count(c) => {
                    self.total += u128::from(c);
                    if PATHS {
                        if c > 0 && self.first.is_none() {
                            self.first = Some(self.path.clone());
                        }
                        if self.total >= aim.stop_at {
                            self.phase = Phase::Done;
                            return Pace::Done;
                        }
                        self.retreat(obs);
                    }
                }
                Eval::Moves(moves) => {
                    let cached = self.cacheable(rest);
                    if cached && let Some(c) = memo.get((rest, to + self.tag)) {
                        // Path mode: a known number of tours is no tour in
                        // hand, so until one is, only "none" is taken.
                        if !PATHS || c == 0 || self.first.is_some() {
                            self.total += u128::from(c);
                            if PATHS {
                                if self.total >= aim.stop_at {
                                    self.phase = Phase::Done;
                                    return Pace::Done;
                                }
                                self.retreat(obs);
                            }
                            continue;
                        }
                    }
                    if moves != 0 {
                        self.stack.push(Node {
                            rest,
                            inh,
                            outr,
                            head: to,
                            moves,
                            base: self.total,
                            cached,
                        });
                    } else if PATHS {
                        self.retreat(obs);
                    }
                }
            }
        }
        self.phase = Phase::Done;
        Pace::Done
    }

    /// Path mode: steps back from the last square.
    #[inline]
    fn retreat<O: Observer>(&mut self, obs: &mut O) {
        self.best.retreating(&self.path);
        if let Some(h) = self.path.pop() {
            obs.event(Event::Retreat(h), &self.path);
        }
    }

    /// Path mode, when the walk is over: its first squares are given back
    /// one by one, so the observer sees the path emptied.
    fn retreat_all<O: Observer>(&mut self, obs: &mut O) {
        self.best.retreating(&self.path);
        while let Some(h) = self.path.pop() {
            obs.event(Event::Retreat(h), &self.path);
        }
    }
}
