//! The puzzle file: RON document types, and turning a file into a checked
//! [`Puzzle`] (board, piece, goal, solver). Every error names the file, line
//! and column of the offending text.

use std::fmt;
use std::path::Path;

pub mod betza;
mod board;
pub mod lang;
mod locate;
mod piece;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use crate::budget;
use crate::error::{Error, Span};
use crate::halt::Halt;
use crate::model::{Board, MoveGraph, Piece};
use crate::solve::genetic::{self, GeneticOptions};
use crate::solve::{Goal, SolverSpec, Task};
use lang::{LangError, PieceDef};
use locate::Locator;

/// Open or closed tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
pub enum TourKind {
    /// The tour may end anywhere.
    #[default]
    Open,
    /// The last square is one move from the first.
    Closed,
}

/// The `pieces` map, in file order, with duplicate names refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct PieceMap(Vec<(String, String)>);

impl<'de> Deserialize<'de> for PieceMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PieceMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of piece names to piece expressions")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PieceMap, A::Error> {
                let mut out: Vec<(String, String)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    if out.iter().any(|(name, _)| *name == k) {
                        return Err(serde::de::Error::custom(format!(
                            "duplicate piece name `{k}` in `pieces`"
                        )));
                    }
                    out.push((k, v));
                }
                Ok(PieceMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The puzzle file as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
struct Doc {
    name: Option<String>,
    board: String,
    piece: String,
    #[serde(default)]
    pieces: PieceMap,
    #[serde(default)]
    tour: TourKind,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    end: Option<String>,
    #[serde(default)]
    solver: SolverSpec,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    save: bool,
}

/// A checked puzzle: everything a solver and a renderer need.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Shown in output and captions.
    pub name: String,
    /// The squares to visit.
    pub board: Board,
    /// How the piece moves.
    pub piece: Piece,
    /// The board expression as written.
    pub board_text: String,
    /// The piece expression as written.
    pub piece_text: String,
    /// Open/closed, start, end.
    pub goal: Goal,
    /// Which solver, with options.
    pub solver: SolverSpec,
    /// Seed of every random choice.
    pub seed: u64,
    /// Whether `run` should save the tour to the archive.
    pub save: bool,
    /// The file name, for messages.
    pub file: String,
    /// The file's text, for messages about it after loading.
    pub text: String,
    end_span: Option<Span>,
}

/// The RON options the puzzle file is read with: `Some(..)` may be left out
/// of optional numbers, and solver options are written `Backtrack(order: Given)`.
fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

impl Puzzle {
    /// Reads and checks the puzzle file at `path`.
    pub fn load(path: &Path) -> Result<Puzzle, Error> {
        let file = path.display().to_string();
        if path.is_dir() {
            return Err(Error::whole_file(
                &file,
                "is a directory, not a puzzle file",
            ));
        }
        let bytes = std::fs::read(path)
            .map_err(|e| Error::whole_file(&file, format!("cannot read the file: {e}")))?;
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
                let at = prefix.len();
                return Err(Error::at(
                    &file,
                    &lossy,
                    Span::new(at, at + 1),
                    "the file is not valid UTF-8 text",
                ));
            }
        };
        Puzzle::parse(&file, &text)
    }

    /// Checks the puzzle text `text`, which came from `file` (for messages).
    pub fn parse(file: &str, text: &str) -> Result<Puzzle, Error> {
        if is_blank(text) {
            return Err(Error::whole_file(
                file,
                "the file is empty; a puzzle looks like Puzzle(board: \"8x8\", piece: \"knight\")",
            ));
        }
        let doc: Doc = ron_options().from_str(text).map_err(|e| {
            let mut err = Error::at_line_col(
                file,
                text,
                e.span.start.line,
                e.span.start.col,
                ron_message(&e.code),
            );
            if e.span.end.line == e.span.start.line && e.span.end.col > e.span.start.col {
                err.width = e.span.end.col - e.span.start.col;
            }
            err
        })?;
        let loc = Locator::new(text);
        let lang_err = |e: LangError| {
            let err = Error::at(file, text, e.span, e.message);
            match e.help {
                Some(h) => err.with_help(h),
                None => err,
            }
        };

        let board_base = loc.field("board").unwrap_or(0);
        let board = lang::parse_board(&doc.board, board_base).map_err(lang_err)?;

        let defs: Vec<PieceDef> = doc
            .pieces
            .0
            .iter()
            .map(|(name, expr)| PieceDef {
                name: name.clone(),
                text: expr.clone(),
                base: loc.map_value(name).unwrap_or(0),
            })
            .collect();
        for d in &defs {
            lang::resolve_piece(&d.name, loc.map_key(&d.name).unwrap_or(d.base), &defs)
                .map_err(lang_err)?;
        }
        let piece_base = loc.field("piece").unwrap_or(0);
        let piece = lang::resolve_piece(&doc.piece, piece_base, &defs).map_err(lang_err)?;
        let need = MoveGraph::estimate_bytes(&board, &piece);
        if need > budget::GRAPH {
            return Err(Error::at(
                file,
                text,
                Span::new(piece_base, piece_base + doc.piece.len()),
                format!(
                    "this piece on this board has up to {} moves in all: its move graph would need about {}, more than the {} allowed",
                    need / 4,
                    budget::bytes_over(need, budget::GRAPH),
                    budget::bytes(budget::GRAPH)
                ),
            )
            .with_help("a smaller board, or a `max` on the rider, fits"));
        }
        if let SolverSpec::Genetic(opts) = &doc.solver
            && let Some((message, help)) = genetic_too_big(&board, &piece, opts)
        {
            // At the population, if the file gives one, else at the solver.
            let (a, b) = loc
                .field_value("population", 2)
                .filter(|_| opts.population.is_some())
                .or_else(|| loc.field_value("solver", 1))
                .unwrap_or((0, 0));
            return Err(Error::at(file, text, Span::new(a, b), message).with_help(help));
        }

        let square =
            |key: &str, value: &Option<String>| -> Result<(Option<u32>, Option<Span>), Error> {
                match value.as_deref().map(str::trim) {
                    None | Some("any") => Ok((None, None)),
                    Some(v) => {
                        let base = loc.field(key).unwrap_or(0);
                        let raw = value.as_deref().unwrap_or_default();
                        let s = lang::parse_square(raw, base, &board).map_err(lang_err)?;
                        Ok((Some(s), Some(Span::new(base, base + v.len()))))
                    }
                }
            };
        let (start, _) = square("start", &doc.start)?;
        let (end, end_span) = square("end", &doc.end)?;
        let closed = doc.tour == TourKind::Closed;
        let name = doc.name.unwrap_or_else(|| {
            Path::new(file).file_stem().map_or_else(
                || "puzzle".to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        });
        let p = Puzzle {
            name,
            board,
            piece,
            board_text: doc.board.trim().to_string(),
            piece_text: doc.piece.trim().to_string(),
            goal: Goal { closed, start, end },
            solver: doc.solver,
            seed: doc.seed,
            save: doc.save,
            file: file.to_string(),
            text: text.to_string(),
            end_span,
        };
        p.check_end()?;
        Ok(p)
    }

    fn check_end(&self) -> Result<(), Error> {
        if self.goal.closed
            && self.goal.end.is_some()
            && let Some(span) = self.end_span
        {
            return Err(Error::at(
                &self.file,
                &self.text,
                span,
                "`end` applies to open tours only; a closed tour ends next to its start",
            ));
        }
        Ok(())
    }

    /// Sets the start square from a command-line value like `b3`, `(1,2)` or `any`.
    pub fn set_start(&mut self, value: &str) -> Result<(), Error> {
        if value.trim() == "any" {
            self.goal.start = None;
            return Ok(());
        }
        let s = lang::parse_square(value, 0, &self.board)
            .map_err(|e| Error::at("--start", value, e.span, e.message))?;
        self.goal.start = Some(s);
        Ok(())
    }

    /// Asks for a closed tour (the `--closed` flag).
    pub fn set_closed(&mut self) -> Result<(), Error> {
        self.goal.closed = true;
        self.check_end()
    }

    /// Builds the move graph under `halt` (on the largest boards building
    /// takes seconds, and a time limit covers it).
    pub fn graph<H: Halt>(&self, halt: &H) -> Result<MoveGraph, H::Stop> {
        MoveGraph::build(&self.board, &self.piece, halt)
    }

    /// The task of solving this puzzle on its move graph `graph`.
    pub fn task<'t>(&'t self, graph: &'t MoveGraph) -> Task<'t> {
        Task {
            graph,
            board: &self.board,
            piece: &self.piece,
            goal: self.goal,
            seed: self.seed,
        }
    }
}

/// Why the genetic solver with `opts` does not fit in [`budget::GENETIC`]
/// for `piece` on `board`: the message and a hint, or None if it fits.
pub fn genetic_too_big(
    board: &Board,
    piece: &Piece,
    opts: &GeneticOptions,
) -> Option<(String, String)> {
    let threads = rayon::current_num_threads();
    let need = |opts: &GeneticOptions| genetic::estimate_bytes(board, piece, opts, threads);
    let bytes_needed = need(opts);
    if bytes_needed <= budget::GENETIC {
        return None;
    }
    let params = opts.params();
    let n = board.len();
    let message = format!(
        "the genetic solver's population of {} on this board of {n} squares would need about {} ({} moves per individual, two generations at a time), more than the {} allowed",
        params.population,
        budget::bytes_over(bytes_needed, budget::GENETIC),
        n.saturating_sub(1),
        budget::bytes(budget::GENETIC)
    );
    let fits = |population: usize| {
        need(&GeneticOptions {
            population: Some(population),
            ..*opts
        }) <= budget::GENETIC
    };
    let help = match budget::largest_that_fits(1, params.population, fits) {
        Some(most) => {
            format!("a population of at most {most} fits: `solver: Genetic(population: {most})`")
        }
        None => "no population fits a board this large; the warnsdorff or backtrack solver does"
            .to_string(),
    };
    Some((message, help))
}

fn is_blank(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else {
            return rest.is_empty();
        }
    }
}

/// RON's messages, with the common ones made friendlier.
fn ron_message(code: &ron::error::Error) -> String {
    use ron::error::Error as E;
    match code {
        E::MissingStructField { field, .. } => {
            format!("missing field `{field}`: a puzzle needs at least `board` and `piece`")
        }
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}`; the fields are {}",
            expected
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::DuplicateStructField { field, .. } => format!("field `{field}` is given twice"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::backtrack::Order;

    const HOLED: &str = r#"// Knight's tour of a 4x4 board with five squares removed.
Puzzle(
    name: "Holed 4x4",
    board: "4x4 - b1 a3 a4 c4 d4",
    piece: "knight",
    pieces: { "knight": "leaper 1 2" },
    tour: Open,
    start: "any",
    solver: Backtrack(),
)
"#;

    #[test]
    fn the_spec_example_loads() {
        let p = Puzzle::parse("holed4x4.ron", HOLED).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.name, "Holed 4x4");
        assert_eq!(p.board.len(), 11);
        assert_eq!(p.piece.moves().len(), 8);
        assert_eq!(p.goal, Goal::default());
        assert!(matches!(p.solver, SolverSpec::Backtrack(o) if o.order == Order::Warnsdorff));
    }

    #[test]
    fn defaults_and_options() {
        let p = Puzzle::parse(
            "dir/k5.ron",
            "Puzzle(board: \"5x5\", piece: \"N\", start: \"a1\", solver: Backtrack(order: Given, node_limit: 10), seed: 7)",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.name, "k5");
        assert_eq!(p.goal.start, Some(0));
        assert_eq!(p.seed, 7);
        assert!(matches!(
            p.solver,
            SolverSpec::Backtrack(o) if o.order == Order::Given && o.node_limit == Some(10)
        ));
        let p = Puzzle::parse(
            "x",
            "(board: \"5x5\", piece: \"N\", solver: Genetic(preset: Classic, population: 80))",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(p.solver, SolverSpec::Genetic(o) if o.population == Some(80)));
    }

    fn err(text: &str) -> Error {
        match Puzzle::parse("p.ron", text) {
            Ok(_) => panic!("expected an error for {text}"),
            Err(e) => e,
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("Puzzle(\n  board: \"8x8 - z9\",\n  piece: \"knight\",\n)");
        assert_eq!((e.line, e.col, e.width), (2, 17, 2));
        let e = err("Puzzle(\n  board: \"8x8\",\n  piece: \"knight\",\n  colour: 3,\n)");
        assert_eq!(e.line, 4);
        assert!(
            e.message.contains("unknown field `colour`"),
            "{}",
            e.message
        );
        let e = err("Puzzle(\n  piece: \"knight\",\n)");
        assert!(e.message.contains("missing field `board`"), "{}", e.message);
        let e = err("Puzzle(board: \"8x8\", piece: \"leaper 0 0\")");
        assert_eq!(e.col, 30);
        let e = err("Puzzle(board: \"8x8\", piece: \"k\", pieces: {\"k\": \"j\", \"j\": \"k\"})");
        assert!(e.message.contains("cycle"), "{}", e.message);
        let e = err("Puzzle(board: \"4x4 - b1\", piece: \"N\", start: \"b1\")");
        assert!(e.message.contains("removed"), "{}", e.message);
        assert_eq!(e.col, 47);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", board: \"5x5\")");
        assert!(e.message.contains("twice"), "{}", e.message);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", pieces: {\"a\": \"N\", \"a\": \"C\"})");
        assert!(e.message.contains("duplicate piece name"), "{}", e.message);
        let e = err("Puzzle(board: 8, piece: \"N\")");
        assert_eq!(e.line, 1);
        assert!(err("  // nothing\n").message.contains("empty"));
        let e = err("Puzzle(board: \"4096x4096\", piece: \"queen\")");
        assert!(
            e.message.contains("more than the 4.0 GiB allowed"),
            "{}",
            e.message
        );
        assert_eq!(e.col, 36);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", tour: Closed, end: \"a1\")");
        assert!(e.message.contains("open tours only"), "{}", e.message);
    }

    fn genetic(board: &str, solver: &str) -> Result<Puzzle, Error> {
        Puzzle::parse(
            "ga.ron",
            &format!("Puzzle(board: \"{board}\", piece: \"knight\",\n  solver: {solver})"),
        )
    }

    #[test]
    fn genetic_runs_too_large_for_memory_are_refused() {
        // Two generations of 2-byte genes, n − 1 per individual, dominate:
        // a population of 100,000 takes 4.25 GB (3.95 GiB) on 103x103
        // (10,609 squares), which fits in 4 GiB with everything else, and
        // 4.33 GB (4.03 GiB) on 104x104 (10,816), which does not.
        let fits = genetic("103x103", "Genetic(population: 100000)");
        assert!(fits.is_ok(), "{:?}", fits.err());
        let big = "Genetic(preset: Classic, population: 100000)";
        let e = match genetic("104x104", big) {
            Ok(_) => panic!("a 4.3 GB population is refused"),
            Err(e) => e,
        };
        assert!(
            e.message.contains("population of 100000")
                && e.message.contains("10816 squares")
                && e.message.contains("more than the 4.0 GiB allowed"),
            "{}",
            e.message
        );
        // The caret is on the population's value.
        assert_eq!((e.line, e.col, e.width), (2, 48, 6));
        // The hint's population is the largest that fits.
        let help = e.help.unwrap_or_default();
        let most: usize = help
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no number in {help}"));
        assert!(most > 90_000 && most < 100_000, "{help}");
        assert!(genetic("104x104", &format!("Genetic(population: {most})")).is_ok());
        assert!(genetic("104x104", &format!("Genetic(population: {})", most + 1)).is_err());
        // Without a population in the file, at the solver; the default
        // population of 50 does not fit the largest board.
        let e = match genetic("4096x4096", "Genetic()") {
            Ok(_) => panic!("50 x 16.7M squares is refused"),
            Err(e) => e,
        };
        assert_eq!((e.line, e.col, e.width), (2, 11, 7));
        assert!(e.message.contains("population of 50"), "{}", e.message);
        // Other solvers are not concerned.
        assert!(genetic("4096x4096", "Warnsdorff()").is_ok());
    }
}
