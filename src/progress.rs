//! Progress: how far a long piece of work has got, for a display to read.
//!
//! Solvers and `count` publish into a [`Progress`] — a unit (nodes,
//! generations, tasks, squares), how many are done, how many there will be
//! when that is known, and an optional best value (the genetic solver's best
//! fitness out of the squares) — through relaxed atomics, at the same
//! cadence at which they look at their halt. A display on another thread
//! reads a [`Reading`] and never needs to know who is working.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What progress is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Unit {
    /// Squares entered by a search.
    #[default]
    Nodes,
    /// Generations of the genetic solver.
    Generations,
    /// Prefix tasks of a count.
    Tasks,
    /// Squares processed by a pass over the board.
    Squares,
    /// Clues `make` has tried taking out.
    Clues,
    /// Tours `make --text` has tried.
    Tours,
}

impl Unit {
    const ALL: [Unit; 6] = [
        Unit::Nodes,
        Unit::Generations,
        Unit::Tasks,
        Unit::Squares,
        Unit::Clues,
        Unit::Tours,
    ];

    /// The unit's name for `count` of them (`1 node`, `2 nodes`).
    pub fn name(self, count: u64) -> &'static str {
        let one = count == 1;
        match self {
            Unit::Nodes if one => "node",
            Unit::Nodes => "nodes",
            Unit::Generations if one => "generation",
            Unit::Generations => "generations",
            Unit::Tasks if one => "task",
            Unit::Tasks => "tasks",
            Unit::Squares if one => "square",
            Unit::Squares => "squares",
            Unit::Clues if one => "clue tried",
            Unit::Clues => "clues tried",
            Unit::Tours if one => "tour tried",
            Unit::Tours => "tours tried",
        }
    }
}

/// A progress channel: written by the worker, read by a display.
#[derive(Debug, Default)]
pub struct Progress {
    unit: AtomicU8,
    done: AtomicU64,
    /// 0: not known.
    total: AtomicU64,
    /// 0: no best value.
    best_of: AtomicU64,
    best: AtomicU64,
    /// 0: nothing held.
    held: AtomicU64,
    /// 0: nothing on disk.
    on_disk: AtomicU64,
}

/// What a [`Progress`] said at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The unit.
    pub unit: Unit,
    /// Units done.
    pub done: u64,
    /// Units there will be, when known.
    pub total: Option<u64>,
    /// The best value so far and what it is out of (e.g. fitness 60 of 64).
    pub best: Option<(u64, u64)>,
    /// Items the work holds now (a frontier count's states), when it says.
    pub held: Option<u64>,
    /// Items the work holds on disk now (a frontier count's states spilled
    /// when they passed its memory), when there are any.
    pub on_disk: Option<u64>,
}

impl Progress {
    /// A channel counting nodes, with nothing done.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Starts counting in `unit` from zero; `total` when it is known.
    pub fn start(&self, unit: Unit, total: Option<u64>) {
        self.unit.store(unit as u8, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total.unwrap_or(0), Ordering::Relaxed);
        self.best_of.store(0, Ordering::Relaxed);
        self.held.store(0, Ordering::Relaxed);
        self.on_disk.store(0, Ordering::Relaxed);
    }

    /// `done` units are done.
    #[inline]
    pub fn set(&self, done: u64) {
        self.done.store(done, Ordering::Relaxed);
    }

    /// `more` units more are done.
    #[inline]
    pub fn add(&self, more: u64) {
        self.done.fetch_add(more, Ordering::Relaxed);
    }

    /// The best value so far is `value` out of `of`.
    #[inline]
    pub fn best(&self, value: u64, of: u64) {
        self.best.store(value, Ordering::Relaxed);
        self.best_of.store(of.max(1), Ordering::Relaxed);
    }

    /// The work holds `items` now (a frontier count's states).
    #[inline]
    pub fn held(&self, items: u64) {
        self.held.store(items, Ordering::Relaxed);
    }

    /// The work holds `items` on disk now (a frontier count's spilled
    /// states).
    #[inline]
    pub fn on_disk(&self, items: u64) {
        self.on_disk.store(items, Ordering::Relaxed);
    }

    /// What the channel says now.
    pub fn read(&self) -> Reading {
        let unit = Unit::ALL
            .get(usize::from(self.unit.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or_default();
        let total = self.total.load(Ordering::Relaxed);
        let of = self.best_of.load(Ordering::Relaxed);
        Reading {
            unit,
            done: self.done.load(Ordering::Relaxed),
            total: (total > 0).then_some(total),
            best: (of > 0).then(|| (self.best.load(Ordering::Relaxed), of)),
            held: match self.held.load(Ordering::Relaxed) {
                0 => None,
                h => Some(h),
            },
            on_disk: match self.on_disk.load(Ordering::Relaxed) {
                0 => None,
                h => Some(h),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_follow_what_was_published() {
        let p = Progress::new();
        assert_eq!(
            p.read(),
            Reading {
                unit: Unit::Nodes,
                done: 0,
                total: None,
                best: None,
                held: None,
                on_disk: None
            }
        );
        p.start(Unit::Tasks, Some(40));
        p.add(3);
        p.add(2);
        assert_eq!(
            (p.read().unit, p.read().done, p.read().total),
            (Unit::Tasks, 5, Some(40))
        );
        p.start(Unit::Generations, None);
        p.set(7);
        p.best(60, 64);
        let r = p.read();
        assert_eq!(
            (r.unit, r.done, r.best),
            (Unit::Generations, 7, Some((60, 64)))
        );
        p.held(12);
        assert_eq!(p.read().held, Some(12));
        assert_eq!(Unit::Nodes.name(1), "node");
        assert_eq!(Unit::Squares.name(3), "squares");
    }
}
