//! JSON reports, one `serde::Serialize` type per command's report: [`run`]
//! (`run`, `run --unique`), [`check`], [`count`] and [`archive`] (`archive
//! stats`, `archive list`). Each prints as one
//! object on one line with its keys sorted ([`line()`]), except the run
//! report, whose two per-square arrays come last and are streamed (a
//! 4096x4096 tour's would take gigabytes as a JSON value). Counts are exact
//! integers, past 2^64 too. The fields are documented in the guide's
//! chapter on the command line.

pub mod archive;
pub mod check;
pub mod count;
pub mod run;

pub use archive::{ListJson, StatsJson};
pub use check::CheckJson;
pub use count::CountJson;
pub use run::{RunJson, UniqueJson};

/// `report` as one line of JSON with its keys sorted, and a newline. Err
/// only if a report held what JSON cannot (none does).
pub fn line<T: serde::Serialize>(report: &T) -> Result<String, serde_json::Error> {
    // A value's objects keep their keys sorted, whatever the order of the
    // type's fields.
    Ok(format!("{}\n", serde_json::to_value(report)?))
}

/// A duration in milliseconds, as every report's `time_ms` gives it.
fn millis(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The name a square has in a report.
fn square_name(board: &crate::model::Board, square: Option<u32>) -> Option<String> {
    square.map(|s| board.name(s))
}
