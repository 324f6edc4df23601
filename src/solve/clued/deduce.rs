//! The deductions that place the steps of a clue puzzle without search
//! (the generator measures a puzzle's difficulty by what they fill).
//!
//! Every step `k` keeps a set of squares it may stand on (its clue's square,
//! or every square no clue is on), and four rules shrink the sets until none
//! applies:
//! - *neighbours*: a square stays a candidate of step `k` only if some
//!   candidate of step `k − 1` has a move to it and it has a move to some
//!   candidate of step `k + 1` (around the end for a closed tour). Applied
//!   to a fixed point this is the distance and parity window between clues,
//!   and more: a square too far from both clues, or on the wrong colour,
//!   drops out;
//! - *one square*: a step with one candidate square is placed there, and
//!   the square is taken from every other step;
//! - *one step*: a square that is a candidate of one step only is that
//!   step's (every square holds some step);
//! - a placed square is no other step's candidate.
//!
//! Each rule holds for every solution, so what they place is in every
//! solution: when they place every step the puzzle has at most one.

use crate::halt::{Halt, Never};

/// A step's square not (yet) known.
const NONE: u32 = u32::MAX;

/// Words of bit rows the rules read between two looks at their halt.
const LOOK_AFTER: usize = 1 << 20;

/// What the deductions found on a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduced {
    /// The square of each step (from 0) the rules placed, clues included,
    /// or `None`.
    pub placed: Vec<Option<u32>>,
    /// The rules emptied some step's candidates: the clues have no solution.
    pub contradiction: bool,
}

impl Deduced {
    /// Steps placed, clues included.
    pub fn filled(&self) -> usize {
        self.placed.iter().filter(|p| p.is_some()).count()
    }

    /// Whether the rules alone solve the puzzle.
    pub fn solved(&self) -> bool {
        !self.contradiction && self.placed.iter().all(Option::is_some)
    }
}

/// A set of squares, one bit each.
type Bits = [u64];

fn has(b: &Bits, s: u32) -> bool {
    b[s as usize / 64] >> (s % 64) & 1 == 1
}

fn ones(b: &Bits) -> impl Iterator<Item = u32> + '_ {
    b.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let t = w.trailing_zeros();
                w &= w - 1;
                i as u32 * 64 + t
            })
        })
    })
}

fn count(b: &Bits) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}

/// Runs the rules to their fixed point on the puzzle with move graph
/// `graph` (closed or not) and `clues` (`(step, square)`, steps from 1).
pub fn deduce(graph: &crate::model::MoveGraph, closed: bool, clues: &[(u32, u32)]) -> Deduced {
    let rules = MoveRows::new(graph, closed);
    let mut cand = rules.start(clues);
    let Ok(fixed_point) = rules.propagate(&mut cand, &Never);
    let contradiction = !fixed_point;
    Deduced {
        placed: (0..rules.n).map(|k| rules.single(&cand, k)).collect(),
        contradiction,
    }
}

/// The rules on one move graph: its moves as bit rows, ready to run on
/// the candidate squares of every step (`n` rows of `words` words).
pub struct MoveRows {
    /// Squares (and steps).
    pub n: usize,
    words: usize,
    closed: bool,
    out_nb: Vec<u64>,
    in_nb: Vec<u64>,
}

impl MoveRows {
    /// Bytes the rules take on a move graph of `n` squares, with the
    /// candidates of every step: three tables of `n` rows of a bit per
    /// square (the moves each way, the candidates) and the rules' own
    /// rows and marks.
    pub fn estimate_bytes(n: usize) -> u64 {
        let n = n as u64;
        let row = n.div_ceil(64).saturating_mul(8);
        n.saturating_mul(row)
            .saturating_mul(3)
            .saturating_add(row.saturating_mul(4))
            .saturating_add(n.saturating_mul(9))
    }

    /// The rules on `graph`, for a closed tour or not.
    pub fn new(graph: &crate::model::MoveGraph, closed: bool) -> MoveRows {
        let n = graph.len();
        let words = n.div_ceil(64);
        let mut out_nb = vec![0u64; n * words];
        let mut in_nb = vec![0u64; n * words];
        for s in 0..n as u32 {
            for t in graph.neighbours(s) {
                out_nb[s as usize * words + t as usize / 64] |= 1 << (t % 64);
                in_nb[t as usize * words + s as usize / 64] |= 1 << (s % 64);
            }
        }
        MoveRows {
            n,
            words,
            closed,
            out_nb,
            in_nb,
        }
    }

    /// The candidates before any rule: a clued step its square, every
    /// other step every square no clue is on.
    pub fn start(&self, clues: &[(u32, u32)]) -> Vec<u64> {
        let (n, words) = (self.n, self.words);
        let mut clued = vec![0u64; words];
        let mut fixed = vec![NONE; n];
        for &(step, s) in clues {
            if let Some(f) = fixed.get_mut(step as usize - 1) {
                *f = s;
                clued[s as usize / 64] |= 1 << (s % 64);
            }
        }
        let mut cand = vec![0u64; n * words];
        for (k, &f) in fixed.iter().enumerate() {
            let set = &mut cand[k * words..(k + 1) * words];
            if f == NONE {
                for s in 0..n as u32 {
                    if !has(&clued, s) {
                        set[s as usize / 64] |= 1 << (s % 64);
                    }
                }
            } else {
                set[f as usize / 64] |= 1 << (f % 64);
            }
        }
        cand
    }

    /// Step `k`'s candidates.
    pub fn of<'c>(&self, cand: &'c [u64], k: usize) -> &'c [u64] {
        &cand[k * self.words..(k + 1) * self.words]
    }

    /// Step `k`'s square, if it has one candidate.
    pub fn single(&self, cand: &[u64], k: usize) -> Option<u32> {
        let set = self.of(cand, k);
        (count(set) == 1).then(|| ones(set).next()).flatten()
    }

    /// Step `k` stands on `s`: its only candidate.
    pub fn place(&self, cand: &mut [u64], k: usize, s: u32) {
        let set = &mut cand[k * self.words..(k + 1) * self.words];
        set.fill(0);
        set[s as usize / 64] |= 1 << (s % 64);
    }

    /// Step `k` does not stand on `s`.
    pub fn exclude(&self, cand: &mut [u64], k: usize, s: u32) {
        cand[k * self.words + s as usize / 64] &= !(1 << (s % 64));
    }

    /// The candidates of step `k`, as squares.
    pub fn squares<'c>(&self, cand: &'c [u64], k: usize) -> impl Iterator<Item = u32> + 'c {
        ones(&cand[k * self.words..(k + 1) * self.words])
    }

    /// How many candidates step `k` has.
    pub fn count(&self, cand: &[u64], k: usize) -> u32 {
        count(self.of(cand, k))
    }

    /// Runs the rules on `cand` to their fixed point; false when they
    /// empty a step or leave a square no step (no solution). `Err` when
    /// `halt` stops them (they look at it every million words or so).
    pub fn propagate<H: Halt + ?Sized>(&self, cand: &mut [u64], halt: &H) -> Result<bool, H::Stop> {
        let all: Vec<usize> = (0..self.n).collect();
        self.propagate_from(cand, &all, halt)
    }

    /// [`MoveRows::propagate`] on candidates that were at the rules' fixed
    /// point before the steps `changed` lost some: only the steps beside
    /// those need their neighbours rule run again at first.
    pub fn propagate_from<H: Halt + ?Sized>(
        &self,
        cand: &mut [u64],
        changed: &[usize],
        halt: &H,
    ) -> Result<bool, H::Stop> {
        let (n, words, closed) = (self.n, self.words, self.closed);
        if n == 0 {
            return Ok(true);
        }
        // Words of rows read since the last look at the halt.
        let mut work = 0usize;
        let mut look = |w: usize| {
            work += w;
            if work >= LOOK_AFTER {
                work = 0;
                halt.check()
            } else {
                Ok(())
            }
        };
        let mut reach = vec![0u64; words];
        let mut placed = vec![0u64; words];
        let mut once = vec![0u64; words];
        let mut twice = vec![0u64; words];
        // Steps whose candidates changed since the steps beside them were
        // last filtered against them.
        let mut stale: Vec<usize> = changed.to_vec();
        let mut is_stale = vec![false; n];
        for &k in changed {
            is_stale[k] = true;
        }
        let mark = |k: usize, stale: &mut Vec<usize>, is_stale: &mut Vec<bool>| {
            if !is_stale[k] {
                is_stale[k] = true;
                stale.push(k);
            }
        };
        loop {
            // Neighbours: a step's candidates need a move from the step
            // before and to the step after; each change is passed on.
            while let Some(m) = stale.pop() {
                is_stale[m] = false;
                look(words)?;
                if n == 1 {
                    continue;
                }
                let links = [
                    (m + 1 < n || closed).then(|| ((m + 1) % n, &self.out_nb)),
                    (m > 0 || closed).then(|| ((m + n - 1) % n, &self.in_nb)),
                ];
                for (k, nb) in links.into_iter().flatten() {
                    reach.fill(0);
                    for p in ones(&cand[m * words..(m + 1) * words]) {
                        look(words)?;
                        let row = &nb[p as usize * words..(p as usize + 1) * words];
                        for (r, x) in reach.iter_mut().zip(row) {
                            *r |= x;
                        }
                    }
                    let mut changed = false;
                    for (c, r) in cand[k * words..(k + 1) * words].iter_mut().zip(&reach) {
                        let kept = *c & r;
                        changed |= kept != *c;
                        *c = kept;
                    }
                    if changed {
                        mark(k, &mut stale, &mut is_stale);
                    }
                }
            }
            // One square: a step with one candidate is placed there, and
            // its square is no other step's (two steps on one square: no
            // solution).
            placed.fill(0);
            look(n * words)?;
            for k in 0..n {
                let set = &cand[k * words..(k + 1) * words];
                match count(set) {
                    0 => return Ok(false),
                    1 => {
                        for (p, x) in placed.iter_mut().zip(set) {
                            if *p & x != 0 {
                                return Ok(false);
                            }
                            *p |= x;
                        }
                    }
                    _ => {}
                }
            }
            look(n * words)?;
            for k in 0..n {
                let set = &mut cand[k * words..(k + 1) * words];
                if count(set) > 1 && set.iter().zip(&placed).any(|(c, p)| c & p != 0) {
                    for (c, p) in set.iter_mut().zip(&placed) {
                        *c &= !p;
                    }
                    mark(k, &mut stale, &mut is_stale);
                }
            }
            if !stale.is_empty() {
                continue;
            }
            // One step: a square only one step may stand on is that step's
            // (every square holds some step; none: no solution).
            look(2 * n * words)?;
            once.fill(0);
            twice.fill(0);
            for k in 0..n {
                let set = &cand[k * words..(k + 1) * words];
                for ((o, t), x) in once.iter_mut().zip(twice.iter_mut()).zip(set) {
                    *t |= *o & x;
                    *o |= x;
                }
            }
            if count(&once) as usize != n {
                return Ok(false);
            }
            for (o, t) in once.iter_mut().zip(&twice) {
                *o &= !t;
            }
            if once.iter().any(|&w| w != 0) {
                for k in 0..n {
                    let set = &cand[k * words..(k + 1) * words];
                    if count(set) < 2 {
                        continue;
                    }
                    let (first, second) = {
                        let mut only = ones(set).filter(|&s| has(&once, s));
                        (only.next(), only.next())
                    };
                    if let Some(s) = first {
                        if second.is_some() {
                            return Ok(false);
                        }
                        self.place(cand, k, s);
                        mark(k, &mut stale, &mut is_stale);
                    }
                }
            }
            if stale.is_empty() {
                return Ok(true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MoveGraph;

    /// A path graph 0 - 1 - 2 - … (both ways).
    fn line(n: u32) -> MoveGraph {
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|s| {
                let mut v = Vec::new();
                if s > 0 {
                    v.push(s - 1);
                }
                if s + 1 < n {
                    v.push(s + 1);
                }
                v
            })
            .collect();
        MoveGraph::from_lists(&lists)
    }

    #[test]
    fn a_line_with_its_first_step_is_solved_by_the_rules() {
        let d = deduce(&line(6), false, &[(1, 0)]);
        assert!(d.solved());
        assert_eq!(d.placed, (0..6).map(Some).collect::<Vec<_>>());
    }

    #[test]
    fn a_line_without_clues_is_not() {
        // Either end may be step 1: no rule places anything.
        let d = deduce(&line(5), false, &[]);
        assert!(!d.solved() && !d.contradiction);
        assert_eq!(d.filled(), 0);
        // With the last step given, the rules walk back from it.
        assert!(deduce(&line(5), false, &[(5, 0)]).solved());
    }

    #[test]
    fn clues_that_cannot_be_toured_are_a_contradiction() {
        let d = deduce(&line(4), false, &[(1, 0), (2, 3)]);
        assert!(d.contradiction);
    }
}
