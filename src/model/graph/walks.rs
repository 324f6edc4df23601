//! Walks over a move graph, written once and used by the proofs, the
//! solvers and the counter: breadth-first distances, reachability, parts
//! and colours, and the squares that can close a tour.

use super::{Adjacency, Adjacent, MoveGraph};
use crate::halt::{self, Halt};

/// Distance of a square the breadth-first search did not reach. Distances
/// are kept in 16 bits (a 4096x4096 board's map takes 32 MB) and saturate
/// just below this: beyond 65534 moves they only say "far".
pub const FAR: u16 = u16::MAX;

/// Breadth-first distances from `sources` over `adj` (which must be
/// symmetric), through squares `pass` allows, up to `radius` moves. `dist`
/// must hold `FAR` on every square the search may reach; the squares it sets
/// are appended to `touched` (if given) so the caller can reset them cheaply.
pub fn distances<A: Adjacent>(
    adj: &A,
    sources: impl IntoIterator<Item = u32>,
    pass: impl Fn(u32) -> bool,
    radius: u16,
    dist: &mut [u16],
    mut touched: Option<&mut Vec<u32>>,
) {
    // Level by level: two frontiers, so memory follows the widest level.
    let mut level: Vec<u32> = Vec::new();
    for s in sources {
        if dist[s as usize] == FAR {
            dist[s as usize] = 0;
            level.push(s);
        }
    }
    let mut next: Vec<u32> = Vec::new();
    let mut d: u16 = 0;
    while !level.is_empty() && d < radius {
        if let Some(t) = touched.as_mut() {
            t.extend_from_slice(&level);
        }
        let step = (d + 1).min(FAR - 1);
        for &v in &level {
            adj.each(v, |t| {
                let slot = &mut dist[t as usize];
                if *slot == FAR && pass(t) {
                    *slot = step;
                    next.push(t);
                }
            });
        }
        std::mem::swap(&mut level, &mut next);
        next.clear();
        d = d.saturating_add(1);
    }
    if let Some(t) = touched.as_mut() {
        t.extend_from_slice(&level);
    }
}

/// Breadth-first distances from `sources` to every square of `adj` (which
/// must be symmetric), saturating; FAR where unreached. Stops when `halt`
/// (asked every few thousand squares) says so.
pub fn all_distances<A: Adjacent, H: Halt>(
    adj: &A,
    sources: impl IntoIterator<Item = u32>,
    halt: &H,
) -> Result<Vec<u16>, H::Stop> {
    let mut dist = vec![FAR; adj.len()];
    each_distance(adj, sources, halt, |s, d| dist[s as usize] = d)?;
    Ok(dist)
}

/// The breadth-first search of [`all_distances`], handing each reached
/// square and its distance to `set` (once each, sources first) instead of
/// keeping a map. Seen squares are marked in a bitset (an eighth of a byte
/// each, so the marks stay in cache on large boards). Stops when `halt`
/// says so.
pub fn each_distance<A: Adjacent, H: Halt>(
    adj: &A,
    sources: impl IntoIterator<Item = u32>,
    halt: &H,
    mut set: impl FnMut(u32, u16),
) -> Result<(), H::Stop> {
    let n = adj.len();
    let mut seen = vec![0u64; n.div_ceil(64)];
    let mut level: Vec<u32> = Vec::new();
    for s in sources {
        let (word, bit) = (s as usize / 64, 1u64 << (s % 64));
        if seen[word] & bit == 0 {
            seen[word] |= bit;
            set(s, 0);
            level.push(s);
        }
    }
    let mut next: Vec<u32> = Vec::new();
    let mut d: u16 = 0;
    let mut since = 0usize;
    while !level.is_empty() {
        d = (d + 1).min(FAR - 1);
        since += level.len();
        if since >= halt::POLL_EVERY {
            since = 0;
            halt.check()?;
        }
        for &v in &level {
            adj.each(v, |t| {
                let (word, bit) = (t as usize / 64, 1u64 << (t % 64));
                if seen[word] & bit == 0 {
                    seen[word] |= bit;
                    set(t, d);
                    next.push(t);
                }
            });
        }
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
    Ok(())
}

/// Number of connected parts of the underlying undirected graph, and a
/// 2-colouring when it is bipartite (the two classes 0 and 1); stops when
/// `halt` says so.
///
/// A union–find with parities over the moves in square order rather than a
/// breadth-first search: on a board most moves join nearby squares, so the
/// work stays in cache where a search front would wander over the whole
/// board (on 16 million squares this is several times faster).
pub fn parts_and_colours<H: Halt>(
    g: &MoveGraph,
    halt: &H,
) -> Result<(usize, Option<Vec<u8>>), H::Stop> {
    match g.adjacency() {
        Adjacency::Lists(a) => parts_of(&a, g.is_symmetric(), halt),
        Adjacency::Leaper(a) => parts_of(&a, g.is_symmetric(), halt),
    }
}

fn parts_of<A: Adjacent, H: Halt>(
    adj: &A,
    symmetric: bool,
    halt: &H,
) -> Result<(usize, Option<Vec<u8>>), H::Stop> {
    let n = adj.len();
    let mut uf = ParityForest::new(n);
    let mut parts = n;
    let mut bipartite = true;
    for s in 0..n as u32 {
        halt::poll(halt, s as usize)?;
        if symmetric {
            // Each move is listed from both ends: take it from the later
            // one, when `s` is still alone, so its first move just hangs it
            // under that part's root and later ones need one search each.
            let mut mine: Option<(u32, u32)> = None;
            adj.each(s, |t| {
                if t >= s {
                    return;
                }
                let (rt, pt) = uf.find(t);
                match mine {
                    None => {
                        uf.hang(s, rt, pt ^ 1);
                        mine = Some((rt, pt ^ 1));
                        parts -= 1;
                    }
                    Some((rs, ps)) if rs == rt => bipartite &= ps != pt,
                    Some(_) => {
                        uf.join_apart(s, t);
                        mine = Some(uf.find(s));
                        parts -= 1;
                    }
                }
            });
        } else {
            adj.each(s, |t| match uf.join_apart(s, t) {
                Join::Joined => parts -= 1,
                Join::Same { apart } => bipartite &= apart,
            });
        }
    }
    let colour = bipartite.then(|| (0..n as u32).map(|s| uf.find(s).1 as u8).collect());
    Ok((parts, colour))
}

/// What joining two squares did.
enum Join {
    /// They were in different parts, now one.
    Joined,
    /// They were already in one part; `apart` if on different colours.
    Same { apart: bool },
}

/// A union–find forest whose links also say whether a square's colour
/// differs from its parent's (the top bit): every move must change colour.
struct ParityForest {
    parent: Vec<u32>,
}

impl ParityForest {
    const INDEX: u32 = u32::MAX >> 1;

    fn new(n: usize) -> Self {
        // Boards have at most 4096 x 4096 squares, well within 31 bits.
        ParityForest {
            parent: (0..n as u32).collect(),
        }
    }

    /// The root of `s` and whether `s`'s colour differs from it (0 or 1),
    /// halving the path on the way.
    fn find(&mut self, mut s: u32) -> (u32, u32) {
        let p = &mut self.parent;
        let mut parity = 0;
        loop {
            let e = p[s as usize];
            let up = e & Self::INDEX;
            if up == s {
                return (s, parity);
            }
            let e2 = p[up as usize];
            let up2 = e2 & Self::INDEX;
            if up2 == up {
                return (up, parity ^ (e >> 31));
            }
            let bits = (e ^ e2) >> 31;
            p[s as usize] = up2 | (bits << 31);
            parity ^= bits;
            s = up2;
        }
    }

    /// Puts the root `s` under the root `r`, with colour `parity` relative
    /// to it.
    fn hang(&mut self, s: u32, r: u32, parity: u32) {
        self.parent[s as usize] = r | (parity << 31);
    }

    /// Joins `s` and `t` as squares of different colours.
    fn join_apart(&mut self, s: u32, t: u32) -> Join {
        let (rs, ps) = self.find(s);
        let (rt, pt) = self.find(t);
        if rs == rt {
            return Join::Same { apart: ps != pt };
        }
        // The later root goes under the earlier one: in square order a new
        // square then hangs straight off its part's root.
        let (lo, hi) = (rs.min(rt), rs.max(rt));
        self.parent[hi as usize] = lo | ((ps ^ pt ^ 1) << 31);
        Join::Joined
    }
}

/// Whether every square is reached from `from`; stops when `halt` says so.
pub fn reaches_all<H: Halt>(g: &MoveGraph, from: u32, halt: &H) -> Result<bool, H::Stop> {
    let mut seen = vec![false; g.len()];
    let mut stack = vec![from];
    seen[from as usize] = true;
    let mut count: usize = 1;
    while let Some(v) = stack.pop() {
        halt::poll(halt, count)?;
        for t in g.neighbours(v) {
            if !seen[t as usize] {
                seen[t as usize] = true;
                count += 1;
                stack.push(t);
            }
        }
    }
    Ok(count == g.len())
}

/// Whether every square reaches every other (`rev` is `g` reversed).
pub fn strongly_connected<H: Halt>(
    g: &MoveGraph,
    rev: &MoveGraph,
    halt: &H,
) -> Result<bool, H::Stop> {
    Ok(g.is_empty() || (reaches_all(g, 0, halt)? && reaches_all(rev, 0, halt)?))
}

/// Squares from which a tour may close back to `start` (its predecessors).
pub fn predecessors_mask(g: &MoveGraph, start: u32) -> Vec<bool> {
    let mut mask = vec![false; g.len()];
    for s in 0..g.len() as u32 {
        if g.has_edge(s, start) {
            mask[s as usize] = true;
        }
    }
    mask
}
