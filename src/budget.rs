//! Budgets: the most memory each large allocation may take, the search for
//! the largest setting that fits, and the most worker threads. Each component estimates its own bytes
//! before it allocates ([`MoveGraph::estimate_bytes`](crate::model::MoveGraph::estimate_bytes),
//! [`genetic::memory_bytes`](crate::solve::genetic::memory_bytes),
//! [`clued::estimate_bytes`](crate::solve::clued::estimate_bytes), the GIF
//! module's `memory`, the recorder's `max_bytes`); callers compare the
//! estimate with the budget here and word the refusal.

/// The most memory a puzzle's move graph may take.
pub const GRAPH: u64 = 4 << 30;

/// The most memory the genetic solver may take besides the move graph.
pub const GENETIC: u64 = 4 << 30;

/// The most memory the search over the steps of a clue puzzle may take
/// (the distance from every square to each clue, mostly).
pub const CLUES: u64 = 4 << 30;

/// The most memory the deductions of a clue puzzle may take for the
/// clause-learning search (a row of bits per square for its moves each
/// way, and per step for its candidate squares): past it, that search is
/// out of reach and the search over the steps goes on.
pub const DEDUCTIONS: u64 = 1 << 30;

/// The most memory a run's GIFs may take, the search's snapshots included.
pub const GIF: u64 = 4 << 30;

/// The most memory the states of a frontier count may take (the tables of
/// one step and the states they are built from).
pub const FRONTIER: u64 = 16 << 30;

/// The most bytes a search recorder's snapshots may hold, besides the one
/// just taken: past it, it thins early, and stops sampling if thinning does
/// not help.
pub const RECORD: u64 = 1 << 30;

/// Worker threads a count may run per core: past a few per core, threads
/// only wait for each other, and thousands take seconds to start and to
/// stop.
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads a count may run: [`THREADS_PER_CORE`] per core
/// of this machine (at least [`THREADS_PER_CORE`]).
pub fn max_threads() -> usize {
    THREADS_PER_CORE * std::thread::available_parallelism().map_or(1, |n| n.get())
}

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

/// A size for people: `1.5 GiB` (`10527.8 TiB` from a TiB on), or whole
/// MiB below a GiB, whole KiB below a MiB, bytes below a KiB.
pub fn bytes(b: u64) -> String {
    let (unit, name) = unit(b);
    if unit >= 1 << 30 {
        format!("{:.1} {name}", b as f64 / unit as f64)
    } else if unit == 1 {
        format!("{b} bytes")
    } else {
        format!("{:.0} {name}", b as f64 / unit as f64)
    }
}

/// The unit [`bytes`] writes `b` in, and its name.
fn unit(b: u64) -> (u64, &'static str) {
    match b {
        _ if b >= 1 << 40 => (1 << 40, "TiB"),
        _ if b >= 1 << 30 => (1 << 30, "GiB"),
        _ if b >= 1 << 20 => (1 << 20, "MiB"),
        _ if b >= 1 << 10 => (1 << 10, "KiB"),
        _ => (1, "bytes"),
    }
}

/// The units [`parse_bytes`] takes, by their names in lower case.
const UNITS: [(&str, u32); 5] = [("b", 0), ("kib", 10), ("mib", 20), ("gib", 30), ("tib", 40)];

/// Parses a size a person writes: a whole number of bytes (`1000000`), or
/// of `KiB`, `MiB`, `GiB` or `TiB` (`512MiB`, `16 GiB`; the unit in any
/// case). The error says what a size looks like.
///
/// ```
/// assert_eq!(engine::budget::parse_bytes("512MiB"), Ok(512 << 20));
/// assert_eq!(engine::budget::parse_bytes("1000000"), Ok(1_000_000));
/// assert!(engine::budget::parse_bytes("2GB").is_err());
/// ```
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    const SHAPE: &str =
        "a size is a whole number of bytes, or of KiB, MiB, GiB or TiB (like 512MiB or 16GiB)";
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let unit = unit.trim_start().to_ascii_lowercase();
    let shift = match UNITS.iter().find(|(name, _)| *name == unit) {
        Some(&(_, shift)) => shift,
        None if unit.is_empty() => 0,
        None => return Err(SHAPE.to_string()),
    };
    if number.is_empty() {
        return Err(SHAPE.to_string());
    }
    // Only digits: a parse error is a number past u64.
    let too_large = || format!("a size is at most {} bytes (16 EiB)", u64::MAX);
    let n: u64 = number.parse().map_err(|_| too_large())?;
    n.checked_mul(1 << shift).ok_or_else(too_large)
}

/// `need`, a size over `limit`, for people: as [`bytes`] writes it, with
/// more digits when that would read the same as the limit.
pub fn bytes_over(need: u64, limit: u64) -> String {
    let shown = bytes(need);
    if shown != bytes(limit) {
        return shown;
    }
    let (unit, name) = unit(need);
    if unit == 1 {
        shown
    } else {
        format!("{:.3} {name}", need as f64 / unit as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_under_a_mebibyte_are_not_zero() {
        assert_eq!(bytes(3 << 30), "3.0 GiB");
        assert_eq!(bytes((10_527 << 40) + (1 << 39)), "10527.5 TiB");
        assert_eq!(bytes(3 << 20), "3 MiB");
        assert_eq!(bytes(5_000), "5 KiB");
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(0), "0 bytes");
        assert_eq!(bytes_over(1025, 1024), "1.001 KiB");
        assert_eq!(bytes_over((16 << 30) + (1 << 22), 16 << 30), "16.004 GiB");
        assert_eq!(bytes_over(20 << 20, 2 << 20), "20 MiB");
    }

    #[test]
    fn sizes_as_people_write_them() {
        assert_eq!(parse_bytes("1000000"), Ok(1_000_000));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("16 gib"), Ok(FRONTIER));
        assert_eq!(parse_bytes("3KiB"), Ok(3 << 10));
        assert_eq!(parse_bytes("1TiB"), Ok(1 << 40));
        assert_eq!(parse_bytes("7B"), Ok(7));
        assert_eq!(parse_bytes("0"), Ok(0));
        for bad in ["", "MiB", "1.5GiB", "2GB", "-1", "12 34", "16GiBs", "x"] {
            let e = parse_bytes(bad).expect_err(bad);
            assert!(e.starts_with("a size is a whole number"), "{bad}: {e}");
        }
        for huge in ["18446744073709551616", "16777216TiB"] {
            let e = parse_bytes(huge).expect_err(huge);
            assert!(
                e.contains("at most 18446744073709551615 bytes"),
                "{huge}: {e}"
            );
        }
        assert_eq!(parse_bytes("16777215TiB"), Ok(16_777_215 << 40));
    }
}
