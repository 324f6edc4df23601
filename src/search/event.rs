//! Search events: how a solver lets a renderer, a recorder or a trace watch
//! it without knowing who watches.
//!
//! A solver holds a *path* (a walk of squares; the genetic solver, its best
//! walk) and reports every change to it as an [`Event`] together with the
//! whole path after the change. The events are a contract: replaying them
//! from an empty path with [`Event::apply`] gives, after every event, exactly
//! the path the solver held. Solvers take the observer as a generic
//! parameter, so with [`NoObserver`] every call compiles to nothing.

/// One change to the path a solver holds. Each comes with the whole path
/// after the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// Exactly one square was appended: the path is the previous path plus
    /// its new last square.
    Advance,
    /// Exactly the last square was removed; this is the square, and why
    /// the search stepped back from it ([`Why::Unsaid`] when the solver
    /// does not say).
    Retreat(u32, Why),
    /// The path changed in place from index `from` on — a reversal, a
    /// splice, a rotation: its first `from` squares are unchanged, the rest
    /// (and the length) may differ.
    Rewrite {
        /// The first index that may differ.
        from: usize,
        /// What kind of change it was, for people watching (captions).
        how: Change,
    },
    /// A new search begins: the path is empty (a new start square, a
    /// restart, a fallback solver).
    Restart,
    /// A generation of the genetic solver: the path is replaced by its best
    /// individual's walk, of which the first `legal` squares are a legal
    /// path (the rest were reached by illegal moves, if any).
    Generation {
        /// Generation number, from 1.
        generation: u64,
        /// The individual's fitness.
        fitness: usize,
        /// Length of the walk's legal prefix.
        legal: usize,
    },
}

/// Why a depth-first search stepped back from a square: what its rules
/// found there. The squares named are those the reason is about, for a
/// viewer to ring. A path-mode driver works the reason out only for an
/// observer that wants it ([`Observer::wants_why`]), and counting never does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Why {
    /// Not said (a solver or rule set that gives no reasons).
    #[default]
    Unsaid,
    /// Every move from the square was tried, and none led to a tour.
    Tried,
    /// The square has no move to an unvisited square: a dead end.
    NoMoves,
    /// The path covers every square but ends where no tour may end (a
    /// closed tour's last square has no move back to the first, or an open
    /// one's fixed end is elsewhere).
    WrongEnd,
    /// The path is a tour; the search steps back to look for more.
    Tour,
    /// No square still open (unvisited, or the path's end) has a move into
    /// this unvisited square: it can never be entered.
    NoEntry(u32),
    /// Only the path's end can still enter either of these two squares, so
    /// both would have to come next.
    TwoForced(u32, u32),
    /// Each of these two squares could only be the tour's last.
    TwoLast(u32, u32),
    /// This square could only be the tour's last, and no tour may end
    /// there.
    LastNotEnd(u32),
    /// No unvisited square is left on which the tour may end.
    NoEnd,
    /// The unvisited squares fall apart: this one cannot be reached from
    /// the path's end through them.
    Split(u32),
    /// Squares next to this one have only two ways in each, more than a
    /// walk through it can serve.
    Pairs(u32),
    /// Every move left leads to this square, which must be the tour's last
    /// (the only square left to end on, or one that could only be last),
    /// while other squares remain.
    OnlyLast(u32),
    /// The cache holds this position — the same end, the same unvisited
    /// squares — as one with no tour below it.
    Cached,
    /// The clues cannot all be met: this square was not reached by the
    /// step its clue (or a later clue) needs it by, or no move left may be
    /// made without breaking a clue (the square is the step's clue, or one
    /// whose clue is for another step).
    Clue(u32),
}

impl Why {
    /// The reason's name in traces (`no_entry`).
    pub fn name(self) -> &'static str {
        match self {
            Why::Unsaid => "unsaid",
            Why::Tried => "tried",
            Why::NoMoves => "no_moves",
            Why::WrongEnd => "wrong_end",
            Why::Tour => "tour",
            Why::NoEntry(_) => "no_entry",
            Why::TwoForced(..) => "two_forced",
            Why::TwoLast(..) => "two_last",
            Why::LastNotEnd(_) => "last_not_end",
            Why::NoEnd => "no_end",
            Why::Split(_) => "split",
            Why::Pairs(_) => "pairs",
            Why::OnlyLast(_) => "only_last",
            Why::Cached => "cached",
            Why::Clue(_) => "clue",
        }
    }

    /// The squares the reason names (none, one or two).
    pub fn squares(self) -> impl Iterator<Item = u32> {
        let (a, b) = match self {
            Why::NoEntry(w)
            | Why::LastNotEnd(w)
            | Why::Split(w)
            | Why::Pairs(w)
            | Why::OnlyLast(w)
            | Why::Clue(w) => (Some(w), None),
            Why::TwoForced(a, b) | Why::TwoLast(a, b) => (Some(a), Some(b)),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// True when a pruning rule or the cache cut the branch (rather than
    /// the square being a dead end, fully tried, or a tour).
    pub fn is_pruning(self) -> bool {
        !matches!(
            self,
            Why::Unsaid | Why::Tried | Why::NoMoves | Why::WrongEnd | Why::Tour
        )
    }
}

/// What kind of in-place change an [`Event::Rewrite`] was. The contract
/// of a rewrite does not depend on it; it names the step for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// The path was turned round (read from its other end).
    Reversal,
    /// A square was spliced into the path (which grew by one).
    Splice,
    /// A Pósa rotation: the part after a square next to the end was
    /// reversed, giving the path a new end.
    Rotation,
    /// A search from every start square went back to another start's
    /// search where it had paused: the path is that search's path.
    Resume,
}

impl Change {
    /// The change's name, in lower case (`rotation`).
    pub fn name(self) -> &'static str {
        match self {
            Change::Reversal => "reversal",
            Change::Splice => "splice",
            Change::Rotation => "rotation",
            Change::Resume => "resumed search",
        }
    }
}

impl Event {
    /// Applies this event to `path`, the path before it, given `after`, the
    /// path the solver reports after it; `Err` says how the report breaks
    /// the contract. For checking solvers and for replaying streams.
    pub fn apply(self, path: &mut Vec<u32>, after: &[u32]) -> Result<(), String> {
        match self {
            Event::Advance => {
                let Some((&last, rest)) = after.split_last() else {
                    return Err("advance to an empty path".into());
                };
                if rest != &path[..] {
                    return Err(format!(
                        "advance: the path was {} squares and is now {} (not one more)",
                        path.len(),
                        after.len()
                    ));
                }
                path.push(last);
            }
            Event::Retreat(square, _) => {
                if path.last() != Some(&square) || after != &path[..path.len() - 1] {
                    return Err(format!(
                        "retreat from {square}: not the last square removed"
                    ));
                }
                path.pop();
            }
            Event::Rewrite { from, .. } => {
                if from > path.len() || from > after.len() || after[..from] != path[..from] {
                    return Err(format!("rewrite from {from}: the prefix changed"));
                }
                path.truncate(from);
                path.extend_from_slice(&after[from..]);
            }
            Event::Restart => {
                if !after.is_empty() {
                    return Err("restart with a non-empty path".into());
                }
                path.clear();
            }
            Event::Generation { legal, .. } => {
                if legal > after.len() {
                    return Err("generation: legal prefix longer than the walk".into());
                }
                path.clear();
                path.extend_from_slice(after);
            }
        }
        Ok(())
    }
}

/// Advances and retreats an observer may be told of as a whole rather than
/// one by one ([`Observer::skip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skip {
    /// How many of the coming advances and retreats may go untold.
    pub events: u64,
    /// An advance that makes the path longer than this is told all the same.
    pub above: usize,
}

impl Skip {
    /// Every event told, one by one.
    pub const NONE: Skip = Skip {
        events: 0,
        above: 0,
    };

    /// Any advance or retreat may go untold.
    pub const ALL: Skip = Skip {
        events: u64::MAX,
        above: usize::MAX,
    };

    /// What both skips allow.
    #[inline(always)]
    pub fn and(self, other: Skip) -> Skip {
        Skip {
            events: self.events.min(other.events),
            above: self.above.min(other.above),
        }
    }
}

/// Advances and retreats that went untold, summed up
/// ([`Observer::skipped`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// How many there were.
    pub events: u64,
    /// How many of them were advances (the rest were retreats).
    pub advances: u64,
    /// The shortest the path was, from before the first of them to after
    /// the last: its first `low` squares stayed in place all through.
    pub low: usize,
}

/// Receives a solver's search events.
pub trait Observer {
    /// True if this observer wants events at all; solvers may skip work
    /// (like keeping a path they would not otherwise need) when it is false.
    const ACTIVE: bool = true;

    /// True if being told an event costs this observer real work (a trace
    /// writes the whole path at each): a search it watches looks at its
    /// halt more often, so that a stop is prompt
    /// ([`Cadence::watched`](crate::halt::Cadence::watched)). Observers
    /// that spend a few operations an event, or skip most of them
    /// ([`Observer::skip`]), say false.
    const HEAVY: bool = Self::ACTIVE;

    /// True if [`Observer::skip`] may let events go untold: a search asks
    /// only such observers, and tells the others every event without
    /// counting anything off.
    const SKIPS: bool = false;

    /// The path changed by `event`; `path` is the whole path after it.
    fn event(&mut self, event: Event, path: &[u32]);

    /// True if the next retreat should carry its reason ([`Why`]): a
    /// search works it out only then (a recorder wants it only for the
    /// events it keeps one by one).
    #[inline(always)]
    fn wants_why(&self) -> bool {
        Self::ACTIVE
    }

    /// How many of the coming advances and retreats this observer can do
    /// without, told afterwards only how many there were
    /// ([`Observer::skipped`]): the depth-first driver
    /// ([`Driver`](super::driver::Driver)) asks after each event it tells,
    /// and counts them off between, so that an observer that samples a
    /// search of billions of steps is not called at every one. Every other
    /// event (and every event of a solver that does not ask) is told.
    #[inline(always)]
    fn skip(&self) -> Skip {
        Skip::NONE
    }

    /// The advances and retreats that went untold, as [`Observer::skip`]
    /// allowed: sent before the next event told, and before the search
    /// hands the observer back (so the events outside a search, like a
    /// restart, find it up to date).
    #[inline(always)]
    fn skipped(&mut self, skipped: Skipped) {
        let _ = skipped;
    }

    /// A tour, the whole of it: a path-mode search asked for each tour
    /// ([`Driver::each_tour`](super::driver::Driver::each_tour)) shows
    /// every one it finds, once, as its last square is entered.
    fn tour(&mut self, tour: &[u32]) {
        let _ = tour;
    }

    /// The genetic solver's account of the generation it just reported as
    /// an [`Event::Generation`]: the population's mean fitness, and for
    /// each square of the best walk whether the move into it was made by a
    /// repaired gene (`repaired[0]`, the start, is false). Sent only to
    /// observers that are [`Observer::ACTIVE`].
    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        let _ = (mean, repaired);
    }

    /// When generation 1 already holds a tour: one walk of that random
    /// population (its fitness, its squares, and which moves were made by
    /// repaired genes, as in [`Observer::generation`]), sent before the
    /// generation's event for the first [`POPULATION_SHOWN`] individuals
    /// in population order.
    fn individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        let _ = (fitness, walk, repaired);
    }
}

/// How many walks of generation 1's population the genetic solver shows
/// ([`Observer::individual`]) when that generation holds a tour.
pub const POPULATION_SHOWN: usize = 8;

/// The observer that watches nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event, _: &[u32]) {}
    #[inline(always)]
    fn skip(&self) -> Skip {
        Skip::ALL
    }
}

/// Counts events by kind (for tests and for sizing a recording).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingObserver {
    /// [`Event::Advance`]s.
    pub advances: u64,
    /// [`Event::Retreat`]s.
    pub retreats: u64,
    /// [`Event::Rewrite`]s.
    pub rewrites: u64,
    /// [`Event::Restart`]s.
    pub restarts: u64,
    /// [`Event::Generation`]s.
    pub generations: u64,
}

impl Observer for CountingObserver {
    fn event(&mut self, event: Event, _: &[u32]) {
        match event {
            Event::Advance => self.advances += 1,
            Event::Retreat(..) => self.retreats += 1,
            Event::Rewrite { .. } => self.rewrites += 1,
            Event::Restart => self.restarts += 1,
            Event::Generation { .. } => self.generations += 1,
        }
    }
}

impl<O: Observer> Observer for &mut O {
    const ACTIVE: bool = O::ACTIVE;
    const HEAVY: bool = O::HEAVY;
    const SKIPS: bool = O::SKIPS;
    #[inline(always)]
    fn event(&mut self, event: Event, path: &[u32]) {
        (**self).event(event, path);
    }
    #[inline(always)]
    fn wants_why(&self) -> bool {
        (**self).wants_why()
    }
    #[inline(always)]
    fn skip(&self) -> Skip {
        (**self).skip()
    }
    #[inline(always)]
    fn skipped(&mut self, skipped: Skipped) {
        (**self).skipped(skipped);
    }
    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        (**self).generation(mean, repaired);
    }
    fn tour(&mut self, tour: &[u32]) {
        (**self).tour(tour);
    }
    fn individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        (**self).individual(fitness, walk, repaired);
    }
}

/// An optional observer: `None` watches nothing.
impl<O: Observer> Observer for Option<O> {
    const ACTIVE: bool = O::ACTIVE;
    const HEAVY: bool = O::HEAVY;
    const SKIPS: bool = O::SKIPS;
    #[inline(always)]
    fn event(&mut self, event: Event, path: &[u32]) {
        if let Some(o) = self {
            o.event(event, path);
        }
    }
    #[inline(always)]
    fn wants_why(&self) -> bool {
        self.as_ref().is_some_and(O::wants_why)
    }
    #[inline(always)]
    fn skip(&self) -> Skip {
        self.as_ref().map_or(Skip::ALL, O::skip)
    }
    #[inline(always)]
    fn skipped(&mut self, skipped: Skipped) {
        if let Some(o) = self {
            o.skipped(skipped);
        }
    }
    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        if let Some(o) = self {
            o.generation(mean, repaired);
        }
    }
    fn individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        if let Some(o) = self {
            o.individual(fitness, walk, repaired);
        }
    }
    fn tour(&mut self, tour: &[u32]) {
        if let Some(o) = self {
            o.tour(tour);
        }
    }
}

/// Two observers, each told every event.
impl<A: Observer, B: Observer> Observer for (A, B) {
    const ACTIVE: bool = A::ACTIVE || B::ACTIVE;
    const HEAVY: bool = A::HEAVY || B::HEAVY;
    // Both must skip for anything to go untold.
    const SKIPS: bool = A::SKIPS && B::SKIPS;
    #[inline(always)]
    fn event(&mut self, event: Event, path: &[u32]) {
        self.0.event(event, path);
        self.1.event(event, path);
    }
    #[inline(always)]
    fn wants_why(&self) -> bool {
        self.0.wants_why() || self.1.wants_why()
    }
    #[inline(always)]
    fn skip(&self) -> Skip {
        self.0.skip().and(self.1.skip())
    }
    #[inline(always)]
    fn skipped(&mut self, skipped: Skipped) {
        self.0.skipped(skipped);
        self.1.skipped(skipped);
    }
    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        self.0.generation(mean, repaired);
        self.1.generation(mean, repaired);
    }
    fn individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        self.0.individual(fitness, walk, repaired);
        self.1.individual(fitness, walk, repaired);
    }
    fn tour(&mut self, tour: &[u32]) {
        self.0.tour(tour);
        self.1.tour(tour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_follows_the_contract_and_names_breaches() {
        let mut p = Vec::new();
        assert!(Event::Advance.apply(&mut p, &[3]).is_ok());
        assert!(Event::Advance.apply(&mut p, &[3, 5]).is_ok());
        let splice = Event::Rewrite {
            from: 1,
            how: Change::Splice,
        };
        assert!(splice.apply(&mut p, &[3, 9, 5]).is_ok());
        assert_eq!(p, [3, 9, 5]);
        assert!(Event::Retreat(5, Why::Tried).apply(&mut p, &[3, 9]).is_ok());
        // An in-place change reported as an advance is a breach.
        assert!(Event::Advance.apply(&mut p, &[9, 3, 4]).is_err());
        assert!(splice.apply(&mut p, &[4, 3]).is_err());
        assert!(Event::Retreat(3, Why::Unsaid).apply(&mut p, &[3]).is_err());
        assert!(Event::Restart.apply(&mut p, &[]).is_ok());
        assert!(p.is_empty());
    }
}
