//! Solver identity as data: which solvers ran, with their options, and why
//! `Auto` chose them; written for people in one place, its `Display`.

use std::fmt;

use super::SolverSpec;
use super::backtrack::Order;
use super::genetic::{Preset, Repair, Selection};
use super::warnsdorff::TieBreak;

/// Why `Auto` picked what it picked. The bounds are kept with the pick, so
/// a saved run reads as it was printed whatever the bounds are now (runs
/// saved before they were kept have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AutoPick {
    /// Small enough to search exhaustively: the complete search decides.
    Small {
        /// The board's squares.
        squares: usize,
        /// After this many nodes Warnsdorff's rule got one try, then the
        /// complete search started again with no node limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_nodes: Option<u64>,
    },
    /// Too large to search exhaustively: Warnsdorff's rule, then the
    /// complete search if it gives up.
    Large {
        /// The board's squares.
        squares: usize,
        /// The complete search's nodes after Warnsdorff's rule gave up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback_nodes: Option<u64>,
    },
    /// The puzzle asks for a symmetric tour: the symmetric search, which
    /// is complete.
    Symmetric,
    /// The puzzle has clues: the complete search, which honours them.
    Clues,
    /// The puzzle asks for magic sums: the complete search, which honours
    /// them (the magic search).
    Magic,
    /// The puzzle has letters: the complete search, which honours them.
    Letters,
}

/// Who produced a report.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SolverId {
    /// The solvers that ran, in order, with the options they ran with
    /// (never `Auto`); the last produced the outcome. Empty when none ran.
    pub ran: Vec<SolverSpec>,
    /// The answer came from the proofs, with no search.
    pub proofs: bool,
    /// Why `Auto` chose, when the puzzle asked for it.
    pub auto: Option<AutoPick>,
    /// The clause-learning search of `--unique` took over from the last
    /// of `ran` and produced the outcome.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clause_learning: bool,
    /// The complete search ran as the magic search (numbering from both
    /// ends with the lines' sums in hand).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub magic: bool,
    /// The magic search's annealing, run in turns with its complete
    /// search, found the tour.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub annealed: bool,
    /// The magic search's balanced search (every line holding its share
    /// of each block of steps), run in turns with its complete search,
    /// found the tour.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub balanced: bool,
}

impl SolverId {
    /// One solver.
    pub fn of(spec: SolverSpec) -> SolverId {
        SolverId {
            ran: vec![spec],
            ..SolverId::default()
        }
    }

    /// The proofs, which need no search.
    pub fn proofs() -> SolverId {
        SolverId {
            proofs: true,
            ..SolverId::default()
        }
    }

    /// The kind of the solver that produced the outcome: a solver's kind
    /// (`backtrack`, `warnsdorff`, `genetic`), `proofs`, or `none` when work
    /// stopped before any solver ran.
    pub fn kind(&self) -> &'static str {
        match self.ran.last() {
            Some(s) => s.kind(),
            None if self.proofs => "proofs",
            None => "none",
        }
    }
}

impl fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverSpec::Auto => f.write_str("auto"),
            SolverSpec::Backtrack(o) => write!(
                f,
                "backtrack (order: {})",
                match o.order {
                    Order::Given => "given",
                    Order::Warnsdorff => "warnsdorff",
                }
            ),
            SolverSpec::Warnsdorff(o) => write!(
                f,
                "warnsdorff (tie-break: {}{})",
                match o.tie_break {
                    TieBreak::First => "first",
                    TieBreak::Random => "random",
                    TieBreak::Lookahead => "lookahead",
                },
                if o.repair == Some(false) {
                    ", repair: off"
                } else {
                    ""
                }
            ),
            SolverSpec::Genetic(o) => {
                let p = o.params();
                write!(
                    f,
                    "genetic (preset: {}, population: {}, mutation: {}, selection: {}, repair: {}, elitism: {})",
                    match p.preset {
                        Preset::Classic => "classic",
                        Preset::Tuned => "tuned",
                    },
                    p.population,
                    p.mutation,
                    match p.selection {
                        Selection::Roulette => "roulette",
                        Selection::Tournament => "tournament",
                    },
                    match p.repair {
                        Repair::Cycle => "cycle",
                        Repair::Warnsdorff => "warnsdorff",
                    },
                    p.elitism
                )
            }
            SolverSpec::Symmetric(_) => f.write_str("symmetric (half-path search)"),
        }
    }
}

impl fmt::Display for AutoPick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AutoPick::Small {
                squares,
                first_nodes,
            } => {
                write!(
                    f,
                    "auto picked backtrack (order: warnsdorff): {squares} squares is small enough to search exhaustively, so it finds a tour or proves there is none"
                )?;
                match first_nodes {
                    Some(k) => write!(
                        f,
                        "; after {k} nodes Warnsdorff's rule gets one try, then the search starts again with no node limit"
                    ),
                    None => Ok(()),
                }
            }
            AutoPick::Large {
                squares,
                fallback_nodes,
            } => {
                write!(
                    f,
                    "auto picked warnsdorff: {squares} squares is too many to search exhaustively, and the rule finds tours in linear time; if it gives up, backtracking "
                )?;
                match fallback_nodes {
                    Some(k) => write!(f, "looks for a tour for at most {k} nodes"),
                    None => f.write_str("follows"),
                }
            }
            AutoPick::Clues => f.write_str(
                "auto picked backtrack: the puzzle has clues, and the complete search honours them",
            ),
            AutoPick::Magic => f.write_str(
                "auto picked backtrack: the puzzle asks for a magic tour, and the complete search honours its sums",
            ),
            AutoPick::Letters => f.write_str(
                "auto picked backtrack: the puzzle has letters, and the complete search honours them",
            ),
            AutoPick::Symmetric => f.write_str(
                "auto picked symmetric: the puzzle asks for a symmetric tour, and the search of its half paths finds one or proves there is none",
            ),
        }
    }
}

impl fmt::Display for SolverId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ran.is_empty() {
            f.write_str(if self.proofs {
                "proofs (no search needed)"
            } else {
                "none (stopped before any solver ran)"
            })?;
        }
        for (i, s) in self.ran.iter().enumerate() {
            if i > 0 {
                f.write_str(", then ")?;
            }
            write!(f, "{s}")?;
        }
        if self.magic {
            f.write_str(" as the magic search")?;
        }
        if self.annealed {
            f.write_str(", whose annealing found the tour")?;
        }
        if self.balanced {
            f.write_str(", whose balanced search found the tour")?;
        }
        if self.clause_learning {
            f.write_str(", then clause-learning search")?;
        }
        if let Some(pick) = &self.auto {
            write!(f, " [{pick}]")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_read_as_before() {
        let bt = SolverSpec::Backtrack(Default::default());
        let wd = SolverSpec::Warnsdorff(Default::default());
        assert_eq!(
            SolverId::of(bt).to_string(),
            "backtrack (order: warnsdorff)"
        );
        let auto = SolverId {
            ran: vec![wd, bt],
            proofs: false,
            auto: Some(AutoPick::Large {
                squares: 100,
                fallback_nodes: None,
            }),
            clause_learning: false,
            magic: false,
            annealed: false,
            balanced: false,
        };
        let text = auto.to_string();
        assert!(
            text.starts_with("warnsdorff (tie-break: lookahead), then backtrack"),
            "{text}"
        );
        assert!(
            text.contains("[auto picked warnsdorff: 100 squares"),
            "{text}"
        );
        assert!(text.ends_with("backtracking follows]"), "{text}");
        // A bound kept with the pick is printed; a pick saved without one
        // reads as it was printed then.
        let bounded = SolverId {
            auto: Some(AutoPick::Large {
                squares: 100,
                fallback_nodes: Some(8),
            }),
            ..auto.clone()
        };
        let text = bounded.to_string();
        assert!(text.ends_with("for at most 8 nodes]"), "{text}");
        let handed = SolverId {
            clause_learning: true,
            ..SolverId::of(bt)
        };
        assert_eq!(
            handed.to_string(),
            "backtrack (order: warnsdorff), then clause-learning search"
        );
        let json = serde_json::to_string(&auto).unwrap_or_default();
        assert!(!json.contains("fallback_nodes"), "{json}");
        assert!(!json.contains("clause_learning"), "{json}");
        let back: SolverId = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, auto);
        let json = serde_json::to_string(&bounded).unwrap_or_default();
        let back: SolverId = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, bounded);
        assert_eq!(auto.kind(), "backtrack");
        assert_eq!(SolverId::proofs().kind(), "proofs");
        assert_eq!(SolverId::default().kind(), "none");
        let ga = SolverSpec::Genetic(Default::default()).to_string();
        assert!(
            ga.starts_with("genetic (preset: tuned, population: 50"),
            "{ga}"
        );
    }
}
