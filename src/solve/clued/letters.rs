//! Letters in the searches of a clue puzzle: a square's unit allows the
//! steps at which the text reads it, a clue whose step is a set. The search
//! over the steps checks each square's unit as it is entered (exactly, by
//! the units read so far, when some squares read nothing), takes a unit
//! read once as a clue, and the deductions and the clause-learning search
//! start from candidates the units allow; where squares read nothing, the
//! clause-learning search counts them ([`Blanks`]) so that its models are
//! exactly the tours that read the text.

use batsat::interface::SolverInterface;
use batsat::{Lit, Var};

use super::deduce::MoveRows;
use crate::model::Letters;
use crate::model::letters::NO_UNIT;

/// `clues` with the clues `letters` imply ([`Letters::implied_clues`])
/// added where neither their step nor their square has one, sorted by
/// step. The letters are still checked at every step; the clues only
/// bring their distances to the search.
pub fn with_implied(clues: &[(u32, u32)], letters: Option<&Letters>) -> Vec<(u32, u32)> {
    let mut out = clues.to_vec();
    if let Some(l) = letters {
        for (k, s) in l.implied_clues() {
            if !out.iter().any(|&(k2, s2)| k2 == k || s2 == s) {
                out.push((k, s));
            }
        }
    }
    out.sort_unstable();
    out
}

/// Takes from every step's candidates the squares whose unit the text
/// does not read there ([`Letters::allows`]).
pub fn restrict(rules: &MoveRows, cand: &mut [u64], letters: &Letters) {
    for k in 0..rules.n {
        let drop: Vec<u32> = rules
            .squares(cand, k)
            .filter(|&s| !letters.allows(k, s))
            .collect();
        for s in drop {
            rules.exclude(cand, k, s);
        }
    }
}

/// The units read so far along the search's path, for the exact check of
/// a square's unit when some squares read nothing.
#[derive(Clone, Debug)]
pub struct Reader<'l> {
    letters: &'l Letters,
    /// Units read by the squares on the path.
    read: usize,
}

impl<'l> Reader<'l> {
    /// A reader of `letters` at the start of the text.
    pub fn new(letters: &'l Letters) -> Reader<'l> {
        Reader { letters, read: 0 }
    }

    /// Whether square `v`, entered next, reads the text's next unit (or
    /// nothing).
    #[inline(always)]
    pub fn fits(&self, v: u32) -> bool {
        match self.letters.unit_of[v as usize] {
            NO_UNIT => true,
            u => self.letters.reading.get(self.read) == Some(&u),
        }
    }

    /// Square `v` is entered.
    #[inline(always)]
    pub fn enter(&mut self, v: u32) {
        if self.letters.unit_of[v as usize] != NO_UNIT {
            self.read += 1;
        }
    }

    /// Square `v` is left (the last entered).
    #[inline(always)]
    pub fn leave(&mut self, v: u32) {
        if self.letters.unit_of[v as usize] != NO_UNIT {
            self.read -= 1;
        }
    }
}

/// The clauses that make a model read the text when some squares read
/// nothing: for each step `k` and each count `d` of blank squares, a
/// variable "at least `d` of steps `0..=k` stand on blank squares" (an
/// order encoding of the running count), and for a lettered square at
/// step `k` with exactly `d` blanks before it, the text's unit `k − d`.
pub struct Blanks;

impl Blanks {
    /// Adds the clauses to `solver`, given each step's candidates with
    /// their variables (`of_step`, squares in order).
    pub fn encode<S: SolverInterface>(
        letters: &Letters,
        of_step: &[Vec<(u32, Var)>],
        solver: &mut S,
    ) {
        let b = letters.blanks();
        if b == 0 {
            return;
        }
        let n = of_step.len();
        let t = Lit::new(solver.new_var_default(), true);
        solver.add_clause_reuse(&mut vec![t]);
        let f = !t;
        // at_least[k][d], d from 0 to b + 1: at least d blanks in steps 0..=k.
        let mut before: Vec<Lit> = (0..=b + 1).map(|d| if d == 0 { t } else { f }).collect();
        for (k, cands) in of_step.iter().enumerate() {
            // blank(k): step k stands on a blank square.
            let blanks: Vec<Lit> = cands
                .iter()
                .filter(|&&(s, _)| letters.unit_of[s as usize] == NO_UNIT)
                .map(|&(_, v)| Lit::new(v, true))
                .collect();
            let blank = Lit::new(solver.new_var_default(), true);
            let mut any = vec![!blank];
            any.extend(&blanks);
            solver.add_clause_reuse(&mut any);
            for &l in &blanks {
                solver.add_clause_reuse(&mut vec![!l, blank]);
            }
            // A lettered square at step k with exactly d blanks before it
            // reads unit k − d.
            for &(s, v) in cands {
                let u = letters.unit_of[s as usize];
                if u == NO_UNIT {
                    continue;
                }
                for d in 0..=b.min(k) {
                    if letters.reading.get(k - d) != Some(&u) {
                        let mut c = vec![Lit::new(v, false), !before[d], before[d + 1]];
                        solver.add_clause_reuse(&mut c);
                    }
                }
            }
            if k + 1 == n {
                break;
            }
            // The counts after step k.
            let mut after = vec![t; b + 2];
            after[b + 1] = f;
            for d in 1..=b {
                let a = Lit::new(solver.new_var_default(), true);
                // a <-> before[d] | (before[d-1] & blank)
                solver.add_clause_reuse(&mut vec![!before[d], a]);
                solver.add_clause_reuse(&mut vec![!before[d - 1], !blank, a]);
                solver.add_clause_reuse(&mut vec![!a, before[d], before[d - 1]]);
                solver.add_clause_reuse(&mut vec![!a, before[d], blank]);
                after[d] = a;
            }
            before = after;
        }
    }
}
