//! Looking ahead from a state: whether the squares not yet taken can still
//! complete it into a tour. A state that cannot is dropped, with everything
//! it would have grown into; so is each way of taking the next square that
//! leaves no tour.
//!
//! The rules (each drops only what no tour extends):
//! - **Colours.** On a graph with a proper two-colouring every move joins
//!   the two colours, so the moves the frontier still needs, counted by
//!   colour, balance the squares to come, up to the tour's ends still to
//!   be placed.
//! - **Forced moves.** In the *window* — the frontier's squares and the
//!   squares to come within [`RINGS`] moves of it — each square needs some
//!   number of moves (two; one for an end; fewer for a frontier square that
//!   has some) and has some undecided moves left. A square with fewer left
//!   than it needs is dead; one with exactly as many must use them all; one
//!   with all it needs can use no more; a square that may be an end but
//!   cannot have two moves is an end, and a tour has at most two ends (none
//!   when closed). Forcing and removing moves is propagated until nothing
//!   changes.
//! - **Cycles.** Forced moves that close a path piece on itself, or join two
//!   pieces whose other ends have retired as the tour's ends, make a cycle
//!   or a whole path: unless it holds every square still to be covered, no
//!   tour has it.
//!
//! Each step's parents are looked at before they are expanded; the moves of
//! the square taken next that the look-ahead forces or rules out narrow the
//! ways to take it, and each remaining way is looked at from there
//! (incrementally, from the parent's forced moves) before its state is
//! made.
//!
//! The rules read of a state only its slots' classes (how many moves each
//! has, and whether its piece's other end has retired) until a forced move
//! closes a piece: a state of the classes of the last one looked at replays
//! that run's forced moves on its own pieces ([`Propagation::replay`]).

use super::plan::Plan;
use super::step::{EMPTY, FREE, FULL, Kind, SLOTS};

/// The most squares the look-ahead tracks (frontier and window).
pub const MAXV: usize = 64;

/// Window squares at most this many moves from the frontier are tracked.
pub const RINGS: usize = 2;

/// What the look-ahead from one frontier needs: its squares, the window,
/// and the moves between them still undecided.
#[derive(Clone, Debug)]
pub struct Look {
    /// Whether it looks at all.
    active: bool,
    /// Whether the tour is closed.
    closed: bool,
    /// Frontier size; vertices `0..len` are its slots.
    len: usize,
    /// Vertices: the frontier's slots, then the window's squares.
    nv: usize,
    /// Kind of each vertex.
    kind: Vec<Kind>,
    /// Vertices of kind Any.
    any: u64,
    /// Moves still undecided between vertices (bit masks by vertex).
    adj: [u64; MAXV],
    /// Undecided moves of each vertex, those to squares outside the window
    /// included.
    cnt: [u8; MAXV],
    /// The moves each vertex needs at least and at most (window squares).
    lo: [u8; MAXV],
    hi: [u8; MAXV],
    /// Window squares with at most two undecided moves.
    low: u64,
    /// Whether the window holds every square not yet taken.
    whole: bool,
    /// The window vertex of the square taken next (`usize::MAX` when not
    /// in it).
    next: usize,
    /// Squares of kind End not yet taken.
    ends_later: u32,
    /// With a proper two-colouring: each slot's colour (+1 or -1); twice
    /// the colour sum of the squares not yet taken less that of the End
    /// squares not yet taken or in the frontier; and how many of those End
    /// squares there are.
    colour: Option<(Vec<i8>, i32, i32)>,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            active: false,
            closed: false,
            len: 0,
            nv: 0,
            kind: Vec::new(),
            any: 0,
            adj: [0; MAXV],
            cnt: [0; MAXV],
            lo: [0; MAXV],
            hi: [0; MAXV],
            low: 0,
            whole: false,
            next: usize::MAX,
            ends_later: 0,
            colour: None,
        }
    }
}

impl Look {
    /// Whether the look-ahead applies.
    pub fn active(&self) -> bool {
        self.active
    }

    /// The window vertex of the square taken next, if it is in the window.
    pub fn next(&self) -> Option<usize> {
        (self.next != usize::MAX).then_some(self.next)
    }
}

/// A proper two-colouring of the graph (+1, -1), if it has one.
fn two_colouring(nb: &[Vec<u32>]) -> Option<Vec<i8>> {
    let n = nb.len();
    let mut c = vec![0i8; n];
    let mut stack = Vec::new();
    for s in 0..n {
        if c[s] != 0 {
            continue;
        }
        c[s] = 1;
        stack.push(s);
        while let Some(u) = stack.pop() {
            for &w in &nb[u] {
                let w = w as usize;
                if c[w] == 0 {
                    c[w] = -c[u];
                    stack.push(w);
                } else if c[w] == c[u] {
                    return None;
                }
            }
        }
    }
    Some(c)
}

/// The look-ahead from the frontier before each step of `plan` (from the
/// empty frontier before the first: inactive), for squares of `kinds`.
pub fn looks(plan: &Plan, kinds: &[Kind], closed: bool) -> Vec<Look> {
    let n = plan.steps.len();
    let nb = &plan.neighbours;
    let mut pos = vec![0usize; n];
    for (i, st) in plan.steps.iter().enumerate() {
        pos[st.vertex as usize] = i;
    }
    let col = two_colouring(nb);
    let mut frontier: Vec<u32> = Vec::new();
    let mut out = vec![Look::default()];
    let mut index = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    for (i, st) in plan.steps.iter().enumerate().take(n.saturating_sub(1)) {
        let mut extended = frontier.clone();
        extended.push(st.vertex);
        frontier = st.keep.iter().map(|&s| extended[s as usize]).collect();
        let future = |u: u32| pos[u as usize] > i;
        // The window: squares to come, nearest the frontier first.
        let mut verts: Vec<u32> = frontier.clone();
        let mut ring = frontier.clone();
        'grow: for _ in 0..RINGS {
            let mut next = Vec::new();
            for &u in &ring {
                for &w in &nb[u as usize] {
                    if future(w) && !seen[w as usize] {
                        if verts.len() == MAXV {
                            break 'grow;
                        }
                        seen[w as usize] = true;
                        verts.push(w);
                        next.push(w);
                    }
                }
            }
            ring = next;
        }
        for (a, &u) in verts.iter().enumerate() {
            index[u as usize] = a;
        }
        let nv = verts.len();
        let mut adj = [0u64; MAXV];
        let mut cnt = [0u8; MAXV];
        for (a, &u) in verts.iter().enumerate() {
            for &w in &nb[u as usize] {
                if !future(w) {
                    continue;
                }
                cnt[a] = cnt[a].saturating_add(1);
                if index[w as usize] != usize::MAX {
                    let b = index[w as usize];
                    adj[a] |= 1 << b;
                    adj[b] |= 1 << a;
                }
            }
        }
        // Moves from the window back to the frontier count too.
        for a in frontier.len()..nv {
            cnt[a] =
                cnt[a].saturating_add((adj[a] & ((1u64 << frontier.len()) - 1)).count_ones() as u8);
        }
        let next = plan
            .steps
            .get(i + 1)
            .map_or(usize::MAX, |s| index[s.vertex as usize]);
        // Every move of a frontier square must go to a window square: when
        // the window is full and one does not, the step looks at nothing.
        let fits = (0..frontier.len())
            .all(|a| u32::from(cnt[a]) == adj[a].count_ones() && frontier.len() < MAXV);
        let mut lo = [0u8; MAXV];
        let mut hi = [0u8; MAXV];
        let mut low = 0u64;
        for v in 0..nv {
            (lo[v], hi[v]) = match kinds[verts[v] as usize] {
                Kind::Inner => (2, 2),
                Kind::End => (1, 1),
                Kind::Any => (1, 2),
            };
            if v >= frontier.len() && cnt[v] <= 2 {
                low |= 1 << v;
            }
        }
        let fixed_later = |u: usize| pos[u] > i && kinds[u] == Kind::End;
        out.push(Look {
            active: fits && nv > frontier.len() && n - i > 2,
            closed,
            len: frontier.len(),
            nv,
            kind: verts.iter().map(|&u| kinds[u as usize]).collect(),
            any: verts
                .iter()
                .enumerate()
                .filter(|&(_, &u)| kinds[u as usize] == Kind::Any)
                .fold(0, |m, (v, _)| m | 1 << v),
            adj,
            cnt,
            lo,
            hi,
            low,
            whole: nv - frontier.len() == n - i - 1,
            next,
            ends_later: (0..n).filter(|&u| fixed_later(u)).count() as u32,
            colour: col.as_ref().map(|c| {
                let later = (0..n).filter(|&u| pos[u] > i);
                let fixed: Vec<usize> = later
                    .clone()
                    .chain(frontier.iter().map(|&u| u as usize))
                    .filter(|&u| kinds[u] == Kind::End)
                    .collect();
                (
                    frontier.iter().map(|&u| c[u as usize]).collect(),
                    2 * later.map(|u| i32::from(c[u])).sum::<i32>()
                        - fixed.iter().map(|&u| i32::from(c[u])).sum::<i32>(),
                    fixed.len() as i32,
                )
            }),
        });
        for &u in &verts {
            index[u as usize] = usize::MAX;
            seen[u as usize] = false;
        }
    }
    out
}

/// `IDENTITY[v] == v`: every vertex its own piece.
const IDENTITY: [u8; MAXV] = {
    let mut a = [0u8; MAXV];
    let mut v = 0;
    while v < MAXV {
        a[v] = v as u8;
        v += 1;
    }
    a
};

/// How a propagation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagated {
    /// No tour.
    Dead,
    /// Nothing more to force, and no contradiction.
    Open,
    /// The forced moves make the whole tour.
    Whole,
}

/// Forced moves, propagated over the frontier and the window, with the
/// path pieces they join.
#[derive(Clone)]
pub struct Propagation<'a> {
    look: &'a Look,
    /// Undecided moves still possible, per vertex: to window vertices (bit
    /// masks) and in all (counts, those outside the window included).
    unk: [u64; MAXV],
    cnt: [u8; MAXV],
    /// Forced moves, per vertex.
    fc: [u8; MAXV],
    /// Moves each vertex needs at least and at most, besides those it has.
    lo: [u8; MAXV],
    hi: [u8; MAXV],
    /// Any-kind vertices not known to be ends: while the tour may still
    /// have more ends (`loose`, may be an end or not), and once every
    /// square but the known ends must take two moves (`tight`).
    loose: u64,
    tight: u64,
    /// Ends placed or known.
    ends: u32,
    /// Slots with fewer than two moves.
    open: u64,
    /// Vertices to look at.
    dirty: u64,
    /// Each vertex's parent in the union-find of path pieces, and the roots
    /// of pieces whose other end has retired.
    parent: [u8; MAXV],
    free: u64,
    /// Slots whose move to the square taken next is forced.
    to_next: u64,
    /// The moves forced, in order.
    forced: Vec<(u8, u8)>,
    /// Whether a forced move made a cycle or a whole path.
    closed_piece: bool,
}

impl<'a> Propagation<'a> {
    /// A propagation for `look`, to be [`reset`](Propagation::reset)
    /// before use.
    pub fn blank(look: &'a Look) -> Propagation<'a> {
        Propagation {
            look,
            unk: [0; MAXV],
            cnt: [0; MAXV],
            fc: [0; MAXV],
            lo: [0; MAXV],
            hi: [0; MAXV],
            loose: 0,
            tight: 0,
            ends: 0,
            open: 0,
            dirty: 0,
            parent: [0; MAXV],
            free: 0,
            to_next: 0,
            forced: Vec::with_capacity(MAXV),
            closed_piece: false,
        }
    }

    /// The path pieces of the state whose slots hold `mates`: each slot
    /// its own piece but a piece's later slot, which points at its earlier
    /// one; the slots whose other end has retired are free.
    fn pieces(&mut self, mates: &[u8; SLOTS]) {
        self.parent = IDENTITY;
        self.free = 0;
        for (v, &m) in mates.iter().enumerate().take(self.look.len) {
            self.free |= u64::from(m == FREE) << v;
            let at = usize::from(m) & (MAXV - 1);
            let later = m < FREE && at > v;
            self.parent[at] = if later { v as u8 } else { self.parent[at] };
        }
    }

    /// Makes this propagation, run from a state whose slots are empty,
    /// done, free or on a piece as those of the state whose slots hold
    /// `mates` are, the propagation from that state. Such states force the
    /// same moves (every rule but the cycles' reads only the moves each
    /// slot has, and whether it is free) until one closes a piece; so the
    /// forced moves are joined on the new state's pieces. False when one of
    /// them makes a cycle or a whole path there, or made one in the run:
    /// the state must then be looked at afresh.
    pub fn replay(&mut self, mates: &[u8; SLOTS]) -> bool {
        if self.closed_piece {
            return false;
        }
        self.pieces(mates);
        for i in 0..self.forced.len() {
            let (v, u) = self.forced[i];
            if self.join(usize::from(v), usize::from(u)).is_some() {
                return false;
            }
        }
        true
    }

    /// Whether a forced move made a cycle or a whole path (and the run
    /// ended there).
    pub fn closed_piece(&self) -> bool {
        self.closed_piece
    }

    /// Starts the look-ahead from the frontier whose slots hold `mates`
    /// (as the step module unpacks them), not yet run; false when the
    /// state breaks a rule that needs no propagation.
    pub fn reset(&mut self, mates: &[u8; SLOTS]) -> bool {
        let look = self.look;
        let len = look.len;
        // Whole arrays: fixed-size copies cost less than copies of `nv`.
        self.unk = look.adj;
        self.cnt = look.cnt;
        self.lo = look.lo;
        self.hi = look.hi;
        self.fc = [0; MAXV];
        self.pieces(mates);
        self.ends = look.ends_later;
        self.open = 0;
        self.dirty = look.low;
        self.to_next = 0;
        self.forced.clear();
        self.closed_piece = false;
        let mut full = 0u64;
        let mut colour_sum = 0i32;
        // Without branches on the slots' values, which vary from state to
        // state (branches on the slots' kinds, fixed for a step, predict).
        for (v, &m) in mates.iter().enumerate().take(len) {
            // Moves so far: EMPTY 0, FULL 2, one move 1.
            let d = u8::from(m != EMPTY) + u8::from(m == FULL);
            if let Some((col, _, _)) = &look.colour {
                colour_sum += i32::from(col[v]) * i32::from(2 - d);
            }
            self.open |= u64::from(d < 2) << v;
            self.ends += u32::from(m == FREE);
            let one = 1 - d.min(1);
            (self.lo[v], self.hi[v]) = match look.kind[v] {
                Kind::Inner => (2 - d, 2 - d),
                Kind::End => {
                    self.ends += 1;
                    (one, one)
                }
                Kind::Any => (one, 2 - d),
            };
            full |= u64::from(self.hi[v] == 0) << v;
        }
        if !look.closed && self.ends > 2 {
            return false;
        }
        if let Some((_, balance, fixed_n)) = &look.colour {
            // The colour rule: the ends still to place are those of known
            // colour (fixed) and `other` of either colour.
            let other = if look.closed {
                0
            } else {
                2 - self.free.count_ones() as i32 - fixed_n
            };
            let diff = balance + colour_sum;
            if other < 0 || diff.abs() > other || (diff - other) % 2 != 0 {
                return false;
            }
        }
        // Whether every square but the known ends must take two moves.
        let all_inner = look.closed || self.ends >= 2;
        (self.loose, self.tight) = if all_inner {
            (0, look.any)
        } else {
            (look.any, 0)
        };
        let mut open = self.open;
        while open != 0 {
            let v = open.trailing_zeros() as usize;
            open &= open - 1;
            self.touch(v);
        }
        while full != 0 {
            let v = full.trailing_zeros() as usize;
            full &= full - 1;
            self.drop_all(v);
        }
        true
    }

    /// The moves of the square taken next to the frontier's slots (bit
    /// masks by slot): those forced, and those still possible (forced
    /// included).
    pub fn advice(&self) -> (u64, u64) {
        let Some(w) = self.look.next() else {
            return (0, u64::MAX);
        };
        let slots = (1u64 << self.look.len) - 1;
        let undecided = self.unk[w] & slots;
        (self.to_next, self.to_next | undecided)
    }

    /// Marks `v` to be looked at if a rule may apply to it: it has as few
    /// moves left as it may need, or all it needs.
    #[inline(always)]
    fn touch(&mut self, v: usize) {
        let v = v & (MAXV - 1);
        let (c, f, h) = (self.cnt[v], self.fc[v], self.hi[v]);
        // A square that may still be an end or not is forced to nothing
        // by having exactly two moves left.
        let loose = self.loose & (1 << v) != 0;
        // Without branches: which way it goes varies from state to state.
        let marked = (c + f < h) | (f >= h) | ((c + f == h) & !loose);
        self.dirty |= u64::from(marked) << v;
    }

    /// Removes every undecided move of `v` within the window.
    fn drop_all(&mut self, v: usize) {
        let v = v & (MAXV - 1);
        let mut m = self.unk[v];
        while m != 0 {
            let u = m.trailing_zeros() as usize & (MAXV - 1);
            m &= m - 1;
            self.unk[u] &= !(1 << v);
            self.cnt[u] -= 1;
            self.touch(u);
        }
        // `v` has all it needs: nothing more to do for it.
        self.cnt[v] -= self.unk[v].count_ones() as u8;
        self.unk[v] = 0;
    }

    /// Removes the undecided move between `v` and `u`.
    #[inline]
    pub fn remove(&mut self, v: usize, u: usize) {
        let (v, u) = (v & (MAXV - 1), u & (MAXV - 1));
        self.unk[v] &= !(1 << u);
        self.unk[u] &= !(1 << v);
        self.cnt[v] -= 1;
        self.cnt[u] -= 1;
        self.touch(u);
        self.touch(v);
    }

    /// Makes this propagation a copy of `other` (of the same look).
    pub fn copy_from(&mut self, other: &Propagation<'a>) {
        self.unk = other.unk;
        self.cnt = other.cnt;
        self.fc = other.fc;
        self.lo = other.lo;
        self.hi = other.hi;
        self.parent = other.parent;
        self.loose = other.loose;
        self.tight = other.tight;
        self.ends = other.ends;
        self.open = other.open;
        self.dirty = other.dirty;
        self.free = other.free;
        self.to_next = other.to_next;
        self.forced.clone_from(&other.forced);
        self.closed_piece = other.closed_piece;
    }

    fn find(&mut self, mut v: usize) -> usize {
        v &= MAXV - 1;
        loop {
            let up = usize::from(self.parent[v]) & (MAXV - 1);
            if up == v {
                return v;
            }
            let upup = self.parent[up];
            self.parent[v] = upup;
            v = usize::from(upup) & (MAXV - 1);
        }
    }

    /// Whether every vertex still to be covered is in the piece of `root`.
    fn holds_all(&mut self, root: usize) -> bool {
        if !self.look.whole {
            return false;
        }
        (0..self.look.nv).all(|v| {
            let matters = v >= self.look.len || self.open & (1 << v) != 0;
            !matters || self.find(v) == root
        })
    }

    /// Forces the undecided move between `v` and `u`.
    pub fn force(&mut self, v: usize, u: usize) -> Propagated {
        let (v, u) = (v & (MAXV - 1), u & (MAXV - 1));
        self.unk[v] &= !(1 << u);
        self.unk[u] &= !(1 << v);
        self.cnt[v] -= 1;
        self.cnt[u] -= 1;
        self.fc[v] += 1;
        self.fc[u] += 1;
        if v == self.look.next && u < self.look.len {
            self.to_next |= 1 << u;
        } else if u == self.look.next && v < self.look.len {
            self.to_next |= 1 << v;
        }
        // A forced move leaves moves left plus forced unchanged: only a
        // square that now has all it needs has a rule to apply.
        if self.fc[v] >= self.hi[v] {
            self.dirty |= 1 << v;
        }
        if self.fc[u] >= self.hi[u] {
            self.dirty |= 1 << u;
        }
        self.forced.push((v as u8, u as u8));
        let Some((root, cycle)) = self.join(v, u) else {
            return Propagated::Open;
        };
        self.closed_piece = true;
        let fits = if cycle {
            self.look.closed
        } else {
            !self.look.closed
        };
        if fits && self.holds_all(root) {
            Propagated::Whole
        } else {
            Propagated::Dead
        }
    }

    /// Joins the pieces of `v` and `u`. When that closes a piece on itself
    /// or joins two whose other ends have retired, returns the piece's root
    /// and whether it is a cycle.
    #[inline(always)]
    fn join(&mut self, v: usize, u: usize) -> Option<(usize, bool)> {
        let (rv, ru) = (self.find(v), self.find(u));
        let (fv, fu) = (self.free & (1 << rv) != 0, self.free & (1 << ru) != 0);
        self.parent[ru] = rv as u8;
        if fu {
            self.free |= 1 << rv;
        }
        (rv == ru || (fv && fu)).then_some((rv, rv == ru))
    }

    /// Propagates until nothing changes.
    pub fn run(&mut self) -> Propagated {
        let nv = self.look.nv;
        while self.dirty != 0 {
            let v = self.dirty.trailing_zeros() as usize & (MAXV - 1);
            self.dirty &= self.dirty - 1;
            let fc = self.fc[v];
            if fc > self.hi[v] {
                return Propagated::Dead;
            }
            let cnt = self.cnt[v];
            let bit = 1u64 << v;
            let lo = if self.tight & bit != 0 {
                self.hi[v]
            } else {
                self.lo[v]
            };
            if cnt + fc < lo {
                return Propagated::Dead;
            }
            let loose = self.loose & bit != 0;
            if loose && cnt + fc < self.hi[v] {
                // It can only be an end.
                self.loose &= !bit;
                self.hi[v] = self.lo[v];
                self.ends += 1;
                if self.ends > 2 {
                    return Propagated::Dead;
                }
                if self.ends == 2 {
                    // Every other square must now be passed through: look
                    // again at those it could matter to.
                    (self.loose, self.tight) = (0, self.loose);
                    for u in 0..nv {
                        if self.cnt[u] <= 2 || self.fc[u] > 0 {
                            self.dirty |= 1 << u;
                        }
                    }
                }
                self.dirty |= 1 << v;
                continue;
            }
            let exact = !loose;
            let need = self.hi[v] - fc;
            if need == 0 {
                if self.unk[v] != 0 {
                    self.drop_all(v);
                }
            } else if exact && cnt == need && self.unk[v] != 0 {
                let mut m = self.unk[v];
                while m != 0 {
                    let u = m.trailing_zeros() as usize & (MAXV - 1);
                    m &= m - 1;
                    match self.force(v, u) {
                        Propagated::Open => {}
                        r => return r,
                    }
                }
            }
        }
        Propagated::Open
    }
}
