//! Symmetric tours: the solver for a tour that a rotation or reflection of
//! the board maps onto itself, searched as the half (or quarter) path that
//! determines it.
//!
//! A symmetry `g` of order `k` (2 for a half-turn or a mirror, 4 for a
//! quarter-turn) that maps a closed tour onto itself acts on the tour, as a
//! cycle, in one of two ways:
//!
//! - it **turns** it: every square is followed, `n/k` moves further on, by
//!   its image. The tour is `P, g(P), …, g^(k-1)(P)` for a path `P` through
//!   one square of each orbit whose last square has a move to `g(first)`;
//!   no square can be fixed. (Read backwards, a tour turned by `g` is turned
//!   by `g⁻¹`: on a two-way move graph one direction is searched.)
//! - it **folds** it (`k = 2` only: a fold is its own inverse): it reverses
//!   the cycle, which then meets the symmetry's axis at two places, each a
//!   square `g` fixes or a move between a square and its image. The tour is
//!   `Q` then `g(Q)` backwards, for a path `Q` through one square of each
//!   orbit from one meeting place to the other.
//!
//! An open tour can only be folded (its ends change places): it is `g(Q)`
//! backwards then `Q`, where `Q` starts at the tour's middle — a square `g`
//! fixes (an odd number of squares) or one whose move to it from its image
//! is the middle move (an even number).
//!
//! Each way is searched by `half::search` on the orbits, after quick
//! proofs that rule a way out (a fixed square, the classes of a two-class
//! move graph, no place to meet the axis).
//!
//! [`count`] runs every search to the end for `engine count`: each half
//! path is one directed tour, or two where only one direction is searched.

mod half;
mod walk;

use std::ops::ControlFlow;
use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::backtrack::{BacktrackOptions, Order, Search, Searching};
use super::{Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Stop, Task};
use crate::halt::{self, Cadence};
use crate::model::graph::walks::parts_and_colours;
use crate::model::{Board, TourSymmetry};
use crate::progress::Unit;
use crate::search::event::{Event, NoObserver, Observer};
use half::{Ends, Quotient};

/// Boards of more than this many squares (with two-way moves) are walked
/// before they are searched.
const WALK_FROM: usize = 64;

/// Walks per way the symmetry may act, before the complete search.
const WALKS: usize = 10;

/// Options of the symmetric-tour solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct SymmetricOptions {
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
}

impl Solver for SymmetricOptions {
    fn id(&self) -> SolverId {
        SolverId::of(SolverSpec::Symmetric(*self))
    }

    /// Finds a tour the task's symmetry maps onto itself, or proves there
    /// is none. A task with no symmetry is any tour: the backtracking
    /// search solves it.
    fn solve<O: Observer>(&self, task: &Task<'_>, run: Run<'_, O>) -> Report {
        let plain = BacktrackOptions {
            order: Order::Warnsdorff,
            node_limit: self.node_limit,
        };
        let Some(sym) = task.constraints.symmetry else {
            return plain.solve(task, run);
        };
        if moves_no_square(task.board, sym) {
            // It is the identity on this board (a mirror of one rank, a
            // quarter-turn of the centre alone): every closed tour is
            // symmetric, and no open one of two squares or more (its ends
            // cannot change places).
            let mut report = if task.goal.closed || task.board.len() == 1 {
                plain.solve(task, run)
            } else {
                Report {
                    outcome: Outcome::Impossible(format!(
                        "{} moves no square of this board, so it cannot make an open tour's ends change places",
                        sym.describe()
                    )),
                    stats: Stats::default(),
                    solver: self.id(),
                    starts: None,
                }
            };
            report.solver = self.id();
            return report;
        }
        let started = Instant::now();
        let limits = run.limits.with_nodes(self.node_limit);
        let mut obs = run.observer;
        let mut stats = Stats::default();
        let mut searching = Searching {
            limits: &limits,
            progress: run.progress,
            cadence: Cadence::watched(&limits, 0, O::HEAVY),
        };
        let outcome = match Orbits::new(task, sym, &limits) {
            Err(stop) => Outcome::stopped(stop, Vec::new()),
            Ok(Err(why)) => Outcome::Impossible(why),
            Ok(Ok(plan)) => {
                run.progress.start(Unit::Nodes, None);
                let outcome = plan.run(&mut searching, &mut obs, &mut stats);
                run.progress.set(stats.nodes);
                outcome
            }
        };
        stats.elapsed = started.elapsed();
        Report {
            outcome,
            stats,
            solver: self.id(),
            starts: None,
        }
    }
}

/// What [`count`] counted: the tours a symmetry maps onto themselves, in
/// `engine count`'s convention — directed tours (a tour and its reverse
/// are two), a closed one from the start, or summed over every start square
/// when the start is free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetricCount {
    /// Directed tours; a lower bound when `stopped`.
    pub tours: u128,
    /// Of `tours`, those the symmetry turns.
    pub turned: u128,
    /// Of `tours`, those the symmetry folds.
    pub folded: u128,
    /// Closed goals: twice the number of distinct cycles (a cycle counted
    /// once whatever its start and direction); a lower bound when stopped.
    pub cycles_x2: Option<u128>,
    /// Why no symmetric tour exists, when proofs settle it without a
    /// search.
    pub proof: Option<String>,
    /// Half-path searches run.
    pub searches: u64,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Nodes, backtracks and time.
    pub stats: Stats,
}

impl SymmetricCount {
    /// No tour counted yet, for a closed goal or an open one.
    pub fn none(closed: bool) -> SymmetricCount {
        SymmetricCount {
            tours: 0,
            turned: 0,
            folded: 0,
            cycles_x2: closed.then_some(0),
            proof: None,
            searches: 0,
            stopped: None,
            stats: Stats::default(),
        }
    }

    /// Distinct cycles of a closed goal (a lower bound when stopped).
    pub fn cycles(&self) -> Option<u128> {
        self.cycles_x2.map(|c| c.div_ceil(2))
    }
}

/// Counts the tours of `task` that its symmetry maps onto themselves,
/// under `limits`, the nodes shown on `progress`: every complete search of
/// the solver (no walks) run to the end without keeping its half paths,
/// each half path standing for one directed tour, or two where its search
/// leaves out the reverse (see `Orbits::exhaust`). A symmetry that moves no
/// square maps no open tour of two squares or more onto itself (a proof
/// says so). None when every tour is symmetric — the task has no symmetry,
/// or one that moves no square of a closed goal's board (or of a board of
/// one square) — and a count of every tour counts them.
pub fn count(
    task: &Task<'_>,
    limits: &crate::halt::Limits<'_>,
    progress: &crate::progress::Progress,
) -> Option<SymmetricCount> {
    let started = Instant::now();
    let (g, goal) = (task.graph, task.goal);
    let n = g.len();
    let mut c = SymmetricCount::none(goal.closed);
    let sym = match task.constraints.symmetry {
        Some(sym) if !moves_no_square(task.board, sym) => sym,
        Some(sym) if !goal.closed && n > 1 => {
            c.proof = Some(format!(
                "{} moves no square of this board, so it cannot make an open tour's ends change places",
                sym.describe()
            ));
            return Some(c);
        }
        _ => return None,
    };
    progress.start(Unit::Nodes, None);
    let mut searching = Searching {
        limits,
        progress,
        cadence: Cadence::new(limits, 0),
    };
    match Orbits::new(task, sym, limits) {
        Err(stop) => c.stopped = Some(stop),
        Ok(Err(why)) => c.proof = Some(why),
        Ok(Ok(plan)) => {
            let (tally, stopped) = plan.count(&mut searching, &mut c.stats);
            progress.set(c.stats.nodes);
            // Each directed cycle is a tour from every one of its squares.
            let per = if goal.closed && goal.start.is_none() {
                n as u128
            } else {
                1
            };
            let d = tally.turned + tally.folded;
            c.tours = d * per;
            c.turned = tally.turned * per;
            c.folded = tally.folded * per;
            if goal.closed {
                c.cycles_x2 = Some(if stopped.is_some() {
                    // Each cycle is at most two directed ones: 2·cycles ≥ d.
                    d
                } else if n <= 2 {
                    2 * d
                } else {
                    2 * d - tally.reversible
                });
            }
            c.searches = tally.searches;
            c.stopped = stopped;
        }
    }
    c.stats.elapsed = started.elapsed();
    Some(c)
}

/// The quotients the complete searches walk.
struct Ways {
    /// Per turn: its kept moves, and the squares that may end its half path.
    turns: Vec<(Quotient, Vec<bool>)>,
    /// The kept moves of the folds, when folds are searched.
    fold: Option<Quotient>,
}

/// What the complete searches of a count found, in directed tours from
/// the start (closed: directed cycles).
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Tours the symmetry turns.
    turned: u128,
    /// Tours it folds.
    folded: u128,
    /// Tours whose reverse is a tour too.
    reversible: u128,
    /// Searches run.
    searches: u64,
}

/// How the symmetry acts on the tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// Every square is followed, 1/k of the way round, by its image under
    /// the generator with this index in [`Orbits::turns`].
    Turn(usize),
    /// The tour is reversed: `Q` then its image backwards (closed), or the
    /// image backwards then `Q` (open).
    Fold,
}

/// What is known before searching, and what is left to search.
struct Orbits<'t> {
    task: &'t Task<'t>,
    sym: TourSymmetry,
    /// The image of each square under the symmetry.
    img: Vec<u32>,
    /// The orbit of each square, numbered by their least squares.
    orbit: Vec<u32>,
    /// The generators a tour may be turned by (the symmetry, and on a
    /// one-way move graph its inverse too): each as its `k` powers.
    turns: Vec<Vec<Vec<u32>>>,
    /// Whether folds are searched.
    fold: bool,
    /// The squares the symmetry fixes.
    fixed: Vec<u32>,
    /// Why a way is ruled out without search (for the final message).
    ruled_out: Vec<String>,
}

/// The searches of one solve, one after another: what they share.
struct Attempts<'a, 's, O> {
    run: &'a mut Searching<'s>,
    obs: &'a mut O,
    stats: &'a mut Stats,
    /// The longest half path seen.
    best: Vec<u32>,
    searches: u64,
}

impl<O: Observer> Attempts<'_, '_, O> {
    /// One search: the half path it found, None when it exhausted its
    /// branches, or why it stopped.
    fn one(&mut self, q: &Quotient, ends: &Ends<'_>) -> Result<Option<Vec<u32>>, Stop> {
        if self.searches > 0 {
            self.stats.restarts += 1;
            self.obs.event(Event::Restart, &[]);
        }
        self.searches += 1;
        let (found, b) = match half::search(q, ends, self.run, self.obs, self.stats, |_| true) {
            Search::Found(p) => return Ok(Some(p)),
            Search::Exhausted(b) => (Ok(None), b),
            Search::Stopped(stop, b) => (Err(stop), b),
        };
        if b.len() > self.best.len() {
            self.best = b;
        }
        found
    }
}

/// Whether `sym` leaves every square of `board` where it is.
pub fn moves_no_square(board: &Board, sym: TourSymmetry) -> bool {
    let t = sym.transform();
    let (w, h) = (board.width(), board.height());
    !(t.swap && w != h)
        && (0..board.len() as u32).all(|s| t.cell(board.cell(s), w, h) == board.cell(s))
}

/// Up to three square names, then `…`.
fn names(board: &Board, squares: &[u32]) -> String {
    let mut out: Vec<String> = squares.iter().take(3).map(|&s| board.name(s)).collect();
    if squares.len() > 3 {
        out.push("…".to_string());
    }
    out.join(", ")
}

impl<'t> Orbits<'t> {
    /// The plan for `task` under `sym`, or why no symmetric tour exists,
    /// built under `limits`.
    fn new(
        task: &'t Task<'t>,
        sym: TourSymmetry,
        limits: &crate::halt::Limits<'_>,
    ) -> Result<Result<Orbits<'t>, String>, Stop> {
        let (g, board, goal) = (task.graph, task.board, task.goal);
        let n = g.len();
        let none = |why: String| format!("{} maps none onto itself: {why}", sym.describe());
        g.prepare_lists(limits)?;
        let t = sym.transform();
        let (w, h) = (board.width(), board.height());
        let mut img = Vec::with_capacity(n);
        for s in 0..n as u32 {
            halt::poll(limits, s as usize)?;
            let to = board.cell(s);
            match board.square_at(t.cell(to, w, h)) {
                Some(i) if !(t.swap && w != h) => img.push(i),
                _ => {
                    return Ok(Err(none(format!(
                        "it maps {} off the board's squares",
                        board.name(s)
                    ))));
                }
            }
        }
        let k = sym.order();
        let mut orbit = vec![u32::MAX; n];
        let mut sizes: Vec<usize> = Vec::new();
        for s in 0..n {
            if orbit[s] != u32::MAX {
                continue;
            }
            let id = sizes.len() as u32;
            let (mut x, mut size) = (s, 0);
            loop {
                orbit[x] = id;
                size += 1;
                x = img[x] as usize;
                if x == s || size > k {
                    break;
                }
            }
            sizes.push(size);
        }
        let fixed: Vec<u32> = (0..n as u32).filter(|&s| img[s as usize] == s).collect();
        let mut ruled_out = Vec::new();
        let mut turns = Vec::new();
        let mut fold = k == 2;

        if goal.closed {
            // Turns: every orbit full, and on a two-class graph each square
            // n/k moves from its image, so in the class that distance says.
            let m = sizes.len();
            let short = (0..n).find(|&s| sizes[orbit[s] as usize] < k);
            let classes = match parts_and_colours(g, limits)? {
                (1, Some(c)) => Some(c),
                _ => None,
            };
            let parity = classes
                .as_ref()
                .and_then(|c| (0..n).find(|&s| (c[s] != c[img[s] as usize]) != (m % 2 == 1)));
            if let Some(s) = short {
                ruled_out.push(format!(
                    "it cannot turn one, since it fixes {} and a tour it turns has no fixed square",
                    board.name(s as u32)
                ));
            } else if let Some(s) = parity {
                let same = classes.as_ref().is_some_and(|c| c[s] == c[img[s] as usize]);
                ruled_out.push(format!(
                    "it cannot turn one, since every move changes the class of its square (`engine check` names the two classes), {} and its image {} are in {} classes, and a tour it turns puts them {m} moves apart, an {} number",
                    board.name(s as u32),
                    board.name(img[s]),
                    if same { "the same" } else { "different" },
                    if m % 2 == 1 { "odd" } else { "even" }
                ));
            } else {
                let powers = |by: &[u32]| {
                    let mut p = vec![(0..n as u32).collect::<Vec<u32>>()];
                    for i in 1..k {
                        let prev = &p[i - 1];
                        p.push(prev.iter().map(|&s| by[s as usize]).collect());
                    }
                    p
                };
                turns.push(powers(&img));
                if k > 2 && !g.is_symmetric() {
                    let mut inv = vec![0u32; n];
                    for (s, &i) in img.iter().enumerate() {
                        inv[i as usize] = s as u32;
                    }
                    turns.push(powers(&inv));
                }
            }
            if k > 2 {
                fold = false;
            } else if fixed.len() > 2 {
                fold = false;
                ruled_out.push(format!(
                    "it cannot fold one, since it fixes {} squares ({}) and a tour it folds meets its axis at two places only",
                    fixed.len(),
                    names(board, &fixed)
                ));
            }
        } else if k > 2 {
            return Ok(Err(none(
                "an open tour's ends change places under its symmetry, so its symmetry is its own inverse".to_string(),
            )));
        } else if fixed.len() > 1 {
            return Ok(Err(none(format!(
                "it fixes {} squares ({}), and only the middle square of an open tour can be fixed",
                fixed.len(),
                names(board, &fixed)
            ))));
        } else if n % 2 == 0 && !fixed.is_empty() {
            return Ok(Err(none(format!(
                "it fixes {}, and an open tour of an even number of squares has no middle square to be fixed",
                board.name(fixed[0])
            ))));
        }
        if fold {
            let crosses = (0..n as u32).any(|s| g.has_edge(img[s as usize], s));
            if fixed.is_empty() && !crosses {
                fold = false;
                let why = if goal.closed {
                    "it cannot fold one, since it fixes no square and no move joins a square to its image, so the tour could not meet its axis"
                } else {
                    "no move joins a square to its image, and an open tour of an even number of squares crosses its axis in its middle move"
                };
                ruled_out.push(why.to_string());
            }
        }
        if !goal.closed && fold {
            if let (Some(s), Some(e)) = (goal.start, goal.end)
                && img[s as usize] != e
            {
                return Ok(Err(none(format!(
                    "it maps the start {} onto {}, so such a tour ends there, not on {}",
                    board.name(s),
                    board.name(img[s as usize]),
                    board.name(e)
                ))));
            }
            if let Some(s) = goal.start.or(goal.end)
                && img[s as usize] == s
                && n > 1
            {
                return Ok(Err(none(format!(
                    "it fixes {}, so a tour starting there would end there too",
                    board.name(s)
                ))));
            }
        }
        if turns.is_empty() && !fold {
            return Ok(Err(none(ruled_out.join("; "))));
        }
        Ok(Ok(Orbits {
            task,
            sym,
            img,
            orbit,
            turns,
            fold,
            fixed,
            ruled_out,
        }))
    }

    /// The first square of a turn's half path: the start, or square 0.
    fn head(&self) -> u32 {
        self.task.goal.start.unwrap_or(0)
    }

    /// Whether a fold's half path may start on `s`: its image moves to it.
    fn head_ok(&self, s: u32) -> bool {
        let i = self.img[s as usize];
        i != s && self.task.graph.has_edge(i, s)
    }

    /// The squares a fold's half path from `head` may end on: the end of an
    /// open tour (or any square its image is not); in a closed tour the
    /// second fixed square, or else any square of another orbit that moves
    /// to its image.
    fn fold_tail(&self, head: u32, tail: &mut Vec<bool>) {
        let (g, goal) = (self.task.graph, self.task.goal);
        let n = g.len();
        let img = |s: u32| self.img[s as usize];
        let open_end = goal.end.or(goal.start.map(img));
        tail.clear();
        tail.extend((0..n as u32).map(|s| {
            if !goal.closed {
                match open_end {
                    Some(e) => s == e,
                    None => img(s) != s || n == 1,
                }
            } else {
                match self.fixed[..] {
                    [_, e] => s == e,
                    _ => {
                        img(s) != s
                            && g.has_edge(s, img(s))
                            && self.orbit[s as usize] != self.orbit[head as usize]
                    }
                }
            }
        }));
    }

    /// The quotients the searches walk, built under `limits`: for each
    /// turn, its kept moves and the squares that may end it; for the folds,
    /// their kept moves.
    fn ways(&self, limits: &crate::halt::Limits<'_>) -> Result<Ways, Stop> {
        let g = self.task.graph;
        let n = g.len();
        let img = |s: u32| self.img[s as usize];
        let orbits = self.orbit.iter().max().map_or(0, |&o| o as usize + 1);
        // Turns: a move is kept when all its images are moves; the last
        // square moves to the head's image, and so do its images.
        let head = self.head();
        let mut turns = Vec::new();
        for pow in &self.turns {
            let k = pow.len();
            let q = Quotient::new(
                self.orbit.clone(),
                orbits,
                false,
                limits,
                |a: u32, out: &mut Vec<u32>| {
                    for &b in g.targets(a) {
                        if (1..k).all(|j| g.has_edge(pow[j][a as usize], pow[j][b as usize])) {
                            out.push(b);
                        }
                    }
                },
            )?;
            let next = pow[1][head as usize];
            let tail: Vec<bool> = (0..n)
                .map(|w| (0..k).all(|j| g.has_edge(pow[j][w], pow[j][next as usize])))
                .collect();
            turns.push((q, tail));
        }
        // Folds: a move a → b of Q is kept when its image backwards,
        // g(b) → g(a), is a move too.
        let fold = if self.fold {
            Some(Quotient::new(
                self.orbit.clone(),
                orbits,
                true,
                limits,
                |a: u32, out: &mut Vec<u32>| {
                    for &b in g.targets(a) {
                        if g.has_edge(img(b), img(a)) {
                            out.push(b);
                        }
                    }
                },
            )?)
        } else {
            None
        };
        Ok(Ways { turns, fold })
    }

    /// Looks for a half path: on a large two-way move graph first by walks
    /// (fast, proving nothing), then by the complete depth-first search of
    /// each way in turn — the turns, then the folds from each head.
    fn run<O: Observer>(&self, run: &mut Searching, obs: &mut O, stats: &mut Stats) -> Outcome {
        let g = self.task.graph;
        let mut att = Attempts {
            run,
            obs,
            stats,
            best: Vec::new(),
            searches: 0,
        };
        let ways = match self.ways(att.run.limits) {
            Ok(w) => w,
            Err(stop) => return Outcome::stopped(stop, Vec::new()),
        };
        if g.is_symmetric()
            && g.len() > WALK_FROM
            && let Some(outcome) = self.walks(&ways, &mut att)
        {
            return outcome;
        }
        let flow = self.exhaust(&ways, |q, ends, action, _| match att.one(q, ends) {
            Ok(Some(p)) => ControlFlow::Break(Outcome::Found(self.tour(action, &p))),
            Ok(None) => ControlFlow::Continue(()),
            Err(stop) => ControlFlow::Break(Outcome::stopped(stop, std::mem::take(&mut att.best))),
        });
        if let ControlFlow::Break(outcome) = flow {
            return outcome;
        }
        let mut proved: Vec<String> = self.ruled_out.clone();
        if !ways.turns.is_empty() {
            proved.push("an exhaustive search found none that it turns".to_string());
        }
        if ways.fold.is_some() {
            proved.push("an exhaustive search found none that it folds".to_string());
        }
        Outcome::Impossible(format!(
            "{} maps none onto itself: {}",
            self.sym.describe(),
            proved.join("; ")
        ))
    }

    /// Walks for a half path, [`WALKS`] per way the symmetry may act: the
    /// outcome when one is found or a limit stops them, else None.
    fn walks<O: Observer>(&self, ways: &Ways, att: &mut Attempts<'_, '_, O>) -> Option<Outcome> {
        let goal = self.task.goal;
        let n = self.task.graph.len();
        let head = self.head();
        let fold_power = [(0..n as u32).collect::<Vec<u32>>(), self.img.clone()];
        let crossing_heads: Vec<u32> = (0..n as u32).filter(|&s| self.head_ok(s)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(self.task.seed);
        let count = ways.turns.len() + usize::from(ways.fold.is_some());
        let mut tail = Vec::new();
        for r in 0..WALKS * count {
            let way = r % count;
            let (q, pw, ends_head, ends_tail, last_only): (
                &Quotient,
                &[Vec<u32>],
                u32,
                &[bool],
                Option<u32>,
            ) = if way < ways.turns.len() {
                let (q, tail) = &ways.turns[way];
                (q, &self.turns[way], head, tail, None)
            } else {
                let Some(q) = &ways.fold else { break };
                let h = match self.fixed[..] {
                    [f, ..] => f,
                    _ if crossing_heads.is_empty() => break,
                    _ => crossing_heads[rng.random_range(0..crossing_heads.len())],
                };
                self.fold_tail(h, &mut tail);
                let last_only = match self.fixed[..] {
                    [_, e] if goal.closed => Some(self.orbit[e as usize]),
                    _ => None,
                };
                (q, &fold_power[..], h, &tail[..], last_only)
            };
            let ends = Ends {
                head: ends_head,
                tail: ends_tail,
                last_only,
            };
            let far = walk::distances(q, ends.tail);
            let m = q.orbits() as u64;
            let mut budget = walk::Budget {
                rotations: m / 2 + 256,
                work: 8 * m * m + 64,
            };
            if att.searches > 0 {
                att.stats.restarts += 1;
                att.obs.event(Event::Restart, &[]);
            }
            att.searches += 1;
            match walk::walk(
                q,
                pw,
                &ends,
                &far,
                &mut budget,
                &mut rng,
                att.run,
                att.obs,
                att.stats,
            ) {
                Ok(Some(p)) => {
                    let action = if way < ways.turns.len() {
                        Action::Turn(way)
                    } else {
                        Action::Fold
                    };
                    return Some(Outcome::Found(self.tour(action, &p)));
                }
                Ok(None) => {}
                Err(stop) => return Some(Outcome::stopped(stop, std::mem::take(&mut att.best))),
            }
        }
        None
    }

    /// The complete searches, one way after another — each turn, then a
    /// fold from each place it can meet the axis — each handed to `each`
    /// with its way and its *weight*: the number of directed tours (from
    /// the start, or per cycle) each of its half paths stands for, 2 where
    /// the search covers a tour and leaves out its reverse. Every symmetric
    /// tour is the tour of exactly one half path of one search, or the
    /// reverse of one of weight 2. `each` may end them early.
    fn exhaust<B>(
        &self,
        ways: &Ways,
        mut each: impl FnMut(&Quotient, &Ends<'_>, Action, u128) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let (g, goal) = (self.task.graph, self.task.goal);
        let n = g.len();
        let img = |s: u32| self.img[s as usize];
        for (i, (q, tail)) in ways.turns.iter().enumerate() {
            let ends = Ends {
                head: self.head(),
                tail,
                last_only: None,
            };
            // A quarter-turn of a two-way graph is searched one way round:
            // the reverse of a tour it turns is turned by its inverse.
            let weight = if self.turns[i].len() > 2 && g.is_symmetric() {
                2
            } else {
                1
            };
            each(q, &ends, Action::Turn(i), weight)?;
        }
        let Some(q) = &ways.fold else {
            return ControlFlow::Continue(());
        };
        // One head per orbit suffices when the tour may be read either way
        // (Q from the image of a head is the image of Q, which makes the
        // reversed tour).
        let open_end = goal.end.or(goal.start.map(img));
        let either_way = g.is_symmetric() && (goal.closed || open_end.is_none());
        let mut tail = Vec::new();
        match (goal.closed, &self.fixed[..]) {
            (true, [f, e]) => {
                self.fold_tail(*f, &mut tail);
                let ends = Ends {
                    head: *f,
                    tail: &tail,
                    last_only: Some(self.orbit[*e as usize]),
                };
                each(q, &ends, Action::Fold, 1)?;
            }
            (_, [f]) => {
                self.fold_tail(*f, &mut tail);
                let ends = Ends {
                    head: *f,
                    tail: &tail,
                    last_only: None,
                };
                each(q, &ends, Action::Fold, 1)?;
            }
            _ => {
                // Heads by orbit. A closed tour meeting the axis in
                // orbits A < B is found from A, so its tails lie in
                // later orbits.
                self.fold_tail(0, &mut tail);
                for s in 0..n as u32 {
                    if img(s) < s {
                        continue;
                    }
                    if goal.closed {
                        tail[s as usize] = false;
                        tail[img(s) as usize] = false;
                    }
                    for h in [s, img(s)] {
                        if !self.head_ok(h) || (h != s && either_way) {
                            continue;
                        }
                        let ends = Ends {
                            head: h,
                            tail: &tail,
                            last_only: None,
                        };
                        each(q, &ends, Action::Fold, if either_way { 2 } else { 1 })?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Counts the half paths of every complete search (no walks), each
    /// weighted as [`Orbits::exhaust`] says: the directed symmetric tours
    /// from the start (closed: the directed cycles; open: the directed
    /// paths), split by way, and how many of them can be read backwards.
    fn count(&self, run: &mut Searching, stats: &mut Stats) -> (Tally, Option<Stop>) {
        let mut tally = Tally::default();
        let ways = match self.ways(run.limits) {
            Ok(w) => w,
            Err(stop) => return (tally, Some(stop)),
        };
        let g = self.task.graph;
        let flow = self.exhaust(&ways, |q, ends, action, weight| {
            // On a two-way graph every tour's reverse is a tour; else each
            // tour is looked at (a fold's reverse is its image, a tour only
            // when the symmetry maps the moves onto moves).
            let look = self.task.goal.closed && !g.is_symmetric();
            let (mut paths, mut back) = (0u128, 0u128);
            let r = half::search(q, ends, run, &mut NoObserver, stats, |p| {
                paths += 1;
                if look && self.reversible(action, p) {
                    back += 1;
                }
                false
            });
            let tours = paths * weight;
            match action {
                Action::Turn(_) => tally.turned += tours,
                Action::Fold => tally.folded += tours,
            }
            tally.reversible += if look { back * weight } else { tours };
            tally.searches += 1;
            match r {
                Search::Stopped(stop, _) => ControlFlow::Break(stop),
                _ => ControlFlow::Continue(()),
            }
        });
        (tally, flow.break_value())
    }

    /// Whether the tour of the half path `p` found by `action` can be read
    /// backwards: every move of it made back is a move.
    fn reversible(&self, action: Action, p: &[u32]) -> bool {
        let g = self.task.graph;
        let t = self.tour(action, p);
        (0..t.len()).all(|i| g.has_edge(t[(i + 1) % t.len()], t[i]))
    }

    /// The whole tour from a half path found by `action`.
    fn tour(&self, action: Action, path: &[u32]) -> Vec<u32> {
        let img = |s: u32| self.img[s as usize];
        let goal = self.task.goal;
        let mut tour: Vec<u32> = match action {
            Action::Turn(i) => self.turns[i]
                .iter()
                .flat_map(|p| path.iter().map(|&s| p[s as usize]))
                .collect(),
            Action::Fold if goal.closed => path
                .iter()
                .copied()
                .chain(path.iter().rev().filter(|&&s| img(s) != s).map(|&s| img(s)))
                .collect(),
            Action::Fold => path
                .iter()
                .rev()
                .filter(|&&s| img(s) != s)
                .map(|&s| img(s))
                .chain(path.iter().copied())
                .collect(),
        };
        if goal.closed
            && let Some(s) = goal.start
            && let Some(i) = tour.iter().position(|&t| t == s)
        {
            tour.rotate_left(i);
        }
        tour
    }
}
