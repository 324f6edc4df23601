//! The plain rules: depth-first in the piece's own move order with no
//! pruning at all — the search the classic write-ups teach, whose node
//! counts are those of the textbook algorithm. A square is a leaf only
//! when the path covers the board: a tour if it ends where the goal asks
//! (next to the start for a closed tour, on the fixed end for an open one).

use super::driver::{Rules, Sofar, Verdict};
use super::event::Why;
use crate::model::MoveGraph;
use crate::model::graph::walks::predecessors_mask;

/// The plain rules for tours of one goal from one start square, in path
/// mode. A node keeps the index of its next move in the graph's target
/// lists, and where its square's list ends.
pub struct PlainRules<'g> {
    off: &'g [u32],
    targets: &'g [u32],
    /// The squares on the path.
    visited: Vec<bool>,
    /// Squares on the board.
    n: usize,
    path: Vec<u32>,
    /// Closed tours: the squares with a move back to the start.
    closes: Option<Vec<bool>>,
    /// Open tours: the fixed end, entered only last (`u32::MAX`: none).
    end: u32,
}

impl<'g> PlainRules<'g> {
    /// The rules for tours of `g` from `start`, closed or ending on `end`
    /// (`g`'s target lists must be prepared).
    pub fn new(g: &'g MoveGraph, start: u32, closed: bool, end: Option<u32>) -> PlainRules<'g> {
        let n = g.len();
        let (off, targets) = g.raw();
        let mut visited = vec![false; n];
        let mut path = Vec::with_capacity(n);
        if (start as usize) < n {
            visited[start as usize] = true;
            path.push(start);
        }
        PlainRules {
            off,
            targets,
            visited,
            n,
            path,
            closes: closed.then(|| predecessors_mask(g, start)),
            end: match end {
                Some(e) if !closed => e,
                _ => u32::MAX,
            },
        }
    }

    /// The node the path ends on: a leaf when it covers the board (one tour
    /// if it ends right), else a branch from its square's first move.
    #[inline(always)]
    fn arrive(&self) -> Verdict<(u32, u32)> {
        let Some(&v) = self.path.last() else {
            return Verdict::Leaf(0);
        };
        if self.path.len() == self.n {
            let ends_right = match &self.closes {
                Some(closes) => closes[v as usize],
                None => self.end == u32::MAX || v == self.end,
            };
            return Verdict::Leaf(u64::from(ends_right));
        }
        Verdict::Branch((self.off[v as usize], self.off[v as usize + 1]))
    }
}

impl Rules for PlainRules<'_> {
    const PATHS: bool = true;
    type Node = (u32, u32);

    fn root(&mut self, _: Sofar) -> Verdict<(u32, u32)> {
        self.arrive()
    }

    #[inline(always)]
    fn next(&mut self, (pos, stop): &mut (u32, u32)) -> Option<u32> {
        // A fixed end may only be entered last.
        let end = if self.path.len() + 1 == self.n {
            u32::MAX
        } else {
            self.end
        };
        let mut p = *pos;
        while p < *stop {
            let t = self.targets[p as usize];
            if !self.visited[t as usize] && t != end {
                *pos = p;
                return Some(t);
            }
            p += 1;
        }
        *pos = p;
        None
    }

    #[inline(always)]
    fn take(&mut self, (pos, _): &mut (u32, u32), _: u32) {
        *pos += 1;
    }

    #[inline(always)]
    fn descend(&mut self, _: &(u32, u32), to: u32, _: Sofar) -> Verdict<(u32, u32)> {
        self.visited[to as usize] = true;
        self.path.push(to);
        self.arrive()
    }

    #[inline(always)]
    fn ascend(&mut self) {
        if let Some(v) = self.path.pop() {
            self.visited[v as usize] = false;
        }
    }

    fn path(&self) -> &[u32] {
        &self.path
    }

    /// A leaf covers the board: a tour, or a path that ends wrong.
    fn why_leaf(&self, _: Option<&(u32, u32)>, tours: u64) -> Why {
        if tours > 0 { Why::Tour } else { Why::WrongEnd }
    }

    /// A dead end when no move was there to try, else every move tried.
    fn why_tried(&self, _: &(u32, u32)) -> Why {
        let Some(&v) = self.path.last() else {
            return Why::Tried;
        };
        let end = if self.path.len() + 1 == self.n {
            u32::MAX
        } else {
            self.end
        };
        let (a, b) = (self.off[v as usize], self.off[v as usize + 1]);
        let open = self.targets[a as usize..b as usize]
            .iter()
            .any(|&t| !self.visited[t as usize] && t != end);
        if open { Why::Tried } else { Why::NoMoves }
    }
}
