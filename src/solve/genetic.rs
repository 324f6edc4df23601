//! The genetic solver.
//!
//! A chromosome holds one gene per step (n − 1 genes for n squares); each
//! gene names one of the piece's move *slots* at the square the walk has
//! reached (see [`MoveSlots`]). Decoding walks from the start square; a gene
//! whose move is illegal is *repaired* — rewritten in the chromosome — and a
//! walk that has no legal move left is stuck. Fitness is the number of squares
//! visited.
//!
//! Two presets:
//! - [`Preset::Classic`] is the algorithm of the p5.js knight's-tour write-up,
//!   parameter for parameter: cycle repair in a direction drawn once per
//!   individual, a fitness-proportional mating pool, single-point crossover,
//!   per-gene mutation and full generational replacement.
//! - [`Preset::Tuned`] keeps that chromosome but reads it through Warnsdorff's
//!   rule, picks parents by tournament, keeps the best individuals (elitism)
//!   and never enters the square a tour must end on before its last step.
//!
//! Decoding is allocation-free (each worker owns its scratch arrays) and
//! deterministic, so a seed fixes the whole run, also when a large population
//! is evaluated in parallel.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{Limit, Limits, Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Stop, Task};
use crate::halt::{self, Halt};
use crate::model::{Board, MoveGraph, Piece};
use crate::progress::Unit;
use crate::search::event::{Event, Observer, POPULATION_SHOWN};

/// Parameter presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub enum Preset {
    /// The published write-up's algorithm, parameter for parameter.
    Classic,
    /// Stronger defaults.
    #[default]
    Tuned,
}

/// Parent selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Selection {
    /// Fitness-proportional.
    Roulette,
    /// Best of a small random group.
    Tournament,
}

/// How an illegal gene is repaired while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Repair {
    /// Cycle through the piece's moves until a legal one is found.
    Cycle,
    /// Take the legal move Warnsdorff's rule prefers.
    Warnsdorff,
}

/// Options of the genetic solver; unset ones come from the preset.
#[derive(Clone, Copy, Debug, PartialEq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeneticOptions {
    /// Preset the other options default to.
    pub preset: Preset,
    /// Individuals per generation (1 to 100,000).
    #[serde(deserialize_with = "de_population")]
    pub population: Option<usize>,
    /// Per-gene mutation probability (0 to 1).
    #[serde(deserialize_with = "de_mutation")]
    pub mutation: Option<f64>,
    /// Give up after this many generations (at least 1).
    #[serde(deserialize_with = "de_generations")]
    pub generations: Option<u64>,
    /// Parent selection.
    pub selection: Option<Selection>,
    /// Gene repair.
    pub repair: Option<Repair>,
    /// Best individuals copied unchanged into the next generation.
    #[serde(deserialize_with = "de_elitism")]
    pub elitism: Option<usize>,
}

/// Largest population a puzzle may ask for.
pub const MAX_POPULATION: usize = 100_000;

/// Generation limit when the puzzle sets none.
pub const DEFAULT_GENERATIONS: u64 = 20_000;

/// Individuals in a tournament (`selection: Tournament`).
pub const TOURNAMENT_SIZE: usize = 3;

fn de_population<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let v: Option<usize> = serde::Deserialize::deserialize(d)?;
    match v {
        Some(p) if !(1..=MAX_POPULATION).contains(&p) => Err(serde::de::Error::custom(format!(
            "population must be from 1 to {MAX_POPULATION}, not {p}"
        ))),
        v => Ok(v),
    }
}

fn de_mutation<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v: Option<f64> = serde::Deserialize::deserialize(d)?;
    match v {
        Some(m) if !(0.0..=1.0).contains(&m) => Err(serde::de::Error::custom(format!(
            "mutation is a probability from 0 to 1, not {m}"
        ))),
        v => Ok(v),
    }
}

fn de_generations<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v: Option<u64> = serde::Deserialize::deserialize(d)?;
    match v {
        Some(0) => Err(serde::de::Error::custom(
            "generations must be at least 1 (the first generation is the random one)",
        )),
        v => Ok(v),
    }
}

fn de_elitism<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let v: Option<usize> = serde::Deserialize::deserialize(d)?;
    match v {
        Some(e) if e > MAX_POPULATION => Err(serde::de::Error::custom(format!(
            "elitism must be at most {MAX_POPULATION}, not {e}"
        ))),
        v => Ok(v),
    }
}

/// The options with every gap filled from the preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// The preset the gaps came from.
    pub preset: Preset,
    /// Individuals per generation.
    pub population: usize,
    /// Per-gene mutation probability.
    pub mutation: f64,
    /// Generation limit.
    pub generations: u64,
    /// Parent selection.
    pub selection: Selection,
    /// Gene repair.
    pub repair: Repair,
    /// Individuals copied unchanged into the next generation (capped by the
    /// population).
    pub elitism: usize,
    /// Keep the square a tour must end on (a fixed `end`, or the start's last
    /// free neighbour in a closed tour) for the last step.
    pub reserve_end: bool,
    /// Evaluate fitness on all cores when population × squares reaches this.
    pub parallel_work: usize,
}

impl GeneticOptions {
    /// The preset's values with the explicit options laid over them.
    pub fn params(&self) -> Params {
        let base = match self.preset {
            Preset::Classic => Params {
                preset: Preset::Classic,
                population: 50,
                mutation: 0.01,
                generations: DEFAULT_GENERATIONS,
                selection: Selection::Roulette,
                repair: Repair::Cycle,
                elitism: 0,
                reserve_end: false,
                parallel_work: PARALLEL_WORK,
            },
            Preset::Tuned => Params {
                preset: Preset::Tuned,
                population: 50,
                mutation: 0.01,
                generations: DEFAULT_GENERATIONS,
                selection: Selection::Tournament,
                repair: Repair::Warnsdorff,
                elitism: 2,
                reserve_end: true,
                parallel_work: PARALLEL_WORK,
            },
        };
        let population = self.population.unwrap_or(base.population).max(1);
        Params {
            population,
            mutation: self
                .mutation
                .filter(|m| (0.0..=1.0).contains(m))
                .unwrap_or(base.mutation),
            generations: self.generations.unwrap_or(base.generations).max(1),
            selection: self.selection.unwrap_or(base.selection),
            repair: self.repair.unwrap_or(base.repair),
            elitism: self.elitism.unwrap_or(base.elitism).min(population),
            ..base
        }
    }
}

impl Params {
    /// The options that give these parameters (all but `reserve_end` and
    /// `parallel_work`, which come from the preset).
    pub fn options(&self) -> GeneticOptions {
        GeneticOptions {
            preset: self.preset,
            population: Some(self.population),
            mutation: Some(self.mutation),
            generations: Some(self.generations),
            selection: Some(self.selection),
            repair: Some(self.repair),
            elitism: Some(self.elitism),
        }
    }
}

/// Most move slots per square (genes are `u16`).
pub const MAX_SLOTS: usize = 1 << 16;

/// The piece's moves at every square, as fixed *slots*: slot `j` of square
/// `s` is where the piece's `j`-th move lands from `s`, or nothing when that
/// move leaves the board or lands on a removed square. A gene is a slot index,
/// so it names the same move wherever the walk is — as the write-up's genes
/// 1..8 name the same knight move on every square.
///
/// For a leaper the slots are its moves in the piece's order. A rider's move
/// becomes one slot per distance (1, 2, … up to the longest ride any square
/// of this board allows). Every filled slot is a move of the [`MoveGraph`] of
/// the same board and piece, and every move of the graph fills a slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSlots {
    width: usize,
    /// `n * width` targets; an empty slot holds `n`, a square that does not
    /// exist (decoding keeps it marked as visited).
    slots: Vec<u32>,
}

impl MoveSlots {
    /// The slots of `piece` on `board`, built under `halt` (the slots of a
    /// 4096x4096 board take a second to fill). A piece with more than
    /// [`MAX_SLOTS`] slots falls back to [`MoveSlots::of_graph`].
    pub fn of_piece<H: Halt>(board: &Board, piece: &Piece, halt: &H) -> Result<MoveSlots, H::Stop> {
        let n = board.len();
        let moves = piece.moves();
        let mut reach = vec![0usize; moves.len()];
        for s in 0..n as u32 {
            halt::poll(halt, s as usize)?;
            for (i, m) in moves.iter().enumerate() {
                reach[i] = reach[i].max(board.ray(s, m).count());
            }
        }
        let width: usize = reach.iter().sum();
        if width > MAX_SLOTS {
            return MoveGraph::build(board, piece, halt).map(|g| MoveSlots::of_graph(&g));
        }
        let width = width.max(1);
        let mut slots = vec![n as u32; n * width];
        for s in 0..n as u32 {
            halt::poll(halt, s as usize)?;
            let row = &mut slots[s as usize * width..(s as usize + 1) * width];
            let mut base = 0;
            for (i, m) in moves.iter().enumerate() {
                for (step, t) in board.ray(s, m).enumerate() {
                    row[base + step] = t;
                }
                base += reach[i];
            }
        }
        Ok(MoveSlots { width, slots })
    }

    /// Slots read off a move graph: square `s`'s targets in order, padded
    /// with empty slots to the largest degree (at most [`MAX_SLOTS`]; a
    /// square with more targets keeps the first ones). For graphs that come
    /// from no piece, such as [`MoveGraph::from_lists`].
    pub fn of_graph(g: &MoveGraph) -> MoveSlots {
        let n = g.len();
        let width = (0..n as u32)
            .map(|s| g.degree(s))
            .max()
            .unwrap_or(0)
            .clamp(1, MAX_SLOTS);
        let mut slots = vec![n as u32; n * width];
        for s in 0..n as u32 {
            for (j, &t) in g.targets(s).iter().take(width).enumerate() {
                slots[s as usize * width + j] = t;
            }
        }
        MoveSlots { width, slots }
    }

    /// Slots per square: the gene alphabet's size.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        self.slots.len() / self.width
    }

    /// True with no squares.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Square `s`'s slots: a target square, or None for a move that is not
    /// there.
    pub fn slots(&self, s: u32) -> impl Iterator<Item = Option<u32>> + '_ {
        let n = self.len() as u32;
        self.slots[s as usize * self.width..(s as usize + 1) * self.width]
            .iter()
            .map(move |&t| (t != n).then_some(t))
    }
}

/// Every square's out-degree, and 0 for the sentinel square `n`.
fn degrees(g: &MoveGraph) -> Vec<u32> {
    (0..g.len() as u32)
        .map(|s| g.degree(s) as u32)
        .chain([0])
        .collect()
}

/// What every decode needs, shared read-only by all workers.
struct Problem<'a> {
    n: usize,
    width: usize,
    slots: &'a [u32],
    /// Reversed graph (CSR): who loses an onward move when a square is visited.
    rev_off: &'a [u32],
    rev_tg: &'a [u32],
    /// Out-degree of every square.
    degree: Vec<u32>,
    start: u32,
    closed: bool,
    end: Option<u32>,
    /// Closed tours: the squares that move back to the start.
    closes: Vec<bool>,
    /// How many squares move back to the start.
    closers: usize,
    /// Those squares.
    closer_list: Vec<u32>,
    repair: Repair,
    reserve_end: bool,
    /// The time limit or Ctrl-C: a walk on a huge board takes long enough
    /// to look at it on the way (the walk then ends early, still legal).
    limits: &'a Limits<'a>,
}

/// One worker's scratch arrays, reused for every decode.
struct Scratch {
    /// `stamp[s] == epoch`: visited in the current decode.
    stamp: Vec<u32>,
    epoch: u32,
    /// Unvisited targets of every square (Warnsdorff repair only).
    free: Vec<u32>,
    walk: Vec<u32>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            stamp: vec![0; n + 1],
            epoch: 0,
            free: vec![0; n + 1],
            walk: vec![0; n],
        }
    }
}

/// The result of decoding one chromosome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Score {
    /// Squares visited.
    len: u32,
    /// Squares visited, less one for a full walk that is not a tour (not
    /// closed, or not ending on `end`): `n` exactly for a tour.
    fitness: u32,
}

impl Problem<'_> {
    /// Walks `genes` from the start, repairing them in place. `forward` is the
    /// individual's cycling direction. The walk is left in `sc.walk[..len]`.
    fn decode(&self, genes: &mut [u16], forward: bool, sc: &mut Scratch) -> Score {
        let reserve = self.reserve_end && (self.closed || self.end.is_some());
        match (self.repair, reserve) {
            (Repair::Cycle, false) => self.walk::<false, false>(genes, forward, sc),
            (Repair::Cycle, true) => self.walk::<false, true>(genes, forward, sc),
            (Repair::Warnsdorff, false) => self.walk::<true, false>(genes, forward, sc),
            (Repair::Warnsdorff, true) => self.walk::<true, true>(genes, forward, sc),
        }
    }

    /// [`Problem::decode`] for one repair rule, with or without keeping the
    /// tour's last square for last.
    #[inline(always)]
    fn walk<const WARNSDORFF: bool, const RESERVE: bool>(
        &self,
        genes: &mut [u16],
        forward: bool,
        sc: &mut Scratch,
    ) -> Score {
        sc.epoch = sc.epoch.wrapping_add(1);
        if sc.epoch == 0 {
            sc.stamp.fill(0);
            sc.epoch = 1;
        }
        let ep = sc.epoch;
        if WARNSDORFF {
            sc.free.copy_from_slice(&self.degree);
        }
        let n = self.n;
        let w = self.width;
        let stamp = &mut sc.stamp[..];
        let free = &mut sc.free[..];
        let walk = &mut sc.walk[..];
        // The sentinel square `n` fills empty slots: always "visited".
        stamp[n] = ep;
        // A square kept for the last step is marked visited until then.
        let mut reserved = NO_SQUARE;
        let mut free_closers = self.closers;
        if RESERVE {
            if let Some(e) = self.end
                && e != self.start
            {
                reserved = e;
            } else if self.closed && free_closers == 1 {
                reserved = self.last_closer(stamp, ep);
            }
            if reserved != NO_SQUARE {
                stamp[reserved as usize] = ep;
            }
        }
        let mut len = 0usize;
        let mut cur = self.start;
        macro_rules! visit {
            ($s:expr) => {{
                let s = $s;
                stamp[s as usize] = ep;
                walk[len] = s;
                len += 1;
                if RESERVE && self.closed && self.closes[s as usize] {
                    free_closers -= 1;
                    if free_closers == 1 && reserved == NO_SQUARE {
                        reserved = self.last_closer(stamp, ep);
                        if reserved != NO_SQUARE {
                            stamp[reserved as usize] = ep;
                        }
                    }
                }
                if WARNSDORFF {
                    let (a, b) = (
                        self.rev_off[s as usize] as usize,
                        self.rev_off[s as usize + 1] as usize,
                    );
                    for &u in &self.rev_tg[a..b] {
                        free[u as usize] -= 1;
                    }
                }
            }};
        }
        visit!(cur);
        for gene in genes.iter_mut() {
            if len.is_multiple_of(halt::POLL_EVERY) && self.limits.check().is_err() {
                break;
            }
            let remaining = n - len;
            if RESERVE && remaining == 1 && reserved != NO_SQUARE {
                // The last step may take the reserved square.
                stamp[reserved as usize] = 0;
                reserved = NO_SQUARE;
            }
            let row = &self.slots[cur as usize * w..(cur as usize + 1) * w];
            let g = *gene as usize;
            let slot = if WARNSDORFF {
                // The first slot, cycling from the gene, whose target has the
                // fewest onward moves; a dead end counts as worst unless it is
                // the last square. Each slot's key is (onward moves, distance
                // from the gene in the cycle), so the least key wins.
                let mut best = u64::MAX;
                for (j, &t) in row.iter().enumerate() {
                    let t = t as usize;
                    let f = free[t];
                    let key = if stamp[t] == ep {
                        u32::MAX
                    } else if f == 0 && remaining > 1 {
                        u32::MAX - 1
                    } else {
                        f
                    };
                    let pos = if forward {
                        if j >= g { j - g } else { j + w - g }
                    } else if j <= g {
                        g - j
                    } else {
                        g + w - j
                    };
                    best = best.min(u64::from(key) << 16 | pos as u64);
                }
                if best >> 16 == u64::from(u32::MAX) {
                    usize::MAX
                } else {
                    let pos = (best & 0xffff) as usize;
                    if forward {
                        if g + pos >= w { g + pos - w } else { g + pos }
                    } else if pos <= g {
                        g - pos
                    } else {
                        g + w - pos
                    }
                }
            } else if w <= 64 {
                // Legal slots as a bit mask, then the first set bit from the
                // gene in the individual's direction.
                let mut mask = 0u64;
                if let Ok(row8) = <&[u32; 8]>::try_from(row) {
                    // Eight slots (the knight and its kin): unrolled.
                    for (j, &t) in row8.iter().enumerate() {
                        mask |= u64::from(stamp[t as usize] != ep) << j;
                    }
                } else {
                    for (j, &t) in row.iter().enumerate() {
                        mask |= u64::from(stamp[t as usize] != ep) << j;
                    }
                }
                first_in_cycle(mask, g, forward)
            } else {
                let mut j = g;
                let mut chosen = usize::MAX;
                for _ in 0..w {
                    if stamp[row[j] as usize] != ep {
                        chosen = j;
                        break;
                    }
                    j = step(j, w, forward);
                }
                chosen
            };
            if slot == usize::MAX {
                break;
            }
            *gene = slot as u16;
            cur = row[slot];
            visit!(cur);
        }
        let fitness = if len == n && !self.is_tour_end(cur) {
            len - 1
        } else {
            len
        };
        Score {
            len: len as u32,
            fitness: fitness as u32,
        }
    }

    /// The one square that closes the tour and is not yet visited.
    fn last_closer(&self, stamp: &[u32], ep: u32) -> u32 {
        self.closer_list
            .iter()
            .copied()
            .find(|&c| stamp[c as usize] != ep)
            .unwrap_or(NO_SQUARE)
    }

    /// Whether a full walk ending on `last` is a tour.
    fn is_tour_end(&self, last: u32) -> bool {
        if self.closed {
            self.closes[last as usize]
        } else {
            self.end.is_none_or(|e| e == last)
        }
    }
}

/// The first set bit of `mask` (a bit per slot) met going from bit `g`
/// forward (g, g + 1, …) or backward (g, g − 1, …), wrapping round the
/// slots; `usize::MAX` if none.
#[inline(always)]
fn first_in_cycle(mask: u64, g: usize, forward: bool) -> usize {
    if mask == 0 {
        return usize::MAX;
    }
    // Both candidates are computed and one is picked without a branch: which
    // one wins depends on the random gene, so a branch would mispredict.
    if forward {
        // Bits g.. first, then 0..g.
        let hi = mask >> g;
        let above = g + hi.trailing_zeros() as usize;
        let wrapped = mask.trailing_zeros() as usize;
        std::hint::select_unpredictable(hi != 0, above, wrapped)
    } else {
        // Bits ..=g downward first, then the highest.
        let lo = mask & (u64::MAX >> (63 - g));
        let below = 63usize.wrapping_sub(lo.leading_zeros() as usize);
        let wrapped = 63 - mask.leading_zeros() as usize;
        std::hint::select_unpredictable(lo != 0, below, wrapped)
    }
}

#[inline(always)]
fn step(j: usize, w: usize, forward: bool) -> usize {
    if forward {
        if j + 1 == w { 0 } else { j + 1 }
    } else if j == 0 {
        w - 1
    } else {
        j - 1
    }
}

/// No square.
const NO_SQUARE: u32 = u32::MAX;

/// Population size × squares from which fitness is evaluated in parallel
/// (measured: below it, waking the worker threads costs more than it saves).
pub const PARALLEL_WORK: usize = 20_000;

/// Bytes of one individual in [`Ga`]: two generations of `u16` genes (n − 1
/// each), two cycling directions, its score, its place in the elitism order
/// and its roulette weight.
fn individual_bytes(squares: u64) -> u64 {
    let genes = 2 * 2 * squares.saturating_sub(1);
    genes + 2 + std::mem::size_of::<Score>() as u64 + 4 + 8
}

/// An estimate, made before anything is allocated, of the bytes the genetic
/// solver with `opts` needs for `piece` on `board`, besides the move graph:
/// see [`memory_bytes`]. The move slots per square are bounded like the
/// graph's moves; `threads` is how many workers may evaluate the population
/// (rayon's pool size).
pub fn estimate_bytes(board: &Board, piece: &Piece, opts: &GeneticOptions, threads: usize) -> u64 {
    memory_bytes(
        board.len(),
        MoveGraph::max_moves_per_square(board, piece),
        MoveGraph::estimate_bytes(board, piece),
        &opts.params(),
        threads,
    )
}

/// An estimate, made before anything is allocated, of the bytes the genetic
/// solver with `params` needs on a board of `squares` squares, besides the
/// move graph it is given: the population (two generations of n − 1 genes
/// and a few words per individual), the move slots (`slot_width` per square, four bytes each),
/// the reversed graph (at most `graph_bytes`, the bound on the move graph;
/// the same bound covers the graph [`MoveSlots::of_piece`] builds when it
/// falls back to [`MoveSlots::of_graph`]), one scratch per worker (`threads`
/// of them when the population is evaluated in parallel) and the per-square
/// arrays.
pub fn memory_bytes(
    squares: usize,
    slot_width: u64,
    graph_bytes: u64,
    params: &Params,
    threads: usize,
) -> u64 {
    let n = squares as u64;
    let pop = params.population.max(1);
    let workers = if pop.saturating_mul(squares) >= params.parallel_work && pop > 1 {
        threads.clamp(1, pop)
    } else {
        1
    } as u64;
    let population = (pop as u64).saturating_mul(individual_bytes(n));
    let slots = n.saturating_mul(slot_width.clamp(1, MAX_SLOTS as u64)) * 4;
    // stamp, free and walk: four bytes a square each.
    let scratch = workers * 12 * (n + 1);
    // degree, closes and the closers, the best walk and the outcome's copy.
    let per_square = n * (4 + 1 + 4 + 4 + 4);
    population
        .saturating_add(slots)
        .saturating_add(graph_bytes)
        .saturating_add(scratch)
        .saturating_add(per_square)
}

impl Solver for GeneticOptions {
    fn id(&self) -> SolverId {
        SolverId::of(SolverSpec::Genetic(*self))
    }

    /// Runs the genetic algorithm on the task, seeded by its seed; the move
    /// slots are read off the board and piece under the run's limits.
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let started = std::time::Instant::now();
        let slots = match MoveSlots::of_piece(task.board, task.piece, &run.limits) {
            Ok(slots) => slots,
            Err(stop) => return Report::stopped(stop, started.elapsed(), self.id()),
        };
        let mut report = solve_with(task, &slots, &self.params(), run);
        report.solver = self.id();
        report.stats.elapsed = started.elapsed();
        report
    }
}

/// Runs the genetic algorithm with every parameter given (for experiments
/// that change what the puzzle file cannot, like `reserve_end`) on the
/// task's graph, with move slots `slots` of the same board and piece.
///
/// The walk starts on the goal's start square, or on the first square (the
/// first that is not `end`, when only the end is fixed). Generation 1 is the
/// random population; the search stops at a tour, at the generation limit
/// (`GaveUp { limit: Generations }`), or when the run's limits say so; the
/// best walk ever decoded is the partial path it gives up with. The limits
/// are looked at once per generation with the generation count (a node
/// budget there counts generations); progress counts generations, with the
/// best fitness so far out of the squares.
pub fn solve_with<O: Observer>(
    task: &Task<'_>,
    slots: &MoveSlots,
    params: &Params,
    run: Run<'_, O>,
) -> Report {
    let started = Instant::now();
    let (g, goal, seed) = (task.graph, &task.goal, task.seed);
    let limits = &run.limits;
    let mut obs = run.observer;
    let params = Params {
        population: params.population.max(1),
        elitism: params.elitism.min(params.population.max(1)),
        generations: params.generations.max(1),
        mutation: if params.mutation.is_nan() {
            0.0
        } else {
            params.mutation.clamp(0.0, 1.0)
        },
        ..*params
    };
    let solver = SolverId::of(SolverSpec::Genetic(params.options()));
    let n = g.len();
    let mut stats = Stats::default();
    if n == 0 || slots.len() != n {
        stats.elapsed = started.elapsed();
        return Report {
            outcome: Outcome::GaveUp {
                limit: Limit::Generations,
                best: Vec::new(),
            },
            stats,
            solver,
            starts: None,
        };
    }
    let start = goal.start.unwrap_or_else(|| {
        if !goal.closed && goal.end == Some(0) && n > 1 {
            1
        } else {
            0
        }
    });
    // The reversed lists take a second and hundreds of megabytes on the
    // largest boards: built under the limits.
    let rev = halt::between_passes(limits, n).map(|()| g.reversed());
    let rev = match rev.and_then(|r| r.prepare_lists(limits).map(|()| r)) {
        Ok(r) => r,
        Err(stop) => return Report::stopped(stop, started.elapsed(), solver),
    };
    let (rev_off, rev_tg) = rev.raw();
    let mut closes = vec![false; n];
    if goal.closed {
        for &u in rev.targets(start) {
            closes[u as usize] = true;
        }
    }
    let problem = Problem {
        n,
        width: slots.width(),
        slots: &slots.slots,
        rev_off,
        rev_tg,
        degree: degrees(g),
        start,
        closed: goal.closed,
        end: if goal.closed { None } else { goal.end },
        closers: closes.iter().filter(|&&c| c).count(),
        closer_list: (0..n as u32).filter(|&s| closes[s as usize]).collect(),
        closes,
        repair: params.repair,
        reserve_end: params.reserve_end,
        limits,
    };
    let mut ga = match Ga::new(&problem, &params, seed) {
        Ok(ga) => ga,
        Err(stop) => return Report::stopped(stop, started.elapsed(), solver),
    };
    run.progress.start(Unit::Generations, None);
    let mut best: Vec<u32> = Vec::new();
    let mut best_fitness = 0u32;
    let mut generation = 0u64;
    let mut repaired: Vec<bool> = Vec::new();
    let outcome = loop {
        generation += 1;
        if O::ACTIVE {
            // Watched: the genes as bred, to tell the repaired ones after.
            ga.keep_bred();
        }
        let (i, score) = ga.evaluate(&mut stats);
        if O::ACTIVE && generation == 1 && score.fitness as usize == n {
            // Solved at once: show some walks of the random population.
            for k in 0..params.population.min(POPULATION_SHOWN) {
                let fitness = ga.scores[k].fitness as usize;
                let (walk, repaired) = ga.walk_repaired(k, &mut repaired);
                obs.individual(fitness, walk, repaired);
            }
        }
        if score.fitness > best_fitness || O::ACTIVE || score.fitness as usize == n {
            let walk = ga.walk_of(i);
            if score.fitness > best_fitness {
                best_fitness = score.fitness;
                best.clear();
                best.extend_from_slice(walk);
            }
            obs.event(
                Event::Generation {
                    generation,
                    fitness: score.fitness as usize,
                    legal: walk.len(),
                },
                walk,
            );
        }
        if O::ACTIVE {
            let total: u64 = ga.scores.iter().map(|s| u64::from(s.fitness)).sum();
            let mean = total as f64 / ga.scores.len().max(1) as f64;
            let (_, repaired) = ga.walk_repaired(i, &mut repaired);
            obs.generation(mean, repaired);
        }
        run.progress.set(generation);
        run.progress.best(u64::from(best_fitness), n as u64);
        if score.fitness as usize == n {
            break Outcome::Found(std::mem::take(&mut best));
        }
        if generation >= params.generations {
            break Outcome::GaveUp {
                limit: Limit::Generations,
                best: std::mem::take(&mut best),
            };
        }
        if let Err(stop) = limits.check_work(generation) {
            break Outcome::stopped(stop, std::mem::take(&mut best));
        }
        ga.breed();
    };
    stats.generations = generation;
    stats.elapsed = started.elapsed();
    Report {
        outcome,
        stats,
        solver,
        starts: None,
    }
}

/// The population and everything that evolves it.
struct Ga<'p, 'a> {
    problem: &'p Problem<'a>,
    params: Params,
    /// Genes per individual (n − 1).
    len: usize,
    genes: Vec<u16>,
    next: Vec<u16>,
    forward: Vec<bool>,
    next_forward: Vec<bool>,
    scores: Vec<Score>,
    /// Individuals by fitness, best first (elitism).
    order: Vec<u32>,
    /// Cumulative mating-pool weights (roulette).
    wheel: Vec<u64>,
    /// One scratch per worker.
    scratch: Vec<Scratch>,
    rng: ChaCha8Rng,
}

impl<'p, 'a> Ga<'p, 'a> {
    /// A random population, drawn under the limits (on the largest boards
    /// it is billions of genes).
    fn new(problem: &'p Problem<'a>, params: &Params, seed: u64) -> Result<Ga<'p, 'a>, Stop> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pop = params.population;
        let len = problem.n - 1;
        let w = problem.width as u16;
        let mut genes: Vec<u16> = Vec::with_capacity(pop * len);
        while genes.len() < pop * len {
            let more = (pop * len - genes.len()).min(halt::POLL_EVERY);
            genes.extend((0..more).map(|_| rng.random_range(0..w)));
            if genes.len() < pop * len {
                problem.limits.check()?;
            }
        }
        let forward: Vec<bool> = (0..pop).map(|_| rng.random_bool(0.5)).collect();
        let workers = if pop.saturating_mul(problem.n) >= params.parallel_work && pop > 1 {
            rayon::current_num_threads().clamp(1, pop)
        } else {
            1
        };
        Ok(Ga {
            problem,
            params: *params,
            len,
            next: vec![0; pop * len],
            genes,
            next_forward: vec![false; pop],
            forward,
            scores: vec![Score::default(); pop],
            order: (0..pop as u32).collect(),
            wheel: vec![0; pop],
            scratch: (0..workers).map(|_| Scratch::new(problem.n)).collect(),
            rng,
        })
    }

    /// Decodes every individual; returns the best (first of the fittest).
    fn evaluate(&mut self, stats: &mut Stats) -> (usize, Score) {
        let p = self.problem;
        let len = self.len;
        if len == 0 {
            // One square: every walk is just the start.
            for (i, s) in self.scores.iter_mut().enumerate() {
                *s = p.decode(&mut [], self.forward[i], &mut self.scratch[0]);
            }
        } else if self.scratch.len() == 1 {
            let sc = &mut self.scratch[0];
            for ((genes, &fwd), score) in self
                .genes
                .chunks_exact_mut(len)
                .zip(&self.forward)
                .zip(&mut self.scores)
            {
                *score = p.decode(genes, fwd, sc);
            }
        } else {
            let per = self.scores.len().div_ceil(self.scratch.len());
            self.scratch
                .par_iter_mut()
                .zip(self.genes.par_chunks_mut(per * len))
                .zip(self.forward.par_chunks(per))
                .zip(self.scores.par_chunks_mut(per))
                .for_each(|(((sc, genes), fwd), scores)| {
                    for ((g, &f), s) in genes.chunks_exact_mut(len).zip(fwd).zip(scores) {
                        *s = p.decode(g, f, sc);
                    }
                });
        }
        let mut best = 0;
        for (i, s) in self.scores.iter().enumerate() {
            stats.nodes += u64::from(s.len);
            if s.fitness > self.scores[best].fitness {
                best = i;
            }
        }
        (best, self.scores[best])
    }

    /// Decodes individual `i` again (its genes are already repaired, so the
    /// walk is the same) and returns its walk.
    fn walk_of(&mut self, i: usize) -> &[u32] {
        let len = self.len;
        let sc = &mut self.scratch[0];
        let score =
            self.problem
                .decode(&mut self.genes[i * len..(i + 1) * len], self.forward[i], sc);
        &sc.walk[..score.len as usize]
    }

    /// Copies the genes as bred into `next`, which holds nothing until the
    /// next [`Ga::breed`] overwrites it whole: after [`Ga::evaluate`]
    /// repairs genes in place, the two differ where genes were repaired.
    fn keep_bred(&mut self) {
        self.next.copy_from_slice(&self.genes);
    }

    /// Individual `i`'s walk (see [`Ga::walk_of`]) and, per square, whether
    /// the move into it was made by a repaired gene: one whose value after
    /// [`Ga::evaluate`] differs from the one [`Ga::keep_bred`] kept.
    fn walk_repaired<'s>(
        &'s mut self,
        i: usize,
        repaired: &'s mut Vec<bool>,
    ) -> (&'s [u32], &'s [bool]) {
        let len = self.len;
        let (now, bred) = (
            &self.genes[i * len..(i + 1) * len],
            &self.next[i * len..(i + 1) * len],
        );
        repaired.clear();
        repaired.push(false);
        repaired.extend(now.iter().zip(bred).map(|(a, b)| a != b));
        let walk = self.walk_of(i);
        repaired.truncate(walk.len());
        (walk, repaired)
    }

    /// Replaces the population with the next generation.
    fn breed(&mut self) {
        let pop = self.params.population;
        let len = self.len;
        let elite = self.params.elitism.min(pop);
        if elite > 0 {
            let scores = &self.scores;
            for (k, o) in self.order.iter_mut().enumerate() {
                *o = k as u32;
            }
            self.order
                .sort_by_key(|&i| std::cmp::Reverse(scores[i as usize].fitness));
            for (k, &i) in self.order[..elite].iter().enumerate() {
                let i = i as usize;
                self.next[k * len..(k + 1) * len]
                    .copy_from_slice(&self.genes[i * len..(i + 1) * len]);
                self.next_forward[k] = self.forward[i];
            }
        }
        if self.params.selection == Selection::Roulette {
            // The write-up's mating pool holds each individual
            // ceil(100 · fitness / best) times.
            let best = self
                .scores
                .iter()
                .map(|s| s.fitness)
                .max()
                .unwrap_or(1)
                .max(1);
            let mut total = 0u64;
            for (w, s) in self.wheel.iter_mut().zip(&self.scores) {
                total += (100 * u64::from(s.fitness)).div_ceil(u64::from(best));
                *w = total;
            }
        }
        let w = self.problem.width as u16;
        let mutation = self.params.mutation;
        for k in elite..pop {
            let a = self.select();
            let b = self.select();
            let child = &mut self.next[k * len..(k + 1) * len];
            if len > 0 {
                // The write-up's crossover: genes up to `mid` from the
                // second parent, the rest from the first.
                let mid = self.rng.random_range(0..len);
                child[..=mid].copy_from_slice(&self.genes[b * len..b * len + mid + 1]);
                child[mid + 1..].copy_from_slice(&self.genes[a * len + mid + 1..(a + 1) * len]);
            }
            if mutation >= 1.0 {
                for gene in child.iter_mut() {
                    *gene = self.rng.random_range(0..w);
                }
            } else if mutation > 0.0 {
                // Each gene mutates with probability `mutation`: the gaps
                // between mutated genes are geometric, so draw the gaps
                // instead of one coin per gene (the same distribution).
                let log_keep = (-mutation).ln_1p();
                let mut i = 0usize;
                loop {
                    let u: f64 = 1.0 - self.rng.random::<f64>();
                    let gap = (u.ln() / log_keep).floor();
                    if gap >= (child.len() - i) as f64 {
                        break;
                    }
                    i += gap as usize;
                    child[i] = self.rng.random_range(0..w);
                    i += 1;
                }
            }
            self.next_forward[k] = self.rng.random_bool(0.5);
        }
        std::mem::swap(&mut self.genes, &mut self.next);
        std::mem::swap(&mut self.forward, &mut self.next_forward);
    }

    /// One parent, by the configured selection.
    fn select(&mut self) -> usize {
        let pop = self.params.population;
        match self.params.selection {
            Selection::Roulette => {
                let total = self.wheel[pop - 1];
                let r = self.rng.random_range(0..total);
                self.wheel.partition_point(|&c| c <= r)
            }
            Selection::Tournament => {
                let mut best = self.rng.random_range(0..pop);
                for _ in 1..TOURNAMENT_SIZE {
                    let c = self.rng.random_range(0..pop);
                    if self.scores[c].fitness > self.scores[best].fitness {
                        best = c;
                    }
                }
                best
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::Cell;

    #[test]
    fn first_in_cycle_matches_walking_the_slots() {
        for w in 1..=10usize {
            for mask in 0u64..(1 << w) {
                for g in 0..w {
                    for forward in [true, false] {
                        let mut want = usize::MAX;
                        let mut j = g;
                        for _ in 0..w {
                            if mask >> j & 1 == 1 {
                                want = j;
                                break;
                            }
                            j = step(j, w, forward);
                        }
                        assert_eq!(
                            first_in_cycle(mask, g, forward),
                            want,
                            "{mask:b} {g} {forward}"
                        );
                    }
                }
            }
        }
    }

    fn problem<'a>(
        g: &'a MoveGraph,
        rev: &'a MoveGraph,
        slots: &'a MoveSlots,
        repair: Repair,
    ) -> Problem<'a> {
        let n = g.len();
        let (rev_off, rev_tg) = rev.raw();
        Problem {
            n,
            width: slots.width(),
            slots: &slots.slots,
            rev_off,
            rev_tg,
            degree: degrees(g),
            start: 0,
            closed: false,
            end: None,
            closes: vec![false; n],
            closers: 0,
            closer_list: Vec::new(),
            repair,
            reserve_end: false,
            limits: &NO_LIMITS,
        }
    }

    static NO_LIMITS: Limits<'static> = Limits {
        deadline: None,
        nodes: None,
        interrupt: None,
        cancel: None,
    };

    /// The write-up's decoding, on coordinates: try the gene's move; while it
    /// leaves the board or lands on a visited square, step the gene forward
    /// or backward through the piece's moves, at most once round.
    fn reference_decode(
        board: &Board,
        piece: &Piece,
        genes: &mut [u16],
        forward: bool,
    ) -> Vec<u32> {
        let k = piece.moves().len();
        let mut walk = vec![0u32];
        let mut at: Cell = board.cell(0);
        for gene in genes.iter_mut() {
            let mut found = None;
            let mut j = *gene as usize;
            for _ in 0..k {
                let m = piece.moves()[j];
                if let Some(c) = board.offset(at, i64::from(m.dx), i64::from(m.dy))
                    && let Some(t) = board.square_at(c)
                    && !walk.contains(&t)
                {
                    found = Some((t, c));
                    break;
                }
                j = if forward {
                    (j + 1) % k
                } else {
                    (j + k - 1) % k
                };
            }
            let Some((t, c)) = found else { break };
            *gene = j as u16;
            walk.push(t);
            at = c;
        }
        walk
    }

    #[test]
    fn cycle_repair_is_the_write_ups() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for (w, h) in [(5, 5), (6, 6), (8, 8), (7, 4)] {
            let board = Board::rectangle(w, h);
            let piece = Piece::leaper(1, 2, 1);
            let Ok(g) = MoveGraph::build(&board, &piece, &Never);
            let rev = g.reversed();
            let Ok(slots) = MoveSlots::of_piece(&board, &piece, &Never);
            let p = problem(&g, &rev, &slots, Repair::Cycle);
            let mut sc = Scratch::new(g.len());
            for _ in 0..200 {
                let genes: Vec<u16> = (0..g.len() - 1).map(|_| rng.random_range(0..8)).collect();
                let forward = rng.random_bool(0.5);
                let (mut ours, mut theirs) = (genes.clone(), genes);
                let score = p.decode(&mut ours, forward, &mut sc);
                let walk = reference_decode(&board, &piece, &mut theirs, forward);
                assert_eq!(&sc.walk[..score.len as usize], &walk[..]);
                assert_eq!(ours, theirs, "repaired genes are written back the same way");
                assert_eq!(score.fitness as usize, walk.len());
                // Decoding the repaired chromosome walks the same path.
                let again = p.decode(&mut ours, forward, &mut sc);
                assert_eq!(again, score);
            }
        }
    }

    #[test]
    fn repaired_moves_are_those_whose_bred_gene_was_illegal() {
        let board = Board::rectangle(6, 6);
        let piece = Piece::leaper(1, 2, 1);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        let rev = g.reversed();
        let Ok(slots) = MoveSlots::of_piece(&board, &piece, &Never);
        let p = problem(&g, &rev, &slots, Repair::Cycle);
        let pop = 20;
        let params = GeneticOptions {
            preset: Preset::Classic,
            population: Some(pop),
            ..GeneticOptions::default()
        }
        .params();
        let Ok(mut ga) = Ga::new(&p, &params, 5) else {
            panic!("no limits")
        };
        let len = g.len() - 1;
        let mut stats = Stats::default();
        let mut flags = Vec::new();
        let (mut kept, mut repaired_seen) = (0, 0);
        for _ in 0..3 {
            ga.keep_bred();
            let bred = ga.genes.clone();
            ga.evaluate(&mut stats);
            for i in 0..pop {
                let (walk, repaired) = ga.walk_repaired(i, &mut flags);
                let (walk, repaired) = (walk.to_vec(), repaired.to_vec());
                assert_eq!(repaired.len(), walk.len());
                assert!(!repaired[0]);
                for j in 1..walk.len() {
                    // The move the gene named as bred, tried on the board.
                    let m = piece.moves()[bred[i * len + j - 1] as usize];
                    let legal = board
                        .offset(board.cell(walk[j - 1]), i64::from(m.dx), i64::from(m.dy))
                        .and_then(|c| board.square_at(c))
                        .is_some_and(|t| !walk[..j].contains(&t));
                    assert_eq!(repaired[j], !legal, "individual {i}, move {j}");
                    if legal {
                        kept += 1;
                    } else {
                        repaired_seen += 1;
                    }
                }
            }
            ga.breed();
        }
        assert!(kept > 0 && repaired_seen > 0);
    }

    #[test]
    fn warnsdorff_repair_keeps_only_warnsdorff_moves() {
        let board = Board::rectangle(8, 8);
        let piece = Piece::leaper(1, 2, 1);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        let rev = g.reversed();
        let Ok(slots) = MoveSlots::of_piece(&board, &piece, &Never);
        let p = problem(&g, &rev, &slots, Repair::Warnsdorff);
        let mut sc = Scratch::new(g.len());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let mut genes: Vec<u16> = (0..63).map(|_| rng.random_range(0..8)).collect();
            let score = p.decode(&mut genes, rng.random_bool(0.5), &mut sc);
            let walk = sc.walk[..score.len as usize].to_vec();
            // Every step goes to an unvisited square with the fewest onward
            // moves (dead ends last), as Warnsdorff's rule says.
            let onward = |t: u32, visited: &[u32]| {
                g.targets(t).iter().filter(|u| !visited.contains(u)).count()
            };
            for i in 1..walk.len() {
                let seen = &walk[..i];
                let remaining = g.len() - i;
                let key = |t: u32| {
                    let f = onward(t, seen);
                    if f == 0 && remaining > 1 {
                        usize::MAX
                    } else {
                        f
                    }
                };
                let best = g
                    .targets(walk[i - 1])
                    .iter()
                    .filter(|t| !seen.contains(t))
                    .map(|&t| key(t))
                    .min();
                assert_eq!(Some(key(walk[i])), best, "step {i}");
            }
        }
    }
}
