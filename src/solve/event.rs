//! Search events: how a solver lets a renderer watch it without knowing who
//! watches. Solvers take the observer as a generic parameter, so with
//! [`NoObserver`] every call compiles to nothing.

/// Receives a solver's search events. Every method has an empty default.
pub trait Observer {
    /// True if this observer wants events at all; solvers may skip work
    /// (like building a path slice) when it is false.
    const ACTIVE: bool = true;

    /// The search stepped onto a square; `path` is the whole current path.
    #[inline]
    fn advance(&mut self, _path: &[u32]) {}

    /// The search stepped back off `square`; `path` is what remains.
    #[inline]
    fn retreat(&mut self, _square: u32, _path: &[u32]) {}

    /// The search started again from scratch (a new start or a restart).
    #[inline]
    fn restart(&mut self) {}

    /// A generation of the genetic solver: its best individual's walk, of
    /// which the first `legal` squares are a legal path.
    #[inline]
    fn generation(&mut self, _generation: u64, _fitness: usize, _walk: &[u32], _legal: usize) {}
}

/// The observer that watches nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
}

/// Counts events (for tests and for sizing a recording).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingObserver {
    /// `advance` calls.
    pub advances: u64,
    /// `retreat` calls.
    pub retreats: u64,
    /// `restart` calls.
    pub restarts: u64,
    /// `generation` calls.
    pub generations: u64,
}

impl Observer for CountingObserver {
    fn advance(&mut self, _path: &[u32]) {
        self.advances += 1;
    }
    fn retreat(&mut self, _square: u32, _path: &[u32]) {
        self.retreats += 1;
    }
    fn restart(&mut self) {
        self.restarts += 1;
    }
    fn generation(&mut self, _g: u64, _f: usize, _w: &[u32], _l: usize) {
        self.generations += 1;
    }
}
