//! A random tour to make a puzzle from: a depth-first search in Warnsdorff
//! order (fewest onward moves first) whose ties, and the start square where
//! the puzzle leaves it free, are drawn from a seeded generator. Each walk
//! is bounded by nodes; a walk that runs out starts again elsewhere.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::halt::{Cadence, Limits, Stop};
use crate::model::{Goal, MoveGraph};

/// Looks for a tour of `graph` for `goal` in up to `walks` seeded walks of
/// at most `nodes` nodes each. `Ok(None)` when every walk ran out (nothing
/// is proven).
pub fn random_tour(
    graph: &MoveGraph,
    goal: &Goal,
    rng: &mut ChaCha8Rng,
    walks: u32,
    nodes: u64,
    limits: &Limits<'_>,
) -> Result<Option<Vec<u32>>, Stop> {
    let n = graph.len();
    // A closed tour needs two squares: the runner's proofs say so.
    if n == 0 || (goal.closed && n < 2) {
        return Ok(None);
    }
    // A free start and a fixed end: walk backwards from the end.
    let backwards = !goal.closed && goal.start.is_none() && goal.end.is_some();
    let reversed;
    let (g, first, last) = if backwards {
        reversed = graph.reversed();
        (&reversed, goal.end, None)
    } else {
        (graph, goal.start, if goal.closed { None } else { goal.end })
    };
    let mut cadence = Cadence::new(limits, 0);
    let mut spent = 0u64;
    for _ in 0..walks {
        let start = match first {
            Some(s) => s,
            None => rng.random_range(0..n as u32),
        };
        let mut walk = Walk {
            g,
            want: n,
            closed: goal.closed,
            last,
            seen: vec![false; n],
            path: Vec::with_capacity(n),
            nodes: 0,
            limit: nodes,
        };
        let found = walk.search(start, rng, &mut cadence, limits, &mut spent)?;
        if found {
            let mut tour = walk.path;
            if backwards {
                tour.reverse();
            }
            return Ok(Some(tour));
        }
    }
    Ok(None)
}

/// Looks for an open path of `len` squares of `graph`, from random
/// starts, in up to `walks` seeded walks of at most `nodes` nodes each.
/// `Ok(None)` when every walk ran out.
pub fn random_path(
    graph: &MoveGraph,
    len: usize,
    rng: &mut ChaCha8Rng,
    walks: u32,
    nodes: u64,
    limits: &Limits<'_>,
) -> Result<Option<Vec<u32>>, Stop> {
    let n = graph.len();
    if len == 0 || len > n {
        return Ok(None);
    }
    let mut cadence = Cadence::new(limits, 0);
    let mut spent = 0u64;
    for _ in 0..walks {
        let mut walk = Walk {
            g: graph,
            want: len,
            closed: false,
            last: None,
            seen: vec![false; n],
            path: Vec::with_capacity(len),
            nodes: 0,
            limit: nodes,
        };
        let start = rng.random_range(0..n as u32);
        if walk.search(start, rng, &mut cadence, limits, &mut spent)? {
            return Ok(Some(walk.path));
        }
    }
    Ok(None)
}

/// One bounded walk.
struct Walk<'g> {
    g: &'g MoveGraph,
    /// The squares the path must have: all of them for a tour.
    want: usize,
    closed: bool,
    /// The square that must be last, if one is fixed.
    last: Option<u32>,
    seen: Vec<bool>,
    path: Vec<u32>,
    nodes: u64,
    limit: u64,
}

impl Walk<'_> {
    /// Depth-first from `start`; true when the path is a tour.
    fn search(
        &mut self,
        start: u32,
        rng: &mut ChaCha8Rng,
        cadence: &mut Cadence,
        limits: &Limits<'_>,
        spent: &mut u64,
    ) -> Result<bool, Stop> {
        let n = self.want;
        // Per depth, the candidates still to try (best last, to pop).
        let mut stack: Vec<Vec<u32>> = Vec::with_capacity(n);
        self.enter(start);
        stack.push(self.candidates(rng));
        loop {
            if self.path.len() == n {
                let closes =
                    !self.closed || n == 1 || self.g.has_edge(self.path[n - 1], self.path[0]);
                if closes {
                    return Ok(true);
                }
            }
            let Some(top) = stack.last_mut() else {
                return Ok(false);
            };
            match top.pop() {
                Some(v) => {
                    if self.nodes >= self.limit {
                        return Ok(false);
                    }
                    *spent += 1;
                    cadence.tick(limits, *spent)?;
                    self.enter(v);
                    let next = if self.path.len() == n {
                        Vec::new()
                    } else {
                        self.candidates(rng)
                    };
                    stack.push(next);
                }
                None => {
                    stack.pop();
                    if let Some(v) = self.path.pop() {
                        self.seen[v as usize] = false;
                    }
                }
            }
        }
    }

    fn enter(&mut self, v: u32) {
        self.nodes += 1;
        self.seen[v as usize] = true;
        self.path.push(v);
    }

    /// The unvisited targets of the path's end, the one to try first last:
    /// most onward moves first, ties in random order. The fixed last square
    /// only as the last step.
    fn candidates(&self, rng: &mut ChaCha8Rng) -> Vec<u32> {
        let n = self.want;
        let Some(&c) = self.path.last() else {
            return Vec::new();
        };
        let final_step = self.path.len() + 1 == n;
        let mut keyed: Vec<(u32, u32, u32)> = self
            .g
            .neighbours(c)
            .filter(|&v| !self.seen[v as usize])
            .filter(|&v| match self.last {
                Some(e) => (v == e) == final_step,
                None => true,
            })
            .map(|v| {
                let onward = self
                    .g
                    .neighbours(v)
                    .filter(|&w| !self.seen[w as usize])
                    .count() as u32;
                (onward, rng.random::<u32>(), v)
            })
            .collect();
        keyed.sort_unstable_by(|a, b| b.cmp(a));
        keyed.into_iter().map(|(_, _, v)| v).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Piece};
    use rand::SeedableRng;

    fn knight_graph(w: u32, h: u32) -> (Board, Piece, MoveGraph) {
        let board = Board::rectangle(w, h);
        let piece = Piece::leaper(1, 2, 1);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        (board, piece, g)
    }

    #[test]
    fn walks_find_verified_tours_that_differ_by_seed() {
        let (board, piece, g) = knight_graph(6, 6);
        let mut tours = Vec::new();
        for (seed, closed) in [(1, false), (2, false), (3, true)] {
            let goal = Goal {
                closed,
                start: None,
                end: None,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let tour = random_tour(&g, &goal, &mut rng, 50, 100_000, &Limits::none());
            let Ok(Some(tour)) = tour else {
                panic!("no tour for seed {seed}")
            };
            assert_eq!(crate::verify::verify(&board, &piece, &goal, &tour), Ok(()));
            tours.push(tour);
        }
        assert_ne!(tours[0], tours[1]);
    }

    #[test]
    fn a_fixed_end_is_honoured() {
        let (board, piece, g) = knight_graph(5, 5);
        let goal = Goal {
            closed: false,
            start: None,
            end: Some(24),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let Ok(Some(tour)) = random_tour(&g, &goal, &mut rng, 50, 100_000, &Limits::none()) else {
            panic!("no tour")
        };
        assert_eq!(crate::verify::verify(&board, &piece, &goal, &tour), Ok(()));
    }
}
