//! The plain rules: depth-first in the piece's own move order with no
//! pruning at all — the search the classic write-ups teach, whose node
//! counts are those of the textbook algorithm. A square is a leaf only
//! when the path covers the board: a tour if it ends where the goal asks
//! (next to the start for a closed tour, on the fixed end for an open one).

use super::driver::{Rules, Sofar, Verdict};
use crate::model::MoveGraph;
use crate::model::graph::walks::predecessors_mask;

/// The plain rules for tours of one goal from one start square, in path
/// mode. A node keeps the index of its next move in the graph's target
/// lists.
pub struct PlainRules<'g> {
    off: &'g [u32],
    targets: &'g [u32],
    visited: Vec<bool>,
    path: Vec<u32>,
    /// Closed tours: the squares with a move back to the start.
    closes: Option<Vec<bool>>,
    /// Open tours: the fixed end, entered only last.
    end: Option<u32>,
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
            path,
            closes: closed.then(|| predecessors_mask(g, start)),
            end: if closed { None } else { end },
        }
    }

    /// The node the path ends on: a leaf when it covers the board (one tour
    /// if it ends right), else a branch from its square's first move.
    #[inline]
    fn arrive(&self) -> Verdict<u32> {
        let Some(&v) = self.path.last() else {
            return Verdict::Leaf(0);
        };
        if self.path.len() == self.visited.len() {
            let ends_right = match (&self.closes, self.end) {
                (Some(closes), _) => closes[v as usize],
                (None, Some(e)) => v == e,
                (None, None) => true,
            };
            return Verdict::Leaf(u64::from(ends_right));
        }
        Verdict::Branch(self.off[v as usize])
    }
}

impl Rules for PlainRules<'_> {
    const PATHS: bool = true;
    type Node = u32;

    fn root(&mut self, _: Sofar) -> Verdict<u32> {
        self.arrive()
    }

    #[inline]
    fn next(&mut self, pos: &mut u32) -> Option<u32> {
        let v = *self.path.last()?;
        let stop = self.off[v as usize + 1];
        let last = self.path.len() + 1 == self.visited.len();
        while *pos < stop {
            let t = self.targets[*pos as usize];
            // A fixed end may only be entered last.
            if !self.visited[t as usize] && (self.end != Some(t) || last) {
                return Some(t);
            }
            *pos += 1;
        }
        None
    }

    #[inline]
    fn take(&mut self, pos: &mut u32, _: u32) {
        *pos += 1;
    }

    #[inline]
    fn descend(&mut self, _: &u32, to: u32, _: Sofar) -> Verdict<u32> {
        self.visited[to as usize] = true;
        self.path.push(to);
        self.arrive()
    }

    #[inline]
    fn ascend(&mut self) {
        if let Some(v) = self.path.pop() {
            self.visited[v as usize] = false;
        }
    }

    fn path(&self) -> &[u32] {
        &self.path
    }
}
