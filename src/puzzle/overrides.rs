//! Command-line overrides: a board, a piece, a tour kind, a start or an
//! end, a solver, a search for two solutions or a save asked outside the
//! file replaces the file's, is checked as the file's would be, and is
//! remembered as given outside it; a puzzle may be given by the first
//! alone. Errors name the puzzle's field (`start`, `board`), with the value
//! given as their origin: a front end names its own flag
//! ([`Error::named`]).

use super::lang::{self, LangError};
use super::load::{GRAPH_HELP, clues_too_big, graph_too_big};
use super::rules::Facts;
use super::{FLAGS_NAME, Given, Puzzle, Solutions, Use, locate};
use crate::error::{Error, ErrorKind, Names, Span, Wording, called, escape_controls, line_col};
use crate::model::Magic;
use crate::solve::SolverSpec;

/// A piece or board language error in the value given for `option`.
fn given_error(option: &str, value: &str, e: LangError) -> Error {
    let err = Error::option(e.kind, option, value, e.span, e.message);
    match e.help {
        Some(h) => err.with_help(h),
        None => err,
    }
}

/// An error of `kind` at all of the value given for `option`.
fn at_given(kind: ErrorKind, option: &str, value: &str, message: impl Into<String>) -> Error {
    Error::option(kind, option, value, Span::new(0, value.len()), message)
}

/// The words of an override's errors that name options.
#[derive(Debug)]
enum Said {
    /// A clue disagrees with the `option` (`start` or `end`) given: step
    /// `step` is on `clue`, written at `place`, and the option is `square`.
    ClueEnd {
        step: u32,
        clue: String,
        place: String,
        option: &'static str,
        square: String,
    },
    /// This message, about the file's square on the board `value` given.
    OnBoard { message: String, value: String },
}

impl Wording for Said {
    fn words(&self, names: &dyn Names) -> (String, Option<String>) {
        match self {
            Said::ClueEnd {
                step,
                clue,
                place,
                option,
                square,
            } => (
                format!(
                    "step {step} is on {clue}{place}, but {} is {square}",
                    called(names, option)
                ),
                None,
            ),
            Said::OnBoard { message, value } => (
                message.clone(),
                Some(match names.name("board") {
                    Some(board) => format!("the board is {value} ({board})"),
                    None => format!("the board is {value} (given outside the file)"),
                }),
            ),
        }
    }
}

impl Puzzle {
    /// Sets the start square from a value like `b3`, `(1,2)` or `any` (the
    /// `--start` flag).
    pub fn set_start(&mut self, value: &str) -> Result<(), Error> {
        if value.trim() == "any" {
            self.goal.start = None;
            return Ok(());
        }
        let s = lang::parse_square(value, 0, &self.board)
            .map_err(|e| given_error("start", value, e))?;
        self.goal.start = Some(s);
        self.given.start = Given::Outside(value.to_string());
        self.check_clue_end("start", value)?;
        self.check_clue_size("start", value)?;
        self.check_start_end(Some("start"))
    }

    /// A start or end (`option`) given outside the file is one more clue to
    /// the search over the steps: refused at the value given when that
    /// search would no longer fit its memory.
    fn check_clue_size(&self, option: &'static str, value: &str) -> Result<(), Error> {
        match clues_too_big(&self.board, &self.piece, self.goal, &self.constraints.clues) {
            Some((message, help)) => {
                Err(at_given(ErrorKind::TooBig, option, value, message).with_help(help))
            }
            None => Ok(()),
        }
    }

    /// A start or end (`option`) given outside the file must agree with
    /// clue 1 or the last clue, as the file's must: refused at the value
    /// given, naming where the clue is written.
    fn check_clue_end(&self, option: &'static str, value: &str) -> Result<(), Error> {
        let (step, square) = if option == "start" {
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
        Err(
            at_given(ErrorKind::Mismatch, option, value, "").worded(Said::ClueEnd {
                step,
                clue: self.board.name(c),
                place,
                option,
                square: self.board.name(s),
            }),
        )
    }

    /// Asks for a closed tour (the `--closed` flag): refused when the file
    /// gives an `end`.
    pub fn set_closed(&mut self) -> Result<(), Error> {
        let mut asked = Facts::of(self);
        asked.closed = true;
        asked.given.tour = Given::Outside(String::new());
        if let Some(e) = asked.refusal(Use::Read) {
            return Err(e);
        }
        self.goal.closed = true;
        self.given.tour = Given::Outside(String::new());
        Ok(())
    }

    /// Asks for an open tour (the `--open` flag).
    pub fn set_open(&mut self) {
        self.goal.closed = false;
        self.given.tour = Given::Outside(String::new());
    }

    /// Sets the end square of an open tour from a value like `h8`, `(7,7)`
    /// or `any` (the `--end` flag); `any` drops the file's end.
    pub fn set_end(&mut self, value: &str) -> Result<(), Error> {
        let given = Given::Outside(value.to_string());
        if value.trim() == "any" {
            self.goal.end = None;
            self.given.end = given;
            return Ok(());
        }
        let mut asked = Facts::of(self);
        asked.end = true;
        asked.given.end = given.clone();
        if let Some(e) = asked.refusal(Use::Read) {
            return Err(e);
        }
        let s =
            lang::parse_square(value, 0, &self.board).map_err(|e| given_error("end", value, e))?;
        self.goal.end = Some(s);
        self.given.end = given;
        self.check_clue_end("end", value)?;
        self.check_clue_size("end", value)?;
        self.check_start_end(Some("end"))
    }

    /// Replaces the board with `value`, in the board language (the
    /// `--board` flag). A start or end square the file gives is placed
    /// again on the new board.
    pub fn set_board(&mut self, value: &str) -> Result<(), Error> {
        let given = Given::Outside(value.to_string());
        let mut asked = Facts::of(self);
        asked.given.board = given.clone();
        if let Some(e) = asked.refusal(Use::Read) {
            return Err(e);
        }
        let board =
            super::image::board(value, 0, None).map_err(|e| given_error("board", value, e))?;
        if let Some(message) = graph_too_big(&board, &self.piece) {
            return Err(at_given(ErrorKind::TooBig, "board", value, message).with_help(GRAPH_HELP));
        }
        if let Some(magic) = self.constraints.magic
            && let Some(why) = magic.refusal(&board)
        {
            let asked = self.field_at("magic", self.given.magic.span());
            return Err(at_given(
                ErrorKind::Mismatch,
                "board",
                value,
                format!(
                    "{why} (the puzzle asks for a {} tour: {asked})",
                    magic.describe()
                ),
            ));
        }
        let replace = |given: &Given, square: Option<u32>| -> Result<Option<u32>, Error> {
            match (given, square) {
                (Given::File(span), Some(_)) => {
                    // The square as the file writes it, escapes and all.
                    let raw = self.text.get(span.start..span.end).unwrap_or_default();
                    lang::parse_square(&locate::unescape(raw), 0, &board)
                        .map(Some)
                        .map_err(|e| {
                            let at = |i| span.start + locate::raw_offset(raw, i);
                            let span = Span::new(at(e.span.start), at(e.span.end));
                            Error::at(e.kind, &self.file, &self.text, span, "").worded(
                                Said::OnBoard {
                                    message: e.message,
                                    value: value.to_string(),
                                },
                            )
                        })
                }
                // A square given outside the file is placed after the board.
                _ => Ok(None),
            }
        };
        let start = replace(&self.given.start, self.goal.start)?;
        let end = replace(&self.given.end, self.goal.end)?;
        self.board = board;
        self.given.board = given;
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
            .map_err(|e| given_error("piece", value, e))?;
        if let Some(message) = graph_too_big(&self.board, &piece) {
            return Err(at_given(ErrorKind::TooBig, "piece", value, message).with_help(GRAPH_HELP));
        }
        self.piece = piece;
        self.piece_text = escape_controls(value.trim()).into_owned();
        Ok(())
    }

    /// Uses `solver` instead of the file's (the `--solver` flag). Whether
    /// it can solve the puzzle is for [`Puzzle::refusal`] to say.
    pub fn set_solver(&mut self, solver: SolverSpec) {
        self.solver = solver;
        self.given.solver = Given::Outside(solver.kind().to_string());
    }

    /// Asks for two solutions (`solutions: Unique`; the `--unique` flag).
    pub fn ask_unique(&mut self) {
        self.solutions = Solutions::Unique;
        self.given.solutions = Given::Outside(String::new());
    }

    /// Asks for `magic` sums (`magic:`; `make`'s `--magic` flag, given as
    /// `value`): refused, at the value, when the board's sums cannot be met.
    pub fn ask_magic(&mut self, magic: Magic, value: &str) -> Result<(), Error> {
        if let Some(why) = magic.refusal(&self.board) {
            return Err(at_given(ErrorKind::Mismatch, "magic", value, why));
        }
        self.constraints.magic = Some(magic);
        self.given.magic = Given::Outside(value.to_string());
        Ok(())
    }

    /// Asks to save the run (`save: true`; the `--save` flag).
    pub fn ask_save(&mut self) {
        self.save = true;
        self.given.save = Given::Outside(String::new());
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
}
