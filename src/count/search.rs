//! The counting search: depth-first over the move graph, with prunings that
//! only cut branches holding no tour, and a cache of the counts of small
//! endings.
//!
//! # Terms
//!
//! At a node the path so far ends on the *head* `h`; `R` is the set of
//! unvisited squares, `r = |R|`. A tour through this node continues as a
//! walk `h = u₀ → u₁ → … → u_r` that visits every square of `R` exactly once
//! and ends on a square of the *end set* `E`: every square for an open tour,
//! the fixed end when there is one, and for a closed tour from `s` the
//! squares with a move back to `s`. (With the reversal rule of `count`, a
//! task's *end class* picks `E`, and walks ending on some squares of `E`
//! count twice; nothing below depends on how `E` is chosen.) The number of
//! such walks depends only on `(h, R)` and the end class, which is what
//! makes the cache exact.
//!
//! Counters kept up to date as the head moves (for every square `w`):
//! - `inh[w] = |pred(w) ∩ (R ∪ {h})|`: the squares that could still enter `w`.
//! - `outr[w] = |succ(w) ∩ R|`: the unvisited squares `w` could go on to
//!   (directed graphs only).
//!
//! # The rules, and why each keeps the count exact
//!
//! Each rule declares a node *dead* (no walk as above exists, so its count is
//! 0) or removes a candidate move `h → t` (no such walk starts with it).
//!
//! **Entry rule.** Every `w = uᵢ ∈ R` (`i ≥ 1`) is entered from `uᵢ₋₁ ∈ R ∪
//! {h}`, so `inh[w] ≥ 1`: a square of `R` with `inh = 0` makes the node dead.
//! If no square of `R` can enter `w` (`inh[w] = 1` and `h → w`), then
//! `uᵢ₋₁ = h`, so `w = u₁`: the next move is forced, and two such squares make
//! the node dead.
//!
//! **Ends rule.** Every `uᵢ` with `i < r` moves on to `uᵢ₊₁ ∈ R`. So a square
//! of `R` with no move to `R` (`outr = 0`) can only be `u_r`, the last. In a
//! graph where every move can be made back, more holds: for `1 ≤ i < r`,
//! `uᵢ₋₁` and `uᵢ₊₁` are two different squares of `R ∪ {h}` joined to `uᵢ`, so
//! `inh[uᵢ] ≥ 2`; a square with `inh ≤ 1` can only be the last. Call these
//! squares `L` (must be last). Then: two squares in `L`, or one outside `E`,
//! make the node dead; a square of `L` may not be entered while other squares
//! remain; and since the last square lies in `E ∩ R`, the node is dead when
//! `E ∩ R` is empty, and the move to the only square left in `E ∩ R` is cut
//! while other squares remain.
//!
//! **Parts rule.** Every square of `R` lies on the walk from `h`, so every
//! square of `R` is reachable from `h` by moves through `R`. A flood fill
//! from `h` inside `R` that misses a square makes the node dead. (When every
//! move can be made back this is "the unvisited squares split into parts".)
//!
//! **Cache.** The count of a node is a function of `(h, R)` and the end
//! class alone (the goal is fixed for the whole count), so a count computed
//! once is reused whenever the same key comes back by another path. Only complete counts are
//! stored (never one cut short by a limit), under the full key, so a lookup
//! either returns the exact count or misses.
//!
//! **Parts rule, incrementally** (`bits`, graphs whose moves can all be made
//! back): see `still_connected` there.
//!
//! Endings with `r ≤ 1` are counted directly: with `R = {w}` there is exactly
//! one walk if `h → w` and `w ∈ E` (counting 2 when `w` is a doubled end),
//! else none.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering, fence};

use super::Pruning;
use super::engine::{Aim, Best, Pace};
use crate::halt::{self, Cadence, Halt};
use crate::solve::event::{Event, Observer};

/// Cache only nodes with at least this many unvisited squares, by default:
/// three eighths of the board, at least 8. A lookup usually misses the
/// processor's cache, which costs more than recounting a small ending; the
/// share was measured best on the 6x6 and 7x7 knight counts (13 and 18).
pub(super) fn memo_min(n: usize) -> u32 {
    (3 * n as u32 / 8).max(8)
}
/// And at most this many: larger endings rarely come back. (A count that
/// does not fit the cache's `u64` is simply not cached.)
pub(super) const MEMO_MAX: u32 = 30;
/// Flood-fill only nodes with at least this many unvisited squares.
pub(super) const PARTS_MIN: u32 = 4;

/// What the search needs of the graph and goal, shared by every worker.
/// The graph's own target lists are borrowed, not copied (on the largest
/// boards they are hundreds of megabytes); the reversed lists are kept only
/// for a graph that is not its own reverse.
pub(crate) struct Tables<'g> {
    pub n: usize,
    off: &'g [u32],
    tg: &'g [u32],
    roff: Cow<'g, [u32]>,
    rtg: Cow<'g, [u32]>,
    /// Every move can be made back.
    pub sym: bool,
    /// `E` for each *end class*: the squares a tour may end on. Every task
    /// has a class; class 0 allows every end any other class allows.
    pub ends: Vec<Vec<bool>>,
    /// For each end class, the ends whose tours count twice (see
    /// `count`'s reversal rule); empty sets when it does not apply.
    pub doubles: Vec<Vec<bool>>,
    /// Boards of at most 64 squares: targets and sources of each square as
    /// bit masks, `E` and all squares as masks, and for each byte `k` of a
    /// mask and each value `v` of it the union of the targets of the squares
    /// in `v << 8k` (a set's targets in eight lookups).
    pub succ_mask: Vec<u64>,
    pub pred_mask: Vec<u64>,
    pub end_masks: Vec<u64>,
    pub double_masks: Vec<u64>,
    pub all_mask: u64,
    /// When every move changes class (the move graph is two-coloured),
    /// the squares of each class (boards of at most 64 squares): a walk of
    /// `r` more moves from `h` ends on `h`'s class when `r` is even, on the
    /// other when it is odd.
    pub classes: Option<[u64; 2]>,
    pub spread: Vec<[u64; 256]>,
    pub rules: Pruning,
    /// Cache endings of `memo_min..=MEMO_MAX` squares.
    pub memo_min: u32,
}

impl<'g> Tables<'g> {
    /// Tables for counting walks in `g` that end in `ends[class]`, those
    /// ending in `doubles[class]` twice.
    /// Built under `halt`: on the largest boards the lists and their
    /// reverse take seconds.
    pub fn new<H: Halt>(
        g: &'g crate::model::MoveGraph,
        ends: Vec<Vec<bool>>,
        doubles: Vec<Vec<bool>>,
        rules: Pruning,
        memo_min: u32,
        halt: &H,
    ) -> Result<Tables<'g>, H::Stop> {
        let n = g.len();
        // Each step is a pass over every move: on the largest boards a
        // tenth of a second or more, so the halt is asked between them.
        g.prepare_lists(halt)?;
        let (off, tg) = g.raw();
        let (roff, rtg): (Cow<[u32]>, Cow<[u32]>) = if g.is_symmetric() {
            (Cow::Borrowed(off), Cow::Borrowed(tg))
        } else {
            halt::between_passes(halt, n)?;
            let rev = g.reversed();
            halt::between_passes(halt, n)?;
            rev.prepare_lists(halt)?;
            let (roff, rtg) = rev.raw();
            let roff = roff.to_vec();
            halt::between_passes(halt, n)?;
            (Cow::Owned(roff), Cow::Owned(rtg.to_vec()))
        };
        halt::between_passes(halt, n)?;
        let small = n <= 64;
        let mask_of = |l: &[u32]| l.iter().fold(0u64, |m, &t| m | 1 << (t & 63));
        let (mut succ_mask, mut pred_mask, mut spread) = (Vec::new(), Vec::new(), Vec::new());
        let mut all_mask = 0u64;
        let as_mask = |set: &Vec<bool>| {
            set.iter()
                .enumerate()
                .fold(0u64, |m, (s, &x)| if x { m | 1 << (s & 63) } else { m })
        };
        let (mut end_masks, mut double_masks) = (Vec::new(), Vec::new());
        let mut classes = None;
        if small {
            if let (_, Some(colour)) = crate::model::graph::walks::parts_and_colours(g, halt)? {
                let ones = (0..n).fold(0u64, |m, s| m | u64::from(colour[s]) << s);
                classes = Some([!ones & all_of(n), ones]);
            }
            succ_mask = (0..n as u32).map(|s| mask_of(g.targets(s))).collect();
            pred_mask = (0..n)
                .map(|s| mask_of(&rtg[roff[s] as usize..roff[s + 1] as usize]))
                .collect();
            for s in 0..n {
                all_mask |= 1 << s;
            }
            end_masks = ends.iter().map(as_mask).collect();
            double_masks = doubles.iter().map(as_mask).collect();
            spread = spread_tables(&succ_mask);
        }
        Ok(Tables {
            n,
            off,
            tg,
            roff,
            rtg,
            sym: g.is_symmetric(),
            ends,
            doubles,
            succ_mask,
            pred_mask,
            end_masks,
            double_masks,
            all_mask,
            classes,
            spread,
            rules,
            memo_min,
        })
    }

    /// The targets of `s`.
    #[inline]
    pub fn succ(&self, s: u32) -> &[u32] {
        &self.tg[self.off[s as usize] as usize..self.off[s as usize + 1] as usize]
    }

    /// The squares with a move to `s`.
    #[inline]
    pub fn pred(&self, s: u32) -> &[u32] {
        &self.rtg[self.roff[s as usize] as usize..self.roff[s as usize + 1] as usize]
    }

    /// The union of the targets of the squares in `set` (`n ≤ 64`).
    #[inline]
    pub fn targets_of(&self, set: u64) -> u64 {
        let mut out = 0u64;
        for (k, table) in self.spread.iter().enumerate() {
            out |= table[(set >> (8 * k)) as usize & 255];
        }
        out
    }

    /// Whether every square of `rest` is reachable from `h` by moves
    /// through `rest` (`n ≤ 64`).
    #[inline]
    pub fn reaches_all(&self, h: u32, rest: u64) -> bool {
        let mut reach = self.succ_mask[h as usize] & rest;
        let mut frontier = reach;
        while frontier != 0 {
            frontier = self.targets_of(frontier) & rest & !reach;
            reach |= frontier;
        }
        reach == rest
    }

    /// Whether `p` is a path of distinct squares along moves.
    pub fn is_path(&self, p: &[u32]) -> bool {
        let mut seen = vec![false; self.n];
        p.iter()
            .all(|&s| (s as usize) < self.n && !std::mem::replace(&mut seen[s as usize], true))
            && p.windows(2).all(|w| self.succ(w[0]).contains(&w[1]))
    }

    /// Whether the bit-parallel parts of the search (cache, flood fill) apply.
    #[inline]
    pub fn small(&self) -> bool {
        self.n <= 64
    }
}

/// The mask of the first `n` squares (`n ≤ 64`).
fn all_of(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// What a node turned out to be.
pub(super) enum Expand {
    /// No tour continues from here.
    Dead,
    /// Counted without going deeper.
    Leaf(u64),
    /// These moves (pushed onto the candidate list) remain to be tried.
    Moves,
}

/// The search state of one worker: the path, `R`, and the counters.
pub(super) struct State<'t> {
    t: &'t Tables<'t>,
    /// The end class's `E` (a copy: a search for one tour may shrink it as
    /// it goes, see [`State::forbid_end`]) and doubled ends.
    is_end: Vec<bool>,
    double: &'t [bool],
    in_r: Vec<bool>,
    inh: Vec<u32>,
    outr: Vec<u32>,
    /// `R` as a bit mask (only when `n ≤ 64`).
    mask: u64,
    r: u32,
    /// Squares of `R` with `inh = 0`.
    nz: u32,
    /// Squares in `L` (must be last), the sum of their numbers (which names
    /// the square when there is one), and how many of them are not in `E`.
    nl: u32,
    lsum: u64,
    bad: u32,
    /// `|E ∩ R|`.
    e_left: u32,
    class: u32,
    pub path: Vec<u32>,
}

impl<'t> State<'t> {
    pub fn new(t: &'t Tables<'t>) -> State<'t> {
        State {
            t,
            is_end: t.ends[0].clone(),
            double: &t.doubles[0],
            in_r: vec![false; t.n],
            inh: vec![0; t.n],
            outr: vec![0; t.n],
            mask: 0,
            r: 0,
            nz: 0,
            nl: 0,
            lsum: 0,
            bad: 0,
            e_left: 0,
            class: 0,
            path: Vec::with_capacity(t.n),
        }
    }

    /// The tables this state searches.
    pub fn tables(&self) -> &'t Tables<'t> {
        self.t
    }

    /// Resets to the path `[start]`, counting tours of end class `class`.
    pub fn reset(&mut self, start: u32, class: usize) {
        let t = self.t;
        self.is_end.clone_from_slice(&t.ends[class]);
        self.double = &t.doubles[class];
        self.class = class as u32;
        self.in_r.fill(true);
        self.in_r[start as usize] = false;
        self.r = t.n as u32 - 1;
        self.mask = if t.small() {
            t.all_mask & !(1u64 << start)
        } else {
            0
        };
        (self.nz, self.nl, self.lsum, self.bad, self.e_left) = (0, 0, 0, 0, 0);
        for w in 0..t.n as u32 {
            // R ∪ {start} is every square.
            self.inh[w as usize] = t.pred(w).len() as u32;
            self.outr[w as usize] = t.succ(w).iter().filter(|&&u| u != start).count() as u32;
        }
        for w in 0..t.n as u32 {
            if w != start {
                self.join_r(w);
            }
        }
        self.path.clear();
        self.path.push(start);
    }

    /// Resets to the path `prefix` (a path of distinct squares along moves).
    pub fn set_prefix(&mut self, prefix: &[u32], class: usize) {
        if let Some((&first, rest)) = prefix.split_first() {
            self.reset(first, class);
            for &s in rest {
                self.enter(s);
            }
        }
    }

    /// Takes `x` out of `E` from now on: no walk found after this may end
    /// there. Only for a search for one tour (a cached count of a larger
    /// `E` would be too high for the smaller one; a cached "no tour" stays
    /// true).
    pub fn forbid_end(&mut self, x: u32) {
        let x = x as usize;
        if !self.is_end[x] {
            return;
        }
        if self.in_r[x] {
            self.e_left -= 1;
            if self.in_l(x as u32) {
                self.bad += 1;
            }
        }
        self.is_end[x] = false;
    }

    /// Whether a walk may end on `w`.
    #[inline]
    pub fn is_end(&self, w: u32) -> bool {
        self.is_end[w as usize]
    }

    /// What a tour ending on `w` counts for: 0 off `E`, 2 on a doubled end.
    #[inline]
    fn end_weight(&self, w: u32) -> u64 {
        u64::from(self.is_end[w as usize]) + u64::from(self.double[w as usize])
    }

    #[inline]
    fn in_l(&self, w: u32) -> bool {
        if self.t.sym {
            self.inh[w as usize] <= 1
        } else {
            self.outr[w as usize] == 0
        }
    }

    #[inline]
    fn add_l(&mut self, w: u32) {
        self.nl += 1;
        self.lsum += u64::from(w);
        self.bad += u32::from(!self.is_end[w as usize]);
    }

    #[inline]
    fn drop_l(&mut self, w: u32) {
        self.nl -= 1;
        self.lsum -= u64::from(w);
        self.bad -= u32::from(!self.is_end[w as usize]);
    }

    /// Books `w`'s contributions as a member of `R` (its counters are current).
    #[inline]
    fn join_r(&mut self, w: u32) {
        if self.in_l(w) {
            self.add_l(w);
        }
        if self.inh[w as usize] == 0 {
            self.nz += 1;
        }
        if self.is_end[w as usize] {
            self.e_left += 1;
        }
    }

    /// Moves the head to `to`, an unvisited target of the head.
    #[inline]
    pub fn enter(&mut self, to: u32) {
        let t = self.t;
        let h = self.path[self.path.len() - 1];
        // `to` leaves R.
        if self.in_l(to) {
            self.drop_l(to);
        }
        if self.inh[to as usize] == 0 {
            self.nz -= 1;
        }
        if self.is_end[to as usize] {
            self.e_left -= 1;
        }
        self.in_r[to as usize] = false;
        self.r -= 1;
        self.mask &= !(1u64 << (to & 63));
        // `h` leaves R ∪ {head}: its targets lose a possible entry.
        for &w in t.succ(h) {
            let c = &mut self.inh[w as usize];
            *c -= 1;
            if self.in_r[w as usize] {
                if *c == 0 {
                    self.nz += 1;
                }
                if t.sym && *c == 1 {
                    self.add_l(w);
                }
            }
        }
        if !t.sym {
            // `to` left R: its predecessors lose a way on.
            for &w in t.pred(to) {
                let c = &mut self.outr[w as usize];
                *c -= 1;
                if *c == 0 && self.in_r[w as usize] {
                    self.add_l(w);
                }
            }
        }
        self.path.push(to);
    }

    /// Undoes the last [`State::enter`].
    #[inline]
    pub fn leave(&mut self) {
        let t = self.t;
        let Some(to) = self.path.pop() else {
            return;
        };
        let h = self.path[self.path.len() - 1];
        if !t.sym {
            for &w in t.pred(to) {
                if self.outr[w as usize] == 0 && self.in_r[w as usize] {
                    self.drop_l(w);
                }
                self.outr[w as usize] += 1;
            }
        }
        for &w in t.succ(h) {
            let c = self.inh[w as usize];
            if self.in_r[w as usize] {
                if c == 0 {
                    self.nz -= 1;
                }
                if t.sym && c == 1 {
                    self.drop_l(w);
                }
            }
            self.inh[w as usize] = c + 1;
        }
        self.in_r[to as usize] = true;
        self.r += 1;
        self.mask |= 1u64 << (to & 63);
        self.join_r(to);
    }

    /// Looks at the node the path ends on: counts it outright, finds it dead,
    /// or pushes its remaining moves onto `out`. With `PATHS` (a search that
    /// shows its path) an ending of one square is not counted outright: the
    /// move to it is pushed, if it can end a tour, so that the tour's last
    /// square is entered like every other.
    #[inline]
    pub fn expand<const PATHS: bool>(&self, out: &mut Vec<u32>) -> Expand {
        let t = self.t;
        let rules = t.rules;
        let h = self.path[self.path.len() - 1];
        match self.r {
            0 => return Expand::Leaf(self.end_weight(h)),
            1 => {
                for &w in t.succ(h) {
                    if self.in_r[w as usize] {
                        if PATHS {
                            if self.is_end[w as usize] {
                                out.push(w);
                            }
                            return Expand::Moves;
                        }
                        return Expand::Leaf(self.end_weight(w));
                    }
                }
                return Expand::Leaf(0);
            }
            _ => {}
        }
        if rules.entry && self.nz > 0 {
            return Expand::Dead;
        }
        if rules.ends && (self.nl > 1 || self.bad > 0 || self.e_left == 0) {
            return Expand::Dead;
        }
        if rules.parts && t.small() && self.r >= PARTS_MIN && !t.reaches_all(h, self.mask) {
            return Expand::Dead;
        }
        let mut forced = u32::MAX;
        if rules.entry {
            for &w in t.succ(h) {
                if self.in_r[w as usize] && self.inh[w as usize] == 1 {
                    if forced != u32::MAX {
                        return Expand::Dead;
                    }
                    forced = w;
                }
            }
        }
        let last = (self.nl == 1).then_some(self.lsum);
        let allowed = |w: u32| {
            !rules.ends
                || (last != Some(u64::from(w)) && !(self.is_end[w as usize] && self.e_left == 1))
        };
        if forced != u32::MAX {
            if allowed(forced) {
                out.push(forced);
            }
        } else {
            for &w in t.succ(h) {
                if self.in_r[w as usize] && allowed(w) {
                    out.push(w);
                }
            }
        }
        Expand::Moves
    }

    /// The onward moves `w` would have if entered next: its targets in `R`
    /// other than itself (a candidate of the current node).
    #[inline]
    pub fn onward(&self, w: u32) -> u32 {
        if self.t.sym {
            // The head is one of the squares that can still enter `w`.
            self.inh[w as usize].saturating_sub(1)
        } else {
            self.outr[w as usize]
        }
    }

    /// The cache key of the current node, if it may be cached: `R`, and the
    /// head with the end class (the count depends on both).
    #[inline]
    fn memo_key(&self) -> Option<(u64, u32)> {
        (self.t.rules.memo && self.t.small() && (self.t.memo_min..=MEMO_MAX).contains(&self.r))
            .then(|| (self.mask, self.path[self.path.len() - 1] + 64 * self.class))
    }
}

/// A direct-mapped cache of ending counts keyed by `(R, h)` (`h` the head
/// with the end class), shared by all the workers of a count. A slot holds
/// one key and is overwritten by the next key that maps to it; losing an
/// entry only costs a miss.
///
/// Slot `i` holds a version, `R`, and `count << 16 | (h + 1)` (`h + 1 = 0`:
/// empty; counts of 2^48 or more are not cached), guarded as a
/// *sequence lock*: a writer makes the version odd, writes, and makes it
/// even again; a reader takes the words only if it saw the same even
/// version before and after reading them, so it never takes a half-written
/// entry. A writer that finds the slot busy skips it. Every word is an
/// atomic, so this is plain safe Rust; on x86 the loads and fences cost
/// nothing extra. A byte per slot (a few bits of the key's hash, never 0
/// once written) settles most misses in a table small enough to stay in
/// the processor's cache; it is only a hint, read and written loosely.
pub(super) struct Memo {
    tags: Vec<AtomicU8>,
    slots: Vec<Slot>,
    bits: u32,
}

/// One slot of [`Memo`], aligned so that it never straddles two cache lines.
#[repr(align(32))]
#[derive(Default)]
struct Slot {
    version: AtomicU64,
    set: AtomicU64,
    packed: AtomicU64,
}

impl Memo {
    /// A cache of `2^bits` slots (none when `bits` is 0).
    pub fn new(bits: u32) -> Memo {
        let slots = if bits == 0 { 0 } else { 1usize << bits };
        Memo {
            tags: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            slots: (0..slots).map(|_| Slot::default()).collect(),
            bits,
        }
    }

    /// The slot of a key, and its tag.
    #[inline]
    fn slot(&self, set: u64, head: u32) -> (usize, u8) {
        let x = (set ^ u64::from(head).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        ((x >> (64 - self.bits)) as usize, (x as u8) | 1)
    }

    /// The cached count of `(R, h)`, if there is one.
    #[inline]
    pub fn get(&self, (set, head): (u64, u32)) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let (i, tag) = self.slot(set, head);
        if self.tags[i].load(Ordering::Relaxed) != tag {
            return None;
        }
        let w = &self.slots[i];
        let before = w.version.load(Ordering::Acquire);
        let stored = w.set.load(Ordering::Relaxed);
        let packed = w.packed.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        let after = w.version.load(Ordering::Relaxed);
        (before == after
            && before.is_multiple_of(2)
            && stored == set
            && packed & 0xFFFF == u64::from(head) + 1)
            .then_some(packed >> 16)
    }

    /// Caches the count of `(R, h)` (unless another worker is writing the
    /// same slot just then).
    #[inline]
    pub fn put(&self, (set, head): (u64, u32), count: u64) {
        if self.slots.is_empty() || count >> 48 != 0 || head >= 0xFFFF {
            return;
        }
        let (i, tag) = self.slot(set, head);
        let w = &self.slots[i];
        let version = w.version.load(Ordering::Relaxed);
        if !version.is_multiple_of(2)
            || w.version
                .compare_exchange(version, version + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        w.set.store(set, Ordering::Relaxed);
        w.packed
            .store(count << 16 | (u64::from(head) + 1), Ordering::Relaxed);
        w.version.store(version + 2, Ordering::Release);
        self.tags[i].store(tag, Ordering::Relaxed);
    }
}

/// One frame of the explicit stack: the node's candidate moves
/// `cands[next..end]` still to try, and what it needs when it is done.
struct Frame {
    start: usize,
    next: usize,
    /// Count before this node, and its cache key if it is cached.
    base: u128,
    key: Option<(u64, u32)>,
}

/// How often (in nodes) a worker reports to the others and looks at the
/// limits.
pub(super) const CHECK_EVERY: u64 = 1 << 14;

/// Where a [`Walk`] stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Its first squares are set but not yet entered (path mode counts them).
    Unstarted,
    /// The node at the path's end is still to be looked at.
    Fresh,
    /// Between two moves of the top frame.
    Moving,
    /// Every branch tried, or the tours asked for found.
    Done,
}

/// A depth-first search over a [`State`] that can stop and go on later: it
/// holds its own stack. Two instantiations of one loop:
/// - *counting* (`PATHS = false`): every tour through the state's path,
///   with the cache of ending counts, limits looked at after each node;
/// - *path mode* (`PATHS = true`): the search `Backtrack` runs — moves in
///   the order of [`Aim`], every change of the path told to the observer,
///   the first tour kept, a stop when [`Aim::stop_at`] tours are found, the
///   budget looked at before each node.
pub(super) struct Walk<'t> {
    pub st: State<'t>,
    cands: Vec<u32>,
    frames: Vec<Frame>,
    /// Tours counted so far.
    pub total: u128,
    /// Length of the path the walk began from.
    root: usize,
    phase: Phase,
    aim: Aim,
    /// Path mode: the first tour found, and the longest path seen.
    pub first: Option<Vec<u32>>,
    pub best: Best,
    /// Moves allowed from the first node, if not all (symmetry: one of
    /// each orbit).
    pub root_moves: Option<Vec<u32>>,
}

impl<'t> Walk<'t> {
    pub fn new(t: &'t Tables<'t>, aim: Aim) -> Walk<'t> {
        Walk {
            st: State::new(t),
            cands: Vec::with_capacity(t.n * 4),
            frames: Vec::with_capacity(t.n),
            total: 0,
            root: 0,
            phase: Phase::Done,
            aim,
            first: None,
            best: Best::new(),
            root_moves: None,
        }
    }

    /// What the walk is after.
    pub fn aim(&self) -> Aim {
        self.aim
    }

    /// Starts over from the path `prefix`, counting end class `class`.
    pub fn set_prefix(&mut self, prefix: &[u32], class: usize) {
        self.st.set_prefix(prefix, class);
        self.cands.clear();
        self.frames.clear();
        self.total = 0;
        self.root = prefix.len();
        self.phase = Phase::Unstarted;
        self.first = None;
        self.best = Best::new();
    }

    /// True once every branch is tried or the tours asked for are found.
    pub fn done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// True once it has entered its first squares.
    pub fn started(&self) -> bool {
        self.phase != Phase::Unstarted
    }

    /// Searches on until done, paused (path mode: before entering a node
    /// when `nodes` has reached `pause_at`) or stopped by `halt`.
    #[allow(clippy::too_many_arguments)]
    pub fn run<const PATHS: bool, H: Halt, O: Observer>(
        &mut self,
        memo: &Memo,
        pause_at: u64,
        nodes: &mut u64,
        cadence: &mut Cadence,
        halt: &H,
        obs: &mut O,
    ) -> Pace<H::Stop> {
        let st = &mut self.st;
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
                    obs.event(Event::Advance, &st.path[..i]);
                }
                self.best.reached(st.path.len());
            }
            self.phase = Phase::Fresh;
        }
        if self.phase == Phase::Done {
            return Pace::Done;
        }
        let aim = self.aim;
        loop {
            if self.phase == Phase::Fresh {
                self.phase = Phase::Moving;
                let key = st.memo_key();
                let hit = key.and_then(|k| memo.get(k));
                // Path mode: a known number of tours is no tour in hand,
                // so until one is, only "none" is taken from the cache.
                let hit = hit.filter(|&c| !PATHS || c == 0 || self.first.is_some());
                let leaf = match hit {
                    Some(c) => Some(u128::from(c)),
                    None => {
                        let start = self.cands.len();
                        match st.expand::<PATHS>(&mut self.cands) {
                            Expand::Dead => Some(0),
                            Expand::Leaf(c) => Some(u128::from(c)),
                            Expand::Moves => {
                                if st.path.len() == self.root
                                    && let Some(allowed) = &self.root_moves
                                {
                                    let mut k = start;
                                    for i in start..self.cands.len() {
                                        if allowed.contains(&self.cands[i]) {
                                            self.cands[k] = self.cands[i];
                                            k += 1;
                                        }
                                    }
                                    self.cands.truncate(k);
                                }
                                if PATHS && aim.ordered {
                                    order_moves(st, &mut self.cands[start..], aim);
                                }
                                self.frames.push(Frame {
                                    start,
                                    next: start,
                                    base: self.total,
                                    key,
                                });
                                None
                            }
                        }
                    }
                };
                if let Some(c) = leaf {
                    if PATHS && c > 0 && self.first.is_none() {
                        self.first = Some(st.path.clone());
                    }
                    self.total += c;
                    if PATHS && self.total >= aim.stop_at {
                        self.phase = Phase::Done;
                        return Pace::Done;
                    }
                    if st.path.len() == self.root {
                        if PATHS {
                            retreat_all(st, self.root, &mut self.best, obs);
                        }
                        self.phase = Phase::Done;
                        return Pace::Done;
                    }
                    if PATHS {
                        self.best.retreating(&st.path);
                        let h = st.path[st.path.len() - 1];
                        st.leave();
                        obs.event(Event::Retreat(h), &st.path);
                    } else {
                        st.leave();
                    }
                    continue;
                }
            }
            let Some(f) = self.frames.last_mut() else {
                self.phase = Phase::Done;
                return Pace::Done;
            };
            if f.next < self.cands.len() {
                let to = self.cands[f.next];
                if PATHS {
                    // The budget before each node: a limit of n enters n.
                    if *nodes >= pause_at {
                        return Pace::Paused;
                    }
                    if let Err(s) = cadence.tick(halt, *nodes) {
                        return Pace::Stopped(s);
                    }
                }
                f.next += 1;
                if PATHS && aim.one_way_round && st.path.len() == self.root {
                    // Each cycle once: its first square is never its last.
                    st.forbid_end(to);
                }
                st.enter(to);
                *nodes += 1;
                if PATHS {
                    self.best.reached(st.path.len());
                    obs.event(Event::Advance, &st.path);
                } else if let Err(s) = cadence.tick(halt, *nodes) {
                    return Pace::Stopped(s);
                }
                self.phase = Phase::Fresh;
                continue;
            }
            // Every move of this node tried.
            self.cands.truncate(f.start);
            if let Some(k) = f.key {
                // A count too large for the cache is not cached.
                if let Ok(c) = u64::try_from(self.total - f.base) {
                    memo.put(k, c);
                }
            }
            self.frames.pop();
            if st.path.len() == self.root {
                if PATHS {
                    retreat_all(st, self.root, &mut self.best, obs);
                }
                self.phase = Phase::Done;
                return Pace::Done;
            }
            if PATHS {
                self.best.retreating(&st.path);
                let h = st.path[st.path.len() - 1];
                st.leave();
                obs.event(Event::Retreat(h), &st.path);
            } else {
                st.leave();
            }
        }
    }
}

/// Path mode, when the walk is over: its first squares are given back one
/// by one, so the observer sees the path emptied.
fn retreat_all<O: Observer>(st: &mut State, root: usize, best: &mut Best, obs: &mut O) {
    best.retreating(&st.path);
    let keep = st.path.len().saturating_sub(root);
    while st.path.len() > keep {
        if let Some(h) = st.path.pop() {
            obs.event(Event::Retreat(h), &st.path);
        }
    }
}

/// Sorts a node's candidate moves by the rule of [`Aim`]: fewest onward
/// moves first; on ties a closed tour keeps the squares next to its start
/// for later; then in move order (the sort is stable).
fn order_moves(st: &State, moves: &mut [u32], aim: Aim) {
    let key = |w: u32| 2 * st.onward(w) + u32::from(aim.closed && st.is_end(w));
    for i in 1..moves.len() {
        let w = moves[i];
        let k = key(w);
        let mut j = i;
        while j > 0 && key(moves[j - 1]) > k {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = w;
    }
}

/// Counts the tours through the walk's current path (all its extensions),
/// looking at `halt` at the `cadence`; when it says stop, returns `Err`
/// with the count found so far (a lower bound).
pub(super) fn count_from<H: Halt>(
    walk: &mut Walk,
    memo: &Memo,
    nodes: &mut u64,
    cadence: &mut Cadence,
    halt: &H,
) -> Result<u128, u128> {
    match walk.run::<false, H, _>(
        memo,
        u64::MAX,
        nodes,
        cadence,
        halt,
        &mut crate::solve::event::NoObserver,
    ) {
        Pace::Stopped(_) => Err(walk.total),
        Pace::Done | Pace::Paused => Ok(walk.total),
    }
}

/// For each byte of a mask of up to 64 squares and each value of it, the
/// union of `masks` over the squares it holds: a set's neighbours in eight
/// lookups.
pub(crate) fn spread_tables(masks: &[u64]) -> Vec<[u64; 256]> {
    (0..8)
        .map(|k| {
            let mut table = [0u64; 256];
            for (v, slot) in table.iter_mut().enumerate() {
                for b in 0..8 {
                    let s = 8 * k + b;
                    if v >> b & 1 == 1 && s < masks.len() {
                        *slot |= masks[s];
                    }
                }
            }
            table
        })
        .collect()
}
