//! Exact counts by dynamic programming over subsets of squares (Bellman,
//! Held and Karp; Knuth's *counting paths by the set visited and the last
//! square*): the number of paths that visit exactly the set `S` and end on
//! `v`, for every `S` and `v ∈ S`, built from the sets one square smaller.
//!
//! Its cost is the same for every piece and board of `n` squares — about
//! `2^n · n` counts, each the sum over the moves into its last square — so
//! it serves the small boards where the other two methods struggle: dense
//! pieces (the frontier's states multiply with the moves, the search's
//! tours with the degree), one-way moves (which the frontier cannot take)
//! and wrapping boards, on up to about 30 squares.
//!
//! The sets are taken by size, one layer at a time; a layer's sets are
//! ranked in colexicographic order (the sets of `k` squares as numbers in
//! increasing order, by Gosper's rule), and each set keeps one count per
//! square in it, so a layer is `C(m, k) · k` counts. A fixed start is
//! taken out of the sets (every path holds it); a closed tour fixes its
//! start at its first square. The next layer is *pulled*: each set and
//! last square sums the counts of the set without it over the squares with
//! a move into it, so the threads write disjoint parts of the layer.
//!
//! A puzzle with clues is counted by steps: the `k`-th square of a path is
//! the square whose clue is `k` if there is one, and a square with a clue
//! is the `k`-th square only if its clue is `k`.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::frontier::key::Tally;
use crate::halt::{Halt, Limits, Stop};
use crate::model::{Goal, MoveGraph};
use crate::progress::{Progress, Unit};

/// The most squares the method takes (sets are 64-bit masks; past about
/// 30 squares no memory holds a layer anyway).
pub const MAX_SQUARES: usize = 40;

/// Why the subset method cannot count a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Fewer than three squares, or more than [`MAX_SQUARES`].
    Size(usize),
    /// Its largest layer would need more memory than the budget.
    TooBig {
        /// Bytes needed.
        need: u64,
        /// The budget.
        budget: u64,
    },
    /// A count outgrew 128 bits.
    Overflow,
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unfit::Size(n) => write!(
                f,
                "the subset method counts boards of 3 to {MAX_SQUARES} squares, and this one has {n}"
            ),
            Unfit::TooBig { need, budget } => write!(
                f,
                "the subset method would need about {} for its largest layer, over its budget of {}",
                crate::budget::bytes_over(*need, *budget),
                crate::budget::bytes(*budget)
            ),
            Unfit::Overflow => f.write_str("a count of the subset method outgrew 128 bits"),
        }
    }
}

/// The result of [`count`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubsetCounted {
    /// Directed tours (summed over every start when the start is `any`);
    /// 0 when stopped (all tours are completed in the last layer).
    pub tours: u128,
    /// Closed goals: twice the number of distinct cycles.
    pub cycles_x2: Option<u128>,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Squares in the sets (the board's, less a fixed start).
    pub squares: usize,
    /// Layers done.
    pub layers_done: usize,
    /// The most counts in one layer.
    pub peak_counts: u64,
    /// The most bytes the layers took at once.
    pub peak_bytes: u64,
    /// Bits of each count (64, or 128 when 64 overflowed).
    pub count_bits: u32,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// Clues for [`count`]: the square of each step that has one, and the step
/// of each square that has one (steps from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steps {
    /// `square[k - 1]`: the square of step `k`, if clued.
    pub square: Vec<Option<u32>>,
    /// `step[s]`: the step of square `s`, if clued.
    pub step: Vec<Option<u32>>,
}

impl Steps {
    /// The clues `(square, step)` on `n` squares; None when two clues
    /// share a square or a step, or a step is out of range.
    pub fn new(n: usize, clues: impl IntoIterator<Item = (u32, u32)>) -> Option<Steps> {
        let mut s = Steps {
            square: vec![None; n],
            step: vec![None; n],
        };
        for (sq, k) in clues {
            let (i, j) = (sq as usize, (k as usize).checked_sub(1)?);
            if i >= n || j >= n || s.step[i].is_some() || s.square[j].is_some() {
                return None;
            }
            s.step[i] = Some(k);
            s.square[j] = Some(sq);
        }
        Some(s)
    }

    /// Whether square `s` may be step `k` (from 1).
    fn allows(&self, s: u32, k: usize) -> bool {
        let by_step = self
            .square
            .get(k - 1)
            .copied()
            .flatten()
            .is_none_or(|q| q == s);
        let by_square = self
            .step
            .get(s as usize)
            .copied()
            .flatten()
            .is_none_or(|t| t as usize == k);
        by_step && by_square
    }
}

/// `C(n, k)` for `n, k ≤ 64`, saturating.
fn binomials() -> Vec<[u64; 65]> {
    let mut c = vec![[0u64; 65]; 65];
    for n in 0..=64 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1].saturating_add(if k < n { c[n - 1][k] } else { 0 });
        }
    }
    c
}

/// The counts of the largest layer over `m` squares in the sets.
pub fn peak_counts(m: usize) -> u64 {
    let c = binomials();
    (0..=m.min(64))
        .map(|k| c[m.min(64)][k].saturating_mul(k.max(1) as u64))
        .max()
        .unwrap_or(1)
}

/// The squares in the sets for `goal` on `n` squares: one fewer when a
/// start is fixed (a closed tour's too).
pub fn set_squares(n: usize, goal: &Goal) -> usize {
    if goal.closed || goal.start.is_some() {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// The estimated memory of a count: two layers at their largest, in 64-bit
/// counts.
pub fn estimate_bytes(n: usize, goal: &Goal) -> u64 {
    peak_counts(set_squares(n, goal)).saturating_mul(16)
}

/// The estimated time of a count, in microseconds: every set's every last
/// square sums the moves into it — `2^(m−1) · m` counts of `d` moves each
/// (`d` the average number of moves), at 4 ns a move (measured on the
/// knight and the king on 19 to 25 squares: 3 to 5.5 ns on the shared
/// two cores, BENCHMARKS.md), plus 50 µs.
pub fn estimate_micros(g: &MoveGraph, goal: &Goal) -> f64 {
    let n = g.len();
    let m = set_squares(n, goal) as f64;
    let d = if n == 0 {
        0.0
    } else {
        g.edge_count() as f64 / n as f64
    };
    50.0 + 2f64.powf(m - 1.0) * m * d.max(1.0) * 0.004
}

/// Whether the method can count `goal` on `g` within `budget` bytes.
pub fn fit(g: &MoveGraph, goal: &Goal, budget: u64) -> Result<(), Unfit> {
    let n = g.len();
    if !(3..=MAX_SQUARES).contains(&n) {
        return Err(Unfit::Size(n));
    }
    let need = estimate_bytes(n, goal);
    if need > budget {
        return Err(Unfit::TooBig { need, budget });
    }
    Ok(())
}

/// Counts the tours of `goal` on `g` whose steps fit `steps` (no clue:
/// [`Steps::default`]), on `threads` threads (None: one per core), under
/// `limits` (checked between runs of sets); see the module docs. Fails when
/// [`fit`] does, or a count outgrows 128 bits.
pub fn count(
    g: &MoveGraph,
    goal: &Goal,
    steps: &Steps,
    threads: Option<usize>,
    budget: u64,
    limits: &Limits,
    progress: &Progress,
) -> Result<SubsetCounted, Unfit> {
    fit(g, goal, budget)?;
    let started = Instant::now();
    let pool = threads.and_then(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .ok()
    });
    let threads = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let run = |wide: bool| {
        let go = || {
            if wide {
                run::<u128>(g, goal, steps, limits, progress)
            } else {
                run::<u64>(g, goal, steps, limits, progress)
            }
        };
        match &pool {
            Some(p) => p.install(go),
            None => go(),
        }
    };
    let (mut c, mut bits) = (run(false), 64);
    if c.overflow {
        (c, bits) = (run(true), 128);
        if c.overflow {
            return Err(Unfit::Overflow);
        }
    }
    let n = g.len() as u128;
    let (tours, cycles_x2) = match (c.stopped, goal.closed) {
        (Some(_), closed) => (0, closed.then_some(0)),
        (None, false) => (c.found, None),
        (None, true) => {
            let d = c.found;
            // Each distinct cycle is two directed ones when every move can
            // be made back; else the cycles whose reverse is one are
            // counted again on the two-way moves.
            let x2 = if g.is_symmetric() {
                d
            } else {
                let both = two_way(g);
                let b = run_on(&both, goal, steps, limits, progress, &pool, bits)?;
                2 * d - b
            };
            let tours = if goal.start.is_some() { d } else { d * n };
            (tours, Some(x2))
        }
    };
    Ok(SubsetCounted {
        tours,
        cycles_x2,
        stopped: c.stopped,
        squares: set_squares(g.len(), goal),
        layers_done: c.layers,
        peak_counts: c.peak,
        peak_bytes: c.peak_bytes,
        count_bits: bits,
        threads,
        elapsed: started.elapsed(),
    })
}

/// The count of `goal` on `g` with counts of `bits` bits, for the second
/// count of a closed one (stopped: 0).
fn run_on(
    g: &MoveGraph,
    goal: &Goal,
    steps: &Steps,
    limits: &Limits,
    progress: &Progress,
    pool: &Option<rayon::ThreadPool>,
    bits: u32,
) -> Result<u128, Unfit> {
    let go = || {
        if bits > 64 {
            run::<u128>(g, goal, steps, limits, progress)
        } else {
            run::<u64>(g, goal, steps, limits, progress)
        }
    };
    let c = match pool {
        Some(p) => p.install(go),
        None => go(),
    };
    if c.overflow {
        return Err(Unfit::Overflow);
    }
    Ok(c.found)
}

/// The graph of the moves of `g` that can be made back.
fn two_way(g: &MoveGraph) -> MoveGraph {
    let lists: Vec<Vec<u32>> = (0..g.len() as u32)
        .map(|s| g.neighbours(s).filter(|&t| g.has_edge(t, s)).collect())
        .collect();
    MoveGraph::from_lists(&lists)
}

/// What one run found.
struct Ran {
    found: u128,
    overflow: bool,
    stopped: Option<Stop>,
    layers: usize,
    peak: u64,
    peak_bytes: u64,
}

/// Sets per run a thread takes at once.
const RUN: usize = 1 << 10;

/// One count with counts `C` (see the module docs).
fn run<C: Tally>(
    g: &MoveGraph,
    goal: &Goal,
    steps: &Steps,
    limits: &Limits,
    progress: &Progress,
) -> Ran {
    let n = g.len();
    let fixed = if goal.closed {
        Some(goal.start.unwrap_or(0))
    } else {
        goal.start
    };
    // The squares in the sets, as bits 0..m, and back.
    let squares: Vec<u32> = (0..n as u32).filter(|&s| Some(s) != fixed).collect();
    let m = squares.len();
    let mut bit = vec![usize::MAX; n];
    for (i, &s) in squares.iter().enumerate() {
        bit[s as usize] = i;
    }
    // Moves into each square from the squares in the sets (a mask), and
    // whether from the fixed start.
    let mut into = vec![0u64; m];
    let mut from_fixed = vec![false; m];
    for s in 0..n as u32 {
        for t in g.neighbours(s) {
            let ti = bit[t as usize];
            if ti == usize::MAX || s == t {
                continue;
            }
            if Some(s) == fixed {
                from_fixed[ti] = true;
            } else {
                into[ti] |= 1 << bit[s as usize];
            }
        }
    }
    let c = binomials();
    let mut out = Ran {
        found: 0,
        overflow: false,
        stopped: None,
        layers: 0,
        peak: 0,
        peak_bytes: 0,
    };
    progress.start(Unit::Squares, Some(m as u64));
    // Step numbers: with a fixed start, the sets' `k` squares are steps 2
    // to k + 1.
    let offset = usize::from(fixed.is_some());
    if fixed.is_some_and(|s| !steps.allows(s, 1)) {
        out.layers = m;
        return out;
    }
    // Layer 1: one square in the set.
    let mut layer: Vec<C> = (0..m)
        .map(|i| {
            let ok = steps.allows(squares[i], 1 + offset)
                && match fixed {
                    Some(_) => from_fixed[i],
                    None => true,
                };
            if ok { C::ONE } else { C::default() }
        })
        .collect();
    out.layers = 1;
    progress.set(1);
    for k in 1..m {
        if let Err(stop) = limits.check() {
            out.stopped = Some(stop);
            return out;
        }
        // Layer k + 1: C(m, k + 1) sets of k + 1 counts each.
        let sets = c[m][k + 1] as usize;
        let width = k + 1;
        let mut next = vec![C::default(); sets * width];
        let bytes = ((layer.len() + next.len()) * size_of::<C>()) as u64;
        out.peak_bytes = out.peak_bytes.max(bytes);
        out.peak = out.peak.max(next.len() as u64);
        let step = k + 1 + offset;
        let overflow = std::sync::atomic::AtomicBool::new(false);
        let stopped = std::sync::Mutex::new(None);
        let prev = &layer;
        next.par_chunks_mut(RUN * width)
            .enumerate()
            .for_each(|(run_index, chunk)| {
                if let Err(stop) = limits.check() {
                    if let Ok(mut s) = stopped.lock() {
                        s.get_or_insert(stop);
                    }
                    return;
                }
                let mut set = unrank(run_index * RUN, k + 1, m, &c);
                let mut elems = [0u8; 64];
                let mut pre = [0u64; 65];
                for entries in chunk.chunks_mut(width) {
                    // The set's squares, in order, and the ranks of the sets
                    // without each.
                    let mut x = set;
                    let mut e = 0;
                    while x != 0 {
                        elems[e] = x.trailing_zeros() as u8;
                        x &= x - 1;
                        e += 1;
                    }
                    pre[0] = 0;
                    for i in 0..width {
                        pre[i + 1] = pre[i] + c[usize::from(elems[i])][i + 1];
                    }
                    let mut suf = 0u64;
                    for j in (0..width).rev() {
                        let u = usize::from(elems[j]);
                        if steps.allows(squares[u], step) {
                            let rank = (pre[j] + suf) as usize;
                            let base = rank * k;
                            let rest = set & !(1u64 << u);
                            let mut preds = into[u] & rest;
                            let mut sum = C::default();
                            while preds != 0 {
                                let v = preds.trailing_zeros();
                                preds &= preds - 1;
                                // v's place among the set without u.
                                let at = (rest & ((1u64 << v) - 1)).count_ones() as usize;
                                match sum.add(prev[base + at]) {
                                    Some(s) => sum = s,
                                    None => {
                                        overflow.store(true, std::sync::atomic::Ordering::Relaxed)
                                    }
                                }
                            }
                            entries[j] = sum;
                        }
                        suf += c[usize::from(elems[j])][j];
                    }
                    set = next_set(set);
                }
            });
        if let Some(stop) = stopped.into_inner().ok().flatten() {
            out.stopped = Some(stop);
            return out;
        }
        if overflow.load(std::sync::atomic::Ordering::Relaxed) {
            out.overflow = true;
            return out;
        }
        layer = next;
        out.layers = k + 1;
        progress.set(k as u64 + 1);
    }
    // The last layer: the set of every square, one count per last square.
    let full = m;
    let mut found = 0u128;
    for (j, &cnt) in layer.iter().enumerate().take(full) {
        let last = squares[j];
        let counts = if goal.closed {
            fixed.is_some_and(|s| g.has_edge(last, s))
        } else {
            goal.end.is_none_or(|e| e == last)
        };
        if counts {
            found += cnt.wide();
        }
    }
    out.found = found;
    out
}

/// The set of rank `r` among the sets of `k` of `m` squares, colex order.
fn unrank(mut r: usize, k: usize, m: usize, c: &[[u64; 65]]) -> u64 {
    let mut set = 0u64;
    let mut top = m;
    for i in (1..=k).rev() {
        // The largest square x with C(x, i) ≤ r.
        let mut x = top;
        while x > 0 && c[x - 1][i] as usize > r {
            x -= 1;
        }
        let x = x.saturating_sub(1);
        set |= 1 << x;
        r -= c[x][i] as usize;
        top = x;
    }
    set
}

/// The next set of as many squares, in colex order (Gosper's rule).
fn next_set(set: u64) -> u64 {
    if set == 0 {
        return 0;
    }
    let c = set & set.wrapping_neg();
    let r = set.wrapping_add(c);
    if r == 0 {
        return 0;
    }
    (((r ^ set) >> 2) / c) | r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Piece};

    #[test]
    fn ranks_and_gospers_rule_agree() {
        let c = binomials();
        let (m, k) = (9, 4);
        let mut set = unrank(0, k, m, &c);
        for r in 0..c[m][k] as usize {
            assert_eq!(unrank(r, k, m, &c), set, "rank {r}");
            set = next_set(set);
        }
    }

    fn graph(w: u32, h: u32, piece: Piece) -> MoveGraph {
        let Ok(g) = MoveGraph::build(&Board::rectangle(w, h), &piece, &Never);
        g
    }

    fn tours(g: &MoveGraph, goal: &Goal) -> (u128, Option<u128>) {
        let Ok(c) = count(
            g,
            goal,
            &Steps::default(),
            None,
            4 << 30,
            &Limits::none(),
            &Progress::new(),
        ) else {
            panic!("refused");
        };
        (c.tours, c.cycles_x2)
    }

    /// The knight's published counts: 1728 open tours of 5x5 from every
    /// start, 304 from a corner; no closed tour of 3x4 or 5x4; the wazir's
    /// 6 Hamiltonian cycles of 4x4.
    #[test]
    fn known_counts() {
        let knight = || Piece::leaper(1, 2, 1);
        assert_eq!(tours(&graph(5, 5, knight()), &Goal::default()).0, 1728);
        let corner = Goal {
            start: Some(0),
            ..Goal::default()
        };
        assert_eq!(tours(&graph(5, 5, knight()), &corner).0, 304);
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        assert_eq!(tours(&graph(4, 3, knight()), &closed), (0, Some(0)));
        assert_eq!(tours(&graph(5, 4, knight()), &closed), (0, Some(0)));
        let (t, x2) = tours(&graph(4, 4, Piece::leaper(0, 1, 1)), &closed);
        assert_eq!(x2, Some(2 * 6));
        assert_eq!(t, 2 * 6 * 16);
    }

    #[test]
    fn clues_are_steps() {
        // Open tours of 5x5 from a1 (step 1) ending on e5 (step 25): the
        // same as fixing the start and the end.
        let g = graph(5, 5, Piece::leaper(1, 2, 1));
        let Some(steps) = Steps::new(25, [(0, 1), (24, 25)]) else {
            panic!("bad clues");
        };
        let Ok(clued) = count(
            &g,
            &Goal::default(),
            &steps,
            None,
            4 << 30,
            &Limits::none(),
            &Progress::new(),
        ) else {
            panic!("refused");
        };
        let both = Goal {
            start: Some(0),
            end: Some(24),
            ..Goal::default()
        };
        assert_eq!(clued.tours, tours(&g, &both).0);
        assert!(clued.tours > 0);
        assert_eq!(Steps::new(25, [(0, 1), (0, 2)]), None);
    }
}
