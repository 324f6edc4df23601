//! What a search is after ([`Aim`]), how one run of it ended ([`Pace`]), and
//! the longest path it has seen ([`Best`]).

/// What a search is after, and how it orders its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aim {
    /// Path mode: stop once this many tours are counted (`u128::MAX`: count
    /// them all).
    pub stop_at: u128,
    /// Try the moves with the fewest onward moves first (path mode).
    pub ordered: bool,
    /// A closed tour: on ties, the squares next to the start come last.
    pub closed: bool,
    /// A closed tour on a graph whose moves can all be made back, looking
    /// for one tour: a cycle is found in one direction only (the square
    /// first entered from the start is never the last).
    pub one_way_round: bool,
}

impl Aim {
    /// Counting every tour: no path, no order.
    pub const COUNT: Aim = Aim {
        stop_at: u128::MAX,
        ordered: false,
        closed: false,
        one_way_round: false,
    };

    /// Path mode in Warnsdorff's order, stopping at the `stop_at`-th tour.
    pub fn find(stop_at: u128, closed: bool) -> Aim {
        Aim {
            stop_at: stop_at.max(1),
            ordered: true,
            closed,
            one_way_round: false,
        }
    }
}

/// How a run of a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace<S> {
    /// Every branch tried, or the tours asked for found.
    Done,
    /// The node count reached the pause asked for; run again to go on.
    Paused,
    /// The halt said stop.
    Stopped(S),
}

/// Keeps the longest path seen, copying it lazily: a new record is copied
/// only when the search first steps back from it, so a deep straight
/// descent costs no copies at all.
#[derive(Clone, Debug, Default)]
pub struct Best {
    len: usize,
    path: Vec<u32>,
    dirty: bool,
}

impl Best {
    /// Nothing seen yet.
    pub fn new() -> Best {
        Best::default()
    }

    /// The path has reached `len` squares.
    #[inline]
    pub fn reached(&mut self, len: usize) {
        if len > self.len {
            self.len = len;
            self.dirty = true;
        }
    }

    /// Called before `path` loses its last square.
    #[inline]
    pub fn retreating(&mut self, path: &[u32]) {
        if self.dirty {
            self.path.clear();
            self.path.extend_from_slice(path);
            self.dirty = false;
        }
    }

    /// The longest path, given the current one (which may be it).
    pub fn longest(&self, current: &[u32]) -> Vec<u32> {
        if self.dirty && current.len() >= self.path.len() {
            current.to_vec()
        } else {
            self.path.clone()
        }
    }

    /// Its length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before any path.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
