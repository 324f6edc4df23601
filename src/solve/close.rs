//! Pósa rotations: reshaping a Hamiltonian path of an undirected graph
//! without losing a square.
//!
//! A path `v0 … vk` whose end `vk` has a move to some earlier `vi` becomes
//! `v0 … vi vk vk-1 … vi+1`: the same squares, the same start, a new end
//! `vi+1`. Repeating such rotations walks the end across the board, so they
//! turn an open tour into a closed one (rotate until the end is one move from
//! the start), move the end of an open tour onto a required square, or give a
//! stuck walk a new end with unvisited squares next to it. Nothing here knows
//! about pieces or coordinates: it works on any symmetric move graph, with
//! holes or without.
//!
//! Which rotation to make is decided by a distance map: `dist[s]` is the
//! number of moves from `s` to the squares the end should reach (0 on them).
//! Rotations that bring the end closer are taken greedily; when none does, a
//! random one is taken so the search can leave a local minimum.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::model::Adjacent;
use crate::search::event::{Change, Event, Observer};

/// How much rotating one repair may cost before it is given up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    /// Rotations left.
    pub rotations: u64,
    /// Squares moved by reversals, left.
    pub work: u64,
}

/// Reverses `path[i + 1..]`, keeping `pos` (the index of each square on the
/// path) up to date: the rotation at pivot `path[i]`.
pub(crate) fn rotate(path: &mut [u32], pos: &mut [u32], i: usize) {
    let tail = &mut path[i + 1..];
    tail.reverse();
    for (k, &s) in tail.iter().enumerate() {
        pos[s as usize] = (i + 1 + k) as u32;
    }
}

/// How many rotations ahead [`rotate_end`] looks before committing.
const HORIZON: usize = 3;

/// A path seen through a few pending rotations, without moving any square:
/// each rotation at pivot `i` maps position `p > i` to `i + 1 + last - p`
/// (an involution), so positions and squares are found by applying the
/// pending pivots in order, or in reverse order.
struct Virtual<'a> {
    path: &'a [u32],
    pos: &'a [u32],
    last: usize,
    pivots: Vec<usize>,
}

impl Virtual<'_> {
    #[inline]
    fn flip(&self, i: usize, p: usize) -> usize {
        if p > i { i + 1 + self.last - p } else { p }
    }
    /// Position of square `s` after the pending rotations.
    #[inline]
    fn pos_of(&self, s: u32) -> usize {
        let mut p = self.pos[s as usize] as usize;
        for &i in &self.pivots {
            p = self.flip(i, p);
        }
        p
    }
    /// Square at position `q` after the pending rotations.
    #[inline]
    fn at(&self, q: usize) -> u32 {
        let mut q = q;
        for &i in self.pivots.iter().rev() {
            q = self.flip(i, q);
        }
        self.path[q]
    }
}

/// The best sequence of rotations found by [`look_ahead`]: the distance of
/// the end it leads to, and its pivots.
struct Rotations {
    dist: u16,
    pivots: Vec<usize>,
}

/// Depth-first search over rotation sequences of up to `depth` more steps
/// from the virtual path `v`, keeping in `best` the one whose end is
/// closest (shortest among equals). Stops as soon as an end reaches 0.
fn look_ahead<A: Adjacent>(
    adj: &A,
    v: &mut Virtual,
    on_path: &impl Fn(u32) -> bool,
    dist: &[u16],
    depth: usize,
    best: &mut Rotations,
) {
    let end = v.at(v.last);
    let mut pivots = [0usize; 64];
    let mut k = 0;
    adj.each(end, |u| {
        if k < pivots.len() && on_path(u) {
            let i = v.pos_of(u);
            if i + 1 < v.last {
                pivots[k] = i;
                k += 1;
            }
        }
    });
    for &i in &pivots[..k] {
        v.pivots.push(i);
        let d = dist[v.at(v.last) as usize];
        if d < best.dist || (d == best.dist && v.pivots.len() < best.pivots.len()) {
            best.dist = d;
            best.pivots.clear();
            best.pivots.extend_from_slice(&v.pivots);
        }
        if d > 0 && depth > 1 {
            look_ahead(adj, v, on_path, dist, depth - 1, best);
        }
        v.pivots.pop();
        if best.dist == 0 {
            return;
        }
    }
}

/// Rotates the end of `path` until `dist` of the end is 0. `on_path(s)` says
/// whether `s` is on the path (squares off it are never pivots). Each step
/// looks a few rotations ahead and makes the sequence that brings the end
/// closest; when nothing within reach is closer, it makes one random
/// rotation instead. Returns the number of rotations made, or None when the
/// budget ran out (the path is then still a valid path over the same
/// squares, with some other end).
#[allow(clippy::too_many_arguments)]
pub(crate) fn rotate_end<A: Adjacent, O: Observer>(
    adj: &A,
    path: &mut [u32],
    pos: &mut [u32],
    on_path: impl Fn(u32) -> bool,
    dist: &[u16],
    budget: &mut Budget,
    rng: &mut ChaCha8Rng,
    obs: &mut O,
) -> Option<u64> {
    let last = path.len() - 1;
    let mut rotations = 0u64;
    let mut options: Vec<usize> = Vec::with_capacity(8);
    loop {
        let end = path[last];
        let here = dist[end as usize];
        if here == 0 {
            return Some(rotations);
        }
        if budget.rotations == 0 {
            return None;
        }
        let mut plan = Rotations {
            dist: here,
            pivots: Vec::new(),
        };
        {
            let mut v = Virtual {
                path,
                pos,
                last,
                pivots: Vec::with_capacity(HORIZON),
            };
            look_ahead(adj, &mut v, &on_path, dist, HORIZON, &mut plan);
        }
        if plan.pivots.is_empty() {
            // Nothing closer within reach: one random rotation.
            options.clear();
            adj.each(end, |u| {
                if on_path(u) {
                    let i = pos[u as usize] as usize;
                    if i + 1 < last {
                        options.push(i);
                    }
                }
            });
            if options.is_empty() {
                return None;
            }
            plan.pivots
                .push(options[rng.random_range(0..options.len())]);
        }
        for &pivot in &plan.pivots {
            let cost = (last - pivot) as u64;
            if cost > budget.work || budget.rotations == 0 {
                return None;
            }
            budget.work -= cost;
            budget.rotations -= 1;
            rotate(path, pos, pivot);
            rotations += 1;
            if O::ACTIVE {
                obs.event(
                    Event::Rewrite {
                        from: pivot + 1,
                        how: Change::Rotation,
                    },
                    path,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::graph::walks::all_distances;
    use crate::model::{Adjacency, Board, MoveGraph, Piece};
    use crate::search::event::NoObserver;
    use crate::solve::{Solver, Task};
    use rand::SeedableRng;

    /// An open knight's tour of 6x6 from a1, rotated towards closing:
    /// whatever the outcome, every rotation keeps a path over all squares
    /// from the same start, with `pos` in step.
    #[test]
    fn rotations_keep_a_hamiltonian_path() {
        let b = Board::rectangle(6, 6);
        let piece = Piece::leaper(1, 2, 1);
        let Ok(g) = MoveGraph::build(&b, &piece, &Never);
        let Adjacency::Leaper(adj) = g.adjacency() else {
            panic!("a full board is implicit");
        };
        let open = crate::solve::Goal {
            start: Some(0),
            ..Default::default()
        };
        let tour = crate::solve::backtrack::BacktrackOptions::default()
            .solve_quietly(&Task::new(&g, &b, &piece, open));
        let crate::solve::Outcome::Found(mut path) = tour.outcome else {
            panic!("6x6 has open tours");
        };
        let mut pos = vec![0u32; path.len()];
        for (i, &s) in path.iter().enumerate() {
            pos[s as usize] = i as u32;
        }
        let Ok(dist) = all_distances(&adj, g.neighbours(0), &Never);
        let mut closed_some = false;
        for seed in 0..20 {
            let mut budget = Budget {
                rotations: 50,
                work: 1_000_000,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let r = rotate_end(
                &adj,
                &mut path,
                &mut pos,
                |_| true,
                &dist,
                &mut budget,
                &mut rng,
                &mut NoObserver,
            );
            assert_eq!(crate::verify::verify(&b, &piece, &open, &path), Ok(()));
            for (i, &s) in path.iter().enumerate() {
                assert_eq!(pos[s as usize] as usize, i);
            }
            if r.is_some() {
                let closed = crate::solve::Goal {
                    closed: true,
                    ..open
                };
                assert_eq!(crate::verify::verify(&b, &piece, &closed, &path), Ok(()));
                closed_some = true;
            }
        }
        assert!(closed_some, "no seed closed the 6x6 tour");
    }
}
