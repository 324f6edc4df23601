//! The move graph: what every solver sees. Squares are `0..n`; each has its
//! targets in the piece's move order.

use super::{Board, Piece};

/// Squares `0..n` with ordered target lists, stored flat (CSR).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveGraph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    symmetric: bool,
}

impl MoveGraph {
    /// Builds the graph of `piece` on `board`. Leaps that leave the board or
    /// land on a removed square are dropped; a ride stops at the edge or at a
    /// removed square, and passes over visited squares (visits do not exist
    /// yet here). A target reachable by several moves appears once, at its
    /// first move; a move that wraps back onto its own square is dropped.
    pub fn build(board: &Board, piece: &Piece) -> MoveGraph {
        let n = board.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * piece.moves().len().min(16));
        // stamp[t] == s + 1 means t is already a target of s.
        let mut stamp = vec![0u32; n];
        offsets.push(0u32);
        for s in 0..n as u32 {
            let from = board.cell(s);
            for m in piece.moves() {
                let mut at = from;
                let mut steps = 0u32;
                while steps < m.range {
                    let Some(next) = board.offset(at, i64::from(m.dx), i64::from(m.dy)) else {
                        break;
                    };
                    let Some(t) = board.square_at(next) else {
                        break;
                    };
                    if t == s {
                        // Wrapped all the way round (torus): the ray is done.
                        break;
                    }
                    if stamp[t as usize] != s + 1 {
                        stamp[t as usize] = s + 1;
                        targets.push(t);
                    }
                    at = next;
                    steps += 1;
                    // A ride on a torus can cycle without meeting `s` again
                    // only if it revisits cells; a ray has at most w*h steps.
                    if steps as usize >= board.width() as usize * board.height() as usize {
                        break;
                    }
                }
            }
            offsets.push(targets.len() as u32);
        }
        let mut g = MoveGraph {
            offsets,
            targets,
            symmetric: false,
        };
        g.symmetric = g.compute_symmetric();
        g
    }

    /// Builds a graph from explicit target lists (for tests and tools).
    pub fn from_lists(lists: &[Vec<u32>]) -> MoveGraph {
        let mut offsets = vec![0u32];
        let mut targets = Vec::new();
        for l in lists {
            targets.extend_from_slice(l);
            offsets.push(targets.len() as u32);
        }
        let mut g = MoveGraph {
            offsets,
            targets,
            symmetric: false,
        };
        g.symmetric = g.compute_symmetric();
        g
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True with no squares.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Targets of square `s`, in move order.
    #[inline]
    pub fn targets(&self, s: u32) -> &[u32] {
        let a = self.offsets[s as usize] as usize;
        let b = self.offsets[s as usize + 1] as usize;
        &self.targets[a..b]
    }

    /// Out-degree of `s`.
    #[inline]
    pub fn degree(&self, s: u32) -> usize {
        (self.offsets[s as usize + 1] - self.offsets[s as usize]) as usize
    }

    /// The flat arrays (offsets of length n + 1, targets), for hot loops.
    #[inline]
    pub fn raw(&self) -> (&[u32], &[u32]) {
        (&self.offsets, &self.targets)
    }

    /// Total number of moves (directed edges).
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// True when every move can be made back (the graph is undirected).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Whether `t` is a target of `s`.
    pub fn has_edge(&self, s: u32, t: u32) -> bool {
        self.targets(s).contains(&t)
    }

    /// The reversed graph: `t -> s` for every move `s -> t`.
    pub fn reversed(&self) -> MoveGraph {
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for &t in &self.targets {
            count[t as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let offsets = count.clone();
        let mut fill = count;
        let mut targets = vec![0u32; self.targets.len()];
        for s in 0..n as u32 {
            for &t in self.targets(s) {
                targets[fill[t as usize] as usize] = s;
                fill[t as usize] += 1;
            }
        }
        MoveGraph {
            offsets,
            targets,
            symmetric: self.symmetric,
        }
    }

    fn compute_symmetric(&self) -> bool {
        let r = self.reversed();
        (0..self.len() as u32).all(|s| {
            let mut a = self.targets(s).to_vec();
            let mut b = r.targets(s).to_vec();
            a.sort_unstable();
            b.sort_unstable();
            a == b
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cell, Move, Topology};

    #[test]
    fn knight_corner_has_two_moves_in_order() {
        let b = Board::rectangle(8, 8);
        let g = MoveGraph::build(&b, &Piece::leaper(1, 2, 1));
        let names: Vec<String> = g.targets(0).iter().map(|&t| b.name(t)).collect();
        assert_eq!(names, ["b3", "c2"]);
        assert!(g.is_symmetric());
        assert_eq!(g.edge_count(), 336);
    }

    #[test]
    fn rook_slides_stop_at_removed_squares() {
        let b = Board::new(4, 1, Topology::Plain, |c| c != Cell::new(2, 0));
        let g = MoveGraph::build(&b, &Piece::leaper(0, 1, crate::model::UNLIMITED));
        let names: Vec<String> = g.targets(0).iter().map(|&t| b.name(t)).collect();
        assert_eq!(names, ["b1"]);
    }

    #[test]
    fn torus_wrap_has_no_duplicate_or_self_targets() {
        let b = Board::new(2, 2, Topology::Torus, |_| true);
        let g = MoveGraph::build(&b, &Piece::leaper(0, 1, 1));
        // On a 2x2 torus, north and south reach the same square.
        assert_eq!(g.targets(0).len(), 2);
        let rook = MoveGraph::build(&b, &Piece::leaper(0, 1, crate::model::UNLIMITED));
        assert_eq!(rook.targets(0).len(), 2);
    }

    #[test]
    fn one_way_jumps_make_a_directed_graph() {
        let b = Board::rectangle(3, 3);
        let g = MoveGraph::build(&b, &Piece::new([Move::leap(1, 2)]));
        assert!(!g.is_symmetric());
    }
}
