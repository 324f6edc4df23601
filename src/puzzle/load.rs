//! Loading and validation: reading a puzzle file (a regular file or
//! standard input, at most [`MAX_FILE_BYTES`]), then turning its document
//! into a checked [`Puzzle`]: the board, the piece and the squares in their
//! languages, the clues and the symmetry against the board and the goal,
//! and the move graph and a genetic population against their memory
//! budgets. Every error names the file, line and column of its text.

use std::path::Path;

use super::doc::{CluesDoc, Doc, TourKind, ron_options};
use super::lang::{self, LangError, PieceDef};
use super::locate::Locator;
use super::ron_error::{ron_error, skip_trivia};
use super::{Given, MAX_FILE_BYTES, Origins, Puzzle, STDIN_NAME, Use, clues, letters};
use crate::budget;
use crate::error::{Error, ErrorKind, Span, escape_controls, line_col};
use crate::model::{Board, Constraints, MoveGraph, Piece};
use crate::solve::clued;
use crate::solve::genetic::{self, GeneticOptions};
use crate::solve::{Goal, SolverSpec};

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
pub(super) fn graph_too_big(board: &Board, piece: &Piece) -> Option<String> {
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

/// Why the search over the steps of a puzzle with `clues` (`(step,
/// square)`) on `board` with `piece` for `goal` would not fit in
/// [`budget::CLUES`]: the message and a hint, or None if it fits (or has no
/// clues). Its distances dominate: one per square for each clue next to an
/// unclued step.
pub(super) fn clues_too_big(
    board: &Board,
    piece: &Piece,
    goal: Goal,
    clues: &[(u32, u32)],
) -> Option<(String, String)> {
    if clues.is_empty() {
        return None;
    }
    let n = board.len();
    let mut steps: Vec<u32> = clues.iter().map(|&(k, _)| k).collect();
    if goal.start.is_some() {
        steps.push(1);
    }
    if goal.end.is_some() && !goal.closed {
        steps.push(n as u32);
    }
    let moves = MoveGraph::estimate_bytes(board, piece) / 4;
    let keeping = clued::distance_clues(n, &steps);
    let need = |c: usize| clued::estimate_bytes(n, moves, c);
    if need(keeping) <= budget::CLUES {
        return None;
    }
    let message = format!(
        "the search over the steps keeps the distance from every square to each clue next to an unclued step: {keeping} such clues on {n} squares would need about {}, more than the {} allowed",
        budget::bytes_over(need(keeping), budget::CLUES),
        budget::bytes(budget::CLUES)
    );
    let help = match budget::largest_that_fits(0, keeping, |c| need(c) <= budget::CLUES) {
        Some(most) => format!(
            "at most {most} such clues fit on this board (clues on consecutive steps keep none between them), or a smaller board"
        ),
        None => "no clues fit a board this large".to_string(),
    };
    Some((message, help))
}

pub(super) const GRAPH_HELP: &str = "a smaller board, or a `max` on the rider, fits";

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
    // Each step is given once (checked): its place, looked up in a map, as
    // a file may give a million clues.
    let places: std::collections::HashMap<u64, Span> =
        written.iter().map(|c| (c.step, c.span)).collect();
    let span_of = |step: u32| {
        places
            .get(&u64::from(step))
            .copied()
            .unwrap_or(Span::new(0, 0))
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
    if let Some(magic) = doc.magic
        && let Some(why) = magic.refusal(board)
    {
        let magic_at = loc
            .field_value("magic", 1)
            .map_or(Span::new(0, 0), |(a, b)| Span::new(a, b));
        return Err(at(ErrorKind::Mismatch, magic_at, why));
    }
    let spans = steps.iter().map(|&(step, _)| span_of(step)).collect();
    Ok((
        Constraints {
            clues: steps,
            symmetry,
            letters: None,
            magic: doc.magic,
        },
        spans,
    ))
}

/// The letters of a word puzzle: its `letters` picture's units and its
/// `text`, which come together or not at all.
fn word_letters(
    doc: &Doc,
    board: &Board,
    picture: Option<(Board, Vec<Option<letters::Unit>>)>,
    loc: &Locator,
    lang_err: impl Fn(LangError) -> Error,
) -> Result<Option<crate::model::Letters>, Error> {
    let whole = |field: &str| {
        let at = loc.field_value(field, 1).map_or(0, |v| v.0);
        LangError::new(ErrorKind::MissingField, Span::new(at, at + 1), "")
    };
    match (picture, &doc.text) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(lang_err(LangError {
            message: "`letters` ask for a `text`: the reading the tour must spell".to_string(),
            ..whole("letters")
        })),
        (None, Some(_)) => Err(lang_err(LangError {
            message: "a `text` asks for `letters`: the units on the squares, as a picture"
                .to_string(),
            ..whole("text")
        })),
        (Some((_, on)), Some(t)) => {
            let base = loc.field("text").unwrap_or(0);
            let reading = letters::parse_text(t, base).map_err(&lang_err)?;
            letters::build(board, &on, t, &reading)
                .map(Some)
                .map_err(lang_err)
        }
    }
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

impl Puzzle {
    /// Reads and checks the puzzle file at `path`; `-` reads standard input.
    ///
    /// Only a regular file (or standard input) is read, and at most
    /// [`MAX_FILE_BYTES`] of it: a directory, a device or a FIFO is refused
    /// before it is opened, so nothing blocks or reads forever.
    pub fn load(path: &Path) -> Result<Puzzle, Error> {
        let (file, text) = read_text(path, "a puzzle file")?;
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
        // A board picture file is read from the puzzle file's folder.
        let folder = (file != STDIN_NAME && file != super::FLAGS_NAME)
            .then(|| Path::new(file).parent())
            .flatten();
        let clues_base = loc.field("clues").unwrap_or(0);
        let picture = match &doc.clues {
            Some(CluesDoc::Picture(t)) => {
                Some(clues::parse_picture(t, clues_base).map_err(lang_err)?)
            }
            _ => None,
        };
        let letters_base = loc.field("letters").unwrap_or(0);
        let letter_picture = match &doc.letters {
            Some(t) => Some(letters::parse_picture(t, letters_base).map_err(lang_err)?),
            None => None,
        };
        let board = match (&doc.board, &picture) {
            (Some(b), None) => super::image::board(b, board_base, folder).map_err(lang_err)?,
            (Some(b), Some((pic, _))) => {
                let given = super::image::board(b, board_base, folder).map_err(lang_err)?;
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
            (None, None) => match &letter_picture {
                Some((pic, _)) => pic.clone(),
                None => {
                    return Err(Error::at(
                        ErrorKind::MissingField,
                        file,
                        text,
                        Span::new(0, 0),
                        "missing field `board` (a puzzle needs a board, unless its `clues` or `letters` are a picture)",
                    ));
                }
            },
        };

        // The letters picture draws the board when nothing else does, and
        // else must draw the same shape.
        if let Some((pic, _)) = &letter_picture
            && let Some(message) = letters::fits(&board, pic)
        {
            let at = loc.raw_span(Span::new(letters_base, letters_base + 1));
            return Err(Error::at(ErrorKind::Mismatch, file, text, at, message));
        }
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
        let (mut constraints, clue_spans) = constraints(
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
        constraints.letters = word_letters(&doc, &board, letter_picture, &loc, lang_err)?;
        if let Some((message, help)) = clues_too_big(
            &board,
            &piece,
            Goal { closed, start, end },
            &constraints.clues,
        ) {
            let at = loc
                .field_value("clues", 1)
                .map_or(Span::new(0, 0), |(a, _)| Span::new(a, a + 1));
            return Err(Error::at(ErrorKind::TooBig, file, text, at, message).with_help(help));
        }
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
            given: origins(&loc, start_span, end_span),
            clue_spans,
            defs,
        };
        p.check_start_end(None)?;
        // A file that asks for what no search honours is refused when it is
        // read, by every command.
        match p.refusal(Use::Read) {
            Some(e) => Err(e),
            None => Ok(p),
        }
    }

    /// An open tour of more than one square cannot start and end on the
    /// same square: refused, naming both places (at `given`, `start` or
    /// `end`, when that one was given outside the file).
    pub(super) fn check_start_end(&self, given: Option<&str>) -> Result<(), Error> {
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
        match (given, self.given.start.span(), self.given.end.span()) {
            (Some(given), start, end) => {
                // The other end, where the file gives it.
                let (other, span) = if given == "end" {
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
                    given,
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
}

/// Where the file gives each setting (`start` and `end` as the squares are
/// written, without the spaces around them; `clues` at their first
/// character).
fn origins(loc: &Locator, start: Option<Span>, end: Option<Span>) -> Origins {
    let at = |field: &str| {
        loc.field_value(field, 1)
            .map_or(Given::Default, |(a, b)| Given::File(Span::new(a, b)))
    };
    let square = |span: Option<Span>| span.map_or(Given::Default, Given::File);
    Origins {
        board: at("board"),
        start: square(start),
        end: square(end),
        tour: at("tour"),
        solver: at("solver"),
        clues: match at("clues") {
            Given::File(s) => Given::File(Span::new(s.start, s.end.min(s.start + 1))),
            other => other,
        },
        solutions: at("solutions"),
        symmetry: at("symmetry"),
        save: at("save"),
        letters: match at("letters") {
            Given::File(s) => Given::File(Span::new(s.start, s.end.min(s.start + 1))),
            other => other,
        },
        magic: at("magic"),
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

/// Opens `path` (named `file` in messages) for reading only if it is a
/// regular file, as the command's `what`. The open does not wait (a FIFO
/// put in the file's place after it was looked at would block an ordinary
/// open until a writer comes), and what was opened is looked at again.
fn open_regular(path: &Path, file: &str, what: &str) -> Result<std::fs::File, Error> {
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let f = open.open(path).map_err(|e| cannot_read(file, &e))?;
    let meta = f.metadata().map_err(|e| cannot_read(file, &e))?;
    if !meta.is_file() {
        return Err(not_a_file(file, &meta, what));
    }
    Ok(f)
}

/// A path that is not a regular file: what it is, and what was wanted.
fn not_a_file(file: &str, meta: &std::fs::Metadata, what: &str) -> Error {
    Error::about(
        ErrorKind::Io,
        file,
        format!(
            "is {}, not {what} (`-` reads standard input)",
            crate::output::kind_of(meta)
        ),
    )
}

/// Reads the text file at `path` (`-`: standard input) as the command's
/// `what` (`a puzzle file`): its name for messages, and its text. Only a
/// regular file (or standard input) is read, and at most
/// [`MAX_FILE_BYTES`] of it: a directory, a device or a FIFO is refused
/// before it is opened, and opening never waits, so nothing blocks or reads
/// forever (standard input, which may, is read on the command's terms).
pub fn read_text(path: &Path, what: &str) -> Result<(String, String), Error> {
    let (file, bytes) = if path.as_os_str() == "-" {
        let file = STDIN_NAME.to_string();
        let bytes = read_capped(std::io::stdin().lock(), &file)?;
        (file, bytes)
    } else {
        let file = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| cannot_read(&file, &e))?;
        if !meta.is_file() {
            return Err(not_a_file(&file, &meta, what));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(too_big(&file, meta.len()));
        }
        let f = open_regular(path, &file, what)?;
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
    Ok((file, text))
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
