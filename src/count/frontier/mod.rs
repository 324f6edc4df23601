//! Exact tour counts by dynamic programming over the frontier of a board
//! swept square by square (the transfer-matrix method; Knuth, *The Art of
//! Computer Programming*, pre-fascicle 8A, algorithms E and E+).
//!
//! A depth-first count costs in proportion to the tours it finds; this one
//! costs in proportion to the number of *frontier states*: the squares are
//! taken one at a time (`plan`), and after each step every partial choice
//! of moves that can still grow into a tour is summarised by its state —
//! for each frontier square its number of moves so far and, for a square
//! with one, which other frontier square its path piece ends at (or that
//! the piece's other end has retired as an end of the tour). Choices with
//! the same state have the same futures, so they are merged with their
//! counts added (`table`); the rules of a step are in `step`.
//!
//! It counts undirected structures — cycles, or paths with their ends —
//! of a graph whose every move can be made back, and turns them into the
//! directed counts `engine count` reports: a cycle is `2` directed closed
//! tours from each of its squares, a path with both ends free is two
//! directed open tours, and a path from a fixed start (or to a fixed end)
//! one.
//!
//! Counts are kept in `u64` while they fit and redone in `u128` if one
//! outgrows it. Each step's states are split into partitions by hash; the
//! threads expand disjoint runs of the current states and merge into the
//! partitions in batches.

pub mod key;
mod look;
pub mod pilot;
pub mod plan;
pub mod resume;
pub mod spill;
mod step;
mod table;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::check::Check;
use crate::halt::{Halt, Limits, Stop};
use crate::model::{Board, Goal, MoveGraph};
use crate::progress::{Progress, Unit};
use key::{Key, Mates, Tally, Wide};
use plan::WIDTH_NAMED;
pub use plan::{Plan, Sweep};
use step::{Kind, StepRules};
use table::{Layer, Overflow, PARTITIONS, Table, partition};

/// The most states one thread expands between two looks at the limits.
const CHUNK: usize = 1 << 12;

/// The fewest: smaller steps are cut into about this many chunks per
/// thread, so that both cores share even the small steps of a mid-size
/// board (6x6 open: every step holds fewer than 8,000 states).
const MIN_CHUNK: usize = 1 << 7;

/// Chunks per thread a step is cut into, when that leaves chunks of at
/// least [`MIN_CHUNK`] states.
const CHUNKS_PER_THREAD: usize = 16;

/// Steps from at least this many states look ahead from each way of taking
/// the square as well as from the state (`step`): that holds the next
/// step's states to 70–85 % (8x6 closed, 7x6 open), which matters to the
/// memory of the largest counts, at a cost in time (10–25 % more on the
/// boards of the challenge table); smaller steps skip it.
pub const CHILDREN_ABOVE: u64 = 1 << 20;

/// Entries a thread gathers per partition before merging them.
const BATCH: usize = table::BATCH_MAX;

/// Options of [`count`].
#[derive(Clone, Copy, Debug)]
pub struct FrontierOptions {
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// The most bytes the states may take at once.
    pub budget: u64,
    /// Steps from at most this many states run on one thread, with one
    /// table (default [`SERIAL_BELOW`]; 0 shares every step out).
    pub serial_below: u64,
    /// Steps from at least this many states look ahead from each way of
    /// taking the square too (default [`CHILDREN_ABOVE`]; 0: every step).
    pub children_above: u64,
    /// Whether the look-ahead from a state starts from its run from the
    /// last state of the same classes (default true; false runs it afresh
    /// from every state, as a check).
    pub remember: bool,
    /// Count only a part of the states at a cut square (see [`Cut`]).
    pub cut: Option<Cut>,
    /// Where a step whose states pass the budget writes them (in a folder
    /// of its own, removed at the end); None: such a count is refused.
    pub spill: Option<&'static std::path::Path>,
    /// Where and how often the count saves itself, to go on from there
    /// when run again (see [`resume`]); None: it does not.
    pub checkpoint: Option<&'static resume::Checkpoint>,
}

/// A part of a count cut at a square: the states after the first square
/// whose step holds at least [`CUT_STATES`] states per part (or after the
/// last square but one, if none does) are split into `parts` by their
/// hash, and only part `part` (from 0) is swept on. The count is linear in
/// the states, so the parts' counts add up to the whole; every run of the
/// same plan cuts at the same square, since the states are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The part kept, from 0.
    pub part: u32,
    /// The number of parts, at least 1.
    pub parts: u32,
}

impl Cut {
    /// Whether the state whose key hashes to `h` is in the part kept.
    #[inline]
    fn keeps(self, h: u64) -> bool {
        // Mixed again: the top bits of `h` pick the table partition.
        let x = h.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (x >> 32) % u64::from(self.parts.max(1)) == u64::from(self.part)
    }
}

/// The states per part a step must hold to be the cut (see [`Cut`]): enough
/// that the parts are of about the same size, early enough that the steps
/// before it, which every part sweeps, are a small share of the work.
pub const CUT_STATES: u64 = 256;

impl Default for FrontierOptions {
    fn default() -> FrontierOptions {
        FrontierOptions {
            threads: None,
            budget: crate::budget::FRONTIER,
            serial_below: SERIAL_BELOW,
            children_above: CHILDREN_ABOVE,
            remember: true,
            cut: None,
            spill: None,
            checkpoint: None,
        }
    }
}

/// Why the frontier counter cannot count a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Fewer than three squares: no frontier to speak of (and a closed tour
    /// of two squares runs one move both ways, which is not a cycle).
    Small,
    /// Some move cannot be made back.
    OneWay,
    /// Every sweep's frontier is wider than [`plan::MAX_WIDTH`] squares.
    TooWide {
        /// The narrowest sweep's widest frontier.
        width: usize,
    },
    /// The states would need more memory than the budget.
    TooBig {
        /// Bytes the largest step was estimated to need.
        need: u64,
        /// The budget.
        budget: u64,
        /// The square (step, from 1) where the states crossed it; 0 for
        /// the estimate made before the start.
        at: usize,
    },
    /// A count outgrew 128 bits.
    Overflow,
    /// The states would need more disk than the spill folder has free.
    NoDisk {
        /// Bytes needed.
        need: u64,
        /// Bytes free.
        free: u64,
        /// The folder.
        folder: String,
    },
    /// Reading or writing the spill folder failed.
    Disk {
        /// What the system said.
        message: String,
    },
    /// A checkpoint could not be taken up or saved.
    Checkpoint {
        /// What went wrong, naming the file.
        message: String,
    },
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unfit::Small => f.write_str("the frontier method needs at least three squares"),
            Unfit::OneWay => {
                f.write_str("the frontier method needs a piece whose every move can be made back")
            }
            Unfit::TooWide { width } if *width > WIDTH_NAMED => write!(
                f,
                "the frontier method keeps at most {} squares in its frontier, and every sweep of this board needs more than {WIDTH_NAMED}",
                plan::MAX_WIDTH
            ),
            Unfit::TooWide { width } => write!(
                f,
                "the frontier method keeps at most {} squares in its frontier, and every sweep of this board needs {width}",
                plan::MAX_WIDTH
            ),
            Unfit::TooBig { need, budget, at } => write!(
                f,
                "the frontier count would need about {} for its states {}, over its budget of {}",
                crate::budget::bytes_over(*need, *budget),
                if *at == 0 {
                    "(estimated before the start)".to_string()
                } else {
                    format!("by square {at}")
                },
                crate::budget::bytes(*budget)
            ),
            Unfit::Overflow => f.write_str("a count of the frontier method outgrew 128 bits"),
            Unfit::NoDisk { need, free, folder } => write!(
                f,
                "the frontier count would need about {} of disk for its states in {folder}, which has {} free",
                crate::budget::bytes(*need),
                crate::budget::bytes(*free)
            ),
            Unfit::Disk { message } => write!(
                f,
                "the frontier count could not write its states to disk: {message}"
            ),
            Unfit::Checkpoint { message } => write!(f, "{message}"),
        }
    }
}

/// The result of [`count`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierCounted {
    /// Directed tours (summed over every start when the start is `any`).
    /// Zero when stopped: a frontier count has no partial lower bound.
    pub tours: u128,
    /// Closed goals: twice the number of distinct cycles.
    pub cycles_x2: Option<u128>,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// How the board was swept.
    pub sweep: Sweep,
    /// The widest frontier (with the square being taken).
    pub width: usize,
    /// Squares taken (all of them when complete).
    pub squares_done: usize,
    /// Squares of the board.
    pub squares_total: usize,
    /// The most states held after one step.
    pub peak_states: u64,
    /// States after each step taken.
    pub states: Vec<u64>,
    /// The most bytes the states took at once.
    pub peak_bytes: u64,
    /// Bits of each count (64, or 128 when 64 overflowed).
    pub count_bits: u32,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// The check figure ([`Check`]): the states after each step and the
    /// count, fingerprinted.
    pub check: Check,
    /// For a count cut in parts, the square after which the states were
    /// cut (from 1).
    pub cut_at: Option<usize>,
    /// Bytes written to disk in all (0 when the states fit the memory).
    pub spilled: u64,
    /// The squares a checkpoint had taken when this run took it up.
    pub resumed_at: Option<usize>,
}

impl FrontierCounted {
    /// Distinct cycles of a closed goal.
    pub fn cycles(&self) -> Option<u128> {
        self.cycles_x2.map(|c| c / 2)
    }

    /// True when the count ran to the end.
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// Whether the frontier counter can count on `g` (two-way moves, at least
/// three squares, a narrow enough sweep); the plan if so.
pub fn fit(board: &Board, g: &MoveGraph) -> Result<Plan, Unfit> {
    if g.len() < 3 {
        return Err(Unfit::Small);
    }
    if !g.is_symmetric() {
        return Err(Unfit::OneWay);
    }
    Plan::best_or_width(board, g).map_err(|width| Unfit::TooWide { width })
}

/// The bytes one state takes in a table (key and count, at the tables'
/// load), for a plan of this width and counts of this many bits.
pub fn bytes_per_state(width: usize, count_bits: u32) -> u64 {
    let key = key_bytes(width);
    // Up to 4 slots per 3 entries in a table, plus the packed list the
    // step reads from.
    let entry = key + u64::from(count_bits / 8);
    entry * 4 / 3 + entry
}

/// The bytes of the key that holds a frontier of `width` squares (a
/// [`Mates`] key up to 13, a labelled `u64` up to 16: both 8).
fn key_bytes(width: usize) -> u64 {
    if width <= <u64 as Key>::SLOTS {
        8
    } else if width <= <u128 as Key>::SLOTS {
        16
    } else {
        24
    }
}

/// The most states any step of a sweep holds, estimated from the widest
/// frontier `w` (squares kept after a step) and the number of `lines` (files
/// or ranks) swept: `e^(α + β·w + γ·lines)`, never more than
/// [`state_bound`]. Fitted by least squares to the peaks measured on knight
/// boards 4 to 7 squares wide and 6 to 12 long (BENCHMARKS.md): open tours
/// `α = −13.02, β = 1.726, γ = 0.620` (5.6 times the states per frontier
/// square, 1.86 per line), closed tours `α = −20.97, β = 1.832, γ = 1.086`
/// (6.2 and 3.0); within a factor of 2.5 on every board measured. The
/// states do not level off along the board: the look-ahead keeps cutting,
/// but each line adds more ways to reach a frontier.
pub fn estimate_peak(plan: &Plan, lines: u32, closed: bool) -> f64 {
    let w = plan.profile().into_iter().max().unwrap_or(0);
    if plan.sweep == Sweep::Greedy {
        return (greedy_expanded(plan, closed) / GREEDY_PEAK)
            .clamp(1.0, state_bound(w, closed).max(1.0));
    }
    let (a, b, c) = if closed {
        (-20.97, 1.832, 1.086)
    } else {
        (-13.02, 1.726, 0.620)
    };
    (a + b * w as f64 + c * f64::from(lines))
        .exp()
        .clamp(1.0, state_bound(w, closed).max(1.0))
}

/// Whether [`estimate_peak`] is fitted to a plan like this one: moves of
/// at most two lines (`reach`: the most files or ranks a move spans) and a
/// widest frontier of at most two lines of `across` squares and one more,
/// as the knight's. A piece that reaches further (the zebra, the giraffe)
/// keeps sparser frontiers, which the look-ahead cuts far more, and whose
/// states the fit overestimates by orders of magnitude: the zebra on 9x9,
/// 1,388 states in all where the fit says 3 × 10⁸; the giraffe on 9x9,
/// 15,762 at most where it says 17 million.
pub fn within_fit(plan: &Plan, across: u32, reach: u32) -> bool {
    let w = plan.profile().into_iter().max().unwrap_or(0);
    reach <= 2 && w <= 2 * across as usize + 1
}

/// The states a whole sweep expands, estimated: the peak times a fifth of
/// the squares (measured: 6 to 10 times the peak on knight boards of 36
/// to 60 squares).
pub fn estimate_expanded(plan: &Plan, lines: u32, closed: bool) -> f64 {
    if plan.sweep == Sweep::Greedy {
        return greedy_expanded(plan, closed).max(1.0);
    }
    estimate_peak(plan, lines, closed) * (plan.steps.len() as f64 / 5.0).max(1.0)
}

/// The states a greedy order expands, estimated from its frontiers:
/// `k · Σ 5.6^w` over the frontier's size `w` after each step, with
/// `k = 1.5 × 10⁻³` for open tours and `5.4 × 10⁻⁵` for closed ones —
/// fitted to knight boards of 32 to 60 squares, within a factor of 4
/// (BENCHMARKS.md); the peak is taken as an eighth of that (measured: a
/// sixth to a twelfth).
fn greedy_expanded(plan: &Plan, closed: bool) -> f64 {
    let k = if closed { 5.4e-5 } else { 1.5e-3 };
    k * plan::cost(&plan.profile())
}

/// The whole sweep of a greedy order expands this many times its peak.
const GREEDY_PEAK: f64 = 8.0;

/// The estimated memory of a frontier count: the largest step's states,
/// in a table and in the list the next step reads.
pub fn estimate_bytes(plan: &Plan, lines: u32, closed: bool) -> u64 {
    let peak = estimate_peak(plan, lines, closed);
    (peak * bytes_per_state(plan.width, 64) as f64).min(u64::MAX as f64) as u64
}

/// A bound on the states of a frontier of `slots` squares: each square is
/// empty, done, free (at most two, open tours only) or one end of a pair.
pub fn state_bound(slots: usize, closed: bool) -> f64 {
    // Pairings of 2j of the slots: C(slots, 2j) · (2j − 1)!!, the others
    // empty or done (2 ways) — or free (3 ways, at most two of them).
    let mut total = 0.0;
    let mut j = 0;
    while 2 * j <= slots {
        let rest = slots - 2 * j;
        let pairs = binomial(slots, 2 * j) * double_factorial(2 * j);
        let others = if closed {
            2f64.powi(rest as i32)
        } else {
            // At most two free slots among the rest.
            (0..=rest.min(2))
                .map(|f| binomial(rest, f) * 2f64.powi((rest - f) as i32))
                .sum()
        };
        total += pairs * others;
        j += 1;
    }
    total
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

fn double_factorial(m: usize) -> f64 {
    // (m − 1)!! for even m: the pairings of m things.
    (1..m)
        .step_by(2)
        .map(|x| x as f64)
        .product::<f64>()
        .max(1.0)
}

/// Counts the tours of `goal` on `g` (the move graph of `board`) with
/// `plan`; see the module docs. Boards of fewer than three squares have no
/// frontier worth the name: the caller counts them by search. A node budget
/// in `limits` counts the states the steps take in, one for the empty start
/// and then each step's result but the last's: the count stops before the
/// step that would reach it.
///
/// ```
/// use engine::model::{Board, Goal, MoveGraph, Piece};
/// use engine::halt::{Limits, Never};
/// use engine::progress::Progress;
/// use engine::count::frontier::{self, FrontierOptions};
/// let board = Board::rectangle(5, 5);
/// let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
/// let plan = frontier::fit(&board, &g).unwrap();
/// let c = frontier::count(&g, &Goal::default(), &plan, &FrontierOptions::default(),
///                         &Limits::none(), &Progress::new()).unwrap();
/// assert_eq!(c.tours, 1728);
/// ```
pub fn count(
    g: &MoveGraph,
    goal: &Goal,
    plan: &Plan,
    opts: &FrontierOptions,
    limits: &Limits,
    progress: &Progress,
) -> Result<FrontierCounted, Unfit> {
    let started = Instant::now();
    let n = g.len();
    // Rayon's shared pool (a thread per core) unless a number of threads
    // is asked for: building a pool costs more than a small count.
    let pool = opts.threads.and_then(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .ok()
    });
    let threads = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let kinds = kinds(n, goal);
    let rules = rules(plan, &kinds, goal.closed);
    // The count's checkpoint, named by what it counts.
    let mut entry = opts.checkpoint.map(|c| {
        let mut name = super::shard::fingerprint(g, goal, "frontier", Some(plan));
        if let Some(cut) = opts.cut {
            name.push_str(&format!("-part{}of{}", cut.part, cut.parts));
        }
        resume::Entry::new(c, name)
    });
    let run = |bits: u32, entry: Option<&mut resume::Entry>| -> Result<Sweeping, Unfit> {
        let go = || {
            let mates = plan.width <= <Mates as Key>::SLOTS;
            match (mates, key_bytes(plan.width), bits) {
                (true, _, 64) => sweep::<Mates, u64>(&rules, opts, limits, progress, entry),
                (true, _, _) => sweep::<Mates, u128>(&rules, opts, limits, progress, entry),
                (_, 8, 64) => sweep::<u64, u64>(&rules, opts, limits, progress, entry),
                (_, 8, _) => sweep::<u64, u128>(&rules, opts, limits, progress, entry),
                (_, 16, 64) => sweep::<u128, u64>(&rules, opts, limits, progress, entry),
                (_, 16, _) => sweep::<u128, u128>(&rules, opts, limits, progress, entry),
                (_, _, 64) => sweep::<Wide, u64>(&rules, opts, limits, progress, entry),
                (_, _, _) => sweep::<Wide, u128>(&rules, opts, limits, progress, entry),
            }
        };
        match &pool {
            Some(p) => p.install(go),
            None => go(),
        }
    };
    // A checkpoint of counts in 128 bits is taken up in 128 bits.
    let saved_bits = match &entry {
        Some(e) => e.count_bits().map_err(checkpoint_failed)?,
        None => None,
    };
    let mut bits = if saved_bits == Some(128) { 128 } else { 64 };
    let mut s = run(bits, entry.as_mut())?;
    if s.overflow && bits == 64 {
        // The saves of the counts in 64 bits are no use to a count in 128.
        if let Some(e) = entry.as_mut() {
            e.forget();
        }
        bits = 128;
        s = run(bits, entry.as_mut())?;
    }
    let mut c = FrontierCounted {
        tours: 0,
        cycles_x2: goal.closed.then_some(0),
        stopped: s.stopped,
        sweep: plan.sweep,
        width: plan.width,
        squares_done: s.states.len(),
        squares_total: n,
        peak_states: s.states.iter().copied().max().unwrap_or(0),
        states: s.states,
        peak_bytes: s.peak_bytes,
        count_bits: bits,
        threads,
        elapsed: Duration::ZERO,
        check: s.check.step(Check::of(s.found)),
        cut_at: s.cut_at,
        spilled: s.spilled,
        resumed_at: s.resumed_at,
    };
    if c.stopped.is_none() {
        if s.overflow {
            // Even 128 bits overflowed: the count is not known.
            return Err(Unfit::Overflow);
        }
        let found = s.found;
        let n = n as u128;
        if goal.closed {
            // Each cycle: two directed tours from each square.
            c.cycles_x2 = Some(2 * found);
            c.tours = if goal.start.is_some() {
                2 * found
            } else {
                2 * found * n
            };
        } else {
            c.tours = match (goal.start, goal.end) {
                (None, None) => 2 * found,
                _ => found,
            };
        }
    }
    c.elapsed = started.elapsed();
    Ok(c)
}

/// What the tour may make of each square.
fn kinds(n: usize, goal: &Goal) -> Vec<Kind> {
    if goal.closed {
        return vec![Kind::Inner; n];
    }
    let both = goal.start.is_some() && goal.end.is_some();
    let mut k = vec![if both { Kind::Inner } else { Kind::Any }; n];
    for e in [goal.start, goal.end].into_iter().flatten() {
        if let Some(x) = k.get_mut(e as usize) {
            *x = Kind::End;
        }
    }
    k
}

/// Each step's rules.
fn rules<'p>(plan: &'p Plan, kinds: &[Kind], closed: bool) -> Vec<StepRules<'p>> {
    let n = plan.steps.len();
    let mut pos = vec![0usize; n];
    for (i, st) in plan.steps.iter().enumerate() {
        pos[st.vertex as usize] = i;
    }
    // Symmetries that keep every square's kind.
    let symmetries: Vec<&Vec<u32>> = plan
        .symmetries
        .iter()
        .filter(|p| (0..n).all(|u| kinds[p[u] as usize] == kinds[u]))
        .collect();
    let mut frontier: Vec<u32> = Vec::new();
    let mut slot_of = vec![u8::MAX; n];
    let mut ends_later = kinds.iter().filter(|&&k| k == Kind::End).count() as u32;
    let mut looks = look::looks(plan, kinds, closed).into_iter();
    plan.steps
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let mut extended = frontier.clone();
            extended.push(st.vertex);
            if kinds[st.vertex as usize] == Kind::End {
                ends_later -= 1;
            }
            for &u in &frontier {
                slot_of[u as usize] = u8::MAX;
            }
            frontier = st.keep.iter().map(|&s| extended[s as usize]).collect();
            for (j, &u) in frontier.iter().enumerate() {
                slot_of[u as usize] = j as u8;
            }
            // The symmetries that map the frontier and the squares to come
            // onto themselves, as maps of the slots.
            let mut images: Vec<Vec<u8>> = Vec::new();
            for p in &symmetries {
                let keeps = frontier
                    .iter()
                    .all(|&u| slot_of[p[u as usize] as usize] != u8::MAX)
                    && (0..n).all(|u| (pos[u] > i) == (pos[p[u] as usize] > i));
                if !keeps {
                    continue;
                }
                let image: Vec<u8> = frontier
                    .iter()
                    .map(|&u| slot_of[p[u as usize] as usize])
                    .collect();
                let moves = image.iter().enumerate().any(|(j, &x)| j as u8 != x);
                if moves && !images.contains(&image) {
                    images.push(image);
                }
            }
            StepRules::new(
                st,
                extended.iter().map(|&u| kinds[u as usize]).collect(),
                ends_later,
                i + 1 == n,
                closed,
                looks.next().unwrap_or_default(),
                images,
            )
        })
        .collect()
}

/// What one sweep found.
struct Sweeping {
    found: u128,
    overflow: bool,
    stopped: Option<Stop>,
    states: Vec<u64>,
    peak_bytes: u64,
    /// The states after each step, fingerprinted.
    check: Check,
    /// The square after which the states were cut, if they were.
    cut_at: Option<usize>,
    /// Bytes written to the spill folder in all.
    spilled: u64,
    /// The sum of the check terms of the states after the last step.
    last_sum: Check,
    /// The squares a checkpoint had taken when the sweep took it up.
    resumed_at: Option<usize>,
}

impl Sweeping {
    /// Nothing found yet, on a board of `squares` squares.
    fn new(squares: usize) -> Sweeping {
        Sweeping {
            found: 0,
            overflow: false,
            stopped: None,
            states: Vec::with_capacity(squares),
            peak_bytes: 0,
            check: Check::default(),
            cut_at: None,
            spilled: 0,
            last_sum: Check::default(),
            resumed_at: None,
        }
    }
}

/// Keeps the part of `layer` that `cut` asks for, when the states after
/// square `done` (of `squares`) are where it cuts; true if it cut.
fn cut_layer<K: Key, C: Tally>(
    layer: &mut Vec<(K, C)>,
    cut: Option<Cut>,
    done: usize,
    squares: usize,
) -> bool {
    let Some(cut) = cut else {
        return false;
    };
    if done + 1 > squares
        || (done + 1 < squares && (layer.len() as u64) < CUT_STATES * u64::from(cut.parts))
    {
        return false;
    }
    layer.retain(|e| cut.keeps(e.0.hash64()));
    true
}

/// The sum of the check terms of `layer`'s states.
fn layer_check<K: Key, C: Tally>(layer: &[(K, C)]) -> Check {
    layer
        .par_iter()
        .with_min_len(1 << 12)
        .map(|&(k, c)| Check::term(k.hash64(), c.wide()))
        .reduce(Check::default, Check::plus)
}

/// Why a step could not go on.
enum Failed {
    /// The memory or the disk ran out.
    Unfit(Unfit),
    /// A count outgrew its type.
    Overflow,
    /// A limit or an interruption stopped it while its states were on disk.
    Stopped(Stop),
}

impl From<spill::SpillError> for Failed {
    fn from(e: spill::SpillError) -> Failed {
        match e {
            spill::SpillError::Overflow => Failed::Overflow,
            spill::SpillError::Stopped(s) => Failed::Stopped(s),
            spill::SpillError::Io(e) => Failed::Unfit(Unfit::Disk {
                message: e.to_string(),
            }),
        }
    }
}

impl From<std::io::Error> for Failed {
    fn from(e: std::io::Error) -> Failed {
        Failed::Unfit(Unfit::Disk {
            message: e.to_string(),
        })
    }
}

/// States a spilled step expands between two looks at its memory: enough
/// to share out, few enough that their children take a small share of the
/// budget.
fn block_states(budget: u64, per_state: u64) -> usize {
    usize::try_from(budget / (per_state * 64))
        .unwrap_or(usize::MAX)
        .max(1 << 12)
}

/// Sweeps the board with keys `K` and counts `C`, from the checkpoint
/// `entry` holds if it holds one, saving to it as it goes.
fn sweep<K: Key, C: Tally>(
    rules: &[StepRules],
    opts: &FrontierOptions,
    limits: &Limits,
    progress: &Progress,
    mut entry: Option<&mut resume::Entry>,
) -> Result<Sweeping, Unfit> {
    let mut out = Sweeping::new(rules.len());
    let squares = rules.len();
    let mut cut = opts.cut;
    progress.start(Unit::Squares, Some(rules.len() as u64));
    let mut layer: Vec<(K, C)> = vec![(K::ZERO, C::ONE)];
    // The states of the step when they are on disk (`layer` is then empty).
    let mut on_disk: Option<spill::Run> = None;
    // The folder of the runs, made at the first step that needs it; its
    // files go with it, however the count ends.
    let mut folder: Option<spill::Spill> = None;
    let per_state = size_of::<(K, C)>() as u64;
    // One set of batches per thread for the whole sweep: made per chunk
    // (rayon's `for_each_init` makes one per job it splits off), they were
    // hundreds of thousands of allocations on 8x5 open.
    let batches: Vec<Mutex<Batches<K, C>>> = (0..rayon::current_num_threads().max(1))
        .map(|_| Mutex::new(Batches::new()))
        .collect();
    // The states taken into the steps so far, this one's included (one for
    // the empty start): the work a node budget counts.
    let mut held_in_all = 0u64;
    // Bytes spilled by the runs before a checkpoint taken up.
    let mut spilled_before = 0u64;
    let mut first = 0;
    if let Some(e) = entry.as_deref_mut()
        && let Some(found) = e.find::<K, C>(squares).map_err(checkpoint_failed)?
    {
        let f = take_up(found, &mut out, &mut layer, &mut on_disk, &mut folder, opts)?;
        (first, held_in_all, spilled_before) = (f.done, f.held_in_all, f.spilled);
        if f.cut_at.is_some() {
            cut = None;
        }
        progress.set(first as u64);
        progress.held(layer.len() as u64);
        progress.on_disk(on_disk.as_ref().map_or(0, |d| d.len));
    }
    // Where a stop left the states after a square whole: that square and
    // the work before it.
    let mut stopped_whole: Option<(usize, u64)> = None;
    let spilled =
        |folder: &Option<spill::Spill>| spilled_before + folder.as_ref().map_or(0, |f| f.written);
    for (i, r) in rules.iter().enumerate().skip(first) {
        let held = layer.len() as u64 + on_disk.as_ref().map_or(0, |d| d.len);
        held_in_all = held_in_all.saturating_add(held);
        if let Err(stop) = limits.check_work(held_in_all) {
            out.stopped = Some(stop);
            stopped_whole = Some((i, held_in_all - held));
            break;
        }
        let children = held >= opts.children_above;
        if on_disk.is_none() && held <= opts.serial_below {
            // What the list holds, its spare room included.
            let held_bytes = layer.capacity() as u64 * per_state;
            // Few states: one table on this thread costs less than sharing.
            match expand_small(&layer, r, (children, opts.remember)) {
                Ok((next, f)) => {
                    out.found = f.wide();
                    layer = next;
                }
                Err(Overflow) => {
                    out.overflow = true;
                    return Ok(out);
                }
            }
            if cut_layer(&mut layer, cut, i + 1, squares) {
                out.cut_at = Some(i + 1);
                cut = None;
            }
            let states = layer.len() as u64;
            out.peak_bytes = out.peak_bytes.max(held_bytes + states * per_state * 2);
            out.last_sum = layer_check(&layer);
            out.check = out.check.step(out.last_sum);
            out.states.push(states);
            progress.set(i as u64 + 1);
            progress.held(states);
            progress.on_disk(0);
            let at = (i + 1, held_in_all, spilled(&folder));
            save(&mut entry, squares, at, &out, &layer, None, false)?;
            continue;
        }
        let stepped = step_large(
            &mut layer,
            &mut on_disk,
            &mut folder,
            r,
            opts,
            limits,
            progress,
            &batches,
            (children, per_state, held),
            &mut out,
        );
        match stepped {
            Ok(true) => {}
            Ok(false) => {
                // Stopped while reading the states after square i, which
                // it leaves whole.
                stopped_whole = Some((i, held_in_all - held));
                break;
            }
            Err(Failed::Stopped(s)) => {
                out.stopped = Some(s);
                break;
            }
            Err(Failed::Overflow) => {
                out.overflow = true;
                return Ok(out);
            }
            Err(Failed::Unfit(Unfit::TooBig { need, budget, .. })) => {
                return Err(Unfit::TooBig {
                    need,
                    budget,
                    at: i + 1,
                });
            }
            Err(Failed::Unfit(u)) => return Err(u),
        }
        // The cut, the check and the figures of the step's states.
        if let Some(run) = on_disk.take() {
            let (Some(f), Some(c)) = (folder.as_mut(), cut) else {
                out.last_sum = disk_check::<K, C>(&run).map_err(disk)?;
                out.check = out.check.step(out.last_sum);
                out.states.push(run.len);
                progress.held(0);
                progress.on_disk(run.len);
                progress.set(i as u64 + 1);
                let at = (i + 1, held_in_all, spilled(&folder));
                save::<K, C>(&mut entry, squares, at, &out, &[], Some(&run), false)?;
                on_disk = Some(run);
                continue;
            };
            let due = i + 2 == squares || run.len >= CUT_STATES * u64::from(c.parts);
            let run = if due && i + 1 < squares {
                out.cut_at = Some(i + 1);
                cut = None;
                match f.filter::<K, C>(run, |k| c.keeps(k.hash64()), limits) {
                    Ok(run) => run,
                    Err(spill::SpillError::Stopped(s)) => {
                        out.stopped = Some(s);
                        break;
                    }
                    Err(spill::SpillError::Io(e)) => return Err(disk(e)),
                    Err(spill::SpillError::Overflow) => {
                        out.overflow = true;
                        return Ok(out);
                    }
                }
            } else {
                run
            };
            out.last_sum = disk_check::<K, C>(&run).map_err(disk)?;
            out.check = out.check.step(out.last_sum);
            out.states.push(run.len);
            progress.held(0);
            progress.on_disk(run.len);
            on_disk = Some(run);
        } else {
            if cut_layer(&mut layer, cut, i + 1, squares) {
                out.cut_at = Some(i + 1);
                cut = None;
            }
            let states = layer.len() as u64;
            out.last_sum = layer_check(&layer);
            out.check = out.check.step(out.last_sum);
            out.states.push(states);
            progress.held(states);
            progress.on_disk(0);
        }
        progress.set(i as u64 + 1);
        let at = (i + 1, held_in_all, spilled(&folder));
        save(
            &mut entry,
            squares,
            at,
            &out,
            &layer,
            on_disk.as_ref(),
            false,
        )?;
    }
    // Saved, the count goes on from them when run again.
    if let Some((done, work)) = stopped_whole
        && done > 0
    {
        let at = (done, work, spilled(&folder));
        save(
            &mut entry,
            squares,
            at,
            &out,
            &layer,
            on_disk.as_ref(),
            true,
        )?;
    }
    out.spilled = spilled(&folder);
    Ok(out)
}

/// A checkpoint that could not be taken up or saved.
fn checkpoint_failed(e: std::io::Error) -> Unfit {
    Unfit::Checkpoint {
        message: e.to_string(),
    }
}

/// Saves the sweep to `entry` when a save is due after square `done`, or
/// (`force`, at a stop) whenever these states are not saved yet; `at` is
/// `(done, work, spilled)`: the squares taken, the states taken into them
/// and the bytes spilled so far. The states are `layer`, or the run
/// `on_disk`.
fn save<K: Key, C: Tally>(
    entry: &mut Option<&mut resume::Entry>,
    squares: usize,
    (done, work, spilled): (usize, u64, u64),
    out: &Sweeping,
    layer: &[(K, C)],
    on_disk: Option<&spill::Run>,
    force: bool,
) -> Result<(), Unfit> {
    let Some(e) = entry.as_deref_mut() else {
        return Ok(());
    };
    if !(e.due(done, squares) || force && !e.holds(done)) {
        return Ok(());
    }
    let figures = resume::Figures {
        done,
        found: out.found,
        check: out.check,
        states: out.states.clone(),
        peak_bytes: out.peak_bytes,
        spilled,
        held_in_all: work,
        cut_at: out.cut_at,
    };
    e.save(squares, &figures, layer, on_disk, out.last_sum)
        .map_err(|err| Unfit::Checkpoint {
            message: format!("checkpoint folder {}: {err}", e.dir().display()),
        })
}

/// Takes up the checkpoint `found`: its figures into `out`, its states
/// into `layer` when they fit in a quarter of the budget (or the count may not
/// spill), else into the spill folder as the step's run (`on_disk`), their
/// check figure checked. The checkpoint's figures.
fn take_up<K: Key, C: Tally>(
    found: resume::Found,
    out: &mut Sweeping,
    layer: &mut Vec<(K, C)>,
    on_disk: &mut Option<spill::Run>,
    folder: &mut Option<spill::Spill>,
    opts: &FrontierOptions,
) -> Result<resume::Figures, Unfit> {
    let per_state = size_of::<(K, C)>() as u64;
    let bytes = found.records.saturating_mul(per_state);
    let read = |e: std::io::Error| Unfit::Checkpoint {
        message: format!("checkpoint {}: {e}", found.states.display()),
    };
    layer.clear();
    let sum = if opts.spill.is_none() || bytes.saturating_mul(4) <= opts.budget {
        let mut r = spill::Reader::<K, C>::at(&found.states, found.records).map_err(read)?;
        let records = usize::try_from(found.records).unwrap_or(usize::MAX);
        layer
            .try_reserve_exact(records)
            .map_err(|e| Unfit::Checkpoint {
                message: format!("checkpoint {}: {e}", found.states.display()),
            })?;
        r.fill(layer, records).map_err(read)?;
        layer_check(layer)
    } else {
        let f = match spill_folder(folder, opts) {
            Ok(f) => f,
            Err(Failed::Unfit(u)) => return Err(u),
            Err(_) => return Err(disk(std::io::Error::other("no spill folder"))),
        };
        let run = f.adopt(&found.states, found.records).map_err(read)?;
        let sum = disk_check::<K, C>(&run).map_err(read)?;
        *on_disk = Some(run);
        sum
    };
    if sum != found.states_check {
        return Err(Unfit::Checkpoint {
            message: format!(
                "checkpoint {}: its states do not add up to their check figure",
                found.states.display()
            ),
        });
    }
    let f = found.figures;
    out.found = f.found;
    out.check = f.check;
    out.states.clone_from(&f.states);
    out.peak_bytes = f.peak_bytes;
    out.cut_at = f.cut_at;
    out.last_sum = sum;
    out.resumed_at = Some(f.done);
    Ok(f)
}

/// The failure of a file of the spill folder.
fn disk(e: std::io::Error) -> Unfit {
    Unfit::Disk {
        message: e.to_string(),
    }
}

/// The sum of the check terms of the states of `run`.
fn disk_check<K: Key, C: Tally>(run: &spill::Run) -> std::io::Result<Check> {
    let mut r = spill::Reader::<K, C>::open(run)?;
    let mut sum = Check::default();
    while let Some((k, c)) = r.next_record()? {
        sum = sum.plus(Check::term(k.hash64(), c.wide()));
    }
    Ok(sum)
}

/// One step from more states than [`SERIAL_BELOW`], or from states on
/// disk: the states (`layer`, or the file `on_disk`) are expanded a block
/// at a time into the partitioned tables; when the tables and the states
/// held pass the budget and the count may spill, the tables are written
/// out as a sorted run and emptied, and at the end of the step the runs
/// are merged. The next states are left in `layer` or `on_disk`. Ok(false)
/// when a limit stopped the step (`out.stopped` says which).
#[allow(clippy::too_many_arguments)]
fn step_large<K: Key, C: Tally>(
    layer: &mut Vec<(K, C)>,
    on_disk: &mut Option<spill::Run>,
    folder: &mut Option<spill::Spill>,
    r: &StepRules,
    opts: &FrontierOptions,
    limits: &Limits,
    progress: &Progress,
    batches: &[Mutex<Batches<K, C>>],
    (children, per_state, held): (bool, u64, u64),
    out: &mut Sweeping,
) -> Result<bool, Failed> {
    let spills = opts.spill.is_some();
    // Room for the next states up front, but never more than the budget
    // holds (a spilled step's states may be many times the budget): tables
    // for a sixteenth of the budget's states take at most a sixth of it.
    let room = if spills {
        held.min(opts.budget / (per_state * 16))
    } else {
        held
    };
    let mut next = Layer::<K, C>::with_room(room as usize);
    let found = Mutex::new(C::default());
    let mut runs: Vec<spill::Run> = Vec::new();
    let mut reader = match on_disk.as_ref() {
        Some(run) => Some(spill::Reader::<K, C>::open(run)?),
        None => None,
    };
    let mut block: Vec<(K, C)> = Vec::new();
    let block_len = if spills {
        block_states(opts.budget, per_state)
    } else {
        usize::MAX
    };
    let mut from = 0usize;
    loop {
        // The states to expand now: the next block of the list, or of the
        // file.
        let input: &[(K, C)] = match reader.as_mut() {
            Some(rd) => {
                rd.fill(&mut block, block_len)?;
                &block
            }
            None => {
                let to = from.saturating_add(block_len).min(layer.len());
                let s = &layer[from..to];
                from = to;
                s
            }
        };
        if input.is_empty() {
            break;
        }
        let held_bytes = (layer.capacity() + block.capacity()) as u64 * per_state;
        let overflow = AtomicBool::new(false);
        let stop = Mutex::new(None);
        let halted = AtomicBool::new(false);
        let over = AtomicBool::new(false);
        // One list cut in chunks of the same size (not the partitions of
        // the last step, a few hundred states each): each chunk's entries
        // reach the partitions in batches of dozens rather than one or two.
        let chunk = (input.len() / (rayon::current_num_threads() * CHUNKS_PER_THREAD))
            .clamp(MIN_CHUNK, CHUNK);
        input.par_chunks(chunk).for_each(|chunk| {
            if halted.load(Ordering::Relaxed) {
                return;
            }
            if let Err(s) = limits.check() {
                if let Ok(mut w) = stop.lock() {
                    w.get_or_insert(s);
                }
                halted.store(true, Ordering::Relaxed);
                return;
            }
            // A count that may not spill stops at the budget.
            if !spills && held_bytes + next.bytes() > opts.budget {
                over.store(true, Ordering::Relaxed);
                halted.store(true, Ordering::Relaxed);
                return;
            }
            // Each thread its own batches (a chunk runs through on the
            // thread that took it, so the lock is never waited on).
            let own = rayon::current_thread_index().unwrap_or(0) % batches.len();
            let mut mine = batches[own].lock().unwrap_or_else(PoisonError::into_inner);
            if expand_chunk(
                chunk,
                r,
                (children, opts.remember),
                &next,
                &found,
                &mut mine,
            )
            .is_err()
            {
                overflow.store(true, Ordering::Relaxed);
                halted.store(true, Ordering::Relaxed);
            }
        });
        // What the step holds now, however the block ended: a step stopped
        // part way (by a limit, or at the budget) held its tables as they
        // had grown, and the figure says so.
        let bytes = next.bytes() + held_bytes;
        out.peak_bytes = out.peak_bytes.max(bytes);
        if over.load(Ordering::Relaxed) {
            return Err(Failed::Unfit(Unfit::TooBig {
                need: bytes,
                budget: opts.budget,
                at: 0,
            }));
        }
        if overflow.load(Ordering::Relaxed) {
            return Err(Failed::Overflow);
        }
        if let Some(s) = stop.lock().ok().and_then(|s| *s) {
            out.stopped = Some(s);
            return Ok(false);
        }
        // The tables are written out through a sorted list of their
        // entries (at most three quarters of their slots), made while they
        // are still held: with tables of four sevenths of what the budget
        // leaves, tables and list stay within it. The 64 tables fill alike
        // and each doubles as it fills, so within one block they may all
        // double: they are written out once they take half of that share.
        if spills && next.bytes() * 2 > opts.budget.saturating_sub(held_bytes) / 7 * 4 {
            // Out of memory: the tables go to disk as a sorted run.
            let f = spill_folder(folder, opts)?;
            // The list is filled a table at a time, each table freed once
            // copied, and its pages are the system's until written: tables
            // and list together hold at most one table's entries twice.
            let list_bytes = next.largest() as u64 * per_state;
            out.peak_bytes = out.peak_bytes.max(bytes + list_bytes);
            let entries = gather(std::mem::take(&mut next), &mut Vec::new());
            check_free(
                f,
                entries.len() as u64 * spill::record_bytes::<K, C>() as u64,
            )?;
            runs.push(f.write_run(&entries)?);
            progress.on_disk(f.states);
            next = Layer::<K, C>::with_room(0);
        }
    }
    let f = found.into_inner().unwrap_or_default();
    out.found = f.wide();
    drop(reader);
    if let Some(run) = on_disk.take()
        && let Some(f) = folder.as_mut()
    {
        f.remove(run);
    }
    if runs.is_empty() {
        // All in memory: gathered into the list, sorted by classes.
        let parts_bytes = next.bytes();
        let total: usize = next.len();
        drop(block);
        // The old list is emptied (or freed) before the new states come.
        room_for(layer, total);
        out.peak_bytes = out
            .peak_bytes
            .max(parts_bytes + layer.capacity() as u64 * per_state);
        let parts = next.into_parts();
        fill_from(layer, parts);
        // States of one class side by side: the look-ahead from one holds
        // for the next but for the pieces it joins, and runs from similar
        // classes branch alike (8x5 open: 20 % faster on two threads,
        // sorting included; BENCHMARKS.md).
        layer.par_sort_unstable_by_key(|e| e.0.classes());
        return Ok(true);
    }
    // Spilled: the last tables as a run too, then all merged.
    *layer = Vec::new();
    let f = spill_folder(folder, opts)?;
    if next.len() > 0 {
        let entries = gather(next, &mut Vec::new());
        check_free(
            f,
            entries.len() as u64 * spill::record_bytes::<K, C>() as u64,
        )?;
        runs.push(f.write_run(&entries)?);
    }
    let all: u64 = runs.iter().map(spill::Run::bytes).sum();
    check_free(f, f.merge_room(runs.len(), all))?;
    let merged = if runs.len() == 1 {
        runs.remove(0)
    } else {
        f.merge::<K, C>(runs, limits)?
    };
    if merged.len.saturating_mul(per_state) * 4 <= opts.budget {
        // Few enough to hold: back in memory.
        let mut rd = spill::Reader::<K, C>::open(&merged)?;
        let mut list = Vec::with_capacity(merged.len as usize);
        rd.fill(&mut list, usize::MAX)?;
        drop(rd);
        f.remove(merged);
        *layer = list;
    } else {
        *on_disk = Some(merged);
    }
    Ok(true)
}

/// The spill folder of the count, made under the folder asked for.
fn spill_folder<'f>(
    folder: &'f mut Option<spill::Spill>,
    opts: &FrontierOptions,
) -> Result<&'f mut spill::Spill, Failed> {
    if folder.is_none() {
        let parent = opts.spill.unwrap_or_else(|| std::path::Path::new("."));
        *folder = Some(spill::Spill::new(parent)?);
    }
    folder.as_mut().ok_or(Failed::Overflow)
}

/// Refuses to write `bytes` more where the disk has less free (with a
/// margin of a sixteenth).
fn check_free(f: &spill::Spill, bytes: u64) -> Result<(), Failed> {
    match spill::free_bytes(f.path()) {
        Some(free) if free < bytes + bytes / 16 => Err(Failed::Unfit(Unfit::NoDisk {
            need: bytes + bytes / 16,
            free,
            folder: f.path().display().to_string(),
        })),
        _ => Ok(()),
    }
}

/// The entries of `next`'s tables in one list sorted by classes and keys,
/// each table freed as it is emptied.
fn gather<K: Key, C: Tally>(next: Layer<K, C>, list: &mut Vec<(K, C)>) -> Vec<(K, C)> {
    let parts = next.into_parts();
    let total = parts.iter().map(Table::len).sum();
    let mut all = std::mem::take(list);
    all.clear();
    all.reserve_exact(total);
    for t in parts {
        all.extend(t.into_entries());
    }
    all.par_sort_unstable_by_key(|e| (e.0.classes(), e.0));
    all
}

/// Fills `layer` (emptied, with room for them) with the entries of
/// `parts`, on all threads, each table into its own slice of the list.
fn fill_from<K: Key, C: Tally>(layer: &mut Vec<(K, C)>, parts: Vec<Table<K, C>>) {
    let total: usize = parts.iter().map(Table::len).sum();
    layer.resize(total, (K::NONE, C::default()));
    let mut slices = Vec::with_capacity(parts.len());
    let mut rest: &mut [(K, C)] = layer;
    for t in &parts {
        let (a, b) = rest.split_at_mut(t.len());
        slices.push(a);
        rest = b;
    }
    parts.into_par_iter().zip(slices).for_each(|(t, dst)| {
        for (d, e) in dst.iter_mut().zip(t.into_entries()) {
            *d = e;
        }
    });
}

/// Empties `list` for `total` entries. It is refilled where it is rather
/// than made anew (memory freed and taken again at each step is memory the
/// system hands out afresh, a page fault at each page), unless it is too
/// small or more than twice too large: then the old list is freed first,
/// and a new one made of the size asked.
fn room_for<T>(list: &mut Vec<T>, total: usize) {
    if total > list.capacity() || list.capacity() > 2 * total.max(MIN_CHUNK) {
        *list = Vec::new();
        list.reserve_exact(total);
    } else {
        list.clear();
    }
}

/// Steps from at most this many states run on one thread: sharing them
/// out costs more than it saves.
pub const SERIAL_BELOW: u64 = 1 << 10;

/// Expands every state of `layer` on this thread: the next states (sorted
/// by their classes), and the whole tours completed; `looking` as for
/// [`expand_chunk`].
fn expand_small<K: Key, C: Tally>(
    layer: &[(K, C)],
    r: &StepRules,
    looking: (bool, bool),
) -> Result<(Vec<(K, C)>, C), Overflow> {
    let mut t = Table::<K, C>::new();
    let mut whole = C::default();
    let mut err = Ok(());
    let (children, remember) = looking;
    let mut ws = step::Workspace::new(r, children, remember);
    for &(key, c) in layer {
        step::expand(key, r, &mut ws, &mut |next_key: Option<K>| {
            let r = match next_key {
                None => whole.add(c).map(|w| whole = w).ok_or(Overflow),
                Some(k) => t.add(k, k.hash64(), c),
            };
            if r.is_err() {
                err = r;
            }
        });
        err?;
    }
    let mut next = t.drain();
    next.sort_unstable_by_key(|e| e.0.classes());
    Ok((next, whole))
}

/// A thread's entries not yet merged, by partition: kept from chunk to
/// chunk and step to step so their room is allocated once.
struct Batches<K, C>(Vec<Vec<(K, u64, C)>>);

impl<K: Key, C: Tally> Batches<K, C> {
    fn new() -> Batches<K, C> {
        Batches((0..PARTITIONS).map(|_| Vec::with_capacity(BATCH)).collect())
    }
}

/// Expands the states of `chunk` into `next`, adding whole tours to `found`;
/// `looking`: whether the look-ahead looks at each way of taking the square,
/// and whether it starts from its last run (see [`FrontierOptions`]).
fn expand_chunk<K: Key, C: Tally>(
    chunk: &[(K, C)],
    r: &StepRules,
    looking: (bool, bool),
    next: &Layer<K, C>,
    found: &Mutex<C>,
    batches: &mut Batches<K, C>,
) -> Result<(), Overflow> {
    let batches = &mut batches.0;
    let mut whole = C::default();
    let mut err = Ok(());
    let (children, remember) = looking;
    let mut ws = step::Workspace::new(r, children, remember);
    for &(key, c) in chunk {
        step::expand(key, r, &mut ws, &mut |next_key: Option<K>| match next_key {
            None => match whole.add(c) {
                Some(w) => whole = w,
                None => err = Err(Overflow),
            },
            Some(k) => {
                let h = k.hash64();
                let p = partition(h);
                let b = &mut batches[p];
                b.push((k, h, c));
                if b.len() >= BATCH {
                    if next.add_batch(p, b).is_err() {
                        err = Err(Overflow);
                    }
                    b.clear();
                }
            }
        });
        err?;
    }
    for (p, b) in batches.iter_mut().enumerate() {
        if !b.is_empty() {
            next.add_batch(p, b)?;
            b.clear();
        }
    }
    if whole != C::default() {
        let mut f = found.lock().map_err(|_| Overflow)?;
        *f = f.add(whole).ok_or(Overflow)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cell, Piece, Topology};

    /// The move graph of `piece` on `board` and the frontier's plan for it.
    fn graph_and_plan(board: &Board, piece: &Piece) -> (MoveGraph, Plan) {
        let Ok(g) = MoveGraph::build(board, piece, &crate::halt::Never);
        let Ok(plan) = fit(board, &g) else {
            panic!("no plan");
        };
        (g, plan)
    }

    /// A new folder (removed with the guard) whose path lives as long as
    /// the options that name it must.
    fn leaked_folder() -> (tempfile::TempDir, &'static std::path::Path) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = Box::leak(dir.path().to_path_buf().into_boxed_path());
        (dir, path)
    }

    /// Closed tours.
    fn closed() -> Goal {
        Goal {
            closed: true,
            ..Goal::default()
        }
    }

    /// Open tours from the first square.
    fn from_corner() -> Goal {
        Goal {
            start: Some(0),
            ..Goal::default()
        }
    }

    /// Every key counts alike, and as the search does: a state packed by
    /// its pieces' other slots ([`Mates`]) or by their labels (`u64`,
    /// `u128`, [`Wide`]), on boards whose steps merge mirrored states, with
    /// free and fixed ends, open and closed.
    #[test]
    fn every_packing_counts_as_the_search_does() {
        let knight = Piece::leaper(1, 2, 1);
        let (closed, from_corner) = (closed(), from_corner());
        let cases = [
            (Board::rectangle(5, 5), knight.clone(), Goal::default()),
            (Board::rectangle(6, 5), knight.clone(), Goal::default()),
            (Board::rectangle(6, 5), knight.clone(), closed),
            (Board::rectangle(5, 5), knight, from_corner),
            (
                Board::rectangle(4, 4),
                Piece::leaper(0, 1, 1),
                Goal::default(),
            ),
        ];
        for (board, piece, goal) in cases {
            let (g, plan) = graph_and_plan(&board, &piece);
            assert!(plan.width <= <Mates as Key>::SLOTS);
            assert!(!plan.symmetries.is_empty());
            let (limits, progress) = (Limits::none(), Progress::new());
            let searched = crate::count::dfs::count(
                &g,
                &goal,
                &crate::model::Symmetries::of_board(&board, &g),
                &crate::count::CountOptions::default(),
                &limits,
                &progress,
            );
            assert!(searched.tours > 0, "{board:?} {goal:?}");
            let rules = rules(&plan, &kinds(g.len(), &goal), goal.closed);
            let opts = FrontierOptions::default();
            let found = [
                sweep::<Mates, u64>(&rules, &opts, &limits, &progress, None),
                sweep::<u64, u64>(&rules, &opts, &limits, &progress, None),
                sweep::<u128, u64>(&rules, &opts, &limits, &progress, None),
                sweep::<Wide, u128>(&rules, &opts, &limits, &progress, None),
            ]
            .map(|s| s.map(|s| s.found).unwrap_or_default());
            // As `count` turns them into directed tours.
            let n = g.len() as u128;
            let tours = |f: u128| match (goal.closed, goal.start) {
                (true, _) => 2 * f * n,
                (false, None) => 2 * f,
                (false, Some(_)) => f,
            };
            for f in found {
                assert_eq!(tours(f), searched.tours, "{found:?}");
            }
        }
    }

    /// At the widest frontier a [`Mates`] key holds (13 slots: the last
    /// slot's other slot is coded 15, the top of 4 bits), it counts as the
    /// labelled key does: the knight's closed tours of 7x6.
    #[test]
    fn the_widest_mates_key_counts_as_a_labelled_one() {
        let board = Board::rectangle(7, 6);
        let (g, plan) = graph_and_plan(&board, &Piece::leaper(1, 2, 1));
        assert_eq!(plan.width, <Mates as Key>::SLOTS);
        let goal = closed();
        let rules = rules(&plan, &kinds(g.len(), &goal), true);
        let (opts, limits, progress) =
            (FrontierOptions::default(), Limits::none(), Progress::new());
        let found = [
            sweep::<Mates, u64>(&rules, &opts, &limits, &progress, None),
            sweep::<u64, u64>(&rules, &opts, &limits, &progress, None),
        ]
        .map(|s| s.map(|s| s.found).unwrap_or_default());
        assert!(found[0] > 0);
        assert_eq!(found[0], found[1]);
    }

    /// The look-ahead started from the last run from a state of the same
    /// classes drops exactly the states a fresh run drops, step by step:
    /// closed and open tours, free and fixed ends, a wrapping board, on
    /// one thread and shared out, each way of taking a square looked at
    /// or not.
    #[test]
    fn a_remembered_look_ahead_drops_what_a_fresh_one_does() {
        let knight = Piece::leaper(1, 2, 1);
        let king = Piece::leaper(0, 1, 1).union(&Piece::leaper(1, 1, 1));
        let holed = |c: Cell| (c.x, c.y) != (2, 2) && (c.x, c.y) != (3, 2);
        let (closed, from_corner) = (closed(), from_corner());
        let cases = [
            (Board::rectangle(6, 6), knight.clone(), Goal::default()),
            (Board::rectangle(6, 6), knight.clone(), closed),
            (Board::rectangle(8, 4), knight.clone(), Goal::default()),
            (Board::rectangle(7, 5), knight.clone(), from_corner),
            (Board::rectangle(5, 5), king.clone(), closed),
            (
                Board::new(6, 5, Topology::Plain, holed),
                king.clone(),
                from_corner,
            ),
            (
                Board::new(5, 4, Topology::Cylinder, |_| true),
                knight,
                Goal::default(),
            ),
        ];
        let (limits, progress) = (Limits::none(), Progress::new());
        let mut reused = false;
        for (board, piece, goal) in cases {
            let (g, plan) = graph_and_plan(&board, &piece);
            let rules = rules(&plan, &kinds(g.len(), &goal), goal.closed);
            for (serial_below, children_above) in [(SERIAL_BELOW, CHILDREN_ABOVE), (0, 0)] {
                let run = |remember: bool| {
                    let opts = FrontierOptions {
                        serial_below,
                        children_above,
                        remember,
                        ..FrontierOptions::default()
                    };
                    let Ok(s) = sweep::<u64, u64>(&rules, &opts, &limits, &progress, None) else {
                        panic!("no sweep");
                    };
                    (s.found, s.states)
                };
                let (fresh, remembered) = (run(false), run(true));
                assert!(fresh.0 > 0, "{board:?} {goal:?}");
                assert_eq!(remembered, fresh, "{board:?} {goal:?}");
                reused |= serial_below == 0;
            }
        }
        assert!(reused);
    }

    /// States written to disk as sorted runs and merged count as those
    /// held in memory, for every key: the same count, the same states after
    /// each step, the same check figure; the spill folder is left empty.
    #[test]
    fn spilled_states_count_as_those_in_memory_for_every_key() {
        let (dir, folder) = leaked_folder();
        let knight = Piece::leaper(1, 2, 1);
        for (board, goal) in [
            (Board::rectangle(6, 5), Goal::default()),
            (Board::rectangle(6, 5), closed()),
            (Board::rectangle(7, 4), from_corner()),
        ] {
            let (g, plan) = graph_and_plan(&board, &knight);
            let rules = rules(&plan, &kinds(g.len(), &goal), goal.closed);
            let (limits, progress) = (Limits::none(), Progress::new());
            let memory = FrontierOptions::default();
            let tight = FrontierOptions {
                budget: 4 << 10,
                serial_below: 0,
                spill: Some(folder),
                ..FrontierOptions::default()
            };
            fn both<K: Key, C: Tally>(
                rules: &[StepRules],
                opts: [&FrontierOptions; 2],
                limits: &Limits,
                progress: &Progress,
            ) {
                let run = |o: &FrontierOptions| {
                    let Ok(s) = sweep::<K, C>(rules, o, limits, progress, None) else {
                        panic!("no sweep");
                    };
                    s
                };
                let (held, spilled) = (run(opts[0]), run(opts[1]));
                assert!(held.found > 0);
                assert_eq!(held.spilled, 0);
                assert!(spilled.spilled > 0);
                assert_eq!(
                    (held.found, &held.states, held.check),
                    (spilled.found, &spilled.states, spilled.check)
                );
            }
            let opts = [&memory, &tight];
            both::<Mates, u64>(&rules, opts, &limits, &progress);
            both::<u64, u64>(&rules, opts, &limits, &progress);
            both::<u128, u64>(&rules, opts, &limits, &progress);
            both::<Wide, u128>(&rules, opts, &limits, &progress);
        }
        let left = std::fs::read_dir(dir.path()).map_or(0, Iterator::count);
        assert_eq!(left, 0, "runs left in the spill folder");
    }

    /// The progress after a step whose states stay on disk says so: the
    /// squares done, none in memory, and the step's merged states on disk
    /// (not the states its runs held before the merge folded equal keys).
    #[test]
    fn progress_after_a_spilled_step_shows_its_states_on_disk() {
        let (_dir, folder) = leaked_folder();
        let board = Board::rectangle(6, 5);
        let (g, plan) = graph_and_plan(&board, &Piece::leaper(1, 2, 1));
        let goal = Goal::default();
        let rules = rules(&plan, &kinds(g.len(), &goal), false);
        let tight = FrontierOptions {
            budget: 4 << 10,
            serial_below: 0,
            spill: Some(folder),
            ..FrontierOptions::default()
        };
        let progress = Progress::new();
        let Ok(whole) = sweep::<Mates, u64>(&rules, &tight, &Limits::none(), &progress, None)
        else {
            panic!("no sweep");
        };
        assert!(whole.spilled > 0);
        // The widest step is on disk; the work budget stops the sweep as
        // the next step begins (the work before a step is one, for the
        // empty start, and the states of the steps before it).
        let widest = (0..whole.states.len())
            .max_by_key(|&j| whole.states[j])
            .unwrap_or(0);
        let work = 1 + whole.states[..=widest].iter().sum::<u64>();
        let limits = Limits {
            nodes: Some(work),
            ..Limits::none()
        };
        let Ok(part) = sweep::<Mates, u64>(&rules, &tight, &limits, &progress, None) else {
            panic!("no sweep");
        };
        assert_eq!(part.stopped, Some(Stop::Limit(crate::halt::Limit::Nodes)));
        assert_eq!(part.states, whole.states[..=widest]);
        let r = progress.read();
        assert_eq!(
            (r.done, r.held, r.on_disk),
            (widest as u64 + 1, None, Some(whole.states[widest]))
        );
    }

    /// A count stopped again and again by a work budget, each time taken
    /// up from its checkpoint, counts what one run counts: the same tours,
    /// states after every square and check figure, in memory and spilled;
    /// each run goes on from the square the last one saved.
    #[test]
    fn a_count_taken_up_from_its_checkpoints_counts_as_one_run() {
        let (_spill, spill) = leaked_folder();
        let knight = Piece::leaper(1, 2, 1);
        for (board, goal) in [
            (Board::rectangle(6, 5), Goal::default()),
            (Board::rectangle(6, 6), closed()),
            (Board::rectangle(7, 4), from_corner()),
        ] {
            let (g, plan) = graph_and_plan(&board, &knight);
            let memory = FrontierOptions::default();
            let tight = FrontierOptions {
                budget: 4 << 10,
                serial_below: 0,
                spill: Some(spill),
                ..FrontierOptions::default()
            };
            for opts in [memory, tight] {
                let progress = Progress::new();
                let Ok(whole) = count(&g, &goal, &plan, &opts, &Limits::none(), &progress) else {
                    panic!("no count");
                };
                let work: u64 = 1 + whole.states.iter().sum::<u64>();
                let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
                let every = Box::leak(Box::new(resume::Checkpoint {
                    dir: dir.path().to_path_buf(),
                    every: Duration::ZERO,
                }));
                let saving = FrontierOptions {
                    checkpoint: Some(every),
                    ..opts
                };
                let mut last_done = 0;
                for part in 1..=5 {
                    let limits = Limits {
                        nodes: Some(work * part / 5),
                        ..Limits::none()
                    };
                    let Ok(c) = count(&g, &goal, &plan, &saving, &limits, &progress) else {
                        panic!("no count");
                    };
                    assert_eq!(c.resumed_at, (part > 1).then_some(last_done));
                    assert!(c.squares_done >= last_done);
                    assert_eq!(c.states, whole.states[..c.squares_done]);
                    last_done = c.squares_done;
                }
                let Ok(c) = count(&g, &goal, &plan, &saving, &Limits::none(), &progress) else {
                    panic!("no count");
                };
                assert!(whole.tours > 0 && c.complete());
                assert_eq!(c.resumed_at, Some(last_done));
                assert_eq!(
                    (c.tours, c.cycles_x2, &c.states, c.check),
                    (whole.tours, whole.cycles_x2, &whole.states, whole.check)
                );
                // Finished, it gives its result at once when run again.
                let Ok(again) = count(&g, &goal, &plan, &saving, &Limits::none(), &progress) else {
                    panic!("no count");
                };
                assert_eq!(again.resumed_at, Some(whole.squares_total));
                assert_eq!((again.tours, again.check), (whole.tours, whole.check));
            }
        }
        let left = std::fs::read_dir(spill).map_or(0, Iterator::count);
        assert_eq!(left, 0, "runs left in the spill folder");
    }

    /// The knight's open count of 6x5 saved after every square: its graph
    /// and plan, a fresh folder, and the options that save into it.
    fn saving_6x5() -> (MoveGraph, Plan, tempfile::TempDir, FrontierOptions) {
        let board = Board::rectangle(6, 5);
        let (g, plan) = graph_and_plan(&board, &Piece::leaper(1, 2, 1));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let saving = FrontierOptions {
            checkpoint: Some(Box::leak(Box::new(resume::Checkpoint {
                dir: dir.path().to_path_buf(),
                every: Duration::ZERO,
            }))),
            ..FrontierOptions::default()
        };
        (g, plan, dir, saving)
    }

    /// A checkpoint whose states file is cut short, whose states do not
    /// add up to their check figure, or whose figures are not a
    /// checkpoint's is refused with words naming the file.
    #[test]
    fn a_damaged_checkpoint_is_refused_naming_its_file() {
        let (g, plan, dir, saving) = saving_6x5();
        let goal = Goal::default();
        let progress = Progress::new();
        let save = || {
            for e in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let _ = std::fs::remove_file(e.path());
            }
            let limits = Limits {
                nodes: Some(200),
                ..Limits::none()
            };
            let Ok(c) = count(&g, &goal, &plan, &saving, &limits, &progress) else {
                panic!("no count");
            };
            assert!(c.stopped.is_some() && c.squares_done > 0);
            let file = |ext: &str| {
                std::fs::read_dir(dir.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| p.to_string_lossy().ends_with(ext))
                    .unwrap_or_else(|| panic!("no {ext} saved"))
            };
            (file(".json"), file(".bin"))
        };
        let refused = |what: &str, path: &std::path::Path, words: &str| match count(
            &g,
            &goal,
            &plan,
            &saving,
            &Limits::none(),
            &progress,
        ) {
            Err(Unfit::Checkpoint { message }) => {
                assert!(
                    message.contains(&path.display().to_string()) && message.contains(words),
                    "{what}: {message}"
                );
            }
            other => panic!("{what}: {other:?}"),
        };
        let (_, states) = save();
        let Ok(bytes) = std::fs::read(&states) else {
            panic!("no states");
        };
        let _ = std::fs::write(&states, &bytes[..bytes.len() - 1]);
        refused("cut short", &states, "were written");
        let (_, states) = save();
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let _ = std::fs::write(&states, &flipped);
        refused("a bit flipped", &states, "do not add up");
        let (head, _) = save();
        let Ok(text) = std::fs::read_to_string(&head) else {
            panic!("no figures");
        };
        let Ok(mut figures) = serde_json::from_str::<serde_json::Value>(&text) else {
            panic!("figures not JSON");
        };
        figures["found"] = serde_json::json!("12345");
        let _ = std::fs::write(&head, figures.to_string());
        refused("a figure changed", &head, "do not hold together");
        let (head, _) = save();
        let _ = std::fs::write(&head, "{\"format\": \"something else\"}");
        refused("not a checkpoint", &head, "checkpoint");
    }

    /// A save removes the entry's earlier states and any states file a
    /// save cut short left behind, and nothing of another entry's.
    #[test]
    fn a_save_removes_what_earlier_saves_left_and_only_that() {
        let (g, plan, dir, saving) = saving_6x5();
        let goal = Goal::default();
        let limits = Limits {
            nodes: Some(200),
            ..Limits::none()
        };
        let Ok(first) = count(&g, &goal, &plan, &saving, &limits, &Progress::new()) else {
            panic!("no count");
        };
        let name = crate::count::shard::fingerprint(&g, &goal, "frontier", Some(&plan));
        let stray = [
            format!("{name}.3.bin.part"),
            format!("{name}.{}.bin", first.squares_done + 40),
        ];
        let other = format!("{name}-part1of2.3.bin");
        for f in stray.iter().chain([&other]) {
            let _ = std::fs::write(dir.path().join(f), b"x");
        }
        let Ok(c) = count(&g, &goal, &plan, &saving, &Limits::none(), &Progress::new()) else {
            panic!("no count");
        };
        assert!(c.complete());
        for f in &stray {
            assert!(!dir.path().join(f).exists(), "{f} left");
        }
        assert!(
            dir.path().join(&other).exists(),
            "another entry's file removed"
        );
    }

    /// A step stopped part way counts what it held when it stopped: the
    /// list it read and its tables, sized for as many states as the list
    /// holds. (Before, a step stopped by a limit left the figure of the
    /// steps before it: the 9x9 count of `knight + leaper 1 4` stopped at
    /// ten seconds said 190 MB where 664 MB were resident.)
    #[test]
    fn a_stopped_step_counts_the_tables_it_held() {
        let board = Board::rectangle(6, 5);
        let (g, plan) = graph_and_plan(&board, &Piece::leaper(1, 2, 1));
        let goal = Goal::default();
        let rules = rules(&plan, &kinds(g.len(), &goal), false);
        fn stopped<K: Key, C: Tally>(r: &StepRules) {
            let held = 50_000usize;
            let mut layer: Vec<(K, C)> = vec![(K::ZERO, C::ONE); held];
            let per_state = size_of::<(K, C)>() as u64;
            let list_bytes = layer.capacity() as u64 * per_state;
            let tables = Layer::<K, C>::with_room(held).bytes();
            assert!(tables >= held as u64 * per_state);
            let cancel = AtomicBool::new(true);
            let limits = Limits::none().with_cancel(&cancel);
            let batches = vec![Mutex::new(Batches::<K, C>::new())];
            let mut out = Sweeping::new(0);
            let stepped = step_large(
                &mut layer,
                &mut None,
                &mut None,
                r,
                &FrontierOptions::default(),
                &limits,
                &Progress::new(),
                &batches,
                (false, per_state, held as u64),
                &mut out,
            );
            assert!(matches!(stepped, Ok(false)));
            assert_eq!(out.stopped, Some(Stop::Cancelled));
            assert_eq!(out.peak_bytes, list_bytes + tables);
        }
        let r = &rules[rules.len() / 2];
        stopped::<Mates, u64>(r);
        stopped::<u64, u64>(r);
        stopped::<u128, u64>(r);
        stopped::<Wide, u64>(r);
        stopped::<Wide, u128>(r);
    }

    #[test]
    fn a_list_is_refilled_in_place_unless_far_too_large_or_too_small() {
        let mut list: Vec<u64> = Vec::with_capacity(10_000);
        list.extend(0..10_000);
        // Somewhat fewer: kept, and emptied.
        room_for(&mut list, 6_000);
        assert!(list.is_empty());
        assert_eq!(list.capacity(), 10_000);
        // Far fewer: the room it would hold idle is given back.
        room_for(&mut list, 1_000);
        assert!(list.is_empty());
        assert!(
            list.capacity() >= 1_000 && list.capacity() < 2_000,
            "{}",
            list.capacity()
        );
        // More: made anew, of the size asked.
        room_for(&mut list, 50_000);
        assert!(
            list.capacity() >= 50_000 && list.capacity() < 60_000,
            "{}",
            list.capacity()
        );
    }
}
