//! Command-line overrides: a board, a piece, a tour kind, a start or an
//! end given outside the file replaces the file's, and is checked as the
//! file's would be; a puzzle may be given by these alone.

use super::lang::{self, LangError};
use super::load::{GRAPH_HELP, graph_too_big};
use super::{FLAGS_NAME, Puzzle, locate};
use crate::error::{Error, ErrorKind, Span, escape_controls, line_col};

/// A piece or board language error in the value of a command-line flag.
fn flag_error(flag: &str, value: &str, e: LangError) -> Error {
    let err = Error::option(e.kind, flag, value, e.span, e.message);
    match e.help {
        Some(h) => err.with_help(h),
        None => err,
    }
}

impl Puzzle {
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
}
