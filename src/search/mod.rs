//! The search kernel: the one depth-first search over the move graph that
//! counting, the complete backtracker and the checks of uniqueness run,
//! with prunings that only cut branches holding no tour and a cache of the
//! counts of small endings; the events every search tells its observer
//! ([`event`]); and the counters every run keeps ([`Stats`]).
//!
//! It sees only the move graph and an end set: no coordinates, pieces or
//! puzzle files. Two representations of the same search: [`general`] on
//! boards of any size, and [`bits`] on boards of at most 64 squares, where
//! every set is a 64-bit mask (a measured speed choice: several times
//! faster). [`probe`] runs either as one resumable search from one path;
//! `count` runs many of them on all cores.
//!
//! # Terms
//!
//! At a node the path so far ends on the *head* `h`; `R` is the set of
//! unvisited squares, `r = |R|`. A tour through this node continues as a
//! walk `h = u₀ → u₁ → … → u_r` that visits every square of `R` exactly once
//! and ends on a square of the *end set* `E`: every square for an open tour,
//! the fixed end when there is one, and for a closed tour from `s` the
//! squares with a move back to `s`. (With the reversal rule of `count`, a
//! task's *end class* picks `E`, and walks ending on some squares of `E`
//! count twice; nothing below depends on how `E` is chosen.) The number of
//! such walks depends only on `(h, R)` and the end class, which is what
//! makes the cache exact.
//!
//! Counters kept up to date as the head moves (for every square `w`):
//! - `inh[w] = |pred(w) ∩ (R ∪ {h})|`: the squares that could still enter `w`.
//! - `outr[w] = |succ(w) ∩ R|`: the unvisited squares `w` could go on to
//!   (directed graphs only).
//!
//! # The rules, and why each keeps the count exact
//!
//! Each rule declares a node *dead* (no walk as above exists, so its count is
//! 0) or removes a candidate move `h → t` (no such walk starts with it).
//!
//! **Entry rule.** Every `w = uᵢ ∈ R` (`i ≥ 1`) is entered from `uᵢ₋₁ ∈ R ∪
//! {h}`, so `inh[w] ≥ 1`: a square of `R` with `inh = 0` makes the node dead.
//! If no square of `R` can enter `w` (`inh[w] = 1` and `h → w`), then
//! `uᵢ₋₁ = h`, so `w = u₁`: the next move is forced, and two such squares make
//! the node dead.
//!
//! **Ends rule.** Every `uᵢ` with `i < r` moves on to `uᵢ₊₁ ∈ R`. So a square
//! of `R` with no move to `R` (`outr = 0`) can only be `u_r`, the last. In a
//! graph where every move can be made back, more holds: for `1 ≤ i < r`,
//! `uᵢ₋₁` and `uᵢ₊₁` are two different squares of `R ∪ {h}` joined to `uᵢ`, so
//! `inh[uᵢ] ≥ 2`; a square with `inh ≤ 1` can only be the last. Call these
//! squares `L` (must be last). Then: two squares in `L`, or one outside `E`,
//! make the node dead; a square of `L` may not be entered while other squares
//! remain; and since the last square lies in `E ∩ R`, the node is dead when
//! `E ∩ R` is empty, and the move to the only square left in `E ∩ R` is cut
//! while other squares remain.
//!
//! **Parts rule.** Every square of `R` lies on the walk from `h`, so every
//! square of `R` is reachable from `h` by moves through `R`. A flood fill
//! from `h` inside `R` that misses a square makes the node dead. (When every
//! move can be made back this is "the unvisited squares split into parts".)
//!
//! **Cache.** The count of a node is a function of `(h, R)` and the end
//! class alone (the goal is fixed for the whole count), so a count computed
//! once is reused whenever the same key comes back by another path. Only complete counts are
//! stored (never one cut short by a limit), under the full key, so a lookup
//! either returns the exact count or misses.
//!
//! **Parts rule, incrementally** ([`bits`], graphs whose moves can all be made
//! back): see its `still_connected`.
//!
//! Endings with `r ≤ 1` are counted directly: with `R = {w}` there is exactly
//! one walk if `h → w` and `w ∈ E` (counting 2 when `w` is a doubled end),
//! else none.

pub mod aim;
pub mod bits;
pub mod driver;
pub mod event;
pub mod general;
pub mod memo;
pub mod plain;
pub mod probe;
mod stats;
pub mod tables;

pub use aim::{Aim, Best, Pace};
pub use probe::{Probe, Tours, Want, solutions};
pub use stats::Stats;

/// Which prunings the search uses. All are exact (they only cut branches
/// that hold no tour); turning one off changes the time, never the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// A square nothing unvisited can enter ends the branch; a square only
    /// the current square can enter must be next.
    pub entry: bool,
    /// Squares that can only be the tour's last: at most one, on an allowed
    /// end, and never entered early.
    pub ends: bool,
    /// Every unvisited square must be reachable from the current one.
    pub parts: bool,
    /// Squares with two ways in (moves can all be made back, boards of at
    /// most 64 squares): one that is not the last uses both, so the
    /// current square and every other square take few of them.
    pub pairs: bool,
    /// Reuse the counts of small endings (boards of at most 64 squares).
    pub memo: bool,
    /// Count one prefix per symmetry orbit.
    pub symmetry: bool,
    /// Open tours from any square to any square, when every move can be
    /// made back: count each tour's reverse only once.
    pub reversal: bool,
}

impl Pruning {
    /// Everything on (the default).
    pub const ALL: Pruning = Pruning {
        entry: true,
        ends: true,
        parts: true,
        pairs: true,
        memo: true,
        symmetry: true,
        reversal: true,
    };
    /// Everything off: plain enumeration.
    pub const NONE: Pruning = Pruning {
        entry: false,
        ends: false,
        parts: false,
        pairs: false,
        memo: false,
        symmetry: false,
        reversal: false,
    };
}

impl Default for Pruning {
    fn default() -> Pruning {
        Pruning::ALL
    }
}
