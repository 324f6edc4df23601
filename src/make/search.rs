//! The search for a second solution that `engine make` runs before the
//! complete search over the steps: the deductions of the difficulty measure
//! at every node, branching on the unplaced step with the fewest candidate
//! squares. Each rule holds for every solution and every solution puts
//! that step on one of its candidates, so the search is complete; where the
//! rules do most of the work it needs a few hundred nodes where the search
//! over the steps needs millions.

use super::difficulty::Rules;
use crate::model::MoveGraph;

/// What [`solutions`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// Every solution, when fewer than the cap asked for; else the first
    /// `cap`.
    Tours(Vec<Vec<u32>>),
    /// The node budget ran out first.
    OutOfNodes,
}

/// Looks for up to `cap` solutions of the puzzle with move graph `graph`,
/// closed or not, and `clues` (`(step, square)`, steps from 1), within
/// `node_limit` nodes (each a run of the rules); with the nodes it took.
pub fn solutions(
    graph: &MoveGraph,
    closed: bool,
    clues: &[(u32, u32)],
    cap: usize,
    node_limit: u64,
) -> (Found, u64) {
    let rules = Rules::new(graph, closed);
    let mut search = Search {
        rules: &rules,
        tours: Vec::new(),
        cap,
        nodes: 0,
        node_limit,
    };
    let cand = rules.start(clues);
    let found = match search.go(cand) {
        Ok(()) => Found::Tours(search.tours),
        Err(OutOfNodes) => Found::OutOfNodes,
    };
    (found, search.nodes)
}

/// The node budget ran out.
struct OutOfNodes;

struct Search<'r> {
    rules: &'r Rules,
    tours: Vec<Vec<u32>>,
    cap: usize,
    nodes: u64,
    node_limit: u64,
}

impl Search<'_> {
    fn go(&mut self, mut cand: Vec<u64>) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(OutOfNodes);
        }
        if !self.rules.propagate(&mut cand) {
            return Ok(());
        }
        let n = self.rules.n;
        let branch = (0..n)
            .map(|k| (self.rules.count(&cand, k), k))
            .filter(|&(c, _)| c > 1)
            .min();
        let Some((_, k)) = branch else {
            // Every step has one square, distinct, each a move from the one
            // before (and the last from the first when closed): a solution.
            let tour: Option<Vec<u32>> = (0..n).map(|k| self.rules.single(&cand, k)).collect();
            if let Some(t) = tour {
                self.tours.push(t);
            }
            return Ok(());
        };
        let squares: Vec<u32> = self.rules.squares(&cand, k).collect();
        for s in squares {
            let mut next = cand.clone();
            self.rules.place(&mut next, k, s);
            self.go(next)?;
            if self.tours.len() >= self.cap {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Board, Piece};

    /// Every tour of `g` (closed or not) whose steps stand on `clues`, by
    /// plain enumeration of paths.
    fn brute(g: &MoveGraph, closed: bool, clues: &[(u32, u32)]) -> Vec<Vec<u32>> {
        fn go(
            g: &MoveGraph,
            closed: bool,
            clues: &[(u32, u32)],
            path: &mut Vec<u32>,
            out: &mut Vec<Vec<u32>>,
        ) {
            let n = g.len();
            if path.len() == n {
                let fits = clues.iter().all(|&(k, s)| path[k as usize - 1] == s);
                if fits && (!closed || g.has_edge(path[n - 1], path[0])) {
                    out.push(path.clone());
                }
                return;
            }
            let next: Vec<u32> = match path.last() {
                None => (0..n as u32).collect(),
                Some(&c) => g.neighbours(c).collect(),
            };
            for v in next {
                if !path.contains(&v) {
                    path.push(v);
                    go(g, closed, clues, path, out);
                    path.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(g, closed, clues, &mut Vec::new(), &mut out);
        out
    }

    /// The deductions with branching find exactly the solutions plain
    /// enumeration finds, on small boards with clues taken from their
    /// tours and placed anywhere.
    #[test]
    fn finds_every_solution() {
        let knight = Piece::leaper(1, 2, 1);
        let wazir = Piece::leaper(0, 1, 1);
        let king = Piece::leaper(1, 1, 1).union(&wazir);
        for (w, h, piece, closed) in [
            (3, 4, &knight, false),
            (4, 3, &king, false),
            (3, 3, &king, true),
            (2, 4, &wazir, true),
            (3, 4, &knight.clone().union(&wazir), false),
        ] {
            let board = Board::rectangle(w, h);
            let Ok(g) = MoveGraph::build(&board, piece, &crate::halt::Never);
            let n = g.len() as u32;
            let all = brute(&g, closed, &[]);
            let mut cases: Vec<Vec<(u32, u32)>> = vec![vec![], vec![(1, 0)], vec![(n, 1)]];
            for t in all.iter().step_by(7).take(6) {
                cases.push(vec![(1, t[0]), (n / 2, t[n as usize / 2 - 1])]);
                cases.push(vec![(2, t[1]), (n - 1, t[n as usize - 2])]);
            }
            for clues in cases {
                let mut want = brute(&g, closed, &clues);
                let (found, _) = solutions(&g, closed, &clues, usize::MAX, u64::MAX);
                let Found::Tours(mut got) = found else {
                    panic!("out of nodes")
                };
                want.sort();
                got.sort();
                assert_eq!(got, want, "{w}x{h} closed {closed} clues {clues:?}");
                let Found::Tours(one) = solutions(&g, closed, &clues, 1, u64::MAX).0 else {
                    panic!("out of nodes")
                };
                assert_eq!(one.len(), want.len().min(1));
                assert!(one.iter().all(|t| want.contains(t)));
            }
        }
    }
}
