//! Which options combine: the solver with a symmetry or clues, a search
//! for two solutions with the solver, a symmetry and saving. Every command
//! asks here before it works on a puzzle.

use super::{Puzzle, Solutions};
use crate::error::{Error, ErrorKind, Span};
use crate::solve::SolverSpec;

/// Why a search for two solutions refuses to save or draw.
pub const SAVE_OR_DRAW: &str =
    "a search for two solutions prints them only: it does not save or draw";

impl Puzzle {
    /// Why the puzzle's solver cannot solve it, if it cannot: a symmetry
    /// with a solver that searches for any tour, or `Symmetric` with no
    /// symmetry. The error is at the file's `solver`, or at `flag` (the flag
    /// and its value) when the solver came from the command line.
    pub fn solver_refusal(&self, flag: Option<(&str, &str)>) -> Option<Error> {
        let (message, help) = match (self.solver, self.constraints.symmetry) {
            (SolverSpec::Symmetric(_), None) => (
                "the symmetric solver searches for tours that a symmetry maps onto themselves, and this puzzle gives no `symmetry`".to_string(),
                "add `symmetry: Rotate180` (or another symmetry), or pick another solver",
            ),
            (
                SolverSpec::Backtrack(_) | SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_),
                Some(sym),
            ) => (
                format!(
                    "the {} solver searches for any tour, not one that {} maps onto itself (the puzzle's `symmetry`)",
                    self.solver.kind(),
                    sym.describe()
                ),
                "use `solver: Symmetric()` or `Auto` (`--solver symmetric` or `auto`), which search for symmetric tours",
            ),
            _ => return None,
        };
        Some(match flag {
            Some((flag, value)) => Error::option(
                ErrorKind::Conflict,
                flag,
                value,
                Span::new(0, value.len()),
                message,
            )
            .with_help(help),
            None => Error::at(
                ErrorKind::Conflict,
                &self.file,
                &self.text,
                self.solver_span.unwrap_or(Span::new(0, 0)),
                message,
            )
            .with_help(help),
        })
    }

    /// Why this puzzle's clues cannot be searched: only the complete search
    /// honours them, and not together with a symmetry (refused by every
    /// command). The error is at the file's `clues`, or at `flag` (the flag
    /// and its value) when the solver came from the command line.
    pub fn clues_refusal(&self, flag: Option<(&str, &str)>) -> Option<Error> {
        if self.constraints.clues.is_empty() {
            return None;
        }
        let (message, help) = match (self.solver, self.constraints.symmetry) {
            (_, Some(sym)) => (
                format!(
                    "clues and a symmetry cannot be asked together: no search honours both ({} here)",
                    sym.describe()
                ),
                "drop the `symmetry` or the `clues`",
            ),
            (
                SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_),
                None,
            ) => {
                if let Some((flag, value)) = flag {
                    return Some(
                        Error::option(
                            ErrorKind::Conflict,
                            flag,
                            value,
                            Span::new(0, value.len()),
                            format!(
                                "the {} solver does not honour the puzzle's clues{}: only the complete search does",
                                self.solver.kind(),
                                self.place(self.clues_span)
                            ),
                        )
                        .with_help("use `--solver backtrack` or `auto`"),
                    );
                }
                (
                    format!(
                        "the {} solver does not honour clues: only the complete search does",
                        self.solver.kind()
                    ),
                    "use `solver: Backtrack()` or `Auto` (`--solver backtrack` or `auto`)",
                )
            }
            _ => return None,
        };
        Some(
            Error::at(
                ErrorKind::Conflict,
                &self.file,
                &self.text,
                self.clues_span.unwrap_or(Span::new(0, 0)),
                message,
            )
            .with_help(help),
        )
    }

    /// Why `run` cannot prove this puzzle's solution unique, if it cannot:
    /// only the complete search over the steps does, and it does not honour
    /// a `symmetry`. `flag` is true when `--unique` asked for it; `solver`
    /// is the flag and value that chose the solver, if one did. The error
    /// is at `--unique`, else at the solver's flag, else at `solutions`.
    pub fn unique_refusal(&self, flag: bool, solver: Option<(&str, &str)>) -> Option<Error> {
        let message = match (self.solver, self.constraints.symmetry) {
            (_, Some(sym)) => format!(
                "uniqueness is not proven for symmetric tours: the search for two solutions does not honour the symmetry ({} here)",
                sym.describe()
            ),
            (
                SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_),
                None,
            ) => {
                format!(
                    "the {} solver cannot prove a solution unique: only the complete search does",
                    self.solver.kind()
                )
            }
            _ => return None,
        };
        let help = "use `solver: Backtrack()` or `Auto`, and no `symmetry`";
        Some(if flag {
            Error::switch(ErrorKind::Conflict, "--unique", message).with_help(help)
        } else if let Some((solver, value)) = solver {
            Error::option(
                ErrorKind::Conflict,
                solver,
                value,
                Span::new(0, value.len()),
                format!(
                    "{message} (the puzzle asks for {})",
                    self.field_at("solutions: Unique", self.solutions_span)
                ),
            )
            .with_help("use `--solver backtrack` or `auto`")
        } else {
            Error::at(
                ErrorKind::Conflict,
                &self.file,
                &self.text,
                self.solutions_span.unwrap_or(Span::new(0, 0)),
                message,
            )
            .with_help(help)
        })
    }

    /// Why the file's `save: true` cannot be honoured, if it cannot: a
    /// search for two solutions (`solutions: Unique`, or `--unique` once
    /// set) prints them only. The error is at `--unique` when `flag` says
    /// that flag asked for the search, else at `save` in the file.
    pub fn save_refusal(&self, flag: bool) -> Option<Error> {
        if flag && self.save && self.solutions == Solutions::Unique {
            return Some(
                Error::switch(
                    ErrorKind::Conflict,
                    "--unique",
                    format!(
                        "{SAVE_OR_DRAW}, and the puzzle asks to save its tour ({})",
                        self.field_at("save: true", self.save_span)
                    ),
                )
                .with_help("leave out `--unique` to save a tour, or `save: true` to look for two solutions"),
            );
        }
        (self.save && self.solutions == Solutions::Unique).then(|| {
            Error::at(
                ErrorKind::Conflict,
                &self.file,
                &self.text,
                self.save_span.unwrap_or(Span::new(0, 0)),
                SAVE_OR_DRAW,
            )
            .with_help(
                "leave out `save: true` to look for two solutions, or `solutions: Unique` (and `--unique`) to save a tour",
            )
        })
    }
}
