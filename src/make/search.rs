//! The search for a second solution that `engine make` runs before the
//! complete search over the steps: the deductions of the difficulty measure
//! at every node, branching on the unplaced step with the fewest candidate
//! squares. Each rule holds for every solution and every solution puts
//! that step on one of its candidates, so the search is complete; where the
//! rules do most of the work it needs a few hundred nodes where the search
//! over the steps needs millions.

use super::difficulty::Rules;
use crate::halt::Halt;
use crate::model::MoveGraph;

/// Nodes between two looks at the halt.
const CADENCE: u64 = 256;

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
/// With `not` = `(step, square)`, only the solutions that do not put that
/// step (from 1) on that square. `Err` when `halt` stops it (time, Ctrl-C).
pub fn solutions<H: Halt>(
    graph: &MoveGraph,
    closed: bool,
    clues: &[(u32, u32)],
    not: Option<(u32, u32)>,
    (cap, node_limit): (usize, u64),
    halt: &H,
) -> Result<(Found, u64), H::Stop> {
    let rules = Rules::new(graph, closed);
    let mut search = Search {
        rules: &rules,
        halt,
        tours: Vec::new(),
        cap,
        nodes: 0,
        node_limit,
    };
    let mut cand = rules.start(clues);
    if let Some((step, s)) = not {
        rules.exclude(&mut cand, step as usize - 1, s);
    }
    let found = match search.go(cand, None) {
        Ok(()) => Found::Tours(search.tours),
        Err(Ended::OutOfNodes) => Found::OutOfNodes,
        Err(Ended::Halted(stop)) => return Err(stop),
    };
    Ok((found, search.nodes))
}

/// Why the search ended early.
enum Ended<S> {
    /// The node budget ran out.
    OutOfNodes,
    /// The halt stopped it.
    Halted(S),
}

struct Search<'r, H: Halt> {
    rules: &'r Rules,
    halt: &'r H,
    tours: Vec<Vec<u32>>,
    cap: usize,
    nodes: u64,
    node_limit: u64,
}

impl<H: Halt> Search<'_, H> {
    /// The search below `cand`, which is at the rules' fixed point but for
    /// step `placed` (all steps at the root).
    fn go(&mut self, mut cand: Vec<u64>, placed: Option<usize>) -> Result<(), Ended<H::Stop>> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Ended::OutOfNodes);
        }
        if self.nodes.is_multiple_of(CADENCE) {
            self.halt.check().map_err(Ended::Halted)?;
        }
        let settled = match placed {
            Some(k) => self.rules.propagate_from(&mut cand, &[k]),
            None => self.rules.propagate(&mut cand),
        };
        if !settled {
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
            self.go(next, Some(k))?;
            if self.tours.len() >= self.cap {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::halt::{Limits, Never, Stop};
    use crate::model::MoveGraph;

    /// A complete graph on `n` vertices: every numbering is a solution.
    fn complete(n: u32) -> MoveGraph {
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|s| (0..n).filter(|&t| t != s).collect())
            .collect();
        MoveGraph::from_lists(&lists)
    }

    /// A cancelled halt stops a search that has more nodes than a look's
    /// worth to go; without it the same search runs to its cap.
    #[test]
    fn the_halt_stops_the_search() {
        let g = complete(9);
        let cancel = AtomicBool::new(true);
        let limits = Limits::none().with_cancel(&cancel);
        let r = solutions(&g, false, &[], None, (usize::MAX, u64::MAX), &limits);
        assert!(matches!(r, Err(Stop::Cancelled)), "{r:?}");
        let Ok((Found::Tours(t), _)) = solutions(&g, false, &[], None, (1000, u64::MAX), &Never)
        else {
            panic!("no tours")
        };
        assert_eq!(t.len(), 1000);
    }
}
