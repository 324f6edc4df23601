//! The puzzle file: RON document types, and turning a file into a checked
//! [`Puzzle`] (board, piece, goal, solver). Every error names the file, line
//! and column of the offending text.

use std::fmt;
use std::path::Path;

pub mod betza;
mod board;
pub mod clues;
pub mod lang;
mod locate;
mod piece;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use crate::budget;
use crate::error::{Error, ErrorKind, Span, escape_controls, line_col, offset_of};
use crate::halt::Halt;
use crate::model::{Board, Constraints, MoveGraph, Piece, TourSymmetry};
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
                let mut names = std::collections::HashSet::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    if !names.insert(k.clone()) {
                        return Err(serde::de::Error::custom(format!(
                            "{DUPLICATE_PIECE} `{k}` in `pieces`"
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

/// The `clues` field: a map of squares to step numbers, or a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
enum CluesDoc {
    Map(Vec<(String, u64)>),
    Picture(String),
}

impl<'de> Deserialize<'de> for CluesDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CluesDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of squares to step numbers, or a clue picture")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CluesDoc, E> {
                Ok(CluesDoc::Picture(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CluesDoc, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, u64>()? {
                    out.push((k, v));
                }
                Ok(CluesDoc::Map(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// How many solutions `run` looks for (`solutions:` in the file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Solutions {
    /// The first solution found.
    #[default]
    First,
    /// Two: the solution and a proof that it is the only one, or two
    /// solutions (`--unique`).
    Unique,
}

/// The puzzle file as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
struct Doc {
    name: Option<String>,
    #[serde(default)]
    board: Option<String>,
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
    #[serde(default)]
    solutions: Solutions,
    #[serde(default)]
    clues: Option<CluesDoc>,
    #[serde(default)]
    symmetry: Option<TourSymmetry>,
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
    /// Clues and symmetry.
    pub constraints: Constraints,
    /// Which solver, with options.
    pub solver: SolverSpec,
    /// Seed of every random choice.
    pub seed: u64,
    /// Whether `run` should save the tour to the archive.
    pub save: bool,
    /// Whether `run` should prove the solution unique.
    pub solutions: Solutions,
    /// The file name, for messages.
    pub file: String,
    /// The file's text, for messages about it after loading.
    pub text: String,
    start_span: Option<Span>,
    end_span: Option<Span>,
    /// Where the file gives its solver and its clues.
    solver_span: Option<Span>,
    clues_span: Option<Span>,
    solutions_span: Option<Span>,
    symmetry_span: Option<Span>,
    board_span: Option<Span>,
    save_span: Option<Span>,
    /// Where each clue of `constraints.clues` is written, in its order.
    clue_spans: Vec<Span>,
    /// The file's named pieces, for a `--piece` that uses them.
    defs: Vec<PieceDef>,
}

/// The most bytes a puzzle file may have: room for the largest picture
/// board (4096 lines of 4096 squares), and a bound on what reading costs.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Reads all of `r`, but refuses more than [`MAX_FILE_BYTES`].
fn read_capped(r: impl std::io::Read, file: &str) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    let mut bytes = Vec::new();
    r.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(file, &e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(file, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Why the move graph of `piece` on `board` would not fit in
/// [`budget::GRAPH`], or None if it fits.
fn graph_too_big(board: &Board, piece: &Piece) -> Option<String> {
    let need = MoveGraph::estimate_bytes(board, piece);
    (need > budget::GRAPH).then(|| {
        format!(
            "this piece on this board has up to {} moves in all: its move graph would need about {}, more than the {} allowed",
            need / 4,
            budget::bytes_over(need, budget::GRAPH),
            budget::bytes(budget::GRAPH)
        )
    })
}

const GRAPH_HELP: &str = "a smaller board, or a `max` on the rider, fits";

/// A piece or board language error in the value of a command-line flag.
fn flag_error(flag: &str, value: &str, e: LangError) -> Error {
    let err = Error::option(e.kind, flag, value, e.span, e.message);
    match e.help {
        Some(h) => err.with_help(h),
        None => err,
    }
}

/// Why a search for two solutions refuses to save or draw.
pub const SAVE_OR_DRAW: &str =
    "a search for two solutions prints them only: it does not save or draw";

/// How a puzzle given by flags alone (no file) is named in messages.
pub const FLAGS_NAME: &str = "<flags>";

/// The clues and symmetry of `doc`, checked against the board, the piece
/// and the goal: steps from 1 to the squares, none twice; clue 1 and the
/// start (and, for an open tour, the last clue and the end) agree; the
/// symmetry maps the board and the piece onto themselves and, for an open
/// tour, is its own inverse and maps the start onto the end.
#[allow(clippy::too_many_arguments)]
fn constraints(
    doc: &Doc,
    board: &Board,
    piece: &Piece,
    goal: Goal,
    (start_span, end_span): (Option<Span>, Option<Span>),
    picture: Option<Vec<clues::Clue>>,
    file: &str,
    text: &str,
    loc: &Locator,
) -> Result<(Constraints, Vec<Span>), Error> {
    let at = |kind, span: Span, message: String| Error::at(kind, file, text, span, message);
    let place = |span: Span| {
        let (line, col) = line_col(text, span.start);
        format!("line {line}, column {col}")
    };
    // Spans in the clues' values, placed in the file (past escapes).
    let written = match (&doc.clues, picture) {
        (_, Some(c)) => c
            .into_iter()
            .map(|c| clues::Clue {
                span: loc.raw_span(c.span),
                ..c
            })
            .collect(),
        (Some(CluesDoc::Map(entries)), None) => {
            let from = loc.field_value("clues", 1).map_or(0, |v| v.0);
            let keys = loc.keys_from(from);
            let mut out = Vec::with_capacity(entries.len());
            for (i, (key, step)) in entries.iter().enumerate() {
                let base = keys.get(i).copied().unwrap_or(from);
                let square = lang::parse_square(key, base, board)
                    .map_err(|e| at(e.kind, loc.raw_span(e.span), e.message))?;
                out.push(clues::Clue {
                    step: *step,
                    square,
                    span: loc.raw_span(Span::new(base, base + key.len())),
                });
            }
            out
        }
        _ => Vec::new(),
    };
    let steps = clues::check(board, &written, &place).map_err(|e| at(e.kind, e.span, e.message))?;
    let span_of = |step: u32| {
        written
            .iter()
            .find(|c| c.step == u64::from(step))
            .map_or(Span::new(0, 0), |c| c.span)
    };
    let n = board.len() as u32;
    let ends = [
        (1, goal.start, start_span, "start"),
        (
            n,
            if goal.closed { None } else { goal.end },
            end_span,
            "end",
        ),
    ];
    for (step, square, span, key) in ends {
        if let (Some(s), Some(&(_, c))) = (square, steps.iter().find(|&&(k, _)| k == step))
            && s != c
        {
            return Err(at(
                ErrorKind::Mismatch,
                span_of(step),
                format!(
                    "step {step} is on {}, but `{key}` is {} ({})",
                    board.name(c),
                    board.name(s),
                    span.map_or_else(|| "the flag".to_string(), place)
                ),
            ));
        }
    }
    let symmetry = doc.symmetry;
    if let Some(sym) = symmetry {
        let sym_at = loc
            .field_value("symmetry", 1)
            .map_or(Span::new(0, 0), |(a, b)| Span::new(a, b));
        if !crate::model::symmetry::symmetries(board, piece).contains(&sym.transform()) {
            return Err(at(
                ErrorKind::Mismatch,
                sym_at,
                format!(
                    "{sym:?} does not map this board and piece onto themselves, so no tour can have it"
                ),
            )
            .with_help("the board's squares, removed squares, topology and the piece's moves must all be symmetric"));
        }
        if !goal.closed {
            if !sym.is_involution() {
                return Err(at(
                    ErrorKind::Mismatch,
                    sym_at,
                    "an open tour's ends must change places under its symmetry, so a quarter-turn cannot map an open tour onto itself".to_string(),
                )
                .with_help("use Rotate180, or a closed tour"));
            }
            let t = sym.transform();
            let image =
                |s: u32| board.square_at(t.cell(board.cell(s), board.width(), board.height()));
            if let (Some(s), Some(e)) = (goal.start, goal.end)
                && image(s) != Some(e)
            {
                return Err(at(
                    ErrorKind::Mismatch,
                    end_span.unwrap_or(sym_at),
                    format!(
                        "{sym:?} maps the start {} onto {}, so a symmetric open tour ends there, not on {}",
                        board.name(s),
                        image(s).map_or_else(|| "no square".to_string(), |i| board.name(i)),
                        board.name(e)
                    ),
                ));
            }
        }
    }
    let spans = steps.iter().map(|&(step, _)| span_of(step)).collect();
    Ok((
        Constraints {
            clues: steps,
            symmetry,
        },
        spans,
    ))
}

/// A file that cannot be read: `cannot read FILE: reason`, with no
/// position (there is no text to point into).
fn cannot_read(file: &str, e: &std::io::Error) -> Error {
    let reason = e.to_string();
    // "No such file or directory (os error 2)": the number adds nothing.
    let reason = match reason.rfind(" (os error ") {
        Some(i) => reason[..i].to_string(),
        None => reason,
    };
    Error::about(ErrorKind::Io, &format!("cannot read {file}"), reason)
}

fn too_big(file: &str, len: u64) -> Error {
    let size = if len > MAX_FILE_BYTES && file == STDIN_NAME {
        format!("more than {}", budget::bytes(MAX_FILE_BYTES))
    } else {
        format!("{} ({len} bytes)", budget::bytes_over(len, MAX_FILE_BYTES))
    };
    Error::about(
        ErrorKind::TooBig,
        file,
        format!(
            "is {size}; a puzzle file may have at most {}",
            budget::bytes(MAX_FILE_BYTES)
        ),
    )
}

/// The RON options the puzzle file is read with: `Some(..)` may be left out
/// of optional numbers, and solver options are written `Backtrack(order: Given)`.
fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

impl Puzzle {
    /// Reads and checks the puzzle file at `path`; `-` reads standard input.
    ///
    /// Only a regular file (or standard input) is read, and at most
    /// [`MAX_FILE_BYTES`] of it: a directory, a device or a FIFO is refused
    /// before it is opened, so nothing blocks or reads forever.
    pub fn load(path: &Path) -> Result<Puzzle, Error> {
        let (file, bytes) = if path.as_os_str() == "-" {
            let file = STDIN_NAME.to_string();
            let bytes = read_capped(std::io::stdin().lock(), &file)?;
            (file, bytes)
        } else {
            let file = path.display().to_string();
            let meta = std::fs::metadata(path).map_err(|e| cannot_read(&file, &e))?;
            if !meta.is_file() {
                return Err(Error::about(
                    ErrorKind::Io,
                    &file,
                    format!(
                        "is {}, not a puzzle file (`-` reads standard input)",
                        crate::output::kind_of(&meta)
                    ),
                ));
            }
            if meta.len() > MAX_FILE_BYTES {
                return Err(too_big(&file, meta.len()));
            }
            let f = std::fs::File::open(path).map_err(|e| cannot_read(&file, &e))?;
            let bytes = read_capped(f, &file)?;
            (file, bytes)
        };
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
                let at = prefix.len();
                return Err(Error::at(
                    ErrorKind::Encoding,
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
        // A byte-order mark, as some editors write, is not part of the text.
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        if skip_trivia(text, 0) == text.len() {
            let what = if text.trim().is_empty() {
                "the file is empty"
            } else {
                "the file is empty: it holds only comments, no puzzle"
            };
            return Err(Error::whole_file(
                ErrorKind::Empty,
                file,
                format!("{what}; a puzzle looks like Puzzle(board: \"8x8\", piece: \"knight\")"),
            ));
        }
        let doc: Doc = ron_options()
            .from_str(text)
            .map_err(|e| ron_error(file, text, &e))?;
        let loc = Locator::new(text);
        // Errors in a string's value, placed in the file (past escapes).
        let lang_err = |e: LangError| {
            let err = Error::at(e.kind, file, text, loc.raw_span(e.span), e.message);
            match e.help {
                Some(h) => err.with_help(h),
                None => err,
            }
        };

        let board_base = loc.field("board").unwrap_or(0);
        let clues_base = loc.field("clues").unwrap_or(0);
        let picture = match &doc.clues {
            Some(CluesDoc::Picture(t)) => {
                Some(clues::parse_picture(t, clues_base).map_err(lang_err)?)
            }
            _ => None,
        };
        let board = match (&doc.board, &picture) {
            (Some(b), None) => lang::parse_board(b, board_base).map_err(lang_err)?,
            (Some(b), Some((pic, _))) => {
                let given = lang::parse_board(b, board_base).map_err(lang_err)?;
                let at = loc.raw_span(Span::new(board_base, board_base + b.len()));
                if (given.width(), given.height()) != (pic.width(), pic.height()) {
                    return Err(Error::at(
                        ErrorKind::Mismatch,
                        file,
                        text,
                        at,
                        format!(
                            "the board is {}x{} but the clue picture is {}x{}",
                            given.width(),
                            given.height(),
                            pic.width(),
                            pic.height()
                        ),
                    ));
                }
                if let Some(s) = (0..given.len() as u32).find(|&s| !pic.is_square(given.cell(s))) {
                    return Err(Error::at(
                        ErrorKind::Mismatch,
                        file,
                        text,
                        at,
                        format!(
                            "the clue picture removes {}, the board does not: removed squares are drawn as `#` in the picture",
                            given.name(s)
                        ),
                    ));
                }
                Board::new(given.width(), given.height(), given.topology(), |c| {
                    pic.is_square(c)
                })
            }
            (None, Some((pic, _))) => pic.clone(),
            (None, None) => {
                return Err(Error::at(
                    ErrorKind::MissingField,
                    file,
                    text,
                    Span::new(0, 0),
                    "missing field `board` (a puzzle needs a board, unless its `clues` are a picture)",
                ));
            }
        };

        let entries = loc.map_entries();
        let defs: Vec<PieceDef> = doc
            .pieces
            .0
            .iter()
            .map(|(name, expr)| PieceDef {
                name: name.clone(),
                text: expr.clone(),
                base: entries.get(name.as_str()).map_or(0, |e| e.1),
            })
            .collect();
        // Each definition is resolved once, however often it is used.
        let mut pieces = lang::Resolver::new(&defs).map_err(lang_err)?;
        let piece_base = loc.field("piece").unwrap_or(0);
        let piece = pieces.piece(&doc.piece, piece_base).map_err(lang_err)?;
        if let Some(message) = graph_too_big(&board, &piece) {
            return Err(Error::at(
                ErrorKind::TooBig,
                file,
                text,
                loc.raw_span(Span::new(piece_base, piece_base + doc.piece.len())),
                message,
            )
            .with_help(GRAPH_HELP));
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
            return Err(
                Error::at(ErrorKind::TooBig, file, text, Span::new(a, b), message).with_help(help),
            );
        }

        let square =
            |key: &str, value: &Option<String>| -> Result<(Option<u32>, Option<Span>), Error> {
                match value.as_deref().map(str::trim) {
                    None | Some("any") => Ok((None, None)),
                    Some(v) => {
                        let base = loc.field(key).unwrap_or(0);
                        let raw = value.as_deref().unwrap_or_default();
                        let s = lang::parse_square(raw, base, &board).map_err(lang_err)?;
                        // The square as written, without the spaces around it.
                        let from = base + raw.len() - raw.trim_start().len();
                        Ok((Some(s), Some(loc.raw_span(Span::new(from, from + v.len())))))
                    }
                }
            };
        let (start, start_span) = square("start", &doc.start)?;
        let (end, end_span) = square("end", &doc.end)?;
        if let SolverSpec::Backtrack(o) = &doc.solver
            && o.node_limit == Some(0)
        {
            let (a, b) = loc.field_value("node_limit", 2).unwrap_or((0, 0));
            return Err(Error::at(
                ErrorKind::BadValue,
                file,
                text,
                Span::new(a, b),
                "`node_limit` must be at least 1: the search counts the start square as its first node",
            ));
        }
        let closed = doc.tour == TourKind::Closed;
        let board_text = doc
            .board
            .as_deref()
            .map_or_else(|| board.describe(), |b| b.trim().to_string());
        let (constraints, clue_spans) = constraints(
            &doc,
            &board,
            &piece,
            Goal { closed, start, end },
            (start_span, end_span),
            picture.map(|(_, c)| c),
            file,
            text,
            &loc,
        )?;
        let name = doc.name.unwrap_or_else(|| {
            Path::new(file).file_stem().map_or_else(
                || "puzzle".to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        });
        let p = Puzzle {
            // Shown in output: never raw control characters.
            name: escape_controls(&name).into_owned(),
            board,
            piece,
            board_text,
            piece_text: escape_controls(doc.piece.trim()).into_owned(),
            goal: Goal { closed, start, end },
            constraints,
            solver: doc.solver,
            seed: doc.seed,
            save: doc.save,
            solutions: doc.solutions,
            file: file.to_string(),
            text: text.to_string(),
            start_span,
            end_span,
            solver_span: loc.field_value("solver", 1).map(|(a, b)| Span::new(a, b)),
            clues_span: loc
                .field_value("clues", 1)
                .map(|(a, b)| Span::new(a, b.min(a + 1))),
            solutions_span: loc
                .field_value("solutions", 1)
                .map(|(a, b)| Span::new(a, b)),
            symmetry_span: loc.field_value("symmetry", 1).map(|(a, b)| Span::new(a, b)),
            board_span: loc.field_value("board", 1).map(|(a, b)| Span::new(a, b)),
            save_span: loc.field_value("save", 1).map(|(a, b)| Span::new(a, b)),
            clue_spans,
            defs,
        };
        p.check_end()?;
        p.check_start_end(None)?;
        // A file that asks for what no search honours is refused when it is
        // read, by every command.
        let refusal = p
            .solver_refusal(None)
            .or_else(|| p.clues_refusal(None))
            .or_else(|| {
                (p.solutions == Solutions::Unique)
                    .then(|| p.unique_refusal(false, None))
                    .flatten()
            })
            .or_else(|| p.save_refusal(false));
        if let Some(e) = refusal {
            return Err(e);
        }
        Ok(p)
    }

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

    /// An open tour of more than one square cannot start and end on the
    /// same square: refused, naming both places (`flag` when the start came
    /// from the command line).
    fn check_start_end(&self, flag: Option<&str>) -> Result<(), Error> {
        let (Some(start), Some(end)) = (self.goal.start, self.goal.end) else {
            return Ok(());
        };
        if self.goal.closed || start != end || self.board.len() == 1 {
            return Ok(());
        }
        let square = self.board.name(start);
        let why =
            "an open tour cannot start and end on the same square (a closed tour has no `end`)";
        let end_at = |span: Span| line_col(&self.text, span.start);
        match (flag, self.start_span, self.end_span) {
            (Some(flag), start, end) => {
                // The other end, where the file gives it.
                let (other, span) = if flag == "--end" {
                    ("start", start)
                } else {
                    ("end", end)
                };
                let place = span.map_or(String::new(), |span| {
                    let (line, col) = end_at(span);
                    format!(" ({}:{line}:{col})", self.file)
                });
                Err(Error::option(
                    ErrorKind::Mismatch,
                    flag,
                    &square,
                    Span::new(0, square.len()),
                    format!("{square} is the puzzle's `{other}` too{place}: {why}"),
                ))
            }
            (None, Some(start), Some(end)) => {
                let (line, col) = end_at(start);
                Err(Error::at(
                    ErrorKind::Mismatch,
                    &self.file,
                    &self.text,
                    end,
                    format!(
                        "`end` is {square}, the same square as `start` (line {line}, column {col}): {why}"
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    fn check_end(&self) -> Result<(), Error> {
        if self.goal.closed
            && self.goal.end.is_some()
            && let Some(span) = self.end_span
        {
            return Err(Error::at(
                ErrorKind::Conflict,
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
            .map_err(|e| Error::option(e.kind, "--start", value, e.span, e.message))?;
        self.goal.start = Some(s);
        self.start_span = None;
        self.check_clue_end("--start", value)?;
        self.check_start_end(Some("--start"))
    }

    /// A start (`--start`) or end (`--end`) from the command line must
    /// agree with clue 1 or the last clue, as the file's must: refused at
    /// the flag, naming where the clue is written.
    fn check_clue_end(&self, flag: &str, value: &str) -> Result<(), Error> {
        let (step, square) = if flag == "--start" {
            (1, self.goal.start)
        } else {
            (
                self.board.len() as u32,
                self.goal.end.filter(|_| !self.goal.closed),
            )
        };
        let clues = &self.constraints.clues;
        let (Some(s), Some(i)) = (square, clues.iter().position(|&(k, _)| k == step)) else {
            return Ok(());
        };
        let c = clues[i].1;
        if c == s {
            return Ok(());
        }
        let place = self.clue_spans.get(i).map_or(String::new(), |&span| {
            let (line, col) = line_col(&self.text, span.start);
            format!(" ({}:{line}:{col})", self.file)
        });
        Err(Error::option(
            ErrorKind::Mismatch,
            flag,
            value,
            Span::new(0, value.len()),
            format!(
                "step {step} is on {}{place}, but {flag} is {}",
                self.board.name(c),
                self.board.name(s)
            ),
        ))
    }

    /// Asks for a closed tour (the `--closed` flag): refused at the flag
    /// when the file gives an `end`.
    pub fn set_closed(&mut self) -> Result<(), Error> {
        if self.goal.end.is_some() && self.end_span.is_some() {
            return Err(Error::switch(
                ErrorKind::Conflict,
                "--closed",
                format!(
                    "a closed tour has no end, and the puzzle gives one ({}): `end` applies to open tours only",
                    self.field_at("end", self.end_span)
                ),
            )
            .with_help("`--end any` drops the puzzle's end"));
        }
        self.goal.closed = true;
        Ok(())
    }

    /// Where `span` is in the file, as `file:line:col`.
    fn location(&self, span: Option<Span>) -> Option<String> {
        span.map(|span| {
            let (line, col) = line_col(&self.text, span.start);
            format!("{}:{line}:{col}", self.file)
        })
    }

    /// Where `span` is in the file, as ` (file:line:col)`; empty for none.
    fn place(&self, span: Option<Span>) -> String {
        self.location(span)
            .map_or(String::new(), |at| format!(" ({at})"))
    }

    /// `what` (a field as the file writes it), and where it is in the
    /// file, if it is there: `` `end` at file:line:col ``.
    fn field_at(&self, what: &str, span: Option<Span>) -> String {
        match self.location(span) {
            Some(at) => format!("`{what}` at {at}"),
            None => format!("`{what}`"),
        }
    }

    /// Asks for an open tour (the `--open` flag).
    pub fn set_open(&mut self) {
        self.goal.closed = false;
    }

    /// Sets the end square of an open tour from a command-line value like
    /// `h8`, `(7,7)` or `any` (the `--end` flag).
    pub fn set_end(&mut self, value: &str) -> Result<(), Error> {
        if value.trim() == "any" {
            self.goal.end = None;
            self.end_span = None;
            return Ok(());
        }
        if self.goal.closed {
            return Err(Error::option(
                ErrorKind::Conflict,
                "--end",
                value,
                Span::new(0, value.len()),
                "`end` applies to open tours only; a closed tour ends next to its start",
            )
            .with_help("--open asks for an open tour"));
        }
        let s =
            lang::parse_square(value, 0, &self.board).map_err(|e| flag_error("--end", value, e))?;
        self.goal.end = Some(s);
        self.end_span = None;
        self.check_clue_end("--end", value)?;
        self.check_start_end(Some("--end"))
    }

    /// Replaces the board with `value`, in the board language (the
    /// `--board` flag). A start or end square the file gives is placed
    /// again on the new board.
    pub fn set_board(&mut self, value: &str) -> Result<(), Error> {
        let own = match (
            self.constraints.clues.is_empty(),
            self.constraints.symmetry.is_none(),
        ) {
            (true, true) => None,
            (false, true) => Some("this puzzle's clues belong to its own board"),
            (true, false) => Some("this puzzle's symmetry belongs to its own board"),
            (false, false) => Some("this puzzle's clues and symmetry belong to its own board"),
        };
        if let Some(message) = own {
            return Err(Error::option(
                ErrorKind::Conflict,
                "--board",
                value,
                Span::new(0, value.len()),
                message,
            ));
        }
        let board = lang::parse_board(value, 0).map_err(|e| flag_error("--board", value, e))?;
        if let Some(message) = graph_too_big(&board, &self.piece) {
            return Err(Error::option(
                ErrorKind::TooBig,
                "--board",
                value,
                Span::new(0, value.len()),
                message,
            )
            .with_help(GRAPH_HELP));
        }
        let replace = |span: Option<Span>, square: Option<u32>| -> Result<Option<u32>, Error> {
            match (span, square) {
                (Some(span), Some(_)) => {
                    // The square as the file writes it, escapes and all.
                    let raw = self.text.get(span.start..span.end).unwrap_or_default();
                    lang::parse_square(&locate::unescape(raw), 0, &board)
                        .map(Some)
                        .map_err(|e| {
                            let at = |i| span.start + locate::raw_offset(raw, i);
                            let span = Span::new(at(e.span.start), at(e.span.end));
                            Error::at(e.kind, &self.file, &self.text, span, e.message)
                                .with_help(format!("the board is {value} (--board)"))
                        })
                }
                // A square given by a flag is placed after the board.
                _ => Ok(None),
            }
        };
        let start = replace(self.start_span, self.goal.start)?;
        let end = replace(self.end_span, self.goal.end)?;
        self.board = board;
        self.board_span = None;
        self.board_text = escape_controls(value.trim()).into_owned();
        self.goal.start = start;
        self.goal.end = end;
        Ok(())
    }

    /// Replaces the piece with `value`, in the piece language (the
    /// `--piece` flag); the file's `pieces` names may be used.
    pub fn set_piece(&mut self, value: &str) -> Result<(), Error> {
        let piece = lang::Resolver::new(&self.defs)
            .and_then(|mut r| r.piece(value, 0))
            .map_err(|e| flag_error("--piece", value, e))?;
        if let Some(message) = graph_too_big(&self.board, &piece) {
            return Err(Error::option(
                ErrorKind::TooBig,
                "--piece",
                value,
                Span::new(0, value.len()),
                message,
            )
            .with_help(GRAPH_HELP));
        }
        self.piece = piece;
        self.piece_text = escape_controls(value.trim()).into_owned();
        Ok(())
    }

    /// A puzzle given by flags alone: `board` (default 8x8) and `piece`
    /// (default the knight), an open tour from any square; its text is a
    /// puzzle file that reads back as the same puzzle.
    pub fn from_flags(board: Option<&str>, piece: Option<&str>) -> Result<Puzzle, Error> {
        let mut p = Puzzle::parse(FLAGS_NAME, r#"Puzzle(board: "8x8", piece: "knight")"#)?;
        if let Some(b) = board {
            p.set_board(b)?;
        }
        if let Some(q) = piece {
            p.set_piece(q)?;
        }
        p.name = "Command-line puzzle".to_string();
        p.rewrite_text();
        Ok(p)
    }

    /// For a puzzle given by flags alone: its text becomes the puzzle file
    /// that states it, as the archive keeps it. A file's puzzle keeps its
    /// file's text.
    pub fn rewrite_text(&mut self) {
        if self.file != FLAGS_NAME {
            return;
        }
        let quote = |t: &str| ron::to_string(t).unwrap_or_else(|_| format!("{t:?}"));
        let mut text = format!(
            "Puzzle(\n    name: {},\n    board: {},\n    piece: {},\n    tour: {},\n",
            quote(&self.name),
            quote(&self.board_text),
            quote(&self.piece_text),
            if self.goal.closed { "Closed" } else { "Open" }
        );
        for (key, square) in [("start", self.goal.start), ("end", self.goal.end)] {
            if let Some(s) = square {
                text.push_str(&format!("    {key}: {},\n", quote(&self.board.name(s))));
            }
        }
        text.push_str(")\n");
        self.text = text;
    }

    /// The file's named pieces (`pieces`): name and expression, in file
    /// order.
    pub fn piece_defs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.defs.iter().map(|d| (d.name.as_str(), d.text.as_str()))
    }

    /// Where the file gives `field` (`board`, `start`, `end`, `solver`,
    /// `clues`, `solutions`, `symmetry` or `save`), if it does (a `--board` flag
    /// replaces the file's board, and its place).
    pub fn field_span(&self, field: &str) -> Option<Span> {
        match field {
            "board" => self.board_span,
            "start" => self.start_span,
            "end" => self.end_span,
            "solver" => self.solver_span,
            "clues" => self.clues_span,
            "solutions" => self.solutions_span,
            "symmetry" => self.symmetry_span,
            "save" => self.save_span,
            _ => None,
        }
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
            constraints: &self.constraints,
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

/// A message that ends by quoting a number as the program read it (`not
/// inf` for `1e400`) quotes it as the file writes it instead.
fn as_written(err: &mut Error) {
    let written: String = err
        .source_line
        .chars()
        .skip(err.col.saturating_sub(1))
        .take(err.width)
        .collect();
    for read in ["inf", "-inf", "NaN"] {
        if let Some(head) = err.message.strip_suffix(&format!(" not {read}"))
            && !written.is_empty()
        {
            err.message = format!("{head} not {written}");
            return;
        }
    }
}

/// Where the RON error `e` is in `text`, in bytes: RON's span, moved onto
/// the text that is wrong. RON starts some spans at the spaces or the
/// comment before the token it could not read, a number out of range after
/// its sign, and a bad escape at the start of its string.
fn ron_span(text: &str, e: &ron::error::SpannedError) -> Span {
    use ron::error::Error as E;
    let mut start = offset_of(text, e.span.start.line, e.span.start.col);
    let end = offset_of(text, e.span.end.line, e.span.end.col).max(start);
    match &e.code {
        E::IntegerOutOfBounds => {
            if text[..start].ends_with(['-', '+']) {
                start -= 1;
            }
        }
        E::InvalidEscape(_) => {
            if let Some(b) = text[..end].rfind('\\') {
                start = b;
            }
        }
        _ => {
            let next = skip_trivia(text, start);
            // Spaces in a string are its text, not room between tokens;
            // at the end of the file there is no token to point at.
            if next < text.len() && !Locator::new(text).in_string(start) {
                start = next;
            }
        }
    }
    Span::new(start, end.max(start))
}

/// The error for the RON error `e` in `text`, from `file`: RON's message
/// made plainer, at the text that is wrong. Two faults RON reports as
/// something else are named: a number with a fraction or an exponent where
/// a whole number belongs (RON stops reading at its `.`), and a file that
/// ends before its brackets close (RON may expect a comma there).
fn ron_error(file: &str, text: &str, e: &ron::error::SpannedError) -> Error {
    let start = offset_of(text, e.span.start.line, e.span.start.col).min(text.len());
    let end = offset_of(text, e.span.end.line, e.span.end.col)
        .min(text.len())
        .max(start);
    let loc = Locator::new(text);
    if let Some((a, b)) = not_whole(text, &e.code, start) {
        let message = match loc.field_name_at(a) {
            Some(name) => format!("`{name}` must be a whole number, not {}", &text[a..b]),
            None => format!("a whole number belongs here, not {}", &text[a..b]),
        };
        return Error::at(ErrorKind::WrongType, file, text, Span::new(a, b), message)
            .with_help("a whole number is written in digits only, like 7");
    }
    if let Some(err) = unclosed_string(file, text, &loc, &e.code, start) {
        return err;
    }
    if skip_trivia(text, end) == text.len()
        && let Some(open) = loc.unclosed_at_end()
    {
        let opener = &text[open..open + 1];
        let closer = match opener {
            "(" => ")",
            "[" => "]",
            _ => "}",
        };
        let (line, col) = line_col(text, open);
        let last = loc.last_token_end();
        return Error::at(
            ErrorKind::Syntax,
            file,
            text,
            Span::new(last, last),
            format!(
                "the file ends before the `{opener}` opened at line {line}, column {col} is closed"
            ),
        )
        .with_help(format!("close it with `{closer}`"));
    }
    let span = ron_span(text, e);
    let mut err = match loc
        .field_name_at(span.start)
        .and_then(|name| wrong_type(name, &e.code, text.get(span.start..).unwrap_or_default()))
    {
        Some((message, help)) => {
            let err = Error::at(ErrorKind::WrongType, file, text, span, message);
            match help {
                Some(h) => err.with_help(h),
                None => err,
            }
        }
        None => Error::at(ron_kind(&e.code), file, text, span, ron_message(&e.code)),
    };
    as_written(&mut err);
    err
}

/// The error for a string left open, when RON's error `code` at offset
/// `start` of `text` comes from one: a string that runs on to the end of
/// the file, or a quoted string that runs on past the end of its line and
/// so swallows the next value's opening quote. RON strings may span lines,
/// so the second is named only when closing the string at the end of its
/// first line (before a trailing comma, or adding one) makes the file read
/// on past where RON stopped.
fn unclosed_string(
    file: &str,
    text: &str,
    loc: &Locator,
    code: &ron::error::Error,
    start: usize,
) -> Option<Error> {
    let opened = |open: usize, content: usize, how: &str, closer: &str| {
        let (line, col) = line_col(text, open);
        Error::at(
            ErrorKind::Syntax,
            file,
            text,
            Span::new(open, content),
            format!(
                "the string opened at line {line}, column {col} is not closed: it runs on {how}"
            ),
        )
        .with_help(format!("close it with `{closer}` where its text ends"))
    };
    if matches!(code, ron::error::Error::ExpectedStringEnd)
        && let Some((open, content, closer)) = loc.unclosed_string()
        && (open..content).contains(&start)
    {
        return Some(opened(open, content, "to the end of the file", &closer));
    }
    let (open, line_end) = loc.string_across_lines(start)?;
    let fixes: &[(usize, &str)] = if text[..line_end].ends_with(',') {
        &[(line_end - 1, "\"")]
    } else {
        &[(line_end, "\""), (line_end, "\",")]
    };
    let reads_on = |&(at, fix): &(usize, &str)| {
        let fixed = format!("{}{fix}{}", &text[..at], &text[at..]);
        match ron_options().from_str::<Doc>(&fixed) {
            Ok(_) => true,
            Err(e) => {
                let there = offset_of(&fixed, e.span.start.line, e.span.start.col);
                there.saturating_sub(fix.len()) > start
            }
        }
    };
    fixes
        .iter()
        .any(reads_on)
        .then(|| opened(open, open + 1, "past the end of its line", "\""))
}

/// What the field `name`, whose value starts `value` (the rest of the
/// file), must be when RON's error `code` says its value has the wrong
/// type; and how to write it, when quotes are missing or too many.
fn wrong_type(
    name: &str,
    code: &ron::error::Error,
    value: &str,
) -> Option<(String, Option<String>)> {
    use ron::error::Error as E;
    let word: String = value
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.split_once('"'))
        .map(|(w, _)| w)
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_'));
    Some(match code {
        E::ExpectedInteger => (format!("`{name}` must be a whole number"), None),
        E::ExpectedFloat => (format!("`{name}` must be a number"), None),
        E::ExpectedBoolean => (format!("`{name}` must be `true` or `false`"), None),
        E::ExpectedString => (
            format!("`{name}` must be a string in double quotes"),
            (!word.is_empty()).then(|| format!("write `{name}: \"{word}\"`")),
        ),
        E::ExpectedIdentifier => (
            format!("`{name}` takes a name without quotes"),
            quoted.map(|w| format!("write `{name}: {w}`")),
        ),
        _ => return None,
    })
}

/// Where the number RON stopped reading at `at` is, if it is written with
/// a fraction or an exponent (`1.5`, `2.0`, `1e3`) and the error `code`
/// says RON read it as an integer: an integer's digits followed by the rest
/// of a float, or a float refused outright.
fn not_whole(text: &str, code: &ron::error::Error, at: usize) -> Option<(usize, usize)> {
    use ron::error::Error as E;
    let b = text.as_bytes();
    let is_digit = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_');
    // RON reports these where the integer's digits end, or at its start.
    let stopped_inside = match code {
        E::ExpectedComma
        | E::ExpectedStructLikeEnd
        | E::ExpectedArrayEnd
        | E::ExpectedMapEnd
        | E::ExpectedOptionEnd
        | E::TrailingCharacters => {
            matches!(b.get(at), Some(b'.' | b'e' | b'E')) && at > 0 && is_digit(at - 1)
        }
        E::InvalidIntegerDigit { .. } | E::IntegerOutOfBounds => true,
        _ => false,
    };
    if !stopped_inside {
        return None;
    }
    // The number around `at`: back over its digits and sign, then forward
    // over everything a float may hold.
    let mut a = at.min(b.len());
    while a > 0 && is_digit(a - 1) {
        a -= 1;
    }
    if a > 0 && matches!(b[a - 1], b'-' | b'+') {
        a -= 1;
    }
    if a > 0 && (b[a - 1].is_ascii_alphanumeric() || b[a - 1] == b'_') {
        return None;
    }
    let mut z = a;
    while z < b.len()
        && (b[z].is_ascii_alphanumeric()
            || matches!(b[z], b'.' | b'_')
            || (matches!(b[z], b'-' | b'+') && (z == a || matches!(b[z - 1], b'e' | b'E'))))
    {
        z += 1;
    }
    let number = &text[a..z];
    let float = number.contains(['.', 'e', 'E']) && number.replace('_', "").parse::<f64>().is_ok();
    (float && a <= at && at <= z).then_some((a, z))
}

/// The offset of the first byte at or after `at` that is not a space or
/// part of a comment. A block comment that never closes is not skipped: it
/// is where the text goes wrong.
fn skip_trivia(text: &str, mut at: usize) -> usize {
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            at += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if trimmed.starts_with("/*") {
            let mut depth = 0usize;
            let mut i = 0;
            let b = trimmed.as_bytes();
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            if depth > 0 {
                return at;
            }
            at += i;
        } else {
            return at;
        }
    }
}

/// The start of the message for a name given twice in `pieces`, which
/// RON passes on as a message of its own.
const DUPLICATE_PIECE: &str = "duplicate piece name";

/// The kind of RON's error `code`.
fn ron_kind(code: &ron::error::Error) -> ErrorKind {
    use ron::error::Error as E;
    match code {
        E::Io(_) => ErrorKind::Io,
        E::Utf8Error(_) => ErrorKind::Encoding,
        E::NoSuchStructField { .. } => ErrorKind::UnknownField,
        E::MissingStructField { .. } => ErrorKind::MissingField,
        E::DuplicateStructField { .. } => ErrorKind::Duplicate,
        E::Message(m) if m.starts_with(DUPLICATE_PIECE) => ErrorKind::Duplicate,
        // The solver options' own checks (a population of 0), and numbers
        // out of their type's range.
        E::Message(_) | E::IntegerOutOfBounds | E::InvalidIntegerDigit { .. } => {
            ErrorKind::BadValue
        }
        E::ExpectedDifferentStructName { .. }
        | E::NoSuchEnumVariant { .. }
        | E::NoSuchExtension(_) => ErrorKind::UnknownName,
        E::ExpectedArray
        | E::ExpectedBoolean
        | E::ExpectedChar
        | E::ExpectedByteLiteral
        | E::ExpectedFloat
        | E::ExpectedInteger
        | E::ExpectedOption
        | E::ExpectedMap
        | E::ExpectedStructLike
        | E::ExpectedNamedStructLike(_)
        | E::ExpectedUnit
        | E::ExpectedString
        | E::ExpectedByteString
        | E::ExpectedIdentifier
        | E::InvalidValueForType { .. }
        | E::ExpectedDifferentLength { .. } => ErrorKind::WrongType,
        E::ExceededRecursionLimit => ErrorKind::TooBig,
        E::Fmt => ErrorKind::Internal,
        _ => ErrorKind::Syntax,
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
        E::IntegerOutOfBounds => "number out of range for this field".to_string(),
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
        assert_eq!(e.kind, ErrorKind::BadValue);
        let e = err("Puzzle(\n  board: \"8x8\",\n  piece: \"knight\",\n  colour: 3,\n)");
        assert_eq!(e.line, 4);
        assert_eq!(e.kind, ErrorKind::UnknownField);
        let e = err("Puzzle(\n  piece: \"knight\",\n)");
        assert_eq!(e.kind, ErrorKind::MissingField);
        let e = err("Puzzle(board: \"8x8\", piece: \"leaper 0 0\")");
        assert_eq!(e.col, 30);
        assert_eq!(e.kind, ErrorKind::BadValue);
        let e = err("Puzzle(board: \"8x8\", piece: \"k\", pieces: {\"k\": \"j\", \"j\": \"k\"})");
        assert_eq!(e.kind, ErrorKind::Cycle);
        let e = err("Puzzle(board: \"4x4 - b1\", piece: \"N\", start: \"b1\")");
        assert!(e.message.contains("removed"), "{}", e.message);
        assert_eq!(e.kind, ErrorKind::BadValue);
        assert_eq!(e.col, 47);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", board: \"5x5\")");
        assert_eq!(e.kind, ErrorKind::Duplicate);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", pieces: {\"a\": \"N\", \"a\": \"C\"})");
        assert_eq!(e.kind, ErrorKind::Duplicate);
        let e = err("Puzzle(board: 8, piece: \"N\")");
        assert_eq!(e.line, 1);
        assert_eq!(e.kind, ErrorKind::WrongType);
        assert_eq!(err("  // nothing\n").kind, ErrorKind::Empty);
        let e = err("Puzzle(board: \"4096x4096\", piece: \"queen\")");
        assert_eq!(e.kind, ErrorKind::TooBig);
        assert_eq!(e.col, 36);
        let e = err("Puzzle(board: \"4x4\", piece: \"N\", tour: Closed, end: \"a1\")");
        assert_eq!(e.kind, ErrorKind::Conflict);
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
        assert_eq!(e.kind, ErrorKind::TooBig);
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
        assert_eq!(e.kind, ErrorKind::TooBig);
        // Other solvers are not concerned.
        assert!(genetic("4096x4096", "Warnsdorff()").is_ok());
    }
}
