//! Memory budgets: the most each large allocation may take, and the search
//! for the largest setting that fits. Each component estimates its own bytes
//! before it allocates ([`MoveGraph::estimate_bytes`](crate::model::MoveGraph::estimate_bytes),
//! [`genetic::memory_bytes`](crate::solve::genetic::memory_bytes), the GIF
//! module's `memory`, the recorder's `max_bytes`); callers compare the
//! estimate with the budget here and word the refusal.

/// The most memory a puzzle's move graph may take.
pub const GRAPH: u64 = 4 << 30;

/// The most memory the genetic solver may take besides the move graph.
pub const GENETIC: u64 = 4 << 30;

/// The most memory a run's GIFs may take, the search's snapshots included.
pub const GIF: u64 = 4 << 30;

/// The most memory the states of a frontier count may take (the tables of
/// one step and the states they are built from).
pub const FRONTIER: u64 = 16 << 30;

/// The most bytes a search recorder's snapshots may hold, besides the one
/// just taken: past it, it thins early, and stops sampling if thinning does
/// not help.
pub const RECORD: u64 = 1 << 30;

/// The largest `x` in `lo..=hi` with `fits(x)`, where `fits` holds up to
/// some point and not beyond (the estimate grows with `x`); None if not
/// even `lo` fits.
///
/// ```
/// assert_eq!(engine::budget::largest_that_fits(1, 100, |x| x * x <= 50), Some(7));
/// assert_eq!(engine::budget::largest_that_fits(8, 100, |x| x * x <= 50), None);
/// ```
pub fn largest_that_fits(lo: usize, hi: usize, fits: impl Fn(usize) -> bool) -> Option<usize> {
    if lo > hi || !fits(lo) {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    if fits(hi) {
        return Some(hi);
    }
    // fits(lo) and not fits(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// A size for people: `1.5 GiB`, or whole MiB below a GiB.
pub fn bytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / f64::from(1u32 << 30))
    } else {
        format!("{:.0} MiB", b as f64 / f64::from(1u32 << 20))
    }
}

/// `need`, a size over `limit`, for people: as [`bytes`] writes it, with
/// more digits when that would read the same as the limit.
pub fn bytes_over(need: u64, limit: u64) -> String {
    let shown = bytes(need);
    if shown != bytes(limit) {
        shown
    } else if need >= 1 << 30 {
        format!("{:.3} GiB", need as f64 / f64::from(1u32 << 30))
    } else {
        format!("{:.3} MiB", need as f64 / f64::from(1u32 << 20))
    }
}
