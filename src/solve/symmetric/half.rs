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
use crate::search::Best;
use crate::search::event::{Event, Observer};

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
    mut found: impl FnMut(&[u32]) -> bool,
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
    let mut free_out: Vec<u32> = (0..m as u32).map(|o| q.outs(o).len() as u32).collect();
    let mut free_in: Vec<u32> = (0..m as u32).map(|o| q.ins(o).len() as u32).collect();
    let mut visited = vec![false; m];
    let mut closers_left = can_end.iter().filter(|&&c| c).count() as u32;
    let mut zeros = 0u32; // unvisited orbits with free_out == 0
    let mut bad_zeros = 0u32; // of those, ones that cannot be last
    for o in 0..m {
        if free_out[o] == 0 {
            zeros += 1;
            bad_zeros += u32::from(!can_end[o]);
        }
    }
    let mut path: Vec<u32> = Vec::with_capacity(m);
    let mut cands: Vec<u32> = Vec::with_capacity(m * 2);
    let mut cbase: Vec<usize> = Vec::with_capacity(m + 1);
    let mut cur: Vec<usize> = Vec::with_capacity(m);
    let mut best = Best::new();
    let mut nodes = stats.nodes;
    let mut backtracks = stats.backtracks;

    macro_rules! enter {
        ($s:expr) => {{
            let s: u32 = $s;
            let o = q.orbit[s as usize] as usize;
            visited[o] = true;
            closers_left -= u32::from(can_end[o]);
            if free_out[o] == 0 {
                zeros -= 1;
                bad_zeros -= u32::from(!can_end[o]);
            }
            for &p in q.ins(o as u32) {
                let f = &mut free_out[p as usize];
                *f -= 1;
                if *f == 0 && !visited[p as usize] {
                    zeros += 1;
                    bad_zeros += u32::from(!can_end[p as usize]);
                }
            }
            for &p in q.outs(o as u32) {
                free_in[p as usize] -= 1;
            }
            path.push(s);
        }};
    }
    macro_rules! leave {
        () => {{
            let s = path.pop().unwrap_or_default();
            let o = q.orbit[s as usize] as usize;
            for &p in q.outs(o as u32) {
                free_in[p as usize] += 1;
            }
            for &p in q.ins(o as u32) {
                let f = &mut free_out[p as usize];
                if *f == 0 && !visited[p as usize] {
                    zeros -= 1;
                    bad_zeros -= u32::from(!can_end[p as usize]);
                }
                *f += 1;
            }
            visited[o] = false;
            closers_left += u32::from(can_end[o]);
            if free_out[o] == 0 {
                zeros += 1;
                bad_zeros += u32::from(!can_end[o]);
            }
            s
        }};
    }

    if let Err(stop) = run.tick(nodes) {
        return Search::Stopped(stop, Vec::new());
    }
    enter!(ends.head);
    nodes += 1;
    obs.event(Event::Advance, &path);
    let mut need_cands = true;
    let result = loop {
        let d = path.len() - 1;
        if need_cands {
            need_cands = false;
            cbase.truncate(d);
            cur.truncate(d);
            let base = cands.len();
            cbase.push(base);
            cur.push(base);
            let v = path[d];
            if path.len() == m {
                // A whole half path has no candidates: the search goes on
                // by stepping back, unless `found` ends it.
                if ends.tail[v as usize] && found(&path) {
                    break Search::Found(path.clone());
                }
            } else if zeros <= 1 && bad_zeros == 0 && closers_left > 0 {
                let mut forced = u32::MAX;
                let mut dead = false;
                for &t in q.moves(v) {
                    let o = q.orbit[t as usize];
                    if visited[o as usize] || free_in[o as usize] != 0 {
                        continue;
                    }
                    if forced != u32::MAX && forced != o {
                        dead = true;
                        break;
                    }
                    forced = o;
                }
                if !dead {
                    let last = path.len() + 1 == m;
                    for &t in q.moves(v) {
                        let o = q.orbit[t as usize];
                        if visited[o as usize]
                            || (forced != u32::MAX && o != forced)
                            || (!last && ends.last_only == Some(o))
                        {
                            continue;
                        }
                        // Fewest onward orbits first, stable for ties; on
                        // ties, orbits that can end the path go later.
                        let rank = |w: u32| {
                            let o = q.orbit[w as usize] as usize;
                            2 * free_out[o] + u32::from(can_end[o])
                        };
                        let key = rank(t);
                        let mut i = cands.len();
                        cands.push(t);
                        while i > base && rank(cands[i - 1]) > key {
                            cands[i] = cands[i - 1];
                            i -= 1;
                        }
                        cands[i] = t;
                    }
                }
            }
        }
        let c = cur[d];
        if c < cands.len() {
            cur[d] = c + 1;
            let t = cands[c];
            if let Err(stop) = run.tick(nodes) {
                break Search::Stopped(stop, Vec::new());
            }
            enter!(t);
            nodes += 1;
            best.reached(path.len());
            obs.event(Event::Advance, &path);
            need_cands = true;
            continue;
        }
        cands.truncate(cbase[d]);
        best.retreating(&path);
        let s = leave!();
        backtracks += 1;
        obs.event(Event::Retreat(s), &path);
        if path.is_empty() {
            break Search::Exhausted(Vec::new());
        }
    };
    stats.nodes = nodes;
    stats.backtracks = backtracks;
    match result {
        Search::Stopped(stop, _) => Search::Stopped(stop, best.longest(&path)),
        Search::Exhausted(_) => Search::Exhausted(best.longest(&[])),
        found => found,
    }
}
