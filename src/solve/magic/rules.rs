//! The rules of the magic search, for the one depth-first driver: the
//! steps are numbered from both ends of the tour at once — a low run
//! `1, 2, …` and a high run `n, n − 1, …` — each node extending the run
//! with fewer squares to go to, until the runs meet. Numbering from both
//! ends shrinks the numbers still free from both sides, so every line's
//! sum is bracketed from below and above long before the line is full.
//!
//! Pruning, all sound (each holds for every magic tour below a node):
//! - *sums*: a line with sum `s` so far and `e` squares still to number,
//!   when the numbers still free are `p..=q`, needs `e` distinct numbers
//!   among them that make up `T − s`: at least the `e` smallest and at
//!   most the `e` largest;
//! - *a line one square short*: its last square must take exactly
//!   `T − s`, a step no clue holds and no other square needs, and the
//!   runs' ends must reach it by then (distance and colour);
//! - *the runs*: the low run's end must reach the high run's end in the
//!   steps between them, and each run's end the next step a clue fixes;
//! - *dead ends* (moves that can all be made back): every square not yet
//!   numbered needs two neighbours still free or at a run's end, except
//!   the tour's last square while the high run is empty;
//! - *a symmetry*: an open tour's step `k` and step `n + 1 − k` are
//!   images, placed together; a closed tour's moves whose images are both
//!   numbered must be moves of the tour (consecutive steps).
//!
//! A search watched by an observer numbers from the first step only, so
//! that its path is the tour's first steps as the events say.
//!
//! A balanced search (a search for one tour, in turns with the complete
//! one) also holds every line to its share of each block of steps
//! ([`Balance`]) and brackets each line's sum block by block; it searches
//! only the balanced tours, so it finds tours but never proves none.

use super::plan::{Balance, NONE, Plan, Tie};
use crate::search::driver::{Rules, Sofar, Verdict};

/// Which run a node extends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum Side {
    /// Step `lo`: the low run.
    #[default]
    Low,
    /// Step `n − 1 − hi`: the high run.
    High,
}

/// A node: where its squares to try begin on the shared list, the next to
/// try, and the run it extends.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Node {
    base: usize,
    next: usize,
    side: Side,
}

/// The search state. `PATHS`: the driver's path mode (a search for
/// solutions) or counting.
pub(super) struct Search<'p, const PATHS: bool> {
    plan: &'p Plan,
    /// The square of each step (from 0), or `NONE`; the step of each
    /// square, or `NONE`.
    sq: Vec<u32>,
    step: Vec<u32>,
    /// Steps `0..lo` and `n − hi..n` are numbered.
    lo: usize,
    hi: usize,
    /// Number from the first step only.
    one_end: bool,
    /// Per line: the sum of its numbers (clues' included from the start),
    /// its squares still to number (clues' excluded), and the exclusive or
    /// of those squares (the square itself when one is left).
    sum: Vec<i64>,
    empty: Vec<u32>,
    xor: Vec<u32>,
    /// Per square (moves that can all be made back): its neighbours not
    /// numbered or at a run's open end; and how many squares not numbered
    /// have none, and at most one.
    avail: Vec<u32>,
    dead: u32,
    thin: u32,
    /// The squares placed at each node, for undoing (one, or two with an
    /// open tour's symmetry).
    placed: Vec<(Side, u32, u32)>,
    cands: Vec<(u32, u32)>,
    /// The square claiming each number (its line's last), stamped.
    claim: Vec<(u32, u32)>,
    stamp: u32,
    /// The balance held to, if any, and each line's steps of each block
    /// (`line * blocks + block`).
    balance: Option<&'p Balance>,
    held: Vec<u32>,
    /// Solutions found, and the first `keep` of them.
    pub(super) solutions: u64,
    pub(super) tours: Vec<Vec<u32>>,
    keep: usize,
}

/// Most squares a node places: one, and its image.
const MOST_PLACED: usize = 2;

impl<'p, const PATHS: bool> Search<'p, PATHS> {
    /// A search of `plan` with nothing numbered, keeping the first `keep`
    /// solutions; from the first step only when `one_end`.
    pub(super) fn new(plan: &'p Plan, one_end: bool, keep: usize) -> Search<'p, PATHS> {
        let n = plan.n;
        let lines = plan.target.len();
        let mut s = Search {
            plan,
            sq: vec![NONE; n],
            step: vec![NONE; n],
            lo: 0,
            hi: 0,
            one_end: one_end || matches!(plan.tie, Some(Tie::Ends(_))),
            sum: vec![0; lines],
            empty: vec![0; lines],
            xor: vec![0; lines],
            avail: (0..n).map(|s| plan.near.of(s).len() as u32).collect(),
            dead: 0,
            thin: 0,
            placed: Vec::with_capacity(n),
            cands: Vec::with_capacity(8 * n),
            claim: vec![(0, NONE); n + 1],
            stamp: 0,
            balance: None,
            held: Vec::new(),
            solutions: 0,
            tours: Vec::new(),
            keep,
        };
        for x in 0..n as u32 {
            let k = plan.clue_of[x as usize];
            for &l in plan.lines_of.of(x as usize) {
                if k == NONE {
                    s.empty[l as usize] += 1;
                    s.xor[l as usize] ^= x;
                } else {
                    s.sum[l as usize] += i64::from(k) + 1;
                }
            }
            if plan.undirected {
                s.count_thin(x, 1);
            }
        }
        s
    }

    /// A search of `plan` held to its balance, numbering from the first
    /// step only (each block is then filled before the next is begun, so
    /// every line's share of it binds at once), keeping the first `keep`
    /// solutions; None when the plan has no balance.
    pub(super) fn balanced(plan: &'p Plan, keep: usize) -> Option<Search<'p, PATHS>> {
        let balance = plan.balance.as_ref()?;
        let mut s = Search::new(plan, true, keep);
        s.balance = Some(balance);
        s.held = vec![0; plan.target.len() * balance.blocks];
        Some(s)
    }

    /// Whether square `x` may take step `k` under the balance: each of its
    /// lines holds fewer than its share of `k`'s block.
    #[inline(always)]
    fn fits(&self, x: u32, k: usize) -> bool {
        let Some(b) = self.balance else {
            return true;
        };
        let block = k / b.block;
        self.plan
            .lines_of
            .of(x as usize)
            .iter()
            .all(|&l| self.held[l as usize * b.blocks + block] < b.share[l as usize])
    }

    /// Whether every line can still make its sum with its share of each
    /// block's numbers still free: at least the smallest of each and at
    /// most the largest.
    fn balance_holds(&self) -> bool {
        let Some(b) = self.balance else {
            return true;
        };
        let n = self.plan.n as i64;
        let (p, q) = (self.lo as i64 + 1, n - self.hi as i64);
        for l in 0..self.sum.len() {
            let (mut least, mut most) = (0, 0);
            for block in 0..b.blocks {
                let held = i64::from(self.held[l * b.blocks + block]);
                let e = i64::from(b.share[l]) - held;
                if e == 0 {
                    continue;
                }
                // The block's numbers still free.
                let from = p.max((block * b.block) as i64 + 1);
                let to = q.min(((block + 1) * b.block) as i64);
                if to - from + 1 < e {
                    return false;
                }
                let spread = e * (e - 1) / 2;
                least += e * from + spread;
                most += e * to - spread;
            }
            let need = self.plan.target[l] - self.sum[l];
            if need < least || need > most {
                return false;
            }
        }
        true
    }

    /// Adds (`d` = 1) or takes out (`d` = −1) the free square `x`'s part
    /// of the counts of squares with few neighbours left.
    #[inline(always)]
    fn count_thin(&mut self, x: u32, d: i32) {
        let a = self.avail[x as usize];
        if a <= 1 {
            self.thin = self.thin.wrapping_add_signed(d);
            if a == 0 {
                self.dead = self.dead.wrapping_add_signed(d);
            }
        }
    }

    /// Whether square `x` is open: not numbered, or a run's end that still
    /// needs a neighbour (a closed tour's first square needs its last).
    #[inline(always)]
    fn open(&self, x: u32) -> bool {
        let n = self.plan.n;
        if self.step[x as usize] == NONE {
            return true;
        }
        if self.lo + self.hi >= n {
            return false;
        }
        (self.lo > 0 && self.sq[self.lo - 1] == x)
            || (self.hi > 0 && self.sq[n - self.hi] == x)
            || (self.plan.closed && self.hi == 0 && self.sq[0] == x)
    }

    /// The squares whose openness a placement can change: the runs' ends,
    /// the first square, and those placed.
    fn touched(&self, extra: &[u32]) -> ([u32; 4 + MOST_PLACED], usize) {
        let n = self.plan.n;
        let mut t = [NONE; 4 + MOST_PLACED];
        let mut len = 0;
        let mut add = |x: u32| {
            if x != NONE && !t[..len].contains(&x) {
                t[len] = x;
                len += 1;
            }
        };
        if self.lo > 0 {
            add(self.sq[self.lo - 1]);
            add(self.sq[0]);
        }
        if self.hi > 0 {
            add(self.sq[n - self.hi]);
        }
        for &x in extra {
            add(x);
        }
        (t, len)
    }

    /// Brings the neighbours' counts up to date for the squares `t` whose
    /// openness was `before`.
    fn reopen(&mut self, t: &[u32], before: &[bool]) {
        for (&x, &was) in t.iter().zip(before) {
            let now = self.open(x);
            if now != was {
                let plan = self.plan;
                for &y in plan.near.of(x as usize) {
                    let free = self.step[y as usize] == NONE;
                    if free {
                        self.count_thin(y, -1);
                    }
                    if now {
                        self.avail[y as usize] += 1;
                    } else {
                        self.avail[y as usize] -= 1;
                    }
                    if free {
                        self.count_thin(y, 1);
                    }
                }
            }
        }
    }

    /// Numbers square `x` with step `k` (from 0).
    #[inline(always)]
    fn set(&mut self, k: usize, x: u32) {
        if self.plan.undirected {
            self.count_thin(x, -1);
        }
        self.sq[k] = x;
        self.step[x as usize] = k as u32;
        if self.plan.clue_of[x as usize] == NONE {
            let value = k as i64 + 1;
            for &l in self.plan.lines_of.of(x as usize) {
                let l = l as usize;
                self.sum[l] += value;
                self.empty[l] -= 1;
                self.xor[l] ^= x;
            }
        }
        if let Some(b) = self.balance {
            for &l in self.plan.lines_of.of(x as usize) {
                self.held[l as usize * b.blocks + k / b.block] += 1;
            }
        }
    }

    /// Takes step `k`'s number off its square.
    #[inline(always)]
    fn unset(&mut self, k: usize) {
        let x = self.sq[k];
        if let Some(b) = self.balance {
            for &l in self.plan.lines_of.of(x as usize) {
                self.held[l as usize * b.blocks + k / b.block] -= 1;
            }
        }
        if self.plan.clue_of[x as usize] == NONE {
            let value = k as i64 + 1;
            for &l in self.plan.lines_of.of(x as usize) {
                let l = l as usize;
                self.sum[l] -= value;
                self.empty[l] += 1;
                self.xor[l] ^= x;
            }
        }
        self.sq[k] = NONE;
        self.step[x as usize] = NONE;
        if self.plan.undirected {
            self.count_thin(x, 1);
        }
    }

    /// The steps a node on `side` places when it puts `x` there: the step
    /// itself, and its image's with an open tour's symmetry.
    fn steps_of(&self, side: Side, x: u32) -> ([(usize, u32); MOST_PLACED], usize) {
        let n = self.plan.n;
        let k = match side {
            Side::Low => self.lo,
            Side::High => n - 1 - self.hi,
        };
        let mut out = [(k, x); MOST_PLACED];
        let mut len = 1;
        if let Some(Tie::Ends(image)) = &self.plan.tie
            && n - 1 - k != k
        {
            out[1] = (n - 1 - k, image[x as usize]);
            len = 2;
        }
        (out, len)
    }

    /// Places `x` on `side` (and its image with an open tour's symmetry).
    fn place(&mut self, side: Side, x: u32) {
        let (steps, len) = self.steps_of(side, x);
        let squares = [steps[0].1, steps[len - 1].1];
        let (t, tl) = self.touched(&squares[..len]);
        let mut before = [false; 4 + MOST_PLACED];
        for i in 0..tl {
            before[i] = self.open(t[i]);
        }
        for &(k, s) in &steps[..len] {
            self.set(k, s);
        }
        match (side, len) {
            (Side::Low, 2) => {
                self.lo += 1;
                self.hi += 1;
            }
            (Side::Low, _) => self.lo += 1,
            (Side::High, _) => self.hi += 1,
        }
        // Every square a placement opens or closes was touched before it:
        // the runs' new ends are the squares placed.
        if self.plan.undirected {
            self.reopen(&t[..tl], &before[..tl]);
        }
        self.placed.push((side, x, len as u32));
    }

    /// Undoes the last [`Search::place`].
    fn unplace(&mut self) {
        let Some((side, x, len)) = self.placed.pop() else {
            return;
        };
        let n = self.plan.n;
        let len = len as usize;
        let k = match side {
            Side::Low => self.lo - 1,
            Side::High => n - self.hi,
        };
        let mut steps = [(k, x); MOST_PLACED];
        if len == 2 {
            steps[1] = (n - 1 - k, self.sq[n - 1 - k]);
        }
        let squares = [steps[0].1, steps[len - 1].1];
        let (t, tl) = self.touched(&squares[..len]);
        let mut all = t;
        let mut before = [false; 2 * (4 + MOST_PLACED)];
        for i in 0..tl {
            before[i] = self.open(t[i]);
        }
        match (side, len) {
            (Side::Low, 2) => {
                self.lo -= 1;
                self.hi -= 1;
            }
            (Side::Low, _) => self.lo -= 1,
            (Side::High, _) => self.hi -= 1,
        }
        for &(k, _) in steps[..len].iter().rev() {
            self.unset(k);
        }
        // The runs' old ends, interior (closed) until now.
        let (t2, tl2) = self.touched(&[]);
        let mut squares_all = [NONE; 2 * (4 + MOST_PLACED)];
        squares_all[..tl].copy_from_slice(&all[..tl]);
        let mut al = tl;
        for &y in &t2[..tl2] {
            if !squares_all[..al].contains(&y) {
                squares_all[al] = y;
                before[al] = false;
                al += 1;
            }
        }
        all = [NONE; 4 + MOST_PLACED];
        let _ = all;
        if self.plan.undirected {
            self.reopen(&squares_all[..al], &before[..al]);
        }
    }

    /// Whether every line can still make its sum with the numbers left.
    #[inline]
    fn sums_hold(&self) -> bool {
        let n = self.plan.n as i64;
        let (p, q) = (self.lo as i64 + 1, n - self.hi as i64);
        for l in 0..self.sum.len() {
            let e = i64::from(self.empty[l]);
            let need = self.plan.target[l] - self.sum[l];
            let spread = e * (e - 1) / 2;
            if need < e * p + spread || need > e * q - spread {
                return false;
            }
        }
        true
    }

    /// Whether the runs can still meet and reach the steps the clues fix,
    /// and each line one square short can have its last number in time.
    fn reach_holds(&mut self) -> bool {
        let plan = self.plan;
        let n = plan.n;
        let (lo, hi) = (self.lo, self.hi);
        let low_end = (lo > 0).then(|| self.sq[lo - 1]);
        let high_end = (hi > 0).then(|| self.sq[n - hi]);
        if let (Some(a), Some(b)) = (low_end, high_end)
            && !plan.reach(a, b, n - hi - (lo - 1))
        {
            return false;
        }
        if let Some(a) = low_end {
            let k = plan.next_fixed[lo];
            if k != NONE && (k as usize) < n - hi {
                let k = k as usize;
                if !plan.reach(a, plan.fixed[k], k - (lo - 1)) {
                    return false;
                }
            }
        }
        if let Some(b) = high_end
            && n - hi > 0
        {
            let k = plan.prev_fixed[n - hi - 1];
            if k != NONE && k as usize >= lo {
                let k = k as usize;
                if !plan.reach(plan.fixed[k], b, n - hi - k) {
                    return false;
                }
            }
        }
        // Lines one square short.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.claim.fill((0, NONE));
            self.stamp = 1;
        }
        for l in 0..self.sum.len() {
            if self.empty[l] != 1 {
                continue;
            }
            let x = self.xor[l];
            let v = plan.target[l] - self.sum[l];
            // The sums' bound keeps v among the numbers left.
            let k = (v - 1) as usize;
            if plan.fixed[k] != NONE {
                return false;
            }
            let c = &mut self.claim[k];
            if c.0 == self.stamp {
                if c.1 != x {
                    return false;
                }
                continue;
            }
            *c = (self.stamp, x);
            if let Some(a) = low_end
                && !plan.reach(a, x, k - (lo - 1))
            {
                return false;
            }
            if let Some(b) = high_end
                && !plan.reach(x, b, n - hi - k)
            {
                return false;
            }
        }
        // A square one line gives a number and another a different one.
        for l in 0..self.sum.len() {
            if self.empty[l] != 1 {
                continue;
            }
            let x = self.xor[l];
            let k = (plan.target[l] - self.sum[l] - 1) as usize;
            for &m in plan.lines_of.of(x as usize) {
                let m = m as usize;
                if m != l && self.empty[m] == 1 && plan.target[m] - self.sum[m] - 1 != k as i64 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether a closed tour's moves whose images are numbered are moves
    /// of the tour, for the squares just placed.
    fn symmetry_holds(&self, x: u32) -> bool {
        let Some(Tie::Moves(image, inverse)) = &self.plan.tie else {
            return true;
        };
        let n = self.plan.n;
        let next_to = |a: u32, b: u32| {
            let (i, j) = (self.step[a as usize], self.step[b as usize]);
            i == NONE || j == NONE || (i + 1) % n as u32 == j || (j + 1) % n as u32 == i
        };
        let k = self.step[x as usize] as usize;
        // The tour's moves at x (to steps placed), and the moves whose
        // image x completes.
        for j in [(k + 1) % n, (k + n - 1) % n] {
            let y = self.sq[j];
            if y != NONE && !next_to(image[x as usize], image[y as usize]) {
                return false;
            }
        }
        let a = inverse[x as usize];
        let ka = self.step[a as usize];
        if ka != NONE {
            let ka = ka as usize;
            for j in [(ka + 1) % n, (ka + n - 1) % n] {
                let b = self.sq[j];
                if b != NONE && !next_to(x, image[b as usize]) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the squares not numbered can all still be passed through.
    #[inline]
    fn alive(&self) -> bool {
        if !self.plan.undirected || self.lo == 0 {
            return true;
        }
        let last_free = !self.plan.closed && self.hi == 0;
        self.dead == 0 && self.thin <= u32::from(last_free)
    }

    /// The squares that may take the next step on `side`, onto the shared
    /// list (fewest free neighbours first).
    fn candidates(&mut self, side: Side) {
        let plan = self.plan;
        let n = plan.n;
        let (lo, hi) = (self.lo, self.hi);
        let k = match side {
            Side::Low => lo,
            Side::High => n - 1 - hi,
        };
        let last = lo + hi + 1 == n;
        let base = self.cands.len();
        let from: &[u32] = match side {
            Side::Low if lo > 0 => plan.out.of(self.sq[lo - 1] as usize),
            Side::High if hi > 0 => plan.into.of(self.sq[n - hi] as usize),
            Side::High if plan.closed => plan.into.of(self.sq[0] as usize),
            _ => &[],
        };
        let everywhere = from.is_empty()
            && (side == Side::Low && lo == 0 || side == Side::High && hi == 0 && !plan.closed);
        let push = |s: &mut Self, x: u32| {
            if s.step[x as usize] != NONE || !plan.allowed(x, k) || !s.fits(x, k) {
                return;
            }
            if last {
                let joins = match side {
                    Side::Low if hi > 0 => plan.moves(x, s.sq[n - hi]),
                    Side::Low if plan.closed => plan.moves(x, s.sq[0]),
                    Side::Low => true,
                    Side::High => plan.moves(s.sq[lo - 1], x),
                };
                if !joins {
                    return;
                }
            }
            if let Some(Tie::Ends(image)) = &plan.tie {
                let j = n - 1 - k;
                let y = image[x as usize];
                if j == k {
                    if y != x {
                        return;
                    }
                } else if y == x
                    || s.step[y as usize] != NONE
                    || !plan.allowed(y, j)
                    || (j == k + 1 && !plan.moves(x, y))
                {
                    return;
                }
            }
            let moves = if plan.undirected {
                s.avail[x as usize]
            } else {
                plan.out.of(x as usize).len() as u32
            };
            s.cands.push((moves, x));
        };
        if everywhere {
            match plan.fixed[k] {
                NONE => {
                    for x in 0..n as u32 {
                        push(self, x);
                    }
                }
                f => push(self, f),
            }
        } else {
            for &x in from {
                push(self, x);
            }
        }
        self.cands[base..].sort_unstable();
    }

    /// The node at the current numbering: a solution, a dead end, or the
    /// squares to try for the run chosen.
    fn arrive(&mut self) -> Verdict<Node> {
        let n = self.plan.n;
        if self.lo + self.hi == n {
            self.solutions += 1;
            if PATHS && self.tours.len() < self.keep {
                self.tours.push(self.sq.clone());
            }
            return Verdict::Leaf(1);
        }
        if !self.sums_hold() || !self.alive() || !self.balance_holds() || !self.reach_holds() {
            return Verdict::Leaf(0);
        }
        let base = self.cands.len();
        let side = if self.one_end || self.lo == 0 {
            Side::Low
        } else if self.hi == 0 {
            Side::High
        } else if self.lo != self.hi {
            // The runs kept even: the numbers left shrink from both sides
            // at once, and every line's bracket with them.
            if self.lo < self.hi {
                Side::Low
            } else {
                Side::High
            }
        } else {
            // The run with fewer squares to go to; the other's list is
            // dropped.
            self.candidates(Side::Low);
            let low = self.cands.len() - base;
            if low <= 1 {
                return self.branch(base, Side::Low);
            }
            let mid = self.cands.len();
            self.candidates(Side::High);
            let high = self.cands.len() - mid;
            if high < low {
                self.cands.copy_within(mid.., base);
                self.cands.truncate(base + high);
                return self.branch(base, Side::High);
            }
            self.cands.truncate(mid);
            return self.branch(base, Side::Low);
        };
        self.candidates(side);
        self.branch(base, side)
    }

    fn branch(&self, base: usize, side: Side) -> Verdict<Node> {
        if self.cands.len() == base {
            return Verdict::Leaf(0);
        }
        Verdict::Branch(Node {
            base,
            next: base,
            side,
        })
    }

    /// Replays `prefix` (squares, as the nodes placed them) from nothing
    /// numbered; false when a square is not among its node's candidates or
    /// a node is settled on the way (the prefix leads nowhere).
    pub(super) fn replay(&mut self, prefix: &[u32]) -> bool {
        for &x in prefix {
            let Verdict::Branch(node) = self.arrive() else {
                return false;
            };
            let ok = self.cands[node.base..].iter().any(|&(_, y)| y == x);
            self.cands.truncate(node.base);
            if !ok {
                return false;
            }
            self.place(node.side, x);
            if !self.symmetry_holds_placed() {
                return false;
            }
        }
        true
    }

    /// [`Search::symmetry_holds`] for the squares of the last placement.
    fn symmetry_holds_placed(&self) -> bool {
        match self.placed.last() {
            Some(&(_, x, _)) => self.symmetry_holds(x),
            None => true,
        }
    }

    /// The node the search stands at (after [`Search::replay`]).
    pub(super) fn here(&mut self) -> Verdict<Node> {
        self.arrive()
    }

    /// The squares a node would try, in order (for listing tasks).
    pub(super) fn tries(&self, node: &Node) -> Vec<u32> {
        self.cands[node.base..].iter().map(|&(_, x)| x).collect()
    }

    /// Drops the shared list back to where `node`'s began.
    pub(super) fn drop_node(&mut self, node: &Node) {
        self.cands.truncate(node.base);
    }

    /// Takes every placement back.
    pub(super) fn reset(&mut self) {
        while !self.placed.is_empty() {
            self.unplace();
        }
        self.cands.clear();
    }
}

impl<const PATHS: bool> Rules for Search<'_, PATHS> {
    const PATHS: bool = PATHS;
    type Node = Node;

    fn root(&mut self, _: Sofar) -> Verdict<Node> {
        self.arrive()
    }

    #[inline(always)]
    fn next(&mut self, node: &mut Node) -> Option<u32> {
        self.cands.get(node.next).map(|&(_, x)| x)
    }

    #[inline(always)]
    fn take(&mut self, node: &mut Node, _: u32) {
        node.next += 1;
    }

    #[inline(always)]
    fn descend(&mut self, node: &Node, to: u32, _: Sofar) -> Verdict<Node> {
        self.place(node.side, to);
        if self.symmetry_holds(to) {
            self.arrive()
        } else {
            Verdict::Leaf(0)
        }
    }

    #[inline(always)]
    fn finished(&mut self, node: &Node, _: u128) {
        self.cands.truncate(node.base);
    }

    #[inline(always)]
    fn ascend(&mut self) {
        self.unplace();
    }

    fn path(&self) -> &[u32] {
        if self.lo + self.hi == self.plan.n {
            &self.sq
        } else {
            &self.sq[..self.lo]
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::halt::{Cadence, Limits, Never};
    use crate::model::Magic;
    use crate::puzzle::Puzzle;
    use crate::search::driver::Driver;
    use crate::search::event::NoObserver;
    use crate::verify::{verify, verify_magic};

    /// The puzzle `text`, its plan and the sums it asks for.
    fn plan_of(text: &str) -> (Puzzle, Plan, Magic) {
        let p = Puzzle::parse("t.ron", text).unwrap_or_else(|e| panic!("{e}"));
        let Ok(g) = p.graph(&Never);
        let task = p.task(&g);
        let magic = task.constraints.magic.unwrap_or(Magic::Semi);
        let plan = Plan::new(&task, magic);
        (p, plan, magic)
    }

    /// Every tour `rules` finds, each checked by the verifier.
    fn all(rules: Search<'_, true>, p: &Puzzle, magic: Magic) -> BTreeSet<Vec<u32>> {
        let mut driver = Driver::new(rules, 0, u128::MAX);
        let limits = Limits::none();
        let mut nodes = 0;
        driver.run(
            u64::MAX,
            &mut nodes,
            &mut Cadence::new(&limits, 0),
            &Never,
            &mut NoObserver,
        );
        let tours = std::mem::take(&mut driver.rules.tours);
        for t in &tours {
            assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
            assert_eq!(verify_magic(&p.board, magic, t), Ok(()));
        }
        tours.into_iter().collect()
    }

    /// Whether every rank, file (and long diagonal, when `magic` asks for
    /// them) holds two steps of each of the board's blocks of steps, with
    /// the blocks counted here from the board's sides alone.
    fn balanced(p: &Puzzle, magic: Magic, tour: &[u32]) -> bool {
        let (w, h) = (p.board.width(), p.board.height());
        let g = (1..=w.min(h))
            .rev()
            .find(|d| w % d == 0 && h % d == 0)
            .unwrap_or(1);
        let blocks = g / 2;
        let block = tour.len() as u32 / blocks;
        // Ranks, then files, then the two long diagonals: each line's
        // length and its steps of each block.
        let lines = (h + w + if magic == Magic::Diagonal { 2 } else { 0 }) as usize;
        let mut held = vec![vec![0u32; blocks as usize]; lines];
        for (k, &s) in tour.iter().enumerate() {
            let c = p.board.cell(s);
            let b = (k as u32 / block) as usize;
            held[c.y as usize][b] += 1;
            held[(h + c.x) as usize][b] += 1;
            if magic == Magic::Diagonal {
                if c.x == c.y {
                    held[(h + w) as usize][b] += 1;
                }
                if c.x + c.y == w - 1 {
                    held[(h + w + 1) as usize][b] += 1;
                }
            }
        }
        held.iter().enumerate().all(|(l, counts)| {
            let length = if (l as u32) < h {
                w
            } else if (l as u32) < h + w {
                h
            } else {
                w
            };
            counts.iter().all(|&c| c == length / blocks)
        })
    }

    #[test]
    fn the_balanced_search_finds_exactly_the_balanced_magic_tours() {
        let mut restricted = false;
        for text in [
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi)"#,
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Diagonal)"#,
            r#"Puzzle(board: "4x4", piece: "queen", magic: Semi)"#,
        ] {
            let (p, plan, magic) = plan_of(text);
            let every = all(Search::new(&plan, false, usize::MAX), &p, magic);
            let Some(rules) = Search::balanced(&plan, usize::MAX) else {
                panic!("{text}: no balance");
            };
            let found = all(rules, &p, magic);
            let want: BTreeSet<Vec<u32>> = every
                .iter()
                .filter(|t| balanced(&p, magic, t))
                .cloned()
                .collect();
            assert!(!want.is_empty(), "{text}: no balanced magic tour");
            assert_eq!(found, want, "{text}");
            restricted |= want.len() < every.len();
        }
        assert!(restricted, "the balance left every magic tour in");
    }

    #[test]
    fn a_balance_is_two_steps_of_each_block_on_every_line() {
        let balance = |text: &str| {
            let (_, plan, _) = plan_of(text);
            plan.balance.map(|b| (b.blocks, b.block, b.share))
        };
        let semi = r#"Puzzle(board: "8x8", piece: "knight", magic: Semi)"#;
        assert_eq!(balance(semi), Some((4, 16, vec![2; 16])));
        let diagonal = r#"Puzzle(board: "8x8", piece: "king", magic: Diagonal)"#;
        assert_eq!(balance(diagonal), Some((4, 16, vec![2; 18])));
        let twelve = r#"Puzzle(board: "12x12", piece: "knight", magic: Diagonal)"#;
        assert_eq!(balance(twelve), Some((6, 24, vec![2; 26])));
        // Ranks and files of different lengths, lines of an odd length,
        // and a puzzle with anything fixed have none.
        for text in [
            r#"Puzzle(board: "12x4", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "10x6", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "5x5", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "8x8", piece: "knight", magic: Semi, start: "a1")"#,
            r#"Puzzle(board: "8x8", piece: "knight", magic: Semi, clues: {"a1": 1})"#,
            r#"Puzzle(board: "8x8", piece: "king", magic: Semi, symmetry: Rotate180)"#,
        ] {
            assert_eq!(balance(text), None, "{text}");
        }
    }
}
