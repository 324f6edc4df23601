//! Stopping: one vocabulary for *whether and why* a piece of work must stop.
//!
//! Every stoppable pass — building a move graph, the proofs, a distance
//! search, a solver's tables, a search, drawing a GIF — takes a [`Halt`] and
//! returns `Result<T, H::Stop>`. A caller that never stops passes [`Never`],
//! whose stop type is [`Infallible`], so the result cannot be an error and no
//! pass needs a second, unstoppable twin or a fallback value:
//!
//! ```
//! use engine::halt::Never;
//! use engine::model::{Board, MoveGraph, Piece};
//! let Ok(g) = MoveGraph::build(&Board::rectangle(5, 5), &Piece::leaper(1, 2, 1), &Never);
//! assert_eq!(g.len(), 25);
//! ```
//!
//! [`Limits`] is the halt of a command: a deadline, a work budget, Ctrl-C,
//! and a cancel flag (the answer is known elsewhere). How often work looks
//! at its halt is decided in one place: [`poll`] for passes over squares,
//! [`between_passes`] between whole-board passes, and [`Cadence`] for the
//! hot loops of the searches.

use std::convert::Infallible;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which limit stopped a piece of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `--time-limit` ran out.
    Time,
    /// The node budget (`node_limit`) ran out.
    Nodes,
    /// The genetic solver's `generations` ran out.
    Generations,
    /// Warnsdorff's `restarts` ran out.
    Restarts,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Time => "time limit",
            Limit::Nodes => "node limit",
            Limit::Generations => "generation limit",
            Limit::Restarts => "restart limit",
        })
    }
}

/// Why a piece of work stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// A limit ran out.
    Limit(Limit),
    /// Ctrl-C.
    Interrupted,
    /// The answer became known elsewhere (a proof found beside the search,
    /// or a tour found beside the proofs): the caller has it.
    Cancelled,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Limit(l) => write!(f, "the {l} ran out"),
            Stop::Interrupted => f.write_str("interrupted"),
            Stop::Cancelled => f.write_str("cancelled"),
        }
    }
}

/// Answers whether and why work must stop.
///
/// `check` is for work not counted in nodes (building, proofs, drawing);
/// `check_work` also compares a count of work (nodes, generations) with the
/// budget. Both are cheap but not free: passes look every [`POLL_EVERY`]
/// squares, hot loops at the [`Cadence`].
pub trait Halt: Sync {
    /// Why work stopped: [`Stop`], or [`Infallible`] for a halt that never
    /// stops.
    type Stop: Copy + fmt::Debug + Send;

    /// Whether to stop now.
    fn check(&self) -> Result<(), Self::Stop>;

    /// Whether to stop after `work` units of work (nodes, generations):
    /// the budget, then [`Halt::check`].
    fn check_work(&self, work: u64) -> Result<(), Self::Stop> {
        let _ = work;
        self.check()
    }

    /// The work budget, if any: hot loops look exactly there.
    fn budget(&self) -> Option<u64> {
        None
    }
}

/// The halt that never stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct Never;

impl Halt for Never {
    type Stop = Infallible;
    #[inline]
    fn check(&self) -> Result<(), Infallible> {
        Ok(())
    }
}

/// The limits of a command: a deadline, a work budget, Ctrl-C and a cancel
/// flag. Checked in that order of precedence: an interrupt, a cancel, the
/// budget, the deadline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this much work (nodes or generations, as the solver counts).
    pub nodes: Option<u64>,
    /// Stop when this becomes true (set by the Ctrl-C handler).
    pub interrupt: Option<&'a AtomicBool>,
    /// Stop when this becomes true because the answer is known elsewhere.
    pub cancel: Option<&'a AtomicBool>,
}

impl<'a> Limits<'a> {
    /// No limits at all.
    pub fn none() -> Limits<'static> {
        Limits::default()
    }

    /// A limit of `secs` seconds from now.
    pub fn with_time(self, secs: Option<f64>) -> Limits<'a> {
        self.with_time_from(Instant::now(), secs)
    }

    /// A limit of `secs` seconds from `start` (when the command began, so
    /// the limit covers reading the puzzle and building its graph too).
    pub fn with_time_from(mut self, start: Instant, secs: Option<f64>) -> Limits<'a> {
        self.deadline = secs.map(|s| start + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        self
    }

    /// These limits with a budget of at most `nodes` (the smaller wins).
    pub fn with_nodes(mut self, nodes: Option<u64>) -> Limits<'a> {
        if let Some(n) = nodes {
            self.nodes = Some(self.nodes.map_or(n, |m| m.min(n)));
        }
        self
    }

    /// These limits, also stopped (as [`Stop::Cancelled`]) when `cancel`
    /// becomes true.
    pub fn with_cancel(mut self, cancel: &'a AtomicBool) -> Limits<'a> {
        self.cancel = Some(cancel);
        self
    }
}

impl Halt for Limits<'_> {
    type Stop = Stop;

    #[inline]
    fn check(&self) -> Result<(), Stop> {
        if self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Interrupted);
        }
        if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Limit(Limit::Time));
        }
        Ok(())
    }

    #[inline]
    fn check_work(&self, work: u64) -> Result<(), Stop> {
        if self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Interrupted);
        }
        if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.nodes.is_some_and(|max| work >= max) {
            return Err(Stop::Limit(Limit::Nodes));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Limit(Limit::Time));
        }
        Ok(())
    }

    fn budget(&self) -> Option<u64> {
        self.nodes
    }
}

/// A halt that also stops, as [`Stop::Cancelled`], when a flag is set: for
/// work run beside other work that may settle the answer first.
#[derive(Clone, Copy, Debug)]
pub struct OrFlag<'a, H> {
    /// The halt to obey.
    pub halt: &'a H,
    /// Stop when this becomes true.
    pub flag: &'a AtomicBool,
}

impl<H: Halt<Stop = Stop>> Halt for OrFlag<'_, H> {
    type Stop = Stop;
    #[inline]
    fn check(&self) -> Result<(), Stop> {
        if self.flag.load(Ordering::Relaxed) {
            return Err(Stop::Cancelled);
        }
        self.halt.check()
    }
    #[inline]
    fn check_work(&self, work: u64) -> Result<(), Stop> {
        if self.flag.load(Ordering::Relaxed) {
            return Err(Stop::Cancelled);
        }
        self.halt.check_work(work)
    }
    fn budget(&self) -> Option<u64> {
        self.halt.budget()
    }
}

/// Squares a pass over the board handles between two looks at its halt.
/// The first block is never interrupted, so small boards always finish
/// their setup (and get their first search step) even under a zero limit.
pub const POLL_EVERY: usize = 1 << 16;

/// For a pass over squares: looks at `halt` at square `i` when `i` is a
/// positive multiple of [`POLL_EVERY`].
#[inline(always)]
pub fn poll<H: Halt + ?Sized>(halt: &H, i: usize) -> Result<(), H::Stop> {
    if i > 0 && i.is_multiple_of(POLL_EVERY) {
        halt.check()
    } else {
        Ok(())
    }
}

/// Boards with at least this many squares look at their halt between
/// whole-board setup passes (on smaller ones a pass takes well under a
/// millisecond).
pub const LARGE_BOARD: usize = 1 << 16;

/// Between two whole-board passes over `squares` squares: looks at `halt`
/// on large boards only.
#[inline]
pub fn between_passes<H: Halt + ?Sized>(halt: &H, squares: usize) -> Result<(), H::Stop> {
    if squares >= LARGE_BOARD {
        halt.check()
    } else {
        Ok(())
    }
}

/// How often a hot loop looks at its halt: every [`Cadence::EVERY`] units of
/// work, and exactly when the work reaches the budget, so a node limit of
/// `n` stops after `n` nodes. Between looks a step costs one comparison.
#[derive(Clone, Copy, Debug)]
pub struct Cadence {
    next: u64,
    every: u64,
    budget: u64,
}

impl Cadence {
    /// Work between two looks.
    pub const EVERY: u64 = 1 << 12;

    /// A cadence for `halt`, with `work` done so far.
    pub fn new<H: Halt + ?Sized>(halt: &H, work: u64) -> Cadence {
        Cadence::with_every(halt, work, Self::EVERY)
    }

    /// Work between two looks when each unit of work costs its observer
    /// real work (a trace writes the whole path at each step, so a few
    /// thousand steps can be a hundred megabytes).
    pub const WATCHED_EVERY: u64 = 1 << 6;

    /// A cadence for `halt`, with `work` done so far, looking every
    /// [`Cadence::WATCHED_EVERY`] units when `watched` (each step costs
    /// its observer real work, as `Observer::HEAVY` says), else every
    /// [`Cadence::EVERY`].
    pub fn watched<H: Halt + ?Sized>(halt: &H, work: u64, watched: bool) -> Cadence {
        let every = if watched {
            Self::WATCHED_EVERY
        } else {
            Self::EVERY
        };
        Cadence::with_every(halt, work, every)
    }

    /// A cadence looking every `every` units of work (for loops whose look
    /// costs more, like the counter's, which reports to other threads).
    pub fn with_every<H: Halt + ?Sized>(halt: &H, work: u64, every: u64) -> Cadence {
        let budget = halt.budget().unwrap_or(u64::MAX);
        let every = every.max(1);
        Cadence {
            next: (work + every).min(budget),
            every,
            budget,
        }
    }

    /// Whether a look is due after `work` units of work.
    #[inline(always)]
    pub fn due(&self, work: u64) -> bool {
        work >= self.next
    }

    /// Looks at `halt` after `work` units of work if a look is due.
    #[inline(always)]
    pub fn tick<H: Halt + ?Sized>(&mut self, halt: &H, work: u64) -> Result<(), H::Stop> {
        if work >= self.next {
            self.look(halt, work)
        } else {
            Ok(())
        }
    }

    /// Looks at `halt` now, after `work` units of work, and schedules the
    /// next look.
    #[cold]
    #[inline(never)]
    pub fn look<H: Halt + ?Sized>(&mut self, halt: &H, work: u64) -> Result<(), H::Stop> {
        self.next = if work < self.budget {
            (work + self.every).min(self.budget)
        } else {
            work + self.every
        };
        halt.check_work(work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_cannot_fail() {
        let Ok(()) = Never.check();
        let Ok(()) = poll(&Never, POLL_EVERY);
    }

    #[test]
    fn limits_say_why() {
        let flag = AtomicBool::new(false);
        let cancel = AtomicBool::new(false);
        let l = Limits {
            interrupt: Some(&flag),
            ..Limits::none()
        }
        .with_cancel(&cancel)
        .with_nodes(Some(10));
        assert_eq!(l.check(), Ok(()));
        assert_eq!(l.check_work(9), Ok(()));
        assert_eq!(l.check_work(10), Err(Stop::Limit(Limit::Nodes)));
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(l.check(), Err(Stop::Cancelled));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(l.check(), Err(Stop::Interrupted));
        let past = Limits::none().with_time(Some(0.0));
        assert_eq!(past.check(), Err(Stop::Limit(Limit::Time)));
        assert_eq!(
            Limits::none().with_nodes(Some(5)).with_nodes(Some(9)).nodes,
            Some(5)
        );
    }

    #[test]
    fn cadence_stops_exactly_at_the_budget() {
        for budget in [1u64, 2, 7, 4095, 4096, 4097, 10_000] {
            let l = Limits::none().with_nodes(Some(budget));
            let mut c = Cadence::new(&l, 0);
            let mut work = 0u64;
            let stopped = loop {
                work += 1;
                if let Err(stop) = c.tick(&l, work) {
                    break stop;
                }
            };
            assert_eq!((work, stopped), (budget, Stop::Limit(Limit::Nodes)));
        }
        // Without a budget, a look every EVERY units.
        let l = Limits::none();
        let mut c = Cadence::new(&l, 0);
        let looks = (1..=3 * Cadence::EVERY)
            .filter(|&w| c.due(w) && c.look(&l, w).is_ok())
            .count();
        assert_eq!(looks, 3);
    }
}
