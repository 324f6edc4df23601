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
//! Before trying the sets of moves, a state's retiring squares are looked
//! at once: one that cannot retire as it is (no move, or one move where it
//! may not be an end) must take a move from the new square now, or the
//! state has no future. Only the sets that include those moves are tried.

use super::key::Key;
use super::plan::Step;

/// No move yet.
pub const EMPTY: u8 = 255;
/// Two moves: done.
pub const FULL: u8 = 254;
/// One move, and the other end of the piece has retired.
pub const FREE: u8 = 253;

/// What a square may be in the tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An end or a square passed through.
    Any,
    /// An end (a fixed start or end).
    End,
    /// Passed through (every square of a closed tour; the others when both
    /// ends are fixed).
    Inner,
}

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
    /// The code, after the step, of each mate value: a slot's new place
    /// (plus 3) for a slot that stays, and the codes of the three marks.
    pub code: [u8; 256],
    /// Whether each slot of the extended frontier retires.
    pub retires: [bool; SLOTS],
    /// Of the slots that stay, those that must end the tour if still empty
    /// (one move left, and may be an end), and those that may not be empty
    /// (one move left, and must be passed through): bit masks by new slot.
    pub last_any: u32,
    /// See `last_any`.
    pub last_inner: u32,
    /// Squares of kind `End` that stay.
    pub keep_end: u32,
    /// The new slot of each slot of the extended frontier that stays
    /// ([`GONE`] for one that retires).
    pub new_slot: [u8; SLOTS],
}

/// Not in the frontier after the step.
pub const GONE: u8 = u8::MAX;

/// The largest extended frontier.
pub const SLOTS: usize = 26;

impl<'a> StepRules<'a> {
    /// The rules of `step`, whose extended frontier's slots are of `kind`.
    pub fn new(
        step: &'a Step,
        kind: Vec<Kind>,
        ends_later: u32,
        last: bool,
        closed: bool,
    ) -> StepRules<'a> {
        let mut code = [0u8; 256];
        code[usize::from(EMPTY)] = 0;
        code[usize::from(FULL)] = 1;
        code[usize::from(FREE)] = 2;
        let mut retires = [false; SLOTS];
        for &s in &step.retire {
            retires[usize::from(s)] = true;
        }
        let mut keep_end = 0;
        let mut new_slot = [GONE; SLOTS];
        for (j, &s) in step.keep.iter().enumerate() {
            new_slot[usize::from(s)] = j as u8;
            code[usize::from(s)] = 3 + j as u8;
            if kind[usize::from(s)] == Kind::End {
                keep_end += 1;
            }
        }
        let (mut last_any, mut last_inner) = (0u32, 0u32);
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
            code,
            retires,
            last_any,
            last_inner,
            keep_end,
            new_slot,
        }
    }
}

/// Unpacks `key` (a frontier of `len` slots) into mates.
#[inline(always)]
fn unpack<K: Key>(key: K, len: usize, m: &mut [u8; SLOTS]) {
    for (slot, x) in m.iter_mut().enumerate().take(len) {
        *x = match key.get(slot) {
            0 => EMPTY,
            1 => FULL,
            2 => FREE,
            c => c - 3,
        };
    }
}

/// Calls `emit(Some(key))` for each state the step leads `key` to, and
/// `emit(None)` for each whole tour it completes.
#[inline]
pub fn expand<K: Key>(key: K, r: &StepRules, emit: &mut impl FnMut(Option<K>)) {
    let st = r.step;
    let mut m = [EMPTY; SLOTS];
    unpack(key, st.before, &mut m);
    let v = st.before;
    m[v] = EMPTY;
    // The moves that may be used (to squares that can take one more), and
    // those that must be (to retiring squares that cannot retire as they
    // are). A retiring square that is not a neighbour must retire as it is.
    let mut open = [0u8; SLOTS];
    let mut k = 0;
    let mut must = 0u32;
    let mut seen = 0u32;
    for &b in &st.back {
        let s = usize::from(b);
        seen |= 1 << s;
        let ok = match m[s] {
            FULL => false,
            EMPTY => true,
            _ => r.kind[s] != Kind::End,
        };
        if ok {
            if r.retires[s] && !retires_as_is(m[s], r.kind[s]) {
                must |= 1 << k;
            }
            open[k] = b;
            k += 1;
        } else if r.retires[s] && !retires_as_is(m[s], r.kind[s]) {
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
    // The state after the step if nothing changed; each way below patches
    // the slots it changes.
    let mut base = Base {
        key: K::ZERO,
        free: 0,
        empty: 0,
    };
    for (j, &x) in st.keep.iter().enumerate() {
        let mate = m[usize::from(x)];
        base.key = base.key.with(j, r.code[usize::from(mate)]);
        base.free += u32::from(mate == FREE);
        base.empty |= u32::from(mate == EMPTY) << j;
    }
    if musts == 0 {
        finish(&m, 0, false, &base, r, emit);
    }
    for (i, &a) in open.iter().enumerate() {
        let bit_a = 1u32 << i;
        // Any set without a required move below i is skipped.
        if must & (bit_a - 1) != 0 {
            break;
        }
        let mut one = m;
        let mut dirty = 0u32;
        // The new square is empty, so this move cannot complete anything.
        if join(&mut one, &mut dirty, v, usize::from(a), r).is_none() {
            continue;
        }
        if must & !bit_a == 0 {
            finish(&one, dirty, false, &base, r, emit);
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
            let mut dirty2 = dirty;
            if let Some(done) = join(&mut two, &mut dirty2, v, usize::from(b), r) {
                finish(&two, dirty2, done, &base, r, emit);
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
fn join(m: &mut [u8; SLOTS], dirty: &mut u32, a: usize, b: usize, r: &StepRules) -> Option<bool> {
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
        *dirty |= (1 << a) | (1 << b);
        return Some(true);
    }
    if ma != EMPTY {
        m[a] = FULL;
    }
    if mb != EMPTY {
        m[b] = FULL;
    }
    *dirty |= (1 << a) | (1 << b);
    match (ea == FREE, eb == FREE) {
        (true, true) => {
            if !r.last {
                return None;
            }
            return Some(true);
        }
        (true, false) => {
            m[usize::from(eb)] = FREE;
            *dirty |= 1 << eb;
        }
        (false, true) => {
            m[usize::from(ea)] = FREE;
            *dirty |= 1 << ea;
        }
        (false, false) => {
            m[usize::from(ea)] = eb;
            m[usize::from(eb)] = ea;
            *dirty |= (1 << ea) | (1 << eb);
        }
    }
    Some(false)
}

/// The packed state after a step that changes nothing, with its count of
/// free slots and its empty slots (by new slot).
struct Base<K> {
    key: K,
    free: u32,
    empty: u32,
}

/// Retires the squares that leave the frontier, checks the ends, and emits
/// the state after the step (or a whole tour). `dirty` marks the slots
/// whose mates differ from the state `base` was packed from.
#[inline(always)]
fn finish<K: Key>(
    m: &[u8; SLOTS],
    dirty: u32,
    done: bool,
    base: &Base<K>,
    r: &StepRules,
    emit: &mut impl FnMut(Option<K>),
) {
    let st = r.step;
    let mut m = *m;
    let mut done = done;
    let mut dirty = dirty;
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
                dirty |= 1 << p;
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
    // The new state: the base with the changed slots that stay repacked.
    let (mut key, mut free, mut empty) = (base.key, base.free, base.empty);
    while dirty != 0 {
        let s = dirty.trailing_zeros() as usize;
        dirty &= dirty - 1;
        let j = r.new_slot[s];
        if j == GONE {
            continue;
        }
        let j = usize::from(j);
        free -= u32::from(key.get(j) == 2);
        let mate = m[s];
        key = key.set(j, r.code[usize::from(mate)]);
        free += u32::from(mate == FREE);
        empty = (empty & !(1 << j)) | (u32::from(mate == EMPTY) << j);
    }
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
    emit(Some(key));
}
