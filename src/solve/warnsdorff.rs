//! Warnsdorff's rule: always move to the square with the fewest onward moves.

/// How ties between equally good squares are broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub enum TieBreak {
    /// The piece's move order (the textbook rule).
    First,
    /// A seeded random choice.
    Random,
    /// A second-level count: prefer the square whose own best onward square
    /// has the fewest moves.
    #[default]
    Lookahead,
}

/// Options of the Warnsdorff solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct WarnsdorffOptions {
    /// Tie-break rule.
    pub tie_break: TieBreak,
    /// How many new walks to try after a dead end (default: chosen by size).
    pub restarts: Option<u32>,
}
