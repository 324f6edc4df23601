//! The puzzle file: turning a file into a checked [`Puzzle`] (board, piece,
//! goal, solver). Every error names the file, line and column of the
//! offending text. A file a job:
//!
//! - `doc.rs`: the RON document types, as the file is written;
//! - `load.rs`: reading a file and checking its document into a puzzle;
//! - `rules.rs`: which options combine (solvers, clues, symmetry, saving),
//!   the one place every command asks;
//! - `overrides.rs`: the board, piece, tour kind, start and end given on
//!   the command line in place of the file's;
//! - `ron_error.rs`: RON's errors, located and worded;
//! - the languages inside the file: `lang.rs` (what they share), `board.rs`,
//!   `piece.rs`, `betza.rs`, `clues.rs`; and `locate.rs`, where its strings sit.

use crate::error::{Span, line_col};
use crate::halt::Halt;
use crate::model::{Board, Constraints, MoveGraph, Piece};
use crate::solve::{Goal, SolverSpec, Task};
use lang::PieceDef;

pub mod betza;
mod board;
pub mod clues;
mod doc;
pub mod image;
pub mod lang;
pub mod letters;
mod load;
mod locate;
mod overrides;
mod piece;
mod ron_error;
mod rules;
pub mod tour;

pub use doc::{Solutions, TourKind};
pub use load::{genetic_too_big, read_text};
pub use rules::{SAVE_OR_DRAW, Use};

/// Where one of a puzzle's settings came from: its file, a caller outside
/// the file (the command line), or neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Given {
    /// Neither gives it: the default.
    #[default]
    Default,
    /// The file, at this span of its text.
    File(Span),
    /// A caller, outside the file, with the value as given (empty for a
    /// switch, which takes none).
    Outside(String),
}

impl Given {
    /// Where the file gives the setting, if it does.
    pub fn span(&self) -> Option<Span> {
        match self {
            Given::File(span) => Some(*span),
            _ => None,
        }
    }
}

/// Where each of a puzzle's settings came from, as the rules of which
/// options combine and the messages about them need to know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    /// `board`.
    pub board: Given,
    /// `start`.
    pub start: Given,
    /// `end`.
    pub end: Given,
    /// `tour` (open or closed).
    pub tour: Given,
    /// `solver`.
    pub solver: Given,
    /// `clues` (only a file gives them; its first character).
    pub clues: Given,
    /// `solutions`.
    pub solutions: Given,
    /// `symmetry` (only a file gives it).
    pub symmetry: Given,
    /// `save`.
    pub save: Given,
    /// `letters` (only a file gives them; its first character).
    pub letters: Given,
    /// `magic` (only a file gives it).
    pub magic: Given,
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
    /// Clues, symmetry and magic sums.
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
    /// Where each setting came from.
    given: Origins,
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

/// How a puzzle given by flags alone (no file) is named in messages.
pub const FLAGS_NAME: &str = "<flags>";

impl Puzzle {
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

    /// The piece as a solver can read it without the file: `piece_text`
    /// with each of the file's named pieces (`pieces`) replaced by its
    /// expression in brackets, and `name = …` before it when the piece
    /// itself is one (`emperor = knight | (leaper 0 1)`); the piece as
    /// written when it names none, and with its number of moves when its
    /// names would spell out too long.
    pub fn piece_spelled(&self) -> String {
        let named = self.defs.iter().any(|d| d.name == self.piece_text.trim());
        match spell(&self.piece_text, &self.defs, SPELLED_DEPTH) {
            Some(spelled) if spelled == self.piece_text => spelled,
            Some(spelled) if named => {
                let inner = spelled.trim();
                let inner = inner
                    .strip_prefix('(')
                    .and_then(|s| s.strip_suffix(')'))
                    .unwrap_or(inner);
                format!("{} = {inner}", self.piece_text.trim())
            }
            Some(spelled) => spelled,
            // Too long to spell: the name, and how many moves it has.
            None => format!(
                "{} ({})",
                self.piece_text.trim(),
                crate::words::counted(self.piece.moves().len() as u64, "move")
            ),
        }
    }

    /// The file's named pieces (`pieces`): name and expression, in file
    /// order.
    pub fn piece_defs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.defs.iter().map(|d| (d.name.as_str(), d.text.as_str()))
    }

    /// Where the file gives `field` (`board`, `start`, `end`, `tour`,
    /// `solver`, `clues`, `solutions`, `symmetry`, `save`, `letters` or `magic`), if it does and
    /// no override replaced it (a board given outside the file replaces the
    /// file's, and its place).
    pub fn field_span(&self, field: &str) -> Option<Span> {
        let g = &self.given;
        match field {
            "board" => g.board.span(),
            "start" => g.start.span(),
            "end" => g.end.span(),
            "tour" => g.tour.span(),
            "solver" => g.solver.span(),
            "clues" => g.clues.span(),
            "solutions" => g.solutions.span(),
            "symmetry" => g.symmetry.span(),
            "save" => g.save.span(),
            "letters" => g.letters.span(),
            "magic" => g.magic.span(),
            _ => None,
        }
    }

    /// Where each of the puzzle's settings came from.
    pub fn origins(&self) -> &Origins {
        &self.given
    }

    /// Builds the move graph under `halt` (on the largest boards building
    /// takes seconds, and a time limit covers it). It looks at the halt
    /// before it starts, so a limit already out (a time limit of 0, or one
    /// that reading the puzzle used up) stops every command at its first
    /// piece of work, however small the board.
    pub fn graph<H: Halt>(&self, halt: &H) -> Result<MoveGraph, H::Stop> {
        halt.check()?;
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

/// The longest spelling [`Puzzle::piece_spelled`] gives: names nested in
/// each other can spell out exponentially long.
const SPELLED_MAX: usize = 200;

/// The deepest names nest in a spelling (a chain of names is spelled by
/// recursion, and nothing this deep spells out short).
const SPELLED_DEPTH: usize = 32;

/// `text` with every name of `defs` in it replaced by its expression in
/// brackets, to `depth` levels; None as soon as it is longer than
/// [`SPELLED_MAX`] or a name lies deeper.
fn spell(text: &str, defs: &[PieceDef], depth: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let end = word
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(word.len());
        let (name, after) = word.split_at(end);
        match defs.iter().find(|d| d.name == name) {
            Some(_) if depth == 0 => return None,
            Some(d) => {
                out.push('(');
                out.push_str(spell(&d.text, defs, depth - 1)?.trim());
                out.push(')');
            }
            _ => out.push_str(name),
        }
        if out.len() > SPELLED_MAX {
            return None;
        }
        rest = after;
    }
    out.push_str(rest);
    (out.len() <= SPELLED_MAX).then_some(out)
}
