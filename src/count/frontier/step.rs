//! One step of the frontier counter on one state: every way to use the
//! moves between the new square and the frontier, and the states they lead
//! to.
//!
//! A state is unpacked into a *mate* array: for each slot, [`EMPTY`] (no
//! move yet), [`FULL`] (two moves), [`FREE`] (one move; the other end of
//! its path piece has retired as an end of the tour) or the slot of the
//! other end of its path piece. The new square starts empty. The step may
//! use any set of at most two of its moves back to the frontier, each to a
//! square that can take one more move:
//!
//! - Joining two ends `a` and `b` makes a longer piece whose ends are the
//!   far ends of the two pieces. If `a` and `b` are the two ends of one
//!   piece, the move closes a cycle: a closed tour when it is the last
//!   square, otherwise nothing that can be part of a tour. If both far
//!   ends have retired, the piece is a whole open tour: again only at the
//!   last square.
//! - A square whose last neighbour has been taken retires: with no move it
//!   can never be on the tour; with one it is an end of the tour (allowed
//!   where the goal allows an end there); its piece's other end becomes
//!   free, or, if that end was free, the piece is a whole open tour.
//! - A tour has exactly two ends (none when closed). The ends already
//!   retired (free slots), the squares that must be ends (a fixed start or
//!   end, and an empty square with one move left) may not add up to more.
//!
//! Every path piece with an end in the frontier has both ends accounted
//! for, so each set of moves of the squares taken so far that can still
//! grow into a tour is counted in exactly one state, and every tour is
//! counted once, at the last square.
//!
//! Before the sets of moves are tried, the look-ahead (`look`) runs on the
//! state: it may find that it has no future, or force or rule out some of
//! the new square's moves; on large steps (where memory matters) each set
//! tried is then looked at from there.
//! A state whose frontier and remaining squares a symmetry of the board
//! maps onto themselves is stored as the least of its images, which have
//! the same futures.

use super::key::Key;
use super::look::{Look, Propagated, Propagation};

use super::plan::Step;

/// No move yet.
pub const EMPTY: u8 = 255;
/// Two moves: done.
pub const FULL: u8 = 254;
/// One move, and the other end of the piece has retired.
pub const FREE: u8 = 253;

/// What a square may be in the tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    /// An end or a square passed through.
    #[default]
    Any,
    /// An end (a fixed start or end).
    End,
    /// Passed through (every square of a closed tour; the others when both
    /// ends are fixed).
    Inner,
}

/// The largest extended frontier.
pub const SLOTS: usize = 40;

/// Not in the frontier after the step.
const GONE: u8 = u8::MAX;

/// A slot no frontier reaches (the widest has 36 with the new square),
/// written to where a branch would otherwise skip a write.
const SCRATCH: usize = SLOTS - 1;

/// One step with what the rules need at hand.
pub struct StepRules<'a> {
    /// The step.
    pub step: &'a Step,
    /// The kind of each slot of the extended frontier (the new square last).
    pub kind: Vec<Kind>,
    /// Squares that must be ends and are not yet taken, after this step.
    pub ends_later: u32,
    /// Whether this is the last square.
    pub last: bool,
    /// Whether the tour is closed (a cycle may close at the last square).
    pub closed: bool,
    /// Of the slots that stay, those that must end the tour if still empty
    /// (one move left, and may be an end), and those that may not be empty
    /// (one move left, and must be passed through): bit masks by new slot.
    last_any: u64,
    last_inner: u64,
    /// Squares of kind `End` that stay.
    keep_end: u32,
    /// The slots of the extended frontier that retire (bit mask).
    retires: u64,
    /// The new slot of each slot of the extended frontier that stays
    /// ([`GONE`] for one that retires, and for the mate values that are
    /// not slots: indexed by any mate value).
    new_slot: [u8; 256],
    /// The look-ahead from the frontier before the step.
    look: Look,
    /// For each symmetry that maps the frontier after the step and the
    /// squares still to come onto themselves, where it sends each slot.
    images: Vec<Vec<u8>>,
}

impl<'a> StepRules<'a> {
    /// The rules of `step`, whose extended frontier's slots are of `kind`;
    /// `look` looks ahead from the frontier before it, `images` are the
    /// symmetries of the frontier after it (as slot maps).
    pub fn new(
        step: &'a Step,
        kind: Vec<Kind>,
        ends_later: u32,
        last: bool,
        closed: bool,
        look: Look,
        images: Vec<Vec<u8>>,
    ) -> StepRules<'a> {
        let mut keep_end = 0;
        let retires = step.retire.iter().fold(0u64, |m, &s| m | 1 << s);
        let mut new_slot = [GONE; 256];
        for (j, &s) in step.keep.iter().enumerate() {
            new_slot[usize::from(s)] = j as u8;
            if kind[usize::from(s)] == Kind::End {
                keep_end += 1;
            }
        }
        let (mut last_any, mut last_inner) = (0u64, 0u64);
        for &j in &step.last_move {
            match kind[usize::from(step.keep[usize::from(j)])] {
                Kind::Any => last_any |= 1 << j,
                Kind::Inner => last_inner |= 1 << j,
                Kind::End => {}
            }
        }
        StepRules {
            step,
            kind,
            ends_later,
            last,
            closed,
            last_any,
            last_inner,
            keep_end,
            retires,
            new_slot,
            look,
            images,
        }
    }
}

/// Unpacks `key` (a frontier of `len` slots) into mates.
#[inline(always)]
fn unpack<K: Key>(key: K, len: usize, m: &mut [u8; SLOTS]) {
    if K::MATES {
        for (j, x) in m.iter_mut().enumerate().take(len) {
            *x = match key.get(j) {
                0 => EMPTY,
                1 => FULL,
                2 => FREE,
                c => c - 3,
            };
        }
        return;
    }
    let mut first = [u8::MAX; 32];
    for j in 0..len {
        m[j] = match key.get(j) {
            0 => EMPTY,
            1 => FULL,
            2 => FREE,
            c => {
                let l = usize::from(c - 3);
                let a = first[l];
                if a == u8::MAX {
                    first[l] = j as u8;
                    EMPTY
                } else {
                    m[usize::from(a)] = j as u8;
                    a
                }
            }
        };
    }
}

/// Packs the mates `m` of a frontier of `len` slots (each mate a slot of
/// the same frontier), naming each piece's other slot or labelling pieces
/// in the order of their first slot.
#[inline(always)]
fn pack<K: Key>(m: &[u8; SLOTS], len: usize) -> K {
    let mut key = K::ZERO;
    if K::MATES {
        for (j, &x) in m.iter().enumerate().take(len) {
            let code = match x {
                EMPTY => 0,
                FULL => 1,
                FREE => 2,
                p => 3 + p,
            };
            key = key.with(j, code);
        }
        return key;
    }
    let mut label = [0u8; SLOTS];
    let mut next = 0u8;
    for (j, &x) in m.iter().enumerate().take(len) {
        let code = match x {
            EMPTY => 0,
            FULL => 1,
            FREE => 2,
            p => {
                let p = usize::from(p);
                if p > j {
                    label[p] = next;
                    next += 1;
                    3 + label[p]
                } else {
                    3 + label[j]
                }
            }
        };
        key = key.with(j, code);
    }
    key
}

/// What looking ahead from a state found.
#[derive(Clone, Copy, Debug)]
enum Ahead {
    /// No future.
    Dead,
    /// The forced moves make a whole tour.
    Whole,
    /// The new square's moves that are forced, and those still possible.
    Open(u64, u64),
}

/// The look-ahead's working space for the states of one step (a thread's).
pub struct Workspace<'a, K> {
    p: Propagation<'a>,
    q: Propagation<'a>,
    /// Whether each way of taking the square is looked at too, not only
    /// the state it is taken from.
    children: bool,
    /// The classes of the state `p` last ran from and what it found, when
    /// no forced move closed a piece: it holds for the next state of those
    /// classes whose pieces the same forced moves do not close either. The
    /// states of a step come sorted by their classes.
    last: Option<(K, Ahead)>,
    /// Whether `last` is kept.
    remember: bool,
}

impl<'a, K: Key> Workspace<'a, K> {
    /// The working space for the step of `r`, or None when the step does
    /// not look ahead; `children`: look at each way of taking the square;
    /// `remember`: start from the last run where it holds.
    pub fn new(r: &'a StepRules, children: bool, remember: bool) -> Option<Workspace<'a, K>> {
        r.look.active().then(|| Workspace {
            p: Propagation::blank(&r.look),
            q: Propagation::blank(&r.look),
            children,
            remember,
            last: None,
        })
    }

    /// Looks ahead from the state `key`, unpacked into `m`: from the last
    /// state's run when `key` has its classes and its pieces allow.
    #[inline(always)]
    fn look(&mut self, key: K, m: &[u8; SLOTS]) -> Ahead {
        let classes = key.classes();
        if let Some((c, found)) = self.last
            && c == classes
            && self.p.replay(m)
        {
            return found;
        }
        let found = if !self.p.reset(m) {
            Ahead::Dead
        } else {
            match self.p.run() {
                Propagated::Dead => Ahead::Dead,
                Propagated::Whole => Ahead::Whole,
                Propagated::Open => {
                    let (must, may) = self.p.advice();
                    Ahead::Open(must, may)
                }
            }
        };
        self.last = (self.remember && !self.p.closed_piece()).then_some((classes, found));
        found
    }
}

/// Calls `emit(Some(key))` for each state the step leads `key` to, and
/// `emit(None)` for each whole tour it completes; `ws` is the step's
/// [`Workspace`].
#[inline]
pub fn expand<K: Key>(
    key: K,
    r: &StepRules,
    ws: &mut Option<Workspace<K>>,
    emit: &mut impl FnMut(Option<K>),
) {
    let st = r.step;
    let mut m = [EMPTY; SLOTS];
    unpack(key, st.before, &mut m);
    let v = st.before;
    m[v] = EMPTY;
    // The look-ahead: no future, or the moves of the new square it forces
    // (`must`) and leaves possible (`may`).
    let mut prop = false;
    let (mut must_slots, mut may_slots) = (0u64, u64::MAX);
    if let Some(ws) = ws.as_mut() {
        match ws.look(key, &m) {
            Ahead::Dead => return,
            Ahead::Whole => {}
            Ahead::Open(must, may) => {
                (must_slots, may_slots) = (must, may);
                prop = ws.children && r.look.next().is_some();
            }
        }
    }
    // The moves that may be used (to squares that can take one more), and
    // those that must be (forced, or to retiring squares that cannot
    // retire as they are). A retiring square that is not a neighbour must
    // retire as it is.
    let mut open = [0u8; SLOTS];
    let mut k = 0;
    let mut must = 0u64;
    let mut seen = 0u64;
    for &b in &st.back {
        let s = usize::from(b);
        seen |= 1 << s;
        let takes = match m[s] {
            FULL => false,
            EMPTY => true,
            _ => r.kind[s] != Kind::End,
        };
        let needed = r.retires & (1 << s) != 0 && !retires_as_is(m[s], r.kind[s]);
        if takes && may_slots & (1 << s) != 0 {
            if needed || must_slots & (1 << s) != 0 {
                must |= 1 << k;
            }
            open[k] = b;
            k += 1;
        } else if needed || must_slots & (1 << s) != 0 {
            return;
        }
    }
    for &x in &st.retire {
        let s = usize::from(x);
        if s != v && seen & (1 << s) == 0 && !retires_as_is(m[s], r.kind[s]) {
            return;
        }
    }
    let open = &open[..k];
    let musts = must.count_ones();
    if musts > 2 {
        return;
    }
    let v_end = r.kind[v] == Kind::End;
    // Whether taking the moves to `chosen` (slots) leaves a future.
    let mut fits = |chosen: u64| -> bool {
        let (true, Some(ws), Some(w)) = (prop, ws.as_mut(), r.look.next()) else {
            return true;
        };
        let (forced, possible) = ws.p.advice();
        if chosen == forced && possible == forced {
            // Nothing the parent's look-ahead did not know.
            return true;
        }
        let Workspace { p, q, .. } = ws;
        q.copy_from(&*p);
        let mut add = chosen & !forced;
        while add != 0 {
            let s = add.trailing_zeros() as usize;
            add &= add - 1;
            if q.force(w, s) == Propagated::Dead {
                return false;
            }
        }
        let mut unused = possible & !forced & !chosen;
        while unused != 0 {
            let s = unused.trailing_zeros() as usize;
            unused &= unused - 1;
            q.remove(w, s);
        }
        q.run() != Propagated::Dead
    };
    if musts == 0 && fits(0) {
        finish(&m, false, r, emit);
    }
    for (i, &a) in open.iter().enumerate() {
        let bit_a = 1u64 << i;
        // Any set without a required move below i is skipped.
        if must & (bit_a - 1) != 0 {
            break;
        }
        let mut one = m;
        // The new square is empty, so this move cannot complete anything.
        if join(&mut one, v, usize::from(a), r).is_none() {
            continue;
        }
        if must & !bit_a == 0 && fits(1 << a) {
            finish(&one, false, r, emit);
        }
        if v_end {
            continue;
        }
        for (j, &b) in open.iter().enumerate().skip(i + 1) {
            let bits = bit_a | (1 << j);
            if must & !bits != 0 {
                continue;
            }
            let mut two = one;
            if let Some(done) = join(&mut two, v, usize::from(b), r)
                && fits((1 << a) | (1 << b))
            {
                finish(&two, done, r, emit);
            }
        }
    }
}

/// Whether a square with mate value `x` may retire without another move.
#[inline(always)]
fn retires_as_is(x: u8, kind: Kind) -> bool {
    match x {
        FULL => true,
        EMPTY => false,
        _ => kind != Kind::Inner,
    }
}

/// Uses the move between slots `a` and `b`. Returns None when that makes
/// something no tour contains, and whether it completed a tour (a cycle,
/// or an open path whose both ends have retired) — allowed only at the
/// last square.
#[inline(always)]
fn join(m: &mut [u8; SLOTS], a: usize, b: usize, r: &StepRules) -> Option<bool> {
    let (ma, mb) = (m[a], m[b]);
    if ma == FULL || mb == FULL {
        return None;
    }
    // The far ends of the two pieces (FREE: retired).
    let ea = if ma == EMPTY { a as u8 } else { ma };
    let eb = if mb == EMPTY { b as u8 } else { mb };
    if ma != EMPTY && usize::from(ea) == b {
        // Both ends of one piece: a cycle.
        if !(r.last && r.closed) {
            return None;
        }
        m[a] = FULL;
        m[b] = FULL;
        return Some(true);
    }
    if ma != EMPTY {
        m[a] = FULL;
    }
    if mb != EMPTY {
        m[b] = FULL;
    }
    match (ea == FREE, eb == FREE) {
        (true, true) => {
            if !r.last {
                return None;
            }
            return Some(true);
        }
        (true, false) => m[usize::from(eb)] = FREE,
        (false, true) => m[usize::from(ea)] = FREE,
        (false, false) => {
            m[usize::from(ea)] = eb;
            m[usize::from(eb)] = ea;
        }
    }
    Some(false)
}

/// Retires the squares that leave the frontier, checks the ends, and emits
/// the state after the step (or a whole tour).
#[inline(always)]
fn finish<K: Key>(m: &[u8; SLOTS], done: bool, r: &StepRules, emit: &mut impl FnMut(Option<K>)) {
    let st = r.step;
    let mut m = *m;
    let mut done = done;
    for &x in &st.retire {
        let s = usize::from(x);
        match m[s] {
            FULL => {}
            EMPTY => return,
            FREE => {
                // The second end of an open tour retires: a whole tour.
                if r.kind[s] == Kind::Inner || done {
                    return;
                }
                done = true;
            }
            p => {
                if r.kind[s] == Kind::Inner {
                    return;
                }
                m[usize::from(p)] = FREE;
            }
        }
    }
    if r.last {
        if done {
            emit(None);
        }
        return;
    }
    if done {
        return;
    }
    // The state after the step, packed straight from the mates by new
    // slot (each piece's other slot, or pieces labelled in the order of
    // their first slot), with the free and empty slots counted on the way.
    let len = st.keep.len();
    let (mut key, free, empty) = if K::MATES {
        pack_mates(&m, r)
    } else {
        pack_labelled(&m, r)
    };
    if empty & r.last_inner != 0 {
        return;
    }
    // Ends: fixed ends still to come or in the frontier (they take one
    // move at most, so never done), retired ends, and empty squares with
    // one move left.
    let ends = r.ends_later + r.keep_end + free + (empty & r.last_any).count_ones();
    if ends > 2 {
        return;
    }
    if !r.images.is_empty() {
        // The mates after the step, by new slot.
        let mut nm = [EMPTY; SLOTS];
        for (j, &x) in st.keep.iter().enumerate() {
            let mate = m[usize::from(x)];
            nm[j] = match mate {
                EMPTY | FULL | FREE => mate,
                p => r.new_slot[usize::from(p)],
            };
        }
        for image in &r.images {
            let mut im = [EMPTY; SLOTS];
            for j in 0..len {
                im[usize::from(image[j])] = match nm[j] {
                    x @ (EMPTY | FULL | FREE) => x,
                    p => image[usize::from(p)],
                };
            }
            let other: K = pack(&im, len);
            if other < key {
                key = other;
            }
        }
    }
    emit(Some(key));
}

/// The [`Mates`](super::key::Mates) key of the mates `m` (by the extended
/// frontier's slots) after the step, by new slot, with its free slots and
/// its empty ones (a bit mask).
#[inline(always)]
fn pack_mates<K: Key>(m: &[u8; SLOTS], r: &StepRules) -> (K, u32, u64) {
    let mut key = K::ZERO;
    let (mut free, mut empty) = (0u32, 0u64);
    for (j, &x) in r.step.keep.iter().enumerate() {
        let mate = m[usize::from(x)];
        // EMPTY, FULL, FREE: 0, 1, 2.
        let code = if mate < FREE {
            3 + r.new_slot[usize::from(mate)]
        } else {
            !mate
        };
        empty |= u64::from(mate == EMPTY) << j;
        free += u32::from(mate == FREE);
        key = key.with(j, code);
    }
    (key, free, empty)
}

/// The labelled key of the mates `m` (by the extended frontier's slots)
/// after the step, by new slot, with its free slots and its empty ones (a
/// bit mask).
#[inline(always)]
fn pack_labelled<K: Key>(m: &[u8; SLOTS], r: &StepRules) -> (K, u32, u64) {
    let mut key = K::ZERO;
    // Without branches on the slot's value, which varies from state to
    // state: a piece's first slot gives it the next label (stored at its
    // other slot), its second reads it; the other values' codes are 0 to 2.
    let mut label = [0u8; SLOTS];
    let mut next = 0u8;
    let (mut free, mut empty) = (0u32, 0u64);
    for (j, &x) in r.step.keep.iter().enumerate() {
        let mate = m[usize::from(x)];
        let pair = mate < FREE;
        let q = usize::from(r.new_slot[usize::from(mate)]);
        let first = pair & (q > j);
        label[if first { q } else { SCRATCH }] = next;
        let code = if pair {
            3 + if first { next } else { label[j] }
        } else {
            // EMPTY, FULL, FREE: 0, 1, 2.
            !mate
        };
        next += u8::from(first);
        empty |= u64::from(mate == EMPTY) << j;
        free += u32::from(mate == FREE);
        key = key.with(j, code);
    }
    (key, free, empty)
}
