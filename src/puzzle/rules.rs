//! Which options combine: the one place that decides it, for every use of
//! a puzzle — reading it (and so `check`), solving it, counting its tours,
//! making a clue puzzle of it — and for every override before it applies.
//!
//! The rules speak of options, not of their values: a symmetry asks for
//! the symmetric search, clues and a proof of uniqueness for the complete
//! one, a search for two solutions neither saves nor draws, a closed tour
//! has no end, a board given outside the file cannot carry the file's
//! clues or symmetry, `make` starts from a puzzle with neither, and a count
//! of a puzzle with either is one search by its own method. A refusal is
//! at the option given last — outside the file before the file — and names
//! the other where the file gives it. Its words name options as the library
//! does (`solver`, `solutions: Unique`); [`Error::named`] words them as a
//! front end calls them.

use super::{Given, Origins, Puzzle, Solutions};
use crate::error::{Error, ErrorKind, Names, Span, Wording, called};
use crate::solve::SolverSpec;

/// Why a search for two solutions refuses to save or draw.
pub const SAVE_OR_DRAW: &str =
    "a search for two solutions prints them only: it does not save or draw";

/// What a caller asks of a puzzle, with the options it gives for that
/// (named and valued as the caller gives them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Use<'a> {
    /// Reading it, and saying what is known without a search: what every
    /// other use asks too.
    #[default]
    Read,
    /// Solving it; `draws` is an output of the tour or of the search that
    /// the caller writes, if one is asked: the caller's name for it and its
    /// value (a path).
    Solve {
        /// An output asked, by name and value.
        draws: Option<(&'a str, &'a str)>,
    },
    /// Counting its tours, by the frontier method when `frontier`, and
    /// only the slice `shard` (as given) of the work, if one is asked; and
    /// listing the tours counted (`list`, as given), if that is asked.
    Count {
        /// Whether the frontier method is asked.
        frontier: bool,
        /// The shard asked, as given.
        shard: Option<&'a str>,
        /// How many tours to list, as given.
        list: Option<&'a str>,
    },
    /// Making a clue puzzle of its board, piece and goal.
    Make,
}

impl Puzzle {
    /// Why the puzzle cannot be used as `use_` asks, if it cannot: the
    /// first rule of `RULES` it breaks, as an error of kind
    /// [`ErrorKind::Conflict`].
    pub fn refusal(&self, use_: Use<'_>) -> Option<Error> {
        Facts::of(self).refusal(use_)
    }
}

/// What the rules read of a puzzle: its settings and where each came from.
/// An override asks with the setting it would give before it gives it.
#[derive(Clone, Debug)]
pub(super) struct Facts<'p> {
    /// The puzzle.
    pub(super) p: &'p Puzzle,
    /// A closed tour is asked.
    pub(super) closed: bool,
    /// An end square is asked.
    pub(super) end: bool,
    /// Where each setting came from.
    pub(super) given: Origins,
}

/// A rule: the refusal of a puzzle's facts for a use, if it breaks it.
type Rule = fn(&Facts<'_>, Use<'_>) -> Option<Error>;

/// The rules, in the order they are asked: the first one broken is the
/// refusal.
pub(super) const RULES: [(&str, Rule); 11] = [
    ("a closed tour has no end", |f: &Facts<'_>, u: Use<'_>| {
        f.closed_end(u)
    }),
    (
        "a board given outside the file cannot carry its clues or symmetry",
        |f: &Facts<'_>, u: Use<'_>| f.own_board(u),
    ),
    (
        "a symmetry asks for the symmetric search, and it for a symmetry",
        |f: &Facts<'_>, u: Use<'_>| f.symmetry_solver(u),
    ),
    (
        "clues ask for the complete search, and no symmetry",
        |f: &Facts<'_>, u: Use<'_>| f.clues(u),
    ),
    (
        "letters ask for the complete search on the file's board, and no symmetry; make and a count take them as clues",
        |f: &Facts<'_>, u: Use<'_>| f.letters(u),
    ),
    (
        "magic sums ask for the magic search, which is complete",
        |f: &Facts<'_>, u: Use<'_>| f.magic(u),
    ),
    (
        "a proof of uniqueness asks for the complete search, and no symmetry",
        |f: &Facts<'_>, u: Use<'_>| f.unique(u),
    ),
    (
        "a search for two solutions does not save",
        |f: &Facts<'_>, u: Use<'_>| f.unique_save(u),
    ),
    (
        "a search for two solutions does not draw",
        |f: &Facts<'_>, u: Use<'_>| f.unique_draws(u),
    ),
    (
        "make starts from a puzzle without clues or a symmetry",
        |f: &Facts<'_>, u: Use<'_>| f.make(u),
    ),
    (
        "a count with clues or a symmetry is one search by its own method, and the frontier's is not sharded",
        |f: &Facts<'_>, u: Use<'_>| f.count(u),
    ),
];

impl<'p> Facts<'p> {
    /// The facts of `p` as it is.
    pub(super) fn of(p: &'p Puzzle) -> Facts<'p> {
        Facts {
            p,
            closed: p.goal.closed,
            end: p.goal.end.is_some(),
            given: p.given.clone(),
        }
    }

    /// The first rule these facts break for `use_`, as its refusal.
    pub(super) fn refusal(&self, use_: Use<'_>) -> Option<Error> {
        RULES.iter().find_map(|(_, rule)| rule(self, use_))
    }

    /// A refusal at `span` of the file.
    fn at(&self, span: Option<Span>, message: impl Into<String>) -> Error {
        Error::at(
            ErrorKind::Conflict,
            &self.p.file,
            &self.p.text,
            span.unwrap_or_default(),
            message,
        )
    }

    /// A refusal at the value `value` given outside the file for `option`.
    fn at_given(option: &str, value: &str, message: impl Into<String>) -> Error {
        Error::option(
            ErrorKind::Conflict,
            option,
            value,
            Span::new(0, value.len()),
            message,
        )
    }

    /// The solver's kind, as `--solver` and messages name it.
    fn solver(&self) -> &'static str {
        self.p.solver.kind()
    }

    /// A closed tour has no end: at the end when it was given outside the
    /// file, else at the tour kind when it was, else at the file's end.
    fn closed_end(&self, _: Use<'_>) -> Option<Error> {
        if !(self.closed && self.end) {
            return None;
        }
        const WHY: &str = "`end` applies to open tours only; a closed tour ends next to its start";
        Some(match (&self.given.end, &self.given.tour) {
            (Given::Outside(value), _) => {
                Facts::at_given("end", value, WHY).worded(Said::OpenAsks(WHY.to_string()))
            }
            (end, Given::Outside(_)) => {
                let message = format!(
                    "a closed tour has no end, and the puzzle gives one ({}): `end` applies to open tours only",
                    self.p.field_at("end", end.span())
                );
                Error::switch(ErrorKind::Conflict, "tour: Closed", &message)
                    .worded(Said::EndAny(message))
            }
            (end, _) => self.at(end.span(), WHY),
        })
    }

    /// A board given outside the file cannot carry the file's clues or
    /// symmetry, which belong to its own board.
    fn own_board(&self, _: Use<'_>) -> Option<Error> {
        let Given::Outside(value) = &self.given.board else {
            return None;
        };
        let c = &self.p.constraints;
        let message = match (c.clues.is_empty(), c.symmetry.is_none()) {
            (true, true) => return None,
            (false, true) => "this puzzle's clues belong to its own board",
            (true, false) => "this puzzle's symmetry belongs to its own board",
            (false, false) => "this puzzle's clues and symmetry belong to its own board",
        };
        Some(Facts::at_given("board", value, message))
    }

    /// A symmetry asks for a solver that searches for symmetric tours, and
    /// the symmetric solver for a symmetry: at the solver.
    fn symmetry_solver(&self, _: Use<'_>) -> Option<Error> {
        let error = |message: String| match &self.given.solver {
            Given::Outside(value) => Facts::at_given("solver", value, message),
            given => self.at(given.span(), message),
        };
        if self.p.constraints.magic.is_some() {
            // The magic search honours the symmetry; `magic` names the
            // solvers it runs for.
            return None;
        }
        match (self.p.solver, self.p.constraints.symmetry) {
            (SolverSpec::Symmetric(_), None) => Some(
                error("the symmetric solver searches for tours that a symmetry maps onto themselves, and this puzzle gives no `symmetry`".to_string())
                    .with_help("add `symmetry: Rotate180` (or another symmetry), or pick another solver"),
            ),
            (
                SolverSpec::Backtrack(_) | SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_),
                Some(sym),
            ) => {
                let message = format!(
                    "the {} solver searches for any tour, not one that {} maps onto itself (the puzzle's `symmetry`)",
                    self.solver(),
                    sym.describe()
                );
                Some(error(message.clone()).worded(Said::UseSymmetric(message)))
            }
            _ => None,
        }
    }

    /// Clues ask for the complete search, which does not honour a
    /// symmetry: at the solver when it was given outside the file, else at
    /// the clues.
    fn clues(&self, _: Use<'_>) -> Option<Error> {
        if self.p.constraints.clues.is_empty() {
            return None;
        }
        let clues = self.given.clues.span();
        match (self.p.solver, self.p.constraints.symmetry) {
            (_, Some(sym)) => Some(
                self.at(
                    clues,
                    format!(
                        "clues and a symmetry cannot be asked together: no search honours both ({} here)",
                        sym.describe()
                    ),
                )
                .with_help("drop the `symmetry` or the `clues`"),
            ),
            (
                SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_),
                None,
            ) => Some(match &self.given.solver {
                Given::Outside(value) => {
                    let message = format!(
                        "the {} solver does not honour the puzzle's clues{}: only the complete search does",
                        self.solver(),
                        self.p.place(clues)
                    );
                    Facts::at_given("solver", value, &message)
                        .worded(Said::UseBacktrack(message, Given::Outside(String::new())))
                }
                given => {
                    let message = format!(
                        "the {} solver does not honour clues: only the complete search does",
                        self.solver()
                    );
                    self.at(clues, &message)
                        .worded(Said::UseBacktrack(message, given.clone()))
                }
            }),
            _ => None,
        }
    }

    /// Magic sums are honoured by the magic search alone, which runs for
    /// `Auto` and the complete search (`Backtrack`): any other solver is
    /// refused at the solver when it was given outside the file, else at
    /// `magic`. Its count is not the frontier's, nor the subsets'.
    fn magic(&self, use_: Use<'_>) -> Option<Error> {
        let magic = self.p.constraints.magic?;
        let at = self.given.magic.span();
        if let Use::Count { frontier: true, .. } = use_ {
            return Some(Facts::at_given(
                "method",
                "frontier",
                format!(
                    "the frontier count does not take magic sums: a puzzle asking for a {} tour is counted by the magic search",
                    magic.describe()
                ),
            ));
        }
        if !matches!(
            self.p.solver,
            SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_)
        ) {
            return None;
        }
        Some(match &self.given.solver {
            Given::Outside(value) => {
                let message = format!(
                    "the {} solver does not honour the puzzle's `magic`{}: only the complete search does",
                    self.solver(),
                    self.p.place(at)
                );
                Facts::at_given("solver", value, &message)
                    .worded(Said::UseBacktrack(message, Given::Outside(String::new())))
            }
            given => {
                let message = format!(
                    "the {} solver does not honour magic sums: only the complete search does",
                    self.solver()
                );
                self.at(at, &message)
                    .worded(Said::UseBacktrack(message, given.clone()))
            }
        })
    }

    /// Letters ask for the complete search over the steps on the file's
    /// own board, which does not honour a symmetry; `make` starts from a
    /// puzzle without them, and a count of them is one search, as with
    /// clues. At the option given outside the file, else at the letters.
    fn letters(&self, use_: Use<'_>) -> Option<Error> {
        self.p.constraints.letters.as_ref()?;
        let letters = self.given.letters.span();
        if let Given::Outside(value) = &self.given.board {
            return Some(Facts::at_given(
                "board",
                value,
                "this puzzle's letters belong to its own board",
            ));
        }
        if let Some(sym) = self.p.constraints.symmetry {
            return Some(
                self.at(
                    letters,
                    format!(
                        "letters and a symmetry cannot be asked together: no search honours both ({} here)",
                        sym.describe()
                    ),
                )
                .with_help("drop the `symmetry` or the `letters`"),
            );
        }
        if let Some(magic) = self.p.constraints.magic {
            return Some(
                self.at(
                    letters,
                    format!(
                        "letters and magic sums cannot be asked together: no search honours both (a {} tour here)",
                        magic.describe()
                    ),
                )
                .with_help("drop the `magic` or the `letters`"),
            );
        }
        if let SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_) =
            self.p.solver
        {
            return Some(match &self.given.solver {
                Given::Outside(value) => {
                    let message = format!(
                        "the {} solver does not honour the puzzle's letters{}: only the complete search does",
                        self.solver(),
                        self.p.place(letters)
                    );
                    Facts::at_given("solver", value, &message)
                        .worded(Said::UseBacktrack(message, Given::Outside(String::new())))
                }
                given => {
                    let message = format!(
                        "the {} solver does not honour letters: only the complete search does",
                        self.solver()
                    );
                    self.at(letters, &message)
                        .worded(Said::UseBacktrack(message, given.clone()))
                }
            });
        }
        match use_ {
            Use::Make => Some(self.at(letters, "").worded(Said::MakeLetters)),
            Use::Count {
                shard: Some(shard), ..
            } => Some(Facts::at_given(
                "shard",
                shard,
                "a count with letters is one search and cannot be split into shards",
            )),
            Use::Count { frontier: true, .. } => Some(Facts::at_given(
                "method",
                "frontier",
                "the frontier count does not take letters: a puzzle with letters is counted by the clue search",
            )),
            _ => None,
        }
    }

    /// A proof that a solution is unique asks for the complete search over
    /// the steps, which does not honour a symmetry: at `solutions: Unique`
    /// when it was asked outside the file, else at the solver when it was,
    /// else at the file's `solutions`.
    fn unique(&self, _: Use<'_>) -> Option<Error> {
        if self.p.solutions != Solutions::Unique {
            return None;
        }
        let message = match (self.p.solver, self.p.constraints.symmetry) {
            (_, Some(sym)) => format!(
                "uniqueness is not proven for symmetric tours: the search for two solutions does not honour the symmetry ({} here)",
                sym.describe()
            ),
            (
                SolverSpec::Warnsdorff(_) | SolverSpec::Genetic(_) | SolverSpec::Symmetric(_),
                None,
            ) => format!(
                "the {} solver cannot prove a solution unique: only the complete search does",
                self.solver()
            ),
            _ => return None,
        };
        let help = "use `solver: Backtrack()` or `Auto`, and no `symmetry`";
        Some(match (&self.given.solutions, &self.given.solver) {
            (Given::Outside(_), _) => {
                Error::switch(ErrorKind::Conflict, "solutions: Unique", message).with_help(help)
            }
            (solutions, Given::Outside(value)) => {
                let message = format!(
                    "{message} (the puzzle asks for {})",
                    self.p.field_at("solutions: Unique", solutions.span())
                );
                Facts::at_given("solver", value, &message)
                    .worded(Said::UseBacktrack(message, Given::Outside(String::new())))
            }
            (solutions, _) => self.at(solutions.span(), message).with_help(help),
        })
    }

    /// A search for two solutions prints them only: it does not save. At
    /// `save` when it was asked outside the file, else at `solutions:
    /// Unique` when it was, else at the file's `save`.
    fn unique_save(&self, _: Use<'_>) -> Option<Error> {
        if !(self.p.save && self.p.solutions == Solutions::Unique) {
            return None;
        }
        Some(match (&self.given.save, &self.given.solutions) {
            (Given::Outside(_), _) => {
                Error::switch(ErrorKind::Conflict, "save", SAVE_OR_DRAW).worded(Said::DropUnique)
            }
            (save, Given::Outside(_)) => {
                let message = format!(
                    "{SAVE_OR_DRAW}, and the puzzle asks to save its tour ({})",
                    self.p.field_at("save: true", save.span())
                );
                Error::switch(ErrorKind::Conflict, "solutions: Unique", &message)
                    .worded(Said::LeaveOutUnique(message))
            }
            (save, _) => self
                .at(save.span(), SAVE_OR_DRAW)
                .worded(Said::SaveOrUnique),
        })
    }

    /// A search for two solutions does not draw: at the output asked.
    fn unique_draws(&self, use_: Use<'_>) -> Option<Error> {
        match use_ {
            Use::Solve {
                draws: Some((name, value)),
            } if self.p.solutions == Solutions::Unique => {
                Some(Facts::at_given(name, value, SAVE_OR_DRAW).worded(Said::DropUnique))
            }
            _ => None,
        }
    }

    /// `make` makes the clues itself (of a magic puzzle, from the magic
    /// tour its clues narrow the search to), and clue puzzles cannot also
    /// ask for a symmetry: at the file's clues or symmetry.
    fn make(&self, use_: Use<'_>) -> Option<Error> {
        if use_ != Use::Make {
            return None;
        }
        let c = &self.p.constraints;
        // A magic puzzle's clues narrow the search for its tour.
        if !c.clues.is_empty() && c.magic.is_none() {
            return Some(
                self.at(self.given.clues.span(), "")
                    .worded(Said::MakeClues(c.clues.len())),
            );
        }
        c.symmetry.map(|sym| {
            self.at(self.given.symmetry.span(), "")
                .worded(Said::MakeSymmetry(sym.describe().to_string()))
        })
    }

    /// A count of a puzzle with a symmetry or clues is one search, by the
    /// symmetric or the clue search: not sharded, not by the frontier; and
    /// the symmetric search counts half paths, so its tours are not listed.
    /// At the list, else at the shard, else at the method.
    fn count(&self, use_: Use<'_>) -> Option<Error> {
        let Use::Count {
            frontier,
            shard,
            list,
        } = use_
        else {
            return None;
        };
        let method = |message: String| Facts::at_given("method", "frontier", message);
        let c = &self.p.constraints;
        if let Some(sym) = c.symmetry {
            if let Some(list) = list {
                return Some(Facts::at_given(
                    "list",
                    list,
                    format!(
                        "the tours of a puzzle with a symmetry ({}) are counted by half paths and not listed; without the symmetry they are",
                        sym.describe()
                    ),
                ));
            }
            if let Some(shard) = shard {
                return Some(Facts::at_given(
                    "shard",
                    shard,
                    "a count of symmetric tours is one search and cannot be split into shards",
                ));
            }
            if frontier {
                return Some(method(format!(
                    "the frontier count does not take a symmetry: a puzzle with one is counted by the symmetric search ({} here)",
                    sym.describe()
                )));
            }
        }
        if !c.clues.is_empty() {
            if let Some(shard) = shard {
                return Some(Facts::at_given(
                    "shard",
                    shard,
                    "a count with clues is one search and cannot be split into shards",
                ));
            }
            if frontier {
                return Some(method("the frontier count does not take clues: a puzzle with clues is counted by the clue search".to_string()));
            }
        }
        None
    }
}

/// The words of a refusal that name options, worded again for the names a
/// front end gives them. Each variant keeps what its words need.
#[derive(Debug)]
enum Said {
    /// This message; the help offers the searches for symmetric tours.
    UseSymmetric(String),
    /// This message; the help offers the complete search, as the solver
    /// was given (outside the file, or in it).
    UseBacktrack(String, Given),
    /// [`SAVE_OR_DRAW`]; the help leaves out the search for two solutions.
    DropUnique,
    /// This message, at `solutions: Unique` asked outside the file; the
    /// help leaves it out, or the file's `save: true`.
    LeaveOutUnique(String),
    /// [`SAVE_OR_DRAW`] at the file's `save: true`; the help leaves out one
    /// or the other.
    SaveOrUnique,
    /// This message, at an end given for a closed tour; the help asks for
    /// an open one.
    OpenAsks(String),
    /// This message, at a closed tour asked outside the file; the help
    /// drops the file's end.
    EndAny(String),
    /// `make` on a puzzle with this many clues.
    MakeClues(usize),
    /// `make` on a puzzle with this symmetry (described).
    MakeSymmetry(String),
    /// `make` on a puzzle with letters.
    MakeLetters,
}

impl Wording for Said {
    fn words(&self, names: &dyn Names) -> (String, Option<String>) {
        let solver = names.name("solver");
        let unique = names.name("solutions: Unique");
        let (message, help) = match self {
            Said::UseSymmetric(message) => (
                message.clone(),
                format!(
                    "use `solver: Symmetric()` or `Auto`{}, which search for symmetric tours",
                    solver.map_or(String::new(), |s| format!(" (`{s} symmetric` or `auto`)"))
                ),
            ),
            Said::UseBacktrack(message, given) => (
                message.clone(),
                match (given, solver) {
                    (Given::Outside(_), Some(s)) => format!("use `{s} backtrack` or `auto`"),
                    (_, Some(s)) => {
                        format!("use `solver: Backtrack()` or `Auto` (`{s} backtrack` or `auto`)")
                    }
                    (_, None) => "use `solver: Backtrack()` or `Auto`".to_string(),
                },
            ),
            Said::DropUnique => (
                SAVE_OR_DRAW.to_string(),
                match unique {
                    Some(u) => {
                        format!("run without `{u}` (or `solutions: Unique`) to save or draw a tour")
                    }
                    None => "run without `solutions: Unique` to save or draw a tour".to_string(),
                },
            ),
            Said::LeaveOutUnique(message) => (
                message.clone(),
                format!(
                    "leave out {} to save a tour, or `save: true` to look for two solutions",
                    unique.map_or_else(|| "`solutions: Unique`".to_string(), |u| format!("`{u}`"))
                ),
            ),
            Said::SaveOrUnique => (
                SAVE_OR_DRAW.to_string(),
                format!(
                    "leave out `save: true` to look for two solutions, or `solutions: Unique`{} to save a tour",
                    unique.map_or(String::new(), |u| format!(" (and `{u}`)"))
                ),
            ),
            Said::OpenAsks(message) => (
                message.clone(),
                format!("{} asks for an open tour", called(names, "tour: Open")),
            ),
            Said::EndAny(message) => (
                message.clone(),
                match names.name("end") {
                    Some(end) => format!("`{end} any` drops the puzzle's end"),
                    None => "an `end` of `any` drops the puzzle's end".to_string(),
                },
            ),
            Said::MakeClues(n) => (
                format!(
                    "{} makes the clues itself: the puzzle it starts from gives none (this one gives {n})",
                    make(names)
                ),
                "leave out `clues` (with a clue picture, give its shape as `board`)".to_string(),
            ),
            Said::MakeLetters => (
                format!(
                    "{} makes clue puzzles from a puzzle without letters; a word puzzle is made from its text",
                    make(names)
                ),
                format!(
                    "leave out `letters` and `text`, or make a word puzzle with {}",
                    called(names, "text")
                ),
            ),
            Said::MakeSymmetry(sym) => (
                format!(
                    "{} makes clue puzzles, which cannot also ask for a symmetry ({sym} here)",
                    make(names)
                ),
                "leave out `symmetry`".to_string(),
            ),
        };
        (message, Some(help))
    }
}

/// `make`, as `names` calls it, in backticks.
fn make(names: &dyn Names) -> String {
    format!("`{}`", names.name("make").unwrap_or("make"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Fields;

    fn puzzle(text: &str) -> Puzzle {
        Puzzle::parse("p.ron", text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn refused(text: &str) -> Error {
        match Puzzle::parse("p.ron", text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        }
    }

    #[test]
    fn every_use_asks_the_same_rules_of_a_file() {
        for text in [
            r#"Puzzle(board: "6x6", piece: "knight", symmetry: Rotate180, solver: Backtrack())"#,
            r#"Puzzle(board: "6x6", piece: "knight", solver: Symmetric())"#,
            r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1}, solver: Warnsdorff())"#,
            r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1}, symmetry: Rotate180)"#,
            r#"Puzzle(board: "6x6", piece: "knight", solutions: Unique, solver: Genetic())"#,
            r#"Puzzle(board: "6x6", piece: "knight", solutions: Unique, save: true)"#,
            r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, end: "a1")"#,
        ] {
            let e = refused(text);
            assert_eq!(e.kind, ErrorKind::Conflict, "{text}: {e}");
            assert_eq!(*e.origin(), crate::error::Origin::Text, "{text}");
        }
    }

    #[test]
    fn a_use_adds_its_own_rules() {
        let clued = puzzle(r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1})"#);
        assert_eq!(clued.refusal(Use::Read), None);
        assert_eq!(
            clued.refusal(Use::Solve { draws: None }),
            None,
            "clues with the complete search"
        );
        for use_ in [
            Use::Make,
            Use::Count {
                frontier: true,
                shard: None,
                list: None,
            },
            Use::Count {
                frontier: false,
                shard: Some("1/2"),
                list: None,
            },
        ] {
            let e = clued.refusal(use_);
            assert_eq!(e.map(|e| e.kind), Some(ErrorKind::Conflict), "{use_:?}");
        }
        let plain = puzzle(r#"Puzzle(board: "5x5", piece: "knight", solutions: Unique)"#);
        let drawn = plain.refusal(Use::Solve {
            draws: Some(("gif", "t.gif")),
        });
        assert_eq!(
            drawn.map(|e| (e.kind, e.file)),
            Some((ErrorKind::Conflict, "gif".to_string()))
        );
        // A frontier count in shards is split by pairs of ends and parts.
        let e = plain.refusal(Use::Count {
            frontier: true,
            shard: Some("1/2"),
            list: None,
        });
        assert_eq!(e, None);
        // Clues are listed by the clue search; a symmetry's tours are not.
        let listed = Use::Count {
            frontier: false,
            shard: None,
            list: Some("all"),
        };
        assert_eq!(clued.refusal(listed), None);
        let symmetric =
            puzzle(r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180)"#);
        let e = symmetric.refusal(listed);
        assert_eq!(
            e.map(|e| (e.kind, e.file)),
            Some((ErrorKind::Conflict, "list".to_string()))
        );
    }

    #[test]
    fn a_refusal_is_at_the_option_given_outside_the_file() {
        let mut p = puzzle(r#"Puzzle(board: "6x6", piece: "knight", save: true)"#);
        p.ask_unique();
        let e = p.refusal(Use::Read).unwrap_or_else(|| panic!("refused"));
        assert_eq!(e.file, "solutions: Unique");
        assert!(
            e.message.contains("`save: true` at p.ron:1:45"),
            "{}",
            e.message
        );
        assert_eq!(
            e.help.as_deref(),
            Some(
                "leave out `solutions: Unique` to save a tour, or `save: true` to look for two solutions"
            )
        );
        p.ask_save();
        let e = p.refusal(Use::Read).unwrap_or_else(|| panic!("refused"));
        assert_eq!((e.kind, e.file.as_str()), (ErrorKind::Conflict, "save"));
        // The library's words name options as the file writes them.
        let (_, help) = Said::DropUnique.words(&Fields);
        assert_eq!(
            help.as_deref(),
            Some("run without `solutions: Unique` to save or draw a tour")
        );
    }
}
