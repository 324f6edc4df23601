//! Frontier counts in shards: the work split into *units* whose exact
//! counts add up to the whole, and every N-th unit counted by one shard.
//!
//! - **Pairs of ends.** An open count whose start or end is free is split
//!   by the pair of squares the tour starts and ends on: each pair is its
//!   own frontier count (both ends fixed), and of the pairs that a
//!   symmetry of the board maps onto each other one is counted and
//!   weighted by their number (twice, when the count is of tours from any
//!   start to any end: a path between two squares is two directed tours).
//!   Pairs that the colours rule out — on a board whose moves all change a
//!   square's colour, a tour of an even number of squares ends on the
//!   other colour, one of an odd number on the more numerous colour at
//!   both ends — have no tour and are not counted.
//! - **Parts at a cut square.** Any frontier count — the pairs' too, when
//!   there are fewer pairs than shards — is split by the states after a
//!   cut square ([`frontier::Cut`]): the count is linear in them, so each
//!   part sweeps on from its share alone.
//!
//! The units depend only on the puzzle and N, never on the machine, so
//! every shard finds the same list; the puzzle's fingerprint (its move
//! graph, goal, method and order of squares) and each shard's check
//! figure let `count --merge` tell that the shards belong together.

use sha2::{Digest, Sha256};

use super::check::Check;
use super::frontier::{self, Cut, FrontierCounted, Plan};
use crate::model::{Board, Goal, MoveGraph, Symmetries};

/// One unit of a split count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The goal's start, or the pair's.
    pub start: Option<u32>,
    /// The goal's end, or the pair's.
    pub end: Option<u32>,
    /// Whether the unit is a pair of ends (not the goal's own).
    pub pair: bool,
    /// The tours each tour counted stands for: the pairs its pair stands
    /// for (twice over for tours between any two squares).
    pub weight: u128,
    /// The part of the states at the cut square, if the unit is cut.
    pub cut: Option<Cut>,
}

impl Unit {
    /// The goal the unit counts.
    pub fn goal(&self, goal: &Goal) -> Goal {
        Goal {
            start: self.start,
            end: self.end,
            ..*goal
        }
    }

    /// The unit in the shard line's words: `a1-c2x16` for a pair (weight
    /// 16), `#3/8@12` for part 3 of 8 cut after square 12, both for a
    /// cut pair, `all` for the whole count.
    pub fn describe(&self, board: &Board, cut_at: Option<usize>) -> String {
        let mut s = String::new();
        if self.pair {
            let name = |x: Option<u32>| x.map_or("?".to_string(), |q| board.name(q));
            s = format!("{}-{}x{}", name(self.start), name(self.end), self.weight);
        }
        if let Some(c) = self.cut {
            s.push_str(&format!(
                "#{}/{}@{}",
                c.part + 1,
                c.parts,
                cut_at.map_or("?".to_string(), |a| a.to_string())
            ));
        }
        if s.is_empty() {
            s.push_str("all");
        }
        s
    }
}

/// The pairs of ends of an open `goal` on `g` (board symmetries `sym`),
/// one per orbit, with their weights; None when the goal's ends are both
/// fixed, or the tour is closed: then the count is one unit.
pub fn pairs(g: &MoveGraph, goal: &Goal, sym: &Symmetries) -> Option<Vec<Unit>> {
    if goal.closed || (goal.start.is_some() && goal.end.is_some()) {
        return None;
    }
    let n = g.len() as u32;
    let group = if sym.squares() == g.len() {
        sym.automorphisms_of(g)
    } else {
        Symmetries::none(g.len())
    };
    let colours = two_colouring(g);
    let allowed = |a: u32, b: u32| match &colours {
        None => true,
        Some(c) => {
            let ones = c.iter().filter(|&&x| x).count();
            let (n, a, b) = (c.len(), c[a as usize], c[b as usize]);
            if n % 2 == 0 {
                a != b
            } else {
                // Both ends on the colour with one square more.
                let more = 2 * ones > n;
                a == more && b == more
            }
        }
    };
    let mut units = Vec::new();
    match (goal.start, goal.end) {
        (None, None) => {
            let group = group.elements();
            for a in 0..n {
                for b in a + 1..n {
                    if !allowed(a, b) {
                        continue;
                    }
                    // The least image of {a, b} names the orbit.
                    let images: Vec<(u32, u32)> = group
                        .iter()
                        .map(|p| {
                            let (x, y) = (p[a as usize], p[b as usize]);
                            (x.min(y), x.max(y))
                        })
                        .collect();
                    if images.iter().any(|&i| i < (a, b)) {
                        continue;
                    }
                    let mut orbit = images;
                    orbit.sort_unstable();
                    orbit.dedup();
                    units.push(Unit {
                        start: Some(a),
                        end: Some(b),
                        pair: true,
                        weight: 2 * orbit.len() as u128,
                        cut: None,
                    });
                }
            }
        }
        (Some(fixed), None) | (None, Some(fixed)) => {
            let stab = group.stabiliser(&[fixed]);
            for other in 0..n {
                if other == fixed || !allowed(fixed, other) {
                    continue;
                }
                let images: Vec<u32> = stab.elements().iter().map(|p| p[other as usize]).collect();
                if images.iter().any(|&i| i < other) {
                    continue;
                }
                let mut orbit = images;
                orbit.sort_unstable();
                orbit.dedup();
                let (start, end) = if goal.start.is_some() {
                    (fixed, other)
                } else {
                    (other, fixed)
                };
                units.push(Unit {
                    start: Some(start),
                    end: Some(end),
                    pair: true,
                    weight: orbit.len() as u128,
                    cut: None,
                });
            }
        }
        (Some(_), Some(_)) => return None,
    }
    Some(units)
}

/// A proper two-colouring of `g`'s moves (taken as two-way), if it has one.
fn two_colouring(g: &MoveGraph) -> Option<Vec<bool>> {
    let n = g.len();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    let mut stack = Vec::new();
    for s in 0..n {
        if colour[s].is_some() {
            continue;
        }
        colour[s] = Some(false);
        stack.push(s as u32);
        while let Some(u) = stack.pop() {
            let cu = colour[u as usize] == Some(true);
            for w in g.neighbours(u) {
                match colour[w as usize] {
                    None => {
                        colour[w as usize] = Some(!cu);
                        stack.push(w);
                    }
                    Some(c) if c == cu => return None,
                    Some(_) => {}
                }
            }
        }
    }
    Some(colour.into_iter().map(|c| c == Some(true)).collect())
}

/// Every unit of a frontier count of `goal` on `g` split `shards` ways:
/// the pairs of ends (or the whole count), each cut into as many parts as
/// it takes to give every shard a unit.
pub fn units(g: &MoveGraph, goal: &Goal, sym: &Symmetries, shards: u32) -> Vec<Unit> {
    let base = pairs(g, goal, sym).unwrap_or_else(|| {
        vec![Unit {
            start: goal.start,
            end: goal.end,
            pair: false,
            weight: 1,
            cut: None,
        }]
    });
    if base.is_empty() {
        return base;
    }
    let parts = u32::try_from((shards as usize).div_ceil(base.len()))
        .unwrap_or(u32::MAX)
        .max(1);
    if parts == 1 {
        return base;
    }
    base.iter()
        .flat_map(|u| {
            (0..parts).map(move |part| Unit {
                cut: Some(Cut { part, parts }),
                ..*u
            })
        })
        .collect()
}

/// The units shard `k` of `n` (from 1) counts: every n-th, from the k-th.
pub fn mine(units: usize, k: u32, n: u32) -> Vec<usize> {
    (0..units)
        .filter(|&u| u % n as usize == (k - 1) as usize)
        .collect()
}

/// The puzzle's fingerprint: sixteen hexadecimal digits of a hash of the
/// move graph, the goal, the method and (for the frontier) the order of
/// the squares — what the shards of one count must share.
pub fn fingerprint(g: &MoveGraph, goal: &Goal, method: &str, plan: Option<&Plan>) -> String {
    let mut h = Sha256::new();
    h.update(b"engine count shards 1\0");
    h.update(method.as_bytes());
    h.update((g.len() as u64).to_le_bytes());
    for s in 0..g.len() as u32 {
        h.update((g.degree(s) as u64).to_le_bytes());
        for t in g.neighbours(s) {
            h.update(t.to_le_bytes());
        }
    }
    h.update([u8::from(goal.closed)]);
    for end in [goal.start, goal.end] {
        h.update(end.map_or(u64::MAX, u64::from).to_le_bytes());
    }
    if let Some(p) = plan {
        for st in &p.steps {
            h.update(st.vertex.to_le_bytes());
        }
    }
    let digest = h.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// What a frontier shard counted: its units' weighted tours and cycles,
/// the check figure, and the work.
#[derive(Clone, Debug)]
pub struct ShardCounted {
    /// Directed tours of the units counted, weighted.
    pub tours: u128,
    /// Closed goals: twice the distinct cycles of the units counted.
    pub cycles_x2: Option<u128>,
    /// The units counted, in the shard line's words.
    pub covered: Vec<String>,
    /// The units finished, and the shard's units.
    pub done: usize,
    /// The shard's units.
    pub units: usize,
    /// The check figure: each unit's, times its place in the list, added.
    pub check: Check,
    /// The last unit's count (its work stands for the shard's).
    pub last: Option<FrontierCounted>,
}

/// Counts units `mine` of `all` with `plan`, each a frontier count of the
/// unit's goal (and part); `each` runs one frontier count. Stops at the
/// first unit that does not finish, with the units before it counted.
pub fn count_units(
    board: &Board,
    goal: &Goal,
    all: &[Unit],
    mine: &[usize],
    mut each: impl FnMut(&Goal, Option<Cut>) -> Result<FrontierCounted, frontier::Unfit>,
) -> Result<ShardCounted, frontier::Unfit> {
    let mut out = ShardCounted {
        tours: 0,
        cycles_x2: goal.closed.then_some(0),
        covered: Vec::with_capacity(mine.len()),
        done: 0,
        units: mine.len(),
        check: Check::default(),
        last: None,
    };
    for &u in mine {
        let unit = all[u];
        let c = each(&unit.goal(goal), unit.cut)?;
        out.covered.push(unit.describe(board, c.cut_at));
        let stopped = c.stopped.is_some();
        if !stopped {
            out.tours += unit.weight * c.tours;
            if let (Some(x2), Some(c2)) = (out.cycles_x2.as_mut(), c.cycles_x2) {
                *x2 += c2;
            }
            out.check = out.check.plus(c.check.times(Check::new(u as u64 + 1)));
            out.done += 1;
        }
        out.last = Some(c);
        if stopped {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::Piece;

    fn knight(w: u32, h: u32) -> (Board, MoveGraph, Symmetries) {
        let board = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
        let sym = Symmetries::of_board(&board, &g);
        (board, g, sym)
    }

    /// The pairs' weights add up to every ordered pair the colours allow.
    #[test]
    fn pairs_stand_for_every_pair_the_colours_allow() {
        for (w, h) in [(5, 5), (6, 6), (8, 8), (7, 4)] {
            let (_, g, sym) = knight(w, h);
            let n = g.len();
            let Some(units) = pairs(&g, &Goal::default(), &sym) else {
                panic!("no pairs");
            };
            let weights: u128 = units.iter().map(|u| u.weight).sum();
            let colours = two_colouring(&g).unwrap_or_default();
            let ones = colours.iter().filter(|&&c| c).count();
            let expected = if n % 2 == 0 {
                2 * ones * (n - ones)
            } else {
                let more = ones.max(n - ones);
                more * (more - 1)
            };
            assert_eq!(weights, expected as u128, "{w}x{h}");
        }
        // 8x8: the 136 pairs of the published count by start and end.
        let (_, g, sym) = knight(8, 8);
        assert_eq!(
            pairs(&g, &Goal::default(), &sym).map(|u| u.len()),
            Some(136)
        );
    }

    #[test]
    fn every_unit_goes_to_one_shard() {
        for n in [1, 2, 7, 40] {
            let mut seen = vec![0; 100];
            for k in 1..=n {
                for u in mine(100, k, n) {
                    seen[u] += 1;
                }
            }
            assert!(seen.iter().all(|&s| s == 1));
        }
    }
}
