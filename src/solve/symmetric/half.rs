//! The depth-first search of a half (or quarter) path: a path through one
//! square of each orbit of the symmetry, from a given head to a square that
//! may end it, in Warnsdorff order with sound pruning on the orbits.
//!
//! The search walks squares, but what it must cover is orbits: a square
//! entered uses up its whole orbit (its images are visited by the images of
//! the path). So every count below is kept per orbit, on the quotient
//! graph: orbit `A` has a move to orbit `B` when some square of `A` has a
//! kept move to some square of `B`.

use super::super::Stats;
use super::super::backtrack::{Search, Searching};
use crate::halt::{self, Halt};
use crate::search::Pace;
use crate::search::driver::{Driver, Rules, Sofar, Verdict};
use crate::search::event::Observer;

/// The moves a half path may use and the orbits they join.
pub(super) struct Quotient {
    /// The orbit of each square.
    orbit: Vec<u32>,
    /// Number of orbits.
    orbits: usize,
    /// Kept moves from each square (CSR), in move order; never to a square
    /// of the same orbit.
    off: Vec<u32>,
    to: Vec<u32>,
    /// Distinct orbits each orbit has a kept move to (CSR).
    out_off: Vec<u32>,
    out: Vec<u32>,
    /// Distinct orbits with a kept move into each orbit (CSR).
    in_off: Vec<u32>,
    inn: Vec<u32>,
}

/// Builds a CSR from per-row lists produced by `row`.
fn csr<H: Halt>(
    rows: usize,
    halt: &H,
    mut row: impl FnMut(u32, &mut Vec<u32>),
) -> Result<(Vec<u32>, Vec<u32>), H::Stop> {
    let mut off = Vec::with_capacity(rows + 1);
    let mut to = Vec::new();
    off.push(0);
    for r in 0..rows as u32 {
        halt::poll(halt, r as usize)?;
        row(r, &mut to);
        off.push(to.len() as u32);
    }
    Ok((off, to))
}

impl Quotient {
    /// The quotient of the moves `moves(s)` (the kept moves of each square)
    /// by the orbits `orbit` (numbered `0..orbits`). With `undirected`, an
    /// orbit's neighbours are those it has a kept move to or from, either
    /// way (a fold walks its half path one way and the image the other).
    pub(super) fn new<H: Halt>(
        orbit: Vec<u32>,
        orbits: usize,
        undirected: bool,
        halt: &H,
        mut moves: impl FnMut(u32, &mut Vec<u32>),
    ) -> Result<Quotient, H::Stop> {
        let n = orbit.len();
        let (off, to) = csr(n, halt, |s, out| {
            let from = out.len();
            moves(s, out);
            // A half path never steps within an orbit.
            let mut i = from;
            while i < out.len() {
                if orbit[out[i] as usize] == orbit[s as usize] {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        })?;
        // Orbit-level pairs (from, to), then each side sorted and deduplicated.
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(to.len());
        for s in 0..n {
            halt::poll(halt, s)?;
            let a = orbit[s];
            for &t in &to[off[s] as usize..off[s + 1] as usize] {
                let b = orbit[t as usize];
                pairs.push((a, b));
                if undirected {
                    pairs.push((b, a));
                }
            }
        }
        halt::between_passes(halt, pairs.len())?;
        pairs.sort_unstable();
        pairs.dedup();
        let side = |pairs: &[(u32, u32)]| {
            let mut off = vec![0u32; orbits + 1];
            for &(a, _) in pairs {
                off[a as usize + 1] += 1;
            }
            for i in 0..orbits {
                off[i + 1] += off[i];
            }
            (off, pairs.iter().map(|&(_, b)| b).collect::<Vec<u32>>())
        };
        let (out_off, out) = side(&pairs);
        let mut flipped: Vec<(u32, u32)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
        flipped.sort_unstable();
        let (in_off, inn) = side(&flipped);
        Ok(Quotient {
            orbit,
            orbits,
            off,
            to,
            out_off,
            out,
            in_off,
            inn,
        })
    }

    /// Number of orbits: the length of a half path.
    pub(super) fn orbits(&self) -> usize {
        self.orbits
    }

    /// Number of squares.
    pub(super) fn orbit_len(&self) -> usize {
        self.orbit.len()
    }

    /// The orbit of square `s`.
    pub(super) fn orbit_of(&self, s: u32) -> u32 {
        self.orbit[s as usize]
    }

    /// The orbits orbit `o` has a kept move to (on a quotient built
    /// `undirected`, or of a two-way graph: its neighbours either way).
    pub(super) fn neighbours(&self, o: u32) -> &[u32] {
        self.outs(o)
    }

    /// The kept moves of square `s`.
    pub(super) fn moves(&self, s: u32) -> &[u32] {
        &self.to[self.off[s as usize] as usize..self.off[s as usize + 1] as usize]
    }

    fn outs(&self, o: u32) -> &[u32] {
        &self.out[self.out_off[o as usize] as usize..self.out_off[o as usize + 1] as usize]
    }

    fn ins(&self, o: u32) -> &[u32] {
        &self.inn[self.in_off[o as usize] as usize..self.in_off[o as usize + 1] as usize]
    }
}

/// Where one half path starts and may end.
pub(super) struct Ends<'e> {
    /// The first square.
    pub head: u32,
    /// The squares the path may end on.
    pub tail: &'e [bool],
    /// An orbit that may only be entered last (a second fixed square of a
    /// fold), if any.
    pub last_only: Option<u32>,
}

/// The depth-first search for one half path of `q` with `ends`, in
/// Warnsdorff order, with three sound prunings on the orbits (each cuts
/// only branches that hold no half path):
///
/// 1. **Entry rule.** Every unvisited orbit must still be entered, from an
///    unvisited orbit or from the current square. `free_in[B]` counts the
///    unvisited orbits with a move into `B`; if an orbit the current square
///    can move to has none, the next move must enter it, and two such orbits
///    mean a dead end.
/// 2. **Exit rule.** Every unvisited orbit but the last must still be left
///    to an unvisited orbit: `free_out[B]` counts them; an orbit with none
///    must be the last, so two such orbits, or one holding no square that
///    may end the path, mean a dead end.
/// 3. **Ending rule.** Some orbit holding a square that may end the path
///    must stay unvisited until the end.
///
/// Each half path is handed to `found`: when it returns true the search
/// stops there ([`Search::Found`]), else it goes on to the next, so that a
/// count sees every half path once ([`Search::Exhausted`] at the end).
pub(super) fn search<O: Observer>(
    q: &Quotient,
    ends: &Ends<'_>,
    run: &mut Searching,
    obs: &mut O,
    stats: &mut Stats,
    found: impl FnMut(&[u32]) -> bool,
) -> Search {
    let m = q.orbits();
    let limits = run.limits;
    if let Err(stop) = halt::between_passes(limits, q.orbit.len()) {
        return Search::Stopped(stop, Vec::new());
    }
    // An orbit can end the path when one of its squares can.
    let mut can_end = vec![false; m];
    for (s, &t) in ends.tail.iter().enumerate() {
        if t {
            can_end[q.orbit[s] as usize] = true;
        }
    }
    let free_out: Vec<u32> = (0..m as u32).map(|o| q.outs(o).len() as u32).collect();
    let free_in: Vec<u32> = (0..m as u32).map(|o| q.ins(o).len() as u32).collect();
    let closers_left = can_end.iter().filter(|&&c| c).count() as u32;
    // Unvisited orbits with `free_out == 0`, and of those the ones that
    // cannot be last.
    let (mut zeros, mut bad_zeros) = (0u32, 0u32);
    for o in 0..m {
        if free_out[o] == 0 {
            zeros += 1;
            bad_zeros += u32::from(!can_end[o]);
        }
    }
    let mut rules = Orbits {
        q,
        ends,
        can_end,
        free_out,
        free_in,
        visited: vec![false; m],
        closers_left,
        zeros,
        bad_zeros,
        path: Vec::with_capacity(m),
        cands: Vec::with_capacity(m * 2),
        found,
    };
    rules.enter(ends.head);
    let mut driver = Driver::new(rules, 1, 1);
    let halt = run.halt();
    let before = stats.nodes;
    let mut nodes = stats.nodes;
    let pace = driver.run(u64::MAX, &mut nodes, &mut run.cadence, &halt, obs);
    stats.nodes = nodes;
    // Every square entered was stepped back from, or is on the path.
    stats.backtracks += nodes - before - driver.path().len() as u64;
    match pace {
        Pace::Stopped(stop) => Search::Stopped(stop, driver.longest()),
        _ => match driver.first() {
            Some(p) => Search::Found(p.to_vec()),
            None => Search::Exhausted(driver.longest()),
        },
    }
}

/// The rules of the half-path search, on the orbits (see [`search`]). A
/// node keeps where its candidate squares begin on the list and the next
/// one to try.
struct Orbits<'q, 'e, F> {
    q: &'q Quotient,
    ends: &'q Ends<'e>,
    can_end: Vec<bool>,
    free_out: Vec<u32>,
    free_in: Vec<u32>,
    visited: Vec<bool>,
    closers_left: u32,
    zeros: u32,
    bad_zeros: u32,
    path: Vec<u32>,
    cands: Vec<u32>,
    found: F,
}

impl<F: FnMut(&[u32]) -> bool> Orbits<'_, '_, F> {
    /// Puts `s` on the path: its orbit is used up.
    fn enter(&mut self, s: u32) {
        let q = self.q;
        let o = q.orbit[s as usize] as usize;
        self.visited[o] = true;
        self.closers_left -= u32::from(self.can_end[o]);
        if self.free_out[o] == 0 {
            self.zeros -= 1;
            self.bad_zeros -= u32::from(!self.can_end[o]);
        }
        for &p in q.ins(o as u32) {
            let f = &mut self.free_out[p as usize];
            *f -= 1;
            if *f == 0 && !self.visited[p as usize] {
                self.zeros += 1;
                self.bad_zeros += u32::from(!self.can_end[p as usize]);
            }
        }
        for &p in q.outs(o as u32) {
            self.free_in[p as usize] -= 1;
        }
        self.path.push(s);
    }

    /// The node the path ends on: a whole half path is a leaf (a find if
    /// `found` says stop), else its candidate squares, fewest onward orbits
    /// first, go on the list.
    fn arrive(&mut self) -> Verdict<(usize, usize)> {
        let q = self.q;
        let m = q.orbits();
        let base = self.cands.len();
        let Some(&v) = self.path.last() else {
            return Verdict::Leaf(0);
        };
        if self.path.len() == m {
            // A whole half path: the search goes on by stepping back,
            // unless `found` ends it.
            let stop = self.ends.tail[v as usize] && (self.found)(&self.path);
            return Verdict::Leaf(u64::from(stop));
        }
        if self.zeros <= 1 && self.bad_zeros == 0 && self.closers_left > 0 {
            let mut forced = u32::MAX;
            for &t in q.moves(v) {
                let o = q.orbit[t as usize];
                if self.visited[o as usize] || self.free_in[o as usize] != 0 {
                    continue;
                }
                if forced != u32::MAX && forced != o {
                    return Verdict::Branch((base, base));
                }
                forced = o;
            }
            let last = self.path.len() + 1 == m;
            for &t in q.moves(v) {
                let o = q.orbit[t as usize];
                if self.visited[o as usize]
                    || (forced != u32::MAX && o != forced)
                    || (!last && self.ends.last_only == Some(o))
                {
                    continue;
                }
                // Fewest onward orbits first, stable for ties; on ties,
                // orbits that can end the path go later.
                let rank = |w: u32| {
                    let o = q.orbit[w as usize] as usize;
                    2 * self.free_out[o] + u32::from(self.can_end[o])
                };
                let key = rank(t);
                let mut i = self.cands.len();
                self.cands.push(t);
                while i > base && rank(self.cands[i - 1]) > key {
                    self.cands[i] = self.cands[i - 1];
                    i -= 1;
                }
                self.cands[i] = t;
            }
        }
        Verdict::Branch((base, base))
    }
}

impl<F: FnMut(&[u32]) -> bool> Rules for Orbits<'_, '_, F> {
    const PATHS: bool = true;
    type Node = (usize, usize);

    fn root(&mut self, _: Sofar) -> Verdict<(usize, usize)> {
        self.arrive()
    }

    fn next(&mut self, &mut (_, next): &mut (usize, usize)) -> Option<u32> {
        self.cands.get(next).copied()
    }

    fn take(&mut self, node: &mut (usize, usize), _: u32) {
        node.1 += 1;
    }

    fn descend(&mut self, _: &(usize, usize), to: u32, _: Sofar) -> Verdict<(usize, usize)> {
        self.enter(to);
        self.arrive()
    }

    fn finished(&mut self, &(base, _): &(usize, usize), _: u128) {
        self.cands.truncate(base);
    }

    /// Takes the last square off the path: its orbit is free again.
    fn ascend(&mut self) {
        let q = self.q;
        let Some(s) = self.path.pop() else {
            return;
        };
        let o = q.orbit[s as usize] as usize;
        for &p in q.outs(o as u32) {
            self.free_in[p as usize] += 1;
        }
        for &p in q.ins(o as u32) {
            let f = &mut self.free_out[p as usize];
            if *f == 0 && !self.visited[p as usize] {
                self.zeros -= 1;
                self.bad_zeros -= u32::from(!self.can_end[p as usize]);
            }
            *f += 1;
        }
        self.visited[o] = false;
        self.closers_left += u32::from(self.can_end[o]);
        if self.free_out[o] == 0 {
            self.zeros += 1;
            self.bad_zeros += u32::from(!self.can_end[o]);
        }
    }

    fn path(&self) -> &[u32] {
        &self.path
    }
}
