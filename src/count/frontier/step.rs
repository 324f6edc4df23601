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
}

/// The largest extended frontier.
const SLOTS: usize = 26;

/// Unpacks `key` (a frontier of `len` slots) into mates.
#[inline]
fn unpack<K: Key>(key: K, len: usize, m: &mut [u8; SLOTS]) {
    let mut first = [u8::MAX; 16];
    for slot in 0..len {
        m[slot] = match key.get(slot) {
            0 => EMPTY,
            1 => FULL,
            2 => FREE,
            c => {
                let l = usize::from(c - 3);
                if first[l] == u8::MAX {
                    first[l] = slot as u8;
                    EMPTY // set when its partner is met
                } else {
                    let p = first[l];
                    m[usize::from(p)] = slot as u8;
                    p
                }
            }
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
    let back = &st.back;
    // The moves that may be used: to squares that can take one more.
    let mut open = [0u8; SLOTS];
    let mut k = 0;
    for &b in back {
        let s = usize::from(b);
        if can_take(&m, s, r.kind[s]) {
            open[k] = b;
            k += 1;
        }
    }
    let open = &open[..k];
    finish(&m, false, r, emit);
    for (i, &a) in open.iter().enumerate() {
        let mut one = m;
        // The new square is empty, so this move cannot complete anything.
        if join(&mut one, v, usize::from(a), r).is_none() {
            continue;
        }
        finish(&one, false, r, emit);
        if r.kind[v] == Kind::End {
            continue;
        }
        for &b in &open[i + 1..] {
            let mut two = one;
            if let Some(done) = join(&mut two, v, usize::from(b), r) {
                finish(&two, done, r, emit);
            }
        }
    }
}

/// Whether slot `s` can take one more move.
#[inline(always)]
fn can_take(m: &[u8; SLOTS], s: usize, kind: Kind) -> bool {
    match m[s] {
        FULL => false,
        EMPTY => true,
        _ => kind != Kind::End,
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
    // Ends already fixed, and the new state.
    let mut ends = r.ends_later;
    let mut label = [u8::MAX; SLOTS];
    let mut next = 3u8;
    let mut key = K::ZERO;
    for (j, &x) in st.keep.iter().enumerate() {
        let s = usize::from(x);
        let code = match m[s] {
            EMPTY => 0,
            FULL => 1,
            FREE => {
                ends += 1;
                2
            }
            p => {
                if label[s] == u8::MAX {
                    label[usize::from(p)] = next;
                    next += 1;
                    next - 1
                } else {
                    label[s]
                }
            }
        };
        if r.kind[s] == Kind::End && code != 1 {
            ends += 1;
        }
        key = key.with(j, code);
    }
    for &j in &st.last_move {
        let s = usize::from(st.keep[usize::from(j)]);
        if m[s] == EMPTY {
            // One move left and none yet: an end, if it may be one.
            match r.kind[s] {
                Kind::Inner => return,
                Kind::Any => ends += 1,
                Kind::End => {}
            }
        }
    }
    if ends > 2 {
        return;
    }
    emit(Some(key));
}
