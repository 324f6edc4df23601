//! The search for solutions of a clue puzzle as a satisfiability problem:
//! one variable for each step and each square the deductions of
//! [`super::deduce`] leave it, clauses that make the steps a tour, and a
//! conflict-driven clause-learning solver (`batsat`) to find one. What the
//! solver learns from one dead end prunes every branch that would meet it
//! again, which a search that only backtracks cannot do: puzzles whose
//! uniqueness takes the search over the steps of [`crate::solve::clued`]
//! hundreds of millions of nodes take it a few thousand conflicts.
//!
//! The clauses, for steps `k` and squares `s`, `x(k, s)` meaning "step `k`
//! stands on `s`":
//! - each step stands on exactly one of its candidates;
//! - each square holds exactly one step (of the steps it is a candidate of);
//! - `x(k, s)` implies a move from `s` to a candidate of step `k + 1` that
//!   holds it, and one from a candidate of step `k − 1` to `s` (around the
//!   end for a closed tour).
//!
//! Every model is therefore a tour that honours the clues, and every such
//! tour a model; a second solution is asked for with a clause that rules
//! out the first.

use std::cell::Cell;

use batsat::callbacks::Callbacks;
use batsat::interface::SolverInterface;
use batsat::{ClauseKind, Lit, SolverOpts, Var, lbool};

use super::deduce::MoveRows;
use crate::halt::Halt;
use crate::model::MoveGraph;

/// Conflicts between two looks at the halt.
const CADENCE: u64 = 256;

/// The most variables (steps times their candidate squares) the search
/// takes on: beyond, its clauses would take a gigabyte or more, and it
/// answers [`Answer::OutOfNodes`] at once. A board whose squares times its
/// unclued squares exceed it is turned away before the deductions run (on
/// such boards they alone take minutes).
pub const MAX_VARIABLES: usize = 1 << 21;

/// What [`solutions`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Every solution, when fewer than the cap asked for; else the first
    /// `cap`.
    Tours(Vec<Vec<u32>>),
    /// The conflict budget ran out first (or the puzzle is too large).
    OutOfNodes,
}

/// What the solver's callbacks watch: the conflicts (a clause is learnt at
/// each) against the budget, and the halt every [`CADENCE`] conflicts or
/// looks of the solver (it looks before each decision).
struct Watch<'h, H: Halt> {
    halt: &'h H,
    conflicts: u64,
    limit: u64,
    looks: Cell<u64>,
    stopped: Cell<Option<H::Stop>>,
}

impl<H: Halt> Watch<'_, H> {
    fn look(&self) {
        if self.stopped.get().is_none()
            && let Err(s) = self.halt.check()
        {
            self.stopped.set(Some(s));
        }
    }
}

impl<H: Halt> Callbacks for Watch<'_, H> {
    fn on_new_clause(&mut self, _c: &[Lit], kind: ClauseKind) {
        if kind == ClauseKind::Learnt {
            self.conflicts += 1;
            if self.conflicts.is_multiple_of(CADENCE) {
                self.look();
            }
        }
    }

    fn stop(&self) -> bool {
        let looks = self.looks.get() + 1;
        self.looks.set(looks);
        if looks.is_multiple_of(CADENCE) {
            self.look();
        }
        self.conflicts >= self.limit || self.stopped.get().is_some()
    }
}

/// Looks for up to `cap` solutions of the puzzle with move graph `graph`,
/// closed or not, and `clues` (`(step, square)`, steps from 1), within
/// `conflict_limit` conflicts of the solver; with the conflicts it took.
/// With `not` = `(step, square)`, only the solutions that do not put that
/// step (from 1) on that square. `Err` when `halt` stops it (time, Ctrl-C).
pub fn solutions<H: Halt>(
    graph: &MoveGraph,
    closed: bool,
    clues: &[(u32, u32)],
    not: Option<(u32, u32)>,
    budget: (usize, u64),
    halt: &H,
) -> Result<(Answer, u64), H::Stop> {
    solutions_with(graph, closed, clues, None, not, budget, halt)
}

/// [`solutions`] of a puzzle that may also have `letters`: each step's
/// candidates are the squares whose unit the text reads there, and the
/// running count of squares that read nothing, where there are some
/// ([`super::letters::Blanks`]).
pub fn solutions_with<H: Halt>(
    graph: &MoveGraph,
    closed: bool,
    clues: &[(u32, u32)],
    letters: Option<&crate::model::Letters>,
    not: Option<(u32, u32)>,
    (cap, conflict_limit): (usize, u64),
    halt: &H,
) -> Result<(Answer, u64), H::Stop> {
    let n = graph.len();
    // Out of reach: too many variables, or deductions too large to hold.
    if n.saturating_mul(n.saturating_sub(clues.len())) > MAX_VARIABLES
        || MoveRows::estimate_bytes(n) > crate::budget::DEDUCTIONS
    {
        return Ok((Answer::OutOfNodes, 0));
    }
    let rules = MoveRows::new(graph, closed);
    let mut cand = rules.start(clues);
    if let Some(l) = letters {
        super::letters::restrict(&rules, &mut cand, l);
    }
    if let Some((step, s)) = not {
        rules.exclude(&mut cand, step as usize - 1, s);
    }
    if n == 0 || !rules.propagate(&mut cand, halt)? {
        return Ok((Answer::Tours(Vec::new()), 0));
    }
    let mut variables: usize = (0..n).map(|k| rules.count(&cand, k) as usize).sum();
    if let Some(l) = letters {
        // The running count of blank squares: a variable a step and count.
        variables = variables.saturating_add(n.saturating_mul(l.blanks() + 1));
    }
    if variables > MAX_VARIABLES {
        return Ok((Answer::OutOfNodes, 0));
    }
    let watch = Watch {
        halt,
        conflicts: 0,
        limit: conflict_limit,
        looks: Cell::new(0),
        stopped: Cell::new(None),
    };
    let mut solver = batsat::Solver::new(SolverOpts::default(), watch);
    let vars = Vars::new(&rules, &cand, &mut solver);
    vars.encode(graph, closed, &mut solver);
    if let Some(l) = letters {
        super::letters::Blanks::encode(l, &vars.of_step, &mut solver);
    }
    let mut tours = Vec::new();
    while tours.len() < cap {
        let r = solver.solve_limited(&[]);
        if let Some(s) = solver.cb().stopped.get() {
            return Err(s);
        }
        if r == lbool::FALSE {
            break;
        }
        if r != lbool::TRUE {
            return Ok((Answer::OutOfNodes, solver.cb().conflicts));
        }
        let tour = vars.tour(&solver);
        // The next model must differ from this one on some step.
        let mut block: Vec<Lit> = tour
            .iter()
            .enumerate()
            .filter_map(|(k, &s)| vars.var(k, s))
            .map(|v| Lit::new(v, false))
            .collect();
        tours.push(tour);
        if !solver.add_clause_reuse(&mut block) {
            break;
        }
    }
    Ok((Answer::Tours(tours), solver.cb().conflicts))
}

/// The variables: for each step, its candidate squares in order, each with
/// its variable.
struct Vars {
    of_step: Vec<Vec<(u32, Var)>>,
}

impl Vars {
    fn new<S: SolverInterface>(rules: &MoveRows, cand: &[u64], solver: &mut S) -> Vars {
        let of_step = (0..rules.n)
            .map(|k| {
                rules
                    .squares(cand, k)
                    .map(|s| (s, solver.new_var_default()))
                    .collect()
            })
            .collect();
        Vars { of_step }
    }

    /// The variable of step `k` on square `s`, if `s` is a candidate.
    fn var(&self, k: usize, s: u32) -> Option<Var> {
        let list = &self.of_step[k];
        list.binary_search_by_key(&s, |&(q, _)| q)
            .ok()
            .map(|i| list[i].1)
    }

    /// The tour of the solver's model.
    fn tour<S: SolverInterface>(&self, solver: &S) -> Vec<u32> {
        self.of_step
            .iter()
            .map(|list| {
                list.iter()
                    .find(|&&(_, v)| solver.value_var(v) == lbool::TRUE)
                    .map_or(u32::MAX, |&(s, _)| s)
            })
            .collect()
    }

    fn encode<S: SolverInterface>(&self, graph: &MoveGraph, closed: bool, solver: &mut S) {
        let n = self.of_step.len();
        // Each step exactly one square.
        for list in &self.of_step {
            let lits: Vec<Lit> = list.iter().map(|&(_, v)| Lit::new(v, true)).collect();
            exactly_one(&lits, solver);
        }
        // Each square exactly one step.
        let mut of_square: Vec<Vec<Lit>> = vec![Vec::new(); n];
        for list in &self.of_step {
            for &(s, v) in list {
                of_square[s as usize].push(Lit::new(v, true));
            }
        }
        for lits in &of_square {
            exactly_one(lits, solver);
        }
        // Predecessors of each square, for the backward links.
        let mut into: Vec<Vec<u32>> = vec![Vec::new(); n];
        for s in 0..n as u32 {
            for t in graph.neighbours(s) {
                into[t as usize].push(s);
            }
        }
        // A single square has no moves to link (as in the deductions).
        for k in (0..n).filter(|_| n > 1) {
            let next = (k + 1 < n || closed).then(|| (k + 1) % n);
            let prev = (k > 0 || closed).then(|| (k + n - 1) % n);
            for &(s, v) in &self.of_step[k] {
                if let Some(j) = next {
                    let mut c = vec![Lit::new(v, false)];
                    c.extend(
                        graph
                            .neighbours(s)
                            .filter_map(|t| self.var(j, t))
                            .map(|w| Lit::new(w, true)),
                    );
                    solver.add_clause_reuse(&mut c);
                }
                if let Some(j) = prev {
                    let mut c = vec![Lit::new(v, false)];
                    c.extend(
                        into[s as usize]
                            .iter()
                            .filter_map(|&p| self.var(j, p))
                            .map(|w| Lit::new(w, true)),
                    );
                    solver.add_clause_reuse(&mut c);
                }
            }
        }
    }
}

/// Clauses that exactly one of `lits` holds: one clause for at least one,
/// and for at most one the pairs when there are few, else a sequential
/// counter (a chain of "some literal so far holds" variables).
fn exactly_one<S: SolverInterface>(lits: &[Lit], solver: &mut S) {
    solver.add_clause_reuse(&mut lits.to_vec());
    if lits.len() <= 6 {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                solver.add_clause_reuse(&mut vec![!a, !b]);
            }
        }
        return;
    }
    // seen(i): one of lits[0..=i] holds.
    let mut seen = Lit::new(solver.new_var_default(), true);
    solver.add_clause_reuse(&mut vec![!lits[0], seen]);
    for &l in &lits[1..] {
        let next = Lit::new(solver.new_var_default(), true);
        solver.add_clause_reuse(&mut vec![!l, next]);
        solver.add_clause_reuse(&mut vec![!seen, next]);
        solver.add_clause_reuse(&mut vec![!seen, !l]);
        seen = next;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::halt::{Limits, Never, Stop};
    use crate::puzzle::Puzzle;

    fn knight(board: &str) -> MoveGraph {
        let text = format!(r#"Puzzle(board: "{board}", piece: "knight")"#);
        let Ok(p) = Puzzle::parse("p.ron", &text) else {
            panic!("the puzzle parses")
        };
        let Ok(g) = p.graph(&Never);
        g
    }

    /// A board too large for the clauses is turned away at once, without
    /// a conflict and without running the deductions.
    #[test]
    fn a_board_too_large_is_out_of_nodes_at_once() {
        let n = 1500u32;
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|s| {
                [s.wrapping_sub(1), s + 1]
                    .into_iter()
                    .filter(|&t| t < n)
                    .collect()
            })
            .collect();
        let g = MoveGraph::from_lists(&lists);
        assert!(n as usize * n as usize > MAX_VARIABLES);
        let r = solutions(&g, false, &[(1, 0)], None, (2, u64::MAX), &Never);
        assert!(matches!(r, Ok((Answer::OutOfNodes, 0))), "{r:?}");
        // A line of 1,000 squares from its first: one solution.
        let small = MoveGraph::from_lists(
            &lists[..1000]
                .iter()
                .map(|l| l.iter().copied().filter(|&t| t < 1000).collect())
                .collect::<Vec<Vec<u32>>>(),
        );
        let r = solutions(&small, false, &[(1, 0)], None, (2, u64::MAX), &Never);
        assert!(
            matches!(&r, Ok((Answer::Tours(t), _)) if t.len() == 1 && t[0] == (0..1000).collect::<Vec<u32>>()),
            "{r:?}"
        );
    }

    /// 4x4 has no knight's tour, and the deductions alone do not see it:
    /// the solver needs conflicts to prove it. A budget below them ends
    /// the search out of conflicts; a cancelled halt stops it; neither
    /// passes for a proof.
    #[test]
    fn budgets_and_the_halt_stop_the_search() {
        let g = knight("4x4");
        let Ok((Answer::Tours(t), conflicts)) =
            solutions(&g, false, &[], None, (1, u64::MAX), &Never)
        else {
            panic!("no answer")
        };
        assert!(t.is_empty());
        assert!(conflicts > CADENCE, "{conflicts}");
        let short = solutions(&g, false, &[], None, (1, conflicts / 2), &Never);
        assert!(matches!(short, Ok((Answer::OutOfNodes, _))), "{short:?}");
        let cancel = AtomicBool::new(true);
        let limits = Limits::none().with_cancel(&cancel);
        let r = solutions(&g, false, &[], None, (1, u64::MAX), &limits);
        assert!(matches!(r, Err(Stop::Cancelled)), "{r:?}");
    }
}
