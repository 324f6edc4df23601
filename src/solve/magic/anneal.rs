//! The magic search's second way to a tour: simulated annealing over the
//! tours themselves. A whole tour is kept (first grown by random steps and
//! end reversals until it covers the board) and changed by reversing a
//! stretch of it: a stretch between two moves that can be swapped for two
//! others (the 2-opt move), or a stretch at one end whose end square has a
//! move into the tour (the backbite). Each change keeps a tour; its cost is
//! how far every line's sum is from its target, added up, and a change
//! that costs more is taken with the probability `e^(−rise/temperature)`,
//! the temperature cooling through a sweep and then heating again.
//!
//! A closed tour is grown as an open one and its ends then moved by
//! backbites until they are a move apart; it is changed by 2-opt moves
//! that keep the move from its last square back to its first, and by
//! turning the numbering round the cycle (another square is step 1).
//! A fixed start stays first: only the tour's other end is bitten. A fixed
//! end of an open tour is annealed as the start of the tour read
//! backwards, which is magic when the tour is, since every line's target
//! is its length times (n + 1) / 2.
//!
//! It cannot prove that no tour exists and it finds a tour only by luck
//! well spent, so the magic search runs it in turns with the complete
//! search ([`super::search`]): for a puzzle with many magic tours (the
//! king's 8x8, whose complete search finds none in minutes) it finds one,
//! and a puzzle without one is still settled by the complete search.
//! Tours of moves that can all be made back, with no clue, no symmetry
//! and at most one end fixed, are annealed.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::plan::{NONE, Plan};
use crate::solve::Stop;
use crate::solve::backtrack::Searching;

/// The temperature a sweep starts at, for each square of the board: the
/// cost of a change is a sum of the lines' moves, which grow with the board.
const HEAT_A_SQUARE: f64 = 1.0;

/// The temperature a sweep cools to, as a fraction of where it started.
const COOLED: f64 = 0.005;

/// The temperature never falls below this: a rise of one is still taken
/// now and then.
const COLDEST: f64 = 0.3;

/// A sweep's changes, for each square squared: 12,000 × 64² ≈ 49 million
/// on 8x8, measured the best of the lengths tried there.
const SWEEP_A_SQUARE_SQUARED: u64 = 12_000;

/// Changes between two coolings of the temperature.
const COOL_EVERY: u64 = 1024;

/// One change in this many is a backbite (of a closed tour, a turn of its
/// numbering); the rest are 2-opt moves.
const BACKBITE_ONE_IN: u32 = 8;

/// The most 2-opt moves weighed at one square (the first found, for a
/// piece with more moves than this).
const WAYS: usize = 16;

/// A change to a whole tour.
#[derive(Clone, Copy)]
enum Change {
    /// Steps `lo..=hi` reversed.
    Reverse(usize, usize),
    /// The numbering turned round a closed tour: step `by + 1` becomes
    /// step 1.
    Turn(usize),
}

/// The annealing: the tour, its lines' sums and the temperature, kept
/// between turns.
pub(super) struct Anneal<'p> {
    plan: &'p Plan,
    rng: ChaCha8Rng,
    /// The first square stays first: the puzzle fixes it (or its end,
    /// when `backwards`).
    anchored: bool,
    /// The tour annealed is the puzzle's read backwards.
    backwards: bool,
    /// The tour covers the board (and, closed, its ends are a move apart):
    /// it is priced and changed.
    whole: bool,
    /// The tour so far (the whole board once grown), and the step of each
    /// square on it (`NONE` off it).
    path: Vec<u32>,
    pos: Vec<u32>,
    /// Each line's sum, and the cost: how far the sums are from their
    /// targets, added up.
    sum: Vec<i64>,
    cost: i64,
    /// The change to each line's sum that a change being weighed makes.
    delta: Vec<i64>,
    temperature: f64,
    /// The temperature's factor every [`COOL_EVERY`] changes, and the
    /// changes into the sweep.
    cooling: f64,
    sweep: u64,
    swept: u64,
}

impl<'p> Anneal<'p> {
    /// The annealing of `plan`, when the plan is one it serves: a tour of
    /// moves that can all be made back, no clue, no symmetry, and its start
    /// or its end fixed or neither. Its every random choice comes from
    /// `seed`, so a seed gives the same tour each run.
    pub(super) fn new(plan: &'p Plan, seed: u64) -> Option<Anneal<'p>> {
        let n = plan.n;
        if !plan.undirected || plan.tie.is_some() || n < 2 {
            return None;
        }
        let fixed: Vec<usize> = (0..n).filter(|&k| plan.fixed[k] != NONE).collect();
        let (anchor, backwards) = match fixed[..] {
            [] => (None, false),
            [0] => (Some(plan.fixed[0]), false),
            [k] if k == n - 1 && !plan.closed => (Some(plan.fixed[k]), true),
            _ => return None,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let first = anchor.unwrap_or_else(|| rng.random_range(0..n as u32));
        let mut pos = vec![NONE; n];
        pos[first as usize] = 0;
        let sweep = SWEEP_A_SQUARE_SQUARED.saturating_mul((n * n) as u64);
        Some(Anneal {
            plan,
            rng,
            anchored: anchor.is_some(),
            backwards,
            whole: false,
            path: vec![first],
            pos,
            sum: vec![0; plan.target.len()],
            cost: 0,
            delta: vec![0; plan.target.len()],
            temperature: 0.0,
            cooling: COOLED.powf(COOL_EVERY as f64 / sweep as f64),
            sweep,
            swept: sweep,
        })
    }

    /// Anneals for `budget` changes (each a node, counted in `nodes`, with
    /// the limits looked at as the complete search looks at them): the
    /// tour (squares in order) once every line's sum is its target.
    pub(super) fn run(
        &mut self,
        budget: u64,
        nodes: &mut u64,
        run: &mut Searching<'_>,
    ) -> Result<Option<Vec<u32>>, Stop> {
        let end = nodes.saturating_add(budget);
        while *nodes < end {
            *nodes += 1;
            run.tick(*nodes)?;
            if !self.whole {
                if self.path.len() < self.plan.n {
                    self.grow();
                } else {
                    self.close();
                }
                if self.whole {
                    self.price();
                }
                continue;
            }
            if self.cost == 0 {
                return Ok(Some(self.tour()));
            }
            if self.swept >= self.sweep {
                self.swept = 0;
                self.temperature = HEAT_A_SQUARE * self.plan.n as f64;
            }
            self.swept += 1;
            if self.swept.is_multiple_of(COOL_EVERY) {
                self.temperature = (self.temperature * self.cooling).max(COLDEST);
            }
            if let Some(change) = self.pick() {
                self.weigh(change);
            }
        }
        Ok((self.whole && self.cost == 0).then(|| self.tour()))
    }

    /// The tour found, in the puzzle's direction.
    fn tour(&self) -> Vec<u32> {
        let mut tour = self.path.clone();
        if self.backwards {
            tour.reverse();
        }
        tour
    }

    /// One step of growing the tour: onto a free square next to its last
    /// square when there is one; else turned round (when its first square
    /// is free to move), or its last stretch reversed so that another
    /// square is last (a backbite).
    fn grow(&mut self) {
        let last = self.path[self.path.len() - 1];
        let near = self.plan.near.of(last as usize);
        let free = near
            .iter()
            .filter(|&&s| self.pos[s as usize] == NONE)
            .count();
        if free > 0 {
            let pick = self.rng.random_range(0..free);
            let s = near
                .iter()
                .copied()
                .filter(|&s| self.pos[s as usize] == NONE)
                .nth(pick)
                .unwrap_or(last);
            self.pos[s as usize] = self.path.len() as u32;
            self.path.push(s);
        } else {
            self.flip_or_bite();
        }
        self.whole = self.path.len() == self.plan.n && !self.plan.closed;
    }

    /// One step of closing a tour that covers the board: done when its
    /// ends are a move apart, else a backbite at an end that may move.
    fn close(&mut self) {
        let n = self.plan.n;
        if self.plan.moves(self.path[n - 1], self.path[0]) {
            self.whole = true;
        } else {
            self.flip_or_bite();
        }
    }

    /// Another last square: the tour turned round (when its first square
    /// is free to move) or a backbite at its last square, at random.
    fn flip_or_bite(&mut self) {
        if !self.anchored && self.rng.random_range(0..2) == 0 {
            let len = self.path.len();
            self.reverse(0, len - 1);
        } else {
            self.bite_last();
        }
    }

    /// A backbite at the last square: a move from it into the tour, and
    /// the stretch after the square it reaches reversed.
    fn bite_last(&mut self) {
        let len = self.path.len();
        let near = self.plan.near.of(self.path[len - 1] as usize);
        if near.is_empty() {
            return;
        }
        let i = self.pos[near[self.rng.random_range(0..near.len())] as usize];
        if i != NONE && (i as usize) + 2 < len {
            self.reverse(i as usize + 1, len - 1);
        }
    }

    /// The lines' sums and the cost of the whole tour.
    fn price(&mut self) {
        self.sum.iter_mut().for_each(|s| *s = 0);
        for (k, &s) in self.path.iter().enumerate() {
            for &l in self.plan.lines_of.of(s as usize) {
                self.sum[l as usize] += k as i64 + 1;
            }
        }
        self.cost = (self.sum.iter().zip(&self.plan.target))
            .map(|(s, t)| (s - t).abs())
            .sum();
    }

    /// A change to weigh, or None when the random pick finds none.
    fn pick(&mut self) -> Option<Change> {
        let n = self.plan.n;
        // A cycle whose first square is fixed cannot turn: it only takes
        // 2-opt moves.
        let turns = !(self.plan.closed && self.anchored);
        if turns && self.rng.random_range(0..BACKBITE_ONE_IN) == 0 {
            if self.plan.closed {
                // Another square of the cycle is step 1.
                return Some(Change::Turn(self.rng.random_range(1..n)));
            }
            // A move from an end square into the tour: the stretch from
            // that end to the square before the one it reaches reverses.
            let front = !self.anchored && self.rng.random_range(0..2) == 0;
            let end = if front {
                self.path[0]
            } else {
                self.path[n - 1]
            };
            let near = self.plan.near.of(end as usize);
            let i = self.pos[near[self.rng.random_range(0..near.len())] as usize] as usize;
            return if front {
                (i >= 2).then_some(Change::Reverse(0, i - 1))
            } else {
                (i + 2 < n).then_some(Change::Reverse(i + 1, n - 1))
            };
        }
        // Moves a−1 → a and b → b+1 swapped for a−1 → b and a → b+1 (b + 1
        // wrapping to the first square on a cycle): one of the b that allow
        // it, at random.
        let a = self.rng.random_range(1..n);
        let mut ways = [0; WAYS];
        let mut found = 0;
        for &s in self.plan.near.of(self.path[a - 1] as usize) {
            let b = self.pos[s as usize] as usize;
            let after = match (b + 1 == n, self.plan.closed) {
                (true, false) => true,
                (true, true) => self.plan.moves(self.path[a], self.path[0]),
                (false, _) => self.plan.moves(self.path[a], self.path[b + 1]),
            };
            if b > a && after {
                ways[found] = b;
                found += 1;
                if found == WAYS {
                    break;
                }
            }
        }
        (found > 0).then(|| Change::Reverse(a, ways[self.rng.random_range(0..found)]))
    }

    /// Weighs `change`, and makes it if the temperature lets it.
    fn weigh(&mut self, change: Change) {
        let n = self.plan.n;
        self.delta.iter_mut().for_each(|d| *d = 0);
        let (from, to) = match change {
            Change::Reverse(lo, hi) => (lo, hi + 1),
            Change::Turn(_) => (0, n),
        };
        for k in from..to {
            // How much step k's number changes.
            let moved = match change {
                Change::Reverse(lo, hi) => (lo + hi) as i64 - 2 * k as i64,
                Change::Turn(by) if k < by => (n - by) as i64,
                Change::Turn(by) => -(by as i64),
            };
            if moved != 0 {
                for &l in self.plan.lines_of.of(self.path[k] as usize) {
                    self.delta[l as usize] += moved;
                }
            }
        }
        let cost: i64 = (self.sum.iter().zip(&self.delta).zip(&self.plan.target))
            .map(|((s, d), t)| (s + d - t).abs())
            .sum();
        let rise = cost - self.cost;
        if rise > 0 && self.rng.random::<f64>() >= (-(rise as f64) / self.temperature).exp() {
            return;
        }
        match change {
            Change::Reverse(lo, hi) => self.reverse(lo, hi),
            Change::Turn(by) => {
                self.path.rotate_left(by);
                for (k, &s) in self.path.iter().enumerate() {
                    self.pos[s as usize] = k as u32;
                }
            }
        }
        for (s, d) in self.sum.iter_mut().zip(&self.delta) {
            *s += d;
        }
        self.cost = cost;
    }

    /// Reverses steps `lo..=hi` of the tour.
    fn reverse(&mut self, lo: usize, hi: usize) {
        self.path[lo..=hi].reverse();
        for k in lo..=hi {
            self.pos[self.path[k] as usize] = k as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::{Cadence, Limits, Never};
    use crate::model::Magic;
    use crate::progress::Progress;
    use crate::puzzle::Puzzle;
    use crate::verify::{verify, verify_magic};

    /// Anneals `text`'s puzzle for at most `budget` changes from the start:
    /// None when the annealing does not serve it, else what it found.
    fn anneal(text: &str, budget: u64) -> Option<Option<Vec<u32>>> {
        let p = Puzzle::parse("t.ron", text).unwrap_or_else(|e| panic!("{e}"));
        let Ok(g) = p.graph(&Never);
        let task = p.task(&g);
        let magic = task.constraints.magic.unwrap_or(Magic::Semi);
        let plan = Plan::new(&task, magic);
        let mut a = Anneal::new(&plan, task.seed)?;
        let limits = Limits::none();
        let progress = Progress::new();
        let mut run = Searching {
            limits: &limits,
            progress: &progress,
            cadence: Cadence::new(&limits, 0),
        };
        let mut nodes = 0;
        let found = a.run(budget, &mut nodes, &mut run).unwrap_or(None);
        if let Some(t) = &found {
            assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()), "{text}");
            assert_eq!(verify_magic(&p.board, magic, t), Ok(()), "{text}");
        }
        Some(found)
    }

    #[test]
    fn the_annealing_finds_magic_tours_the_verifier_adds_up() {
        for text in [
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "2x8", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi)"#,
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Diagonal)"#,
        ] {
            let found = anneal(text, 50_000_000);
            assert!(matches!(found, Some(Some(_))), "{text}: {found:?}");
        }
    }

    #[test]
    fn closed_tours_and_fixed_ends_are_annealed_and_verified() {
        for text in [
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, tour: Closed)"#,
            r#"Puzzle(board: "6x4", piece: "king", magic: Semi, tour: Closed)"#,
            r#"Puzzle(board: "8x4", piece: "king", magic: Semi, tour: Closed)"#,
            r#"Puzzle(board: "8x4", piece: "king", magic: Semi, tour: Closed, start: "b3")"#,
            r#"Puzzle(board: "8x4", piece: "king", magic: Semi, start: "c2")"#,
            r#"Puzzle(board: "8x4", piece: "king", magic: Semi, end: "c2")"#,
        ] {
            let found = anneal(text, 50_000_000);
            assert!(matches!(found, Some(Some(_))), "{text}: {found:?}");
        }
    }

    #[test]
    fn the_puzzles_seed_chooses_the_annealings_tour() {
        let tours: std::collections::HashSet<Vec<u32>> = (0..8)
            .filter_map(|seed| {
                let text =
                    format!(r#"Puzzle(board: "8x2", piece: "king", magic: Semi, seed: {seed})"#);
                anneal(&text, 50_000_000).flatten()
            })
            .collect();
        assert!(tours.len() >= 2, "eight seeds, tours: {tours:?}");
    }

    #[test]
    fn the_annealing_finds_nothing_where_there_is_nothing() {
        // None of these has a magic tour (the complete search proves it).
        for text in [
            r#"Puzzle(board: "4x4", piece: "king", magic: Semi)"#,
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, start: "c1")"#,
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Diagonal, tour: Closed)"#,
        ] {
            assert_eq!(anneal(text, 1_000_000), Some(None), "{text}");
        }
    }

    #[test]
    fn the_annealing_leaves_what_it_cannot_change_freely_to_the_complete_search() {
        // Clues, both ends fixed, a symmetry, and moves that cannot all be
        // made back.
        for text in [
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, start: "a1", end: "h1")"#,
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, clues: {"c2": 3})"#,
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, symmetry: Rotate180)"#,
            r#"Puzzle(board: "4x2", piece: "jumps (1,0), (-1,1), (1,1), (-1,0), (0,1), (0,-1), (1,-1)", magic: Semi)"#,
        ] {
            assert_eq!(anneal(text, 1000), None, "{text}");
        }
    }
}
