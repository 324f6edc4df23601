//! The goal: what a tour must satisfy besides visiting every square once.

/// Open or closed, and where a tour starts and ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Goal {
    /// The last square must be one move from the first.
    pub closed: bool,
    /// Fixed first square, or any.
    pub start: Option<u32>,
    /// Fixed last square, or any (open tours only).
    pub end: Option<u32>,
}
