//! Warnsdorff's rule: always move to the square with the fewest onward moves.
//!
//! One *walk* starts on a square and repeatedly steps to the unvisited target
//! with the fewest unvisited targets of its own, ties broken by the
//! [`TieBreak`]. A walk is linear in the number of squares: each square's
//! onward count is kept up to date (entering a square lowers the count of
//! every square with a move to it), and the count and the `Lookahead` keys
//! are packed into one word per square so that the rule's choice is the
//! smallest word among the current square's targets (the private `Word` type).
//!
//! `Lookahead`, the default, breaks ties by the shape of the board, looked up
//! in two breadth-first distance maps computed once: first the square
//! farthest from where the walk should finish (the start for an open tour,
//! the `end` square, or the start's neighbours for a closed tour), then the
//! square nearest the rim (the squares with fewer moves than the most any
//! square has). Walks then go round the board from the outside in and end
//! near their target. It was chosen over the textbook rule and Pohl's
//! second-level count by measurement (BENCHMARKS.md).
//!
//! Around the walk, for symmetric move graphs (every move can be made back):
//! - **Repair.** When the walk gets stuck with squares left, unvisited
//!   squares with no unvisited neighbour are spliced into the path where two
//!   of their neighbours allow it, and Pósa rotations (`solve/close.rs`)
//!   reverse the tail of the path until its end has an unvisited square next
//!   to it; then the walk goes on. An open walk with neither end fixed may
//!   also be turned round to try its other end.
//! - **Closing and fixed ends.** A finished walk whose end is not where the
//!   goal wants it (one move from the start for a closed tour, the `end`
//!   square for an open one) is rotated until it is.
//!
//! When a walk fails anyway (repair budget spent, or a directed graph), the
//! solver restarts with random tie-breaks, and with a new start square where
//! the puzzle leaves the start free, up to `restarts` times; then it gives up.
//! It never claims that no tour exists.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::close::{self, Budget};
use super::{
    Goal, Limit, Limits, Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Stop, Task,
};
use crate::halt::{self, Cadence, Halt};
use crate::model::graph::walks::{self, FAR};
use crate::model::{Adjacency, Adjacent, MoveGraph};
use crate::progress::{Progress, Unit};
use crate::search::event::{Change, Event, Observer};

/// How ties between equally good squares are broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub enum TieBreak {
    /// The piece's move order (the textbook rule).
    First,
    /// A seeded random choice.
    Random,
    /// Look past the candidates at the board: prefer the square farthest
    /// from where the walk should finish, then the one nearest the rim, then
    /// move order (see the module documentation). Above [`RIM_LIMIT`]
    /// squares the rim level is left out.
    #[default]
    Lookahead,
}

/// Options of the Warnsdorff solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct WarnsdorffOptions {
    /// Tie-break rule.
    pub tie_break: TieBreak,
    /// How many new walks to try after a failed one (default:
    /// [`DEFAULT_RESTARTS`]).
    pub restarts: Option<u32>,
    /// Repair stuck walks and rotate finished ones into place (default:
    /// on). Off, with no restarts, it is the textbook rule: one walk, which
    /// gets stuck where the rule gets stuck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<bool>,
}

/// Restarts when the puzzle does not say.
pub const DEFAULT_RESTARTS: u32 = 20;

/// A second-level count on ties of the first (Pohl's idea of applying the
/// rule once more). Measured and not used by default: see BENCHMARKS.md.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Second {
    /// None.
    Off,
    /// The smallest onward count among the candidate's unvisited targets.
    Min,
    /// The sum of the onward counts of the candidate's unvisited targets.
    Sum,
}

/// Everything that decides a walk's choices; [`Policy::of`] gives the one
/// of each [`TieBreak`]. Public (but hidden) so the benchmark can compare
/// variants.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Second-level count, applied right after the onward count.
    pub second: Second,
    /// The shape levels of `Lookahead`: farthest from the reference square
    /// first, then nearest the rim.
    pub shape: bool,
    /// Final ties at random (otherwise in move order).
    pub random: bool,
    /// Repair stuck walks with rotations (symmetric graphs only).
    pub repair: bool,
    /// Rotate finished walks to close them or to reach the fixed end
    /// (symmetric graphs only).
    pub rotate: bool,
}

impl Policy {
    /// The policy of a tie-break option.
    pub fn of(tie: TieBreak) -> Policy {
        Policy {
            second: Second::Off,
            shape: tie == TieBreak::Lookahead,
            random: tie == TieBreak::Random,
            repair: true,
            rotate: true,
        }
    }
}

/// How far (in moves) a repair looks for unvisited squares before scanning
/// the whole board.
const REPAIR_RADIUS: u16 = 16;

/// From this many squares the two breadth-first searches of `Lookahead`'s
/// first walk run side by side on two threads (below, starting the thread
/// pool costs more than the searches).
const PARALLEL_SEARCHES: usize = 1 << 16;

/// Above this many squares `Lookahead` drops its rim level: its breadth-first
/// search costs a quarter of a 4000x4000 solve, and the far level alone
/// found every large board measured (BENCHMARKS.md).
pub const RIM_LIMIT: usize = 2048 * 2048;

impl Solver for WarnsdorffOptions {
    fn id(&self) -> SolverId {
        SolverId::of(SolverSpec::Warnsdorff(*self))
    }

    /// Runs the solver with these options and the task's seed.
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let restarts = self.restarts.unwrap_or(DEFAULT_RESTARTS);
        let repair = self.repair.unwrap_or(true);
        let policy = Policy {
            repair,
            rotate: repair,
            ..Policy::of(self.tie_break)
        };
        let mut report = solve_with(task.graph, &task.goal, policy, restarts, task.seed, run);
        report.solver = self.id();
        report
    }
}

impl WarnsdorffOptions {
    /// The first walk of [`Solver::solve`] alone, with its repairs but no
    /// restart: a walk that fails gives up at once. When it finds a tour,
    /// the report is the one `solve` gives (its first walk, from the same
    /// square with the same choices); for trying the rule before anything
    /// slower.
    pub fn first_walk<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let once = WarnsdorffOptions {
            restarts: Some(0),
            ..*self
        };
        let mut report = once.solve(task, run);
        report.solver = self.id();
        report
    }
}

/// Runs the solver with an explicit policy (for measuring variants the
/// puzzle file cannot ask for). The report's solver is Warnsdorff's with
/// default options.
#[doc(hidden)]
pub fn solve_with<O: Observer>(
    g: &MoveGraph,
    goal: &Goal,
    policy: Policy,
    restarts: u32,
    seed: u64,
    run: Run<'_, O>,
) -> Report {
    let started = Instant::now();
    let id = WarnsdorffOptions::default().id();
    let rev = if g.is_symmetric() {
        None
    } else {
        let rev = halt::between_passes(&run.limits, g.len()).map(|()| g.reversed());
        match rev {
            Ok(r) => Some(r),
            Err(stop) => return Report::stopped(stop, started.elapsed(), id),
        }
    };
    let mut degrees = match g.adjacency() {
        Adjacency::Leaper(a) => Degrees::of(&a),
        Adjacency::Lists(a) => Degrees::of(&a),
    };
    degrees.form = RimForm::of(g);
    let max = degrees.max();
    let width = if max > <u32 as Word>::MAX_COUNT {
        Width::Wide
    } else if g.is_symmetric()
        && max <= <u8 as Word>::MAX_COUNT
        && (!policy.shape || g.len() > RIM_LIMIT)
    {
        Width::Compact
    } else {
        Width::Normal
    };
    let cfg = Config {
        goal: *goal,
        policy,
        restarts,
        seed,
        symmetric: g.is_symmetric(),
        degrees,
    };
    run.progress.start(Unit::Nodes, None);
    let mut report = match g.adjacency() {
        Adjacency::Leaper(a) => with_back(a, rev.as_ref(), width, &cfg, run),
        Adjacency::Lists(a) => with_back(a, rev.as_ref(), width, &cfg, run),
    };
    report.solver = id;
    report.stats.elapsed = started.elapsed();
    report
}

/// Which [`Word`] the squares' states use.
#[derive(Clone, Copy)]
enum Width {
    Compact,
    Normal,
    Wide,
}

fn with_back<A: Adjacent + Copy, O: Observer>(
    fwd: A,
    rev: Option<&MoveGraph>,
    width: Width,
    cfg: &Config,
    run: Run<'_, O>,
) -> Report {
    match rev.map(MoveGraph::adjacency) {
        None => with_width(fwd, fwd, width, cfg, run),
        Some(Adjacency::Leaper(b)) => with_width(fwd, b, width, cfg, run),
        Some(Adjacency::Lists(b)) => with_width(fwd, b, width, cfg, run),
    }
}

fn with_width<A: Adjacent, B: Adjacent, O: Observer>(
    fwd: A,
    back: B,
    width: Width,
    cfg: &Config,
    run: Run<'_, O>,
) -> Report {
    match width {
        Width::Compact => Walker::<A, B, u8, O>::new(fwd, back, cfg, run).run(),
        Width::Normal => Walker::<A, B, u32, O>::new(fwd, back, cfg, run).run(),
        Width::Wide => Walker::<A, B, u64, O>::new(fwd, back, cfg, run).run(),
    }
}

struct Config {
    goal: Goal,
    policy: Policy,
    restarts: u32,
    seed: u64,
    symmetric: bool,
    degrees: Degrees,
}

/// How many squares have each number of moves (`count[d]`, the last entry
/// for the most any square has): one pass over the board, from which come
/// the choice of word, the rim and the start squares; and, for a board and
/// piece plain enough, the rim's depths in closed form.
#[derive(Clone)]
struct Degrees {
    count: Vec<usize>,
    form: Option<RimForm>,
}

/// The rim depths of a full plain board whose piece is one leaper — its
/// moves the eight (or four) images of one leap (p, q), p ≤ q — in closed
/// form, where every square with all its moves is at least q files and
/// ranks from every edge (the board is at least 2q + 1 wide and high). A
/// square e files or ranks from its nearest edge is on the rim when e < q
/// (a move leaves the board), else ⌈(e − q + 1) / q⌉ moves from it: no move
/// brings an edge more than q nearer, and moving q straight at the nearest
/// edge (p to and fro along it) does. The breadth-first search from the
/// rim gives the same depths at a cost like the walk's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RimForm {
    width: u32,
    height: u32,
    q: u32,
}

impl RimForm {
    /// The form of `g`'s rim, if `g` is such a graph.
    fn of(g: &MoveGraph) -> Option<RimForm> {
        let (width, moves) = g.plain_leaper()?;
        let &(dx, dy) = moves.first()?;
        let (p, q) = (
            dx.unsigned_abs().min(dy.unsigned_abs()),
            dx.unsigned_abs().max(dy.unsigned_abs()),
        );
        let images = if p == 0 || p == q { 4 } else { 8 };
        let one_leap = moves.len() == images
            && moves.iter().all(|&(a, b)| {
                let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
                (a.min(b), a.max(b)) == (p, q)
            });
        let height = u32::try_from(g.len() / width.max(1) as usize).ok()?;
        let whole = u64::from(width) * u64::from(height) == g.len() as u64;
        (q > 0 && one_leap && whole && width.min(height) > 2 * q).then_some(RimForm {
            width,
            height,
            q,
        })
    }

    /// The depth of square `s` (numbered along the ranks).
    fn depth(&self, s: u32) -> u16 {
        let (x, y) = (s % self.width, s / self.width);
        let e = x.min(y).min(self.width - 1 - x).min(self.height - 1 - y);
        let d = if e < self.q {
            0
        } else {
            (e - self.q) / self.q + 1
        };
        d.min(u32::from(u16::MAX)) as u16
    }
}

impl Degrees {
    fn of<A: Adjacent>(adj: &A) -> Degrees {
        let mut count: Vec<usize> = Vec::new();
        for s in 0..adj.len() as u32 {
            let d = adj.degree(s);
            if count.len() <= d {
                count.resize(d + 1, 0);
            }
            count[d] += 1;
        }
        Degrees { count, form: None }
    }

    /// The most moves any square has.
    fn max(&self) -> usize {
        self.count.len().saturating_sub(1)
    }

    /// Whether every square has as many moves.
    fn alike(&self) -> bool {
        self.count.iter().filter(|&&c| c > 0).count() <= 1
    }
}

/// A square's whole state in one machine word, laid out so that comparing
/// words compares what the rule compares:
///
/// ```text
/// visited | onward count | far field | depth field      (u32: 1 | 7 | 12 | 12 bits)
/// ```
///
/// The visited flag puts every visited square above every unvisited one;
/// then the number of unvisited targets (Warnsdorff's count); then the
/// `Lookahead` keys: `far` is small for squares far from the reference
/// square, `depth` small near the rim. The rule's choice is the smallest
/// word among the current square's targets, found in the same pass that
/// lowers their counts. Counts stay exact for visited squares too, so
/// entering a square lowers its neighbours' counts without looking at them
/// first. Graphs with squares of 128 moves or more use `u64` words (1 | 31 |
/// 16 | 16 bits); huge symmetric boards a byte (see the `u8` layout).
/// Distances beyond a field's range saturate: they only mean "far".
trait Word: Copy + Ord {
    /// The largest count the layout holds.
    const MAX_COUNT: usize;
    /// The visited flag.
    const VISITED: Self;
    /// A word with a zero count, no far field and the given rim depth.
    fn with_depth(depth: u16) -> Self;
    /// This word's shape fields with `count` and no visited flag.
    fn with_count(self, count: usize) -> Self;
    /// This word with its far field set for distance `d` from the reference.
    fn with_dist(self, d: u16) -> Self;
    /// Lowers the count by one. A square's count is the number of its
    /// unvisited targets, so it is at least one when one of them is entered:
    /// it never wraps (the subtraction is written wrapping only to keep the
    /// hot loop free of a check that cannot fail).
    fn dec(&mut self);
    fn mark(&mut self);
    fn count(self) -> u32;
    #[inline]
    fn is_free(self) -> bool {
        self < Self::VISITED
    }
    /// The rule's key of this unvisited word, seen from the current
    /// square's word `here`: the smallest key is the choice.
    fn key(self, here: Self) -> u64;
}

/// The largest value of a 12-bit and a 16-bit shape field.
const FIELD_12: u32 = 0xfff;
const FIELD_16: u32 = 0xffff;

impl Word for u32 {
    const MAX_COUNT: usize = 127;
    const VISITED: u32 = 1 << 31;
    #[inline]
    fn with_depth(depth: u16) -> u32 {
        u32::from(depth).min(FIELD_12)
    }
    #[inline]
    fn with_count(self, count: usize) -> u32 {
        (self & 0x00ff_ffff) | ((count as u32) << 24)
    }
    #[inline]
    fn with_dist(self, d: u16) -> u32 {
        (self & 0xff00_0fff) | ((FIELD_12 - u32::from(d).min(FIELD_12)) << 12)
    }
    #[inline]
    fn key(self, _: u32) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn dec(&mut self) {
        *self = self.wrapping_sub(1 << 24);
    }
    #[inline]
    fn mark(&mut self) {
        *self |= Self::VISITED;
    }
    #[inline]
    fn count(self) -> u32 {
        (self >> 24) & 0x7f
    }
}

impl Word for u64 {
    const MAX_COUNT: usize = (1 << 31) - 1;
    const VISITED: u64 = 1 << 63;
    #[inline]
    fn with_depth(depth: u16) -> u64 {
        u64::from(depth)
    }
    #[inline]
    fn with_count(self, count: usize) -> u64 {
        (self & 0xffff_ffff) | ((count as u64) << 32)
    }
    #[inline]
    fn with_dist(self, d: u16) -> u64 {
        (self & 0xffff_ffff_0000_ffff) | (u64::from(FIELD_16 - u32::from(d)) << 16)
    }
    #[inline]
    fn key(self, _: u64) -> u64 {
        self
    }
    #[inline]
    fn dec(&mut self) {
        *self = self.wrapping_sub(1 << 32);
    }
    #[inline]
    fn mark(&mut self) {
        *self |= Self::VISITED;
    }
    #[inline]
    fn count(self) -> u32 {
        ((self >> 32) & 0x7fff_ffff) as u32
    }
}

/// The compact word for huge symmetric boards where `Lookahead` has no rim
/// level (above [`RIM_LIMIT`] squares) and no square has more than 31
/// moves: `visited | count | far` in 1 | 5 | 2 bits, a quarter of the
/// memory. Only the far distance modulo 4 is kept: breadth-first distances
/// of neighbouring squares differ by at most one on a symmetric graph, so a
/// target's distance relative to the current square's is known from it.
impl Word for u8 {
    const MAX_COUNT: usize = 31;
    const VISITED: u8 = 0x80;
    #[inline]
    fn with_depth(_: u16) -> u8 {
        0
    }
    #[inline]
    fn with_count(self, count: usize) -> u8 {
        (self & 0x03) | ((count as u8) << 2)
    }
    #[inline]
    fn with_dist(self, d: u16) -> u8 {
        (self & 0xfc) | (d & 3) as u8
    }
    #[inline]
    fn dec(&mut self) {
        *self = self.wrapping_sub(1 << 2);
    }
    #[inline]
    fn mark(&mut self) {
        *self |= Self::VISITED;
    }
    #[inline]
    fn count(self) -> u32 {
        u32::from((self >> 2) & 0x1f)
    }
    #[inline]
    fn key(self, here: u8) -> u64 {
        // Farther (one more) first, then as far, then nearer: the order of
        // the 12- and 16-bit far fields.
        const RANK: [u64; 4] = [1, 0, 3, 2];
        (u64::from(self.count()) << 2) | RANK[usize::from(self.wrapping_sub(here) & 3)]
    }
}

/// How one walk ended.
enum WalkEnd {
    /// Every square visited.
    Complete,
    /// Stuck with squares left; repair failed or was not possible.
    Stuck,
    /// A limit ran out, or Ctrl-C.
    Stopped(Stop),
}

struct Walker<'r, A, B, W, O> {
    fwd: A,
    back: B,
    n: usize,
    goal: Goal,
    policy: Policy,
    restarts: u32,
    symmetric: bool,
    degrees: Degrees,
    /// An open tour with neither end fixed: stuck walks may be turned round.
    free_start: bool,
    /// One word per square (see `Word`).
    state: Vec<W>,
    path: Vec<u32>,
    /// Index of each square on `path`, kept only once a rotation needs it.
    pos: Vec<u32>,
    pos_valid: bool,
    /// Scratch distances for repairs (FAR where untouched).
    dist: Vec<u16>,
    touched: Vec<u32>,
    /// Distances to the goal's target squares, for rotations (closed tour
    /// or fixed end on a symmetric graph; empty otherwise).
    goal_dist: Vec<u16>,
    /// The squares the far fields were computed from.
    reference: Vec<u32>,
    cands: Vec<u32>,
    rng: ChaCha8Rng,
    limits: Limits<'r>,
    progress: &'r Progress,
    obs: O,
    nodes: u64,
    cadence: Cadence,
    repairs: u64,
    rotations: u64,
    best: Vec<u32>,
    /// Why a repair stopped, when the limits stopped it between its passes
    /// over the board (the walk then ends with it).
    stopped: Option<Stop>,
}

impl<'r, A: Adjacent, B: Adjacent, W: Word, O: Observer> Walker<'r, A, B, W, O> {
    fn new(fwd: A, back: B, cfg: &Config, run: Run<'r, O>) -> Self {
        let limits = run.limits;
        let n = fwd.len();
        Walker {
            fwd,
            back,
            n,
            goal: cfg.goal,
            policy: cfg.policy,
            restarts: cfg.restarts,
            symmetric: cfg.symmetric,
            degrees: cfg.degrees.clone(),
            free_start: !cfg.goal.closed && cfg.goal.start.is_none() && cfg.goal.end.is_none(),
            state: Vec::new(),
            path: Vec::with_capacity(n),
            pos: Vec::new(),
            pos_valid: false,
            dist: Vec::new(),
            touched: Vec::new(),
            goal_dist: Vec::new(),
            reference: Vec::new(),
            cands: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            limits,
            progress: run.progress,
            obs: run.observer,
            nodes: 0,
            cadence: Cadence::watched(&limits, 0, O::HEAVY),
            repairs: 0,
            rotations: 0,
            best: Vec::new(),
            stopped: None,
        }
    }

    fn run(mut self) -> Report {
        let goal = self.goal;
        let n = self.n;
        if n == 0 {
            return self.report(Outcome::GaveUp {
                limit: Limit::Restarts,
                best: Vec::new(),
            });
        }
        let rotate = self.symmetric && self.policy.rotate;
        // An open tour with a fixed end and a free start is walked from the
        // end (on a symmetric graph) and read backwards.
        let backwards =
            self.symmetric && !goal.closed && goal.start.is_none() && goal.end.is_some();
        // Where the finished walk must end, if anywhere in particular.
        let want_end = if backwards || goal.closed {
            None
        } else {
            goal.end
        };
        // A closed tour may be walked from anywhere, then re-rooted.
        let fixed_start = if backwards {
            goal.end
        } else if goal.closed {
            None
        } else {
            goal.start
        };
        let mut starts: Vec<u32> = Vec::new();
        let mut outcome = None;
        let mut attempts = 0u64;
        for attempt in 0..=u64::from(self.restarts) {
            attempts = attempt + 1;
            if attempt > 0 {
                self.obs.event(Event::Restart, &[]);
            }
            // Each pass below is a sweep over every square: on large boards
            // they add up, so look at the limits between them.
            if let Err(stop) = halt::between_passes(&self.limits, n) {
                outcome = Some(Outcome::stopped(stop, std::mem::take(&mut self.best)));
                break;
            }
            let start = match fixed_start {
                Some(s) => s,
                None => {
                    if starts.is_empty() {
                        starts = start_order(&self.fwd, &self.degrees, self.restarts as usize + 1);
                    }
                    starts[attempt as usize % starts.len()]
                }
            };
            // The squares the walk should finish on.
            let target: Option<Vec<u32>> = if goal.closed {
                Some(self.back_neighbours(start))
            } else {
                want_end.map(|e| vec![e])
            };
            // Distances from the target guide rotations. The far fields
            // measure from the target, or from the start if there is none;
            // the depth fields are set once.
            let shape = self.policy.shape;
            let keep_goal = rotate && target.is_some();
            let reference: Vec<u32> = match &target {
                Some(t) => t.clone(),
                None if shape => vec![start],
                None => Vec::new(),
            };
            let first = self.state.is_empty();
            let search = !reference.is_empty()
                && (reference != self.reference || (keep_goal && self.goal_dist.is_empty()));
            let rim = first && shape && n <= RIM_LIMIT;
            let set_up = if n >= PARALLEL_SEARCHES && rim && search {
                self.shape_side_by_side(&reference, keep_goal)
            } else {
                self.shape_in_place(&reference, first, rim, search, keep_goal)
            };
            if let Err(stop) = set_up {
                outcome = Some(Outcome::stopped(stop, std::mem::take(&mut self.best)));
                break;
            }
            if let Err(stop) = halt::between_passes(&self.limits, n) {
                outcome = Some(Outcome::stopped(stop, std::mem::take(&mut self.best)));
                break;
            }
            // On a directed graph a fixed end is kept for last instead.
            let block = if rotate { None } else { want_end };
            let random = self.policy.random || attempt > 0;
            match self.walk(start, random, block) {
                WalkEnd::Stopped(stop) => {
                    self.keep_best();
                    outcome = Some(Outcome::stopped(stop, std::mem::take(&mut self.best)));
                    break;
                }
                WalkEnd::Stuck => self.keep_best(),
                WalkEnd::Complete => {
                    let ok = match &target {
                        None => true,
                        Some(t) if !rotate => t.contains(&self.path[n - 1]),
                        Some(_) => self.rotate_to_goal(),
                    };
                    if ok {
                        let mut tour = std::mem::take(&mut self.path);
                        if backwards {
                            tour.reverse();
                        }
                        if goal.closed
                            && let Some(s) = goal.start
                            && let Some(i) = tour.iter().position(|&x| x == s)
                        {
                            tour.rotate_left(i);
                        }
                        outcome = Some(Outcome::Found(tour));
                        break;
                    }
                    self.keep_best();
                }
            }
            if let Err(stop) = self.limits.check_work(self.nodes) {
                outcome = Some(Outcome::stopped(stop, std::mem::take(&mut self.best)));
                break;
            }
        }
        let outcome = outcome.unwrap_or_else(|| Outcome::GaveUp {
            limit: Limit::Restarts,
            best: std::mem::take(&mut self.best),
        });
        let mut report = self.report(outcome);
        report.stats.restarts = attempts.saturating_sub(1);
        report
    }

    /// Sets the squares' `Lookahead` fields for walks towards `reference`:
    /// the rim depths the first time (`rim`), and the far fields from
    /// `reference` when it changed (`search`), each breadth-first search
    /// writing straight into the squares' words; the distances themselves
    /// are kept only when rotations need them (`keep_goal`).
    fn shape_in_place(
        &mut self,
        reference: &[u32],
        first: bool,
        rim: bool,
        search: bool,
        keep_goal: bool,
    ) -> Result<(), Stop> {
        let (fwd, n, limits) = (&self.fwd, self.n, &self.limits);
        if first {
            self.state = vec![W::with_depth(0); n];
            if rim {
                rim_depth_into(fwd, &self.degrees, &mut self.state, limits)?;
            }
        }
        if !search {
            if !keep_goal {
                self.goal_dist = Vec::new();
            }
            return Ok(());
        }
        let shape = self.policy.shape;
        let state = &mut self.state;
        if keep_goal {
            let dist = walks::all_distances(fwd, reference.iter().copied(), limits)?;
            if shape {
                for (w, &d) in state.iter_mut().zip(&dist) {
                    *w = w.with_dist(d);
                }
            }
            self.goal_dist = dist;
        } else {
            if shape {
                // A fresh state's far fields already say "far".
                if !first {
                    for w in state.iter_mut() {
                        *w = w.with_dist(FAR);
                    }
                }
                walks::each_distance(fwd, reference.iter().copied(), limits, |s, d| {
                    let w = &mut state[s as usize];
                    *w = w.with_dist(d);
                })?;
            }
            self.goal_dist = Vec::new();
        }
        self.reference = reference.to_vec();
        Ok(())
    }

    /// [`Self::shape_in_place`] the first time on a large board: the two
    /// breadth-first searches side by side, each into a map of its own.
    fn shape_side_by_side(&mut self, reference: &[u32], keep_goal: bool) -> Result<(), Stop> {
        let (fwd, limits) = (&self.fwd, &self.limits);
        let (depth, dist) = rayon::join(
            || rim_depth(fwd, &self.degrees, limits),
            || walks::all_distances(fwd, reference.iter().copied(), limits),
        );
        let (depth, dist) = (depth?, dist?);
        self.state = depth
            .into_iter()
            .zip(&dist)
            .map(|(d, &f)| W::with_depth(d).with_dist(f))
            .collect();
        self.goal_dist = if keep_goal { dist } else { Vec::new() };
        self.reference = reference.to_vec();
        Ok(())
    }

    /// The report of this run (the caller sets the solver and the time).
    fn report(&self, outcome: Outcome) -> Report {
        self.progress.set(self.nodes);
        Report {
            outcome,
            stats: Stats {
                nodes: self.nodes,
                repairs: self.repairs,
                rotations: self.rotations,
                ..Stats::default()
            },
            solver: SolverId::default(),
            starts: None,
        }
    }

    /// Squares with a move to `s`.
    fn back_neighbours(&self, s: u32) -> Vec<u32> {
        let mut v = Vec::new();
        self.back.each(s, |u| v.push(u));
        v
    }

    fn keep_best(&mut self) {
        if self.path.len() > self.best.len() {
            self.best.clear();
            self.best.extend_from_slice(&self.path);
        }
    }

    /// Enters `t`: marks it, lowers its predecessors' counts, extends the
    /// path, and gathers the rule's best targets of `t` into `cands` (in the
    /// same pass when the graph is symmetric: predecessors and targets are
    /// then the same squares). With `first` (ties go to move order, no
    /// second-level count) that pass keeps only the first best target and
    /// returns it, leaving `cands` empty: the choice [`Self::choose`] would
    /// make, without a list.
    #[inline]
    fn enter(&mut self, t: u32, block: Option<u32>, first: bool) -> Result<Option<u32>, Stop> {
        self.state[t as usize].mark();
        if self.pos_valid {
            self.pos[t as usize] = self.path.len() as u32;
        }
        self.path.push(t);
        let mut chosen = None;
        if self.symmetric && block.is_none() && first {
            let state = &mut self.state;
            let here = state[t as usize];
            self.cands.clear();
            let mut low = u64::MAX;
            let mut best = 0;
            self.fwd.each(t, |u| {
                let w = &mut state[u as usize];
                w.dec();
                let key = if w.is_free() { w.key(here) } else { u64::MAX };
                if key < low {
                    low = key;
                    best = u;
                }
            });
            chosen = (low != u64::MAX).then_some(best);
        } else if self.symmetric && block.is_none() {
            let state = &mut self.state;
            let here = state[t as usize];
            let cands = &mut self.cands;
            cands.clear();
            let mut low = u64::MAX;
            self.fwd.each(t, |u| {
                let w = &mut state[u as usize];
                w.dec();
                if w.is_free() {
                    let key = w.key(here);
                    if key < low {
                        low = key;
                        cands.clear();
                    }
                    if key == low {
                        cands.push(u);
                    }
                }
            });
        } else {
            let state = &mut self.state;
            self.back.each(t, |u| state[u as usize].dec());
            self.gather(t, block);
        }
        self.nodes += 1;
        if O::ACTIVE {
            self.obs.event(Event::Advance, &self.path);
        }
        if self.cadence.due(self.nodes) {
            self.progress.set(self.nodes);
            self.cadence.look(&self.limits, self.nodes)?;
        }
        Ok(chosen)
    }

    /// Gathers into `cands` the unvisited targets of `v` with the smallest
    /// word (`block` only as the last square).
    #[inline]
    fn gather(&mut self, v: u32, block: Option<u32>) {
        let last_step = self.path.len() + 1 == self.n;
        let state = &self.state;
        let here = state[v as usize];
        let cands = &mut self.cands;
        cands.clear();
        let mut low = u64::MAX;
        self.fwd.each(v, |t| {
            let w = state[t as usize];
            if !w.is_free() || (block == Some(t) && !last_step) {
                return;
            }
            let key = w.key(here);
            if key < low {
                low = key;
                cands.clear();
            }
            if key == low {
                cands.push(t);
            }
        });
    }

    /// One walk from `start`.
    fn walk(&mut self, start: u32, random: bool, block: Option<u32>) -> WalkEnd {
        let fwd = &self.fwd;
        for (s, w) in self.state.iter_mut().enumerate() {
            *w = w.with_count(fwd.degree(s as u32));
        }
        self.path.clear();
        self.pos_valid = false;
        let first = !random && self.policy.second == Second::Off;
        let mut next = start;
        loop {
            let mut chosen = match self.enter(next, block, first) {
                Ok(chosen) => chosen,
                Err(stop) => return WalkEnd::Stopped(stop),
            };
            next = loop {
                if self.path.len() == self.n {
                    return WalkEnd::Complete;
                }
                if let Some(t) = chosen.take().or_else(|| self.choose(random)) {
                    break t;
                }
                if !(self.symmetric && self.policy.repair && self.repair()) {
                    if let Some(stop) = self.stopped.take() {
                        return WalkEnd::Stopped(stop);
                    }
                    return WalkEnd::Stuck;
                }
                let end = self.path[self.path.len() - 1];
                self.gather(end, block);
            };
        }
    }

    /// Breaks the ties left among `cands`; None if there are no candidates.
    #[inline]
    fn choose(&mut self, random: bool) -> Option<u32> {
        let cands = &mut self.cands;
        if cands.len() > 1 && self.policy.second != Second::Off {
            let (fwd, state) = (&self.fwd, &self.state);
            let sum = self.policy.second == Second::Sum;
            keep_min(cands, |t| {
                let mut key = if sum { 0 } else { u32::MAX };
                fwd.each(t, |u| {
                    let w = state[u as usize];
                    if w.is_free() {
                        key = if sum {
                            key + w.count()
                        } else {
                            key.min(w.count())
                        };
                    }
                });
                key
            });
        }
        match cands.len() {
            0 => None,
            1 => Some(cands[0]),
            k if random => Some(cands[self.rng.random_range(0..k)]),
            _ => Some(cands[0]),
        }
    }

    /// Builds `pos` from the path if it is stale.
    fn index_path(&mut self) {
        if !self.pos_valid {
            if self.pos.len() != self.n {
                self.pos = vec![0; self.n];
            }
            for (i, &s) in self.path.iter().enumerate() {
                self.pos[s as usize] = i as u32;
            }
            self.pos_valid = true;
        }
    }

    /// The walk is stuck with squares left: rotate its end next to an
    /// unvisited square; if that fails and the tour may start anywhere, turn
    /// the path round and try from its other end. True on success.
    fn repair(&mut self) -> bool {
        if self.repair_end() {
            return true;
        }
        if !self.free_start || self.stopped.is_some() {
            return false;
        }
        self.path.reverse();
        self.pos_valid = false;
        if O::ACTIVE {
            self.obs.event(
                Event::Rewrite {
                    from: 0,
                    how: Change::Reversal,
                },
                &self.path,
            );
        }
        self.repair_end()
    }

    /// Whether the limits say stop, between two of a repair's passes over
    /// the board (on large boards only); the stop is kept for the walk.
    fn stop_between_passes(&mut self) -> bool {
        if let Err(stop) = halt::between_passes(&self.limits, self.n) {
            self.stopped = Some(stop);
        }
        self.stopped.is_some()
    }

    /// [`Self::repair`] at the current end only. Each of its passes over
    /// the board is a fraction of a second on the largest boards: it looks
    /// at the limits between them, and gives up (with the stop kept) when
    /// they say stop.
    fn repair_end(&mut self) -> bool {
        if self.stop_between_passes() {
            return false;
        }
        self.repairs += 1;
        self.index_path();
        if self.dist.len() != self.n {
            self.dist = vec![FAR; self.n];
        }
        for &s in &self.touched {
            self.dist[s as usize] = FAR;
        }
        self.touched.clear();
        let end = self.path[self.path.len() - 1];
        // Unvisited squares near the end, or anywhere if none is near.
        let state = &self.state;
        walks::distances(
            &self.fwd,
            [end],
            |_| true,
            REPAIR_RADIUS,
            &mut self.dist,
            Some(&mut self.touched),
        );
        let mut near: Vec<u32> = self
            .touched
            .iter()
            .copied()
            .filter(|&s| state[s as usize].is_free())
            .collect();
        for &s in &self.touched {
            self.dist[s as usize] = FAR;
        }
        self.touched.clear();
        if near.is_empty() {
            near.extend((0..self.n as u32).filter(|&s| state[s as usize].is_free()));
        }
        if self.stop_between_passes() {
            return false;
        }
        // Squares with no unvisited neighbour can only be spliced in.
        let mut absorbed = false;
        for (i, &u) in near.iter().enumerate() {
            if halt::poll(&self.limits, i).is_err() && self.stop_between_passes() {
                return false;
            }
            if self.state[u as usize].count() == 0 && self.splice(u) {
                absorbed = true;
                self.index_path();
            }
        }
        if absorbed {
            self.index_path();
            let state = &self.state;
            near.retain(|&s| state[s as usize].is_free());
            if self.path.len() == self.n {
                return true;
            }
            let end = self.path[self.path.len() - 1];
            let mut open = false;
            self.fwd.each(end, |t| open |= state[t as usize].is_free());
            if open {
                return true;
            }
        }
        if self.stop_between_passes() {
            return false;
        }
        let state = &self.state;
        let local = !near.is_empty();
        if near.is_empty() {
            near.extend((0..self.n as u32).filter(|&s| state[s as usize].is_free()));
        }
        let radius = if !local {
            FAR
        } else {
            // The end is within REPAIR_RADIUS of them: local distances do.
            2 * REPAIR_RADIUS + 2
        };
        // Distances from those squares through visited ones, less one: the
        // end must reach 0, next to an unvisited square.
        walks::distances(
            &self.fwd,
            near.iter().copied(),
            |s| !state[s as usize].is_free(),
            radius,
            &mut self.dist,
            Some(&mut self.touched),
        );
        for &s in &self.touched {
            let d = &mut self.dist[s as usize];
            *d = if state[s as usize].is_free() {
                FAR
            } else {
                *d - 1
            };
        }
        if self.stop_between_passes() {
            return false;
        }
        let state = &self.state;
        const ROTATIONS: u64 = 1024;
        let mut budget = Budget {
            rotations: ROTATIONS,
            work: 8 * self.path.len() as u64 + (1 << 20),
        };
        let r = close::rotate_end(
            &self.fwd,
            &mut self.path,
            &mut self.pos,
            |s| !state[s as usize].is_free(),
            &self.dist,
            &mut budget,
            &mut self.rng,
            &mut self.obs,
        );
        // Every rotation made counts, those of an attempt that failed too.
        self.rotations += ROTATIONS - budget.rotations;
        r.is_some()
    }

    /// Splices the unvisited square `u`, all of whose neighbours are on the
    /// path, into the path without changing its ends: for two neighbours
    /// `a = P[i]` and `b = P[j]` (i < j) of `u`, either
    /// `… P[i] u P[j] P[j-1] … P[i+1] P[j+1] …` when `P[i+1]` and `P[j+1]`
    /// are a move apart, or `… P[i-1] P[j-1] … P[i] u P[j] …` when `P[i-1]`
    /// and `P[j-1]` are (always true when `a` and `b` are consecutive).
    /// `pos` must be valid; it is left stale. True if `u` went in.
    fn splice(&mut self, u: u32) -> bool {
        let last = self.path.len() - 1;
        let mut at: Vec<usize> = Vec::new();
        {
            let (state, pos) = (&self.state, &self.pos);
            self.fwd.each(u, |w| {
                if !state[w as usize].is_free() {
                    at.push(pos[w as usize] as usize);
                }
            });
        }
        at.sort_unstable();
        let linked = |x: u32, y: u32| {
            let mut hit = false;
            self.fwd.each(x, |t| hit |= t == y);
            hit
        };
        let mut plan = None;
        'pairs: for (k, &i) in at.iter().enumerate() {
            for &j in &at[k + 1..] {
                if j < last && linked(self.path[i + 1], self.path[j + 1]) {
                    plan = Some((i + 1, j, i + 1));
                    break 'pairs;
                }
                if i >= 1 && linked(self.path[i - 1], self.path[j - 1]) {
                    plan = Some((i, j - 1, j));
                    break 'pairs;
                }
            }
        }
        let Some((from, to, insert)) = plan else {
            return false;
        };
        self.path[from..=to].reverse();
        self.path.insert(insert, u);
        self.pos_valid = false;
        self.state[u as usize].mark();
        let state = &mut self.state;
        self.back.each(u, |w| state[w as usize].dec());
        self.nodes += 1;
        if O::ACTIVE {
            self.obs.event(
                Event::Rewrite {
                    from: from.min(insert),
                    how: Change::Splice,
                },
                &self.path,
            );
        }
        true
    }

    /// The walk covers every square: rotate until its end is on the target
    /// (`goal_dist` 0). A closed tour has no fixed start, so when the end
    /// gets nowhere the path is turned round and the other end tries, a few
    /// times. True on success.
    fn rotate_to_goal(&mut self) -> bool {
        if self.goal_dist.is_empty() {
            // No square can precede the start: nothing to rotate towards.
            return false;
        }
        if self.goal_dist[self.path[self.n - 1] as usize] == 0 {
            return true;
        }
        self.index_path();
        let mut turned: Option<Vec<u16>> = None;
        for round in 0..4 {
            let dist = turned.as_deref().unwrap_or(&self.goal_dist);
            let from = dist[self.path[self.n - 1] as usize];
            let allowed = 64 * u64::from(from) + 1024;
            let mut budget = Budget {
                rotations: allowed,
                work: 16 * self.n as u64 + 65536,
            };
            let r = close::rotate_end(
                &self.fwd,
                &mut self.path,
                &mut self.pos,
                |_| true,
                dist,
                &mut budget,
                &mut self.rng,
                &mut self.obs,
            );
            self.rotations += allowed - budget.rotations;
            if r.is_some() {
                return true;
            }
            if !self.goal.closed || round == 3 {
                return false;
            }
            self.path.reverse();
            self.pos_valid = false;
            if O::ACTIVE {
                self.obs.event(
                    Event::Rewrite {
                        from: 0,
                        how: Change::Reversal,
                    },
                    &self.path,
                );
            }
            self.index_path();
            let start = self.path[0];
            match walks::all_distances(&self.fwd, self.back_neighbours(start), &self.limits) {
                Ok(d) => turned = Some(d),
                Err(_) => return false,
            }
        }
        false
    }
}

/// Keeps only the candidates with the smallest `key` (stable order).
#[inline]
fn keep_min(cands: &mut Vec<u32>, mut key: impl FnMut(u32) -> u32) {
    let mut low = u32::MAX;
    let mut kept = 0;
    for i in 0..cands.len() {
        let t = cands[i];
        let k = key(t);
        if k < low {
            low = k;
            kept = 0;
        }
        if k == low {
            cands[kept] = t;
            kept += 1;
        }
    }
    cands.truncate(kept);
}

/// Moves from the rim: breadth-first distances from the squares with fewer
/// moves than the most any square has (the edge of the board, the edges of
/// holes). All 0 if every square has as many moves (a torus).
fn rim_depth<A: Adjacent, H: Halt>(
    adj: &A,
    degrees: &Degrees,
    halt: &H,
) -> Result<Vec<u16>, H::Stop> {
    let n = adj.len() as u32;
    let max = degrees.max();
    if degrees.alike() {
        return Ok(vec![0; n as usize]);
    }
    if let Some(form) = degrees.form {
        return Ok((0..n).map(|s| form.depth(s)).collect());
    }
    walks::all_distances(adj, (0..n).filter(|&s| adj.degree(s) < max), halt)
}

/// [`rim_depth`] written straight into the squares' words, as fresh words
/// with no count and no far field.
fn rim_depth_into<A: Adjacent, W: Word, H: Halt>(
    adj: &A,
    degrees: &Degrees,
    state: &mut [W],
    halt: &H,
) -> Result<(), H::Stop> {
    let n = adj.len() as u32;
    let max = degrees.max();
    if degrees.alike() {
        state.fill(W::with_depth(0));
        return Ok(());
    }
    if let Some(form) = degrees.form {
        for (s, w) in state.iter_mut().enumerate() {
            *w = W::with_depth(form.depth(s as u32));
        }
        return Ok(());
    }
    state.fill(W::with_depth(FAR));
    walks::each_distance(
        adj,
        (0..n).filter(|&s| adj.degree(s) < max),
        halt,
        |s, d| {
            state[s as usize] = W::with_depth(d);
        },
    )
}

/// Up to `count` start squares: fewest moves first, then board order.
fn start_order<A: Adjacent>(adj: &A, degrees: &Degrees, count: usize) -> Vec<u32> {
    let n = adj.len() as u32;
    // The smallest degree `d` with at least `count` squares of degree <= d.
    let mut seen = 0;
    let mut limit = degrees.count.len();
    for (d, &c) in degrees.count.iter().enumerate() {
        seen += c;
        if seen >= count {
            limit = d;
            break;
        }
    }
    let mut out: Vec<u32> = (0..n).filter(|&s| adj.degree(s) <= limit).collect();
    out.sort_by_key(|&s| adj.degree(s));
    out.truncate(count);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Piece};

    /// The rim in closed form is the breadth-first search's, square for
    /// square, for every single leaper and board it is given for; it is
    /// given for none other (two leapers, holes, a torus, a board too
    /// narrow for a square with all its moves).
    #[test]
    fn the_rim_in_closed_form_is_the_searchs() {
        let depths = |g: &MoveGraph| {
            let mut d = match g.adjacency() {
                Adjacency::Leaper(a) => Degrees::of(&a),
                Adjacency::Lists(a) => Degrees::of(&a),
            };
            let rim = |d: &Degrees| {
                let depths = match g.adjacency() {
                    Adjacency::Leaper(a) => rim_depth(&a, d, &Never),
                    Adjacency::Lists(a) => rim_depth(&a, d, &Never),
                };
                let Ok(depths) = depths;
                depths
            };
            let bfs = rim(&d);
            d.form = RimForm::of(g);
            let form = rim(&d);
            (d.form.is_some(), bfs, form)
        };
        let mut formed = 0;
        for (p, q) in [
            (0, 1),
            (1, 1),
            (1, 2),
            (0, 2),
            (2, 2),
            (1, 3),
            (2, 3),
            (1, 4),
            (3, 4),
        ] {
            for w in 1..=14 {
                for h in 1..=14 {
                    let Ok(g) =
                        MoveGraph::build(&Board::rectangle(w, h), &Piece::leaper(p, q, 1), &Never);
                    let (given, bfs, form) = depths(&g);
                    assert_eq!(given, w.min(h) > 2 * q as u32, "({p},{q}) on {w}x{h}");
                    assert_eq!(form, bfs, "({p},{q}) on {w}x{h}");
                    formed += u32::from(given);
                }
            }
        }
        assert!(formed > 500, "{formed}");
        let knight = Piece::leaper(1, 2, 1);
        let Ok(two) = MoveGraph::build(
            &Board::rectangle(10, 10),
            &knight.clone().union(&Piece::leaper(0, 1, 1)),
            &Never,
        );
        assert!(RimForm::of(&two).is_none());
        use crate::model::{Cell, Topology};
        for (topology, hole) in [
            (Topology::Plain, Some(Cell::new(4, 4))),
            (Topology::Torus, None),
            (Topology::Mobius, None),
        ] {
            let b = Board::new(10, 10, topology, |c| Some(c) != hole);
            let Ok(g) = MoveGraph::build(&b, &knight, &Never);
            assert!(RimForm::of(&g).is_none(), "{topology:?} {hole:?}");
        }
    }
}
