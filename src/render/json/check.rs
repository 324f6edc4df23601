//! The JSON report of `engine check` ([`CheckJson`]): the board, the piece,
//! and what the proofs found — or what stopped them, with every finding
//! null and nothing proven.

use crate::analysis::{Analysis, Classes};
use crate::halt::Stop;
use crate::model::{Board, Piece};

/// The report of `engine check --format json`. The findings (`moves`
/// through `theorems`, and `proof`) are null when a limit or Ctrl-C stopped
/// the checks; `impossible` is then false.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CheckJson {
    /// The board's size and kind.
    pub board: CheckBoard,
    /// The two classes of squares every move goes between, when the move
    /// graph is bipartite and in one part; else null.
    pub classes: Option<ClassesJson>,
    /// Whether every move keeps the colour of its square (found out only
    /// when the graph falls apart, where it is the reason).
    pub colour_bound: Option<bool>,
    /// How many squares have each number of moves out, for the numbers
    /// some square has.
    pub degrees: Option<Vec<Degree>>,
    /// Whether a proof rules every tour out.
    pub impossible: bool,
    /// Moves on this board (directed).
    pub moves: Option<usize>,
    /// The piece's moves, as `(dx,dy)` pairs (or Betza text for riders).
    pub moves_of_piece: String,
    /// The puzzle's name.
    pub name: String,
    /// The squares with no moves out.
    pub no_moves: Option<NoMoves>,
    /// The parts of the move graph.
    pub parts: Option<Parts>,
    /// The piece as the puzzle wrote it.
    pub piece: String,
    /// The proof that no tour exists, in a sentence; else null.
    pub proof: Option<String>,
    /// What stopped the checks (`the time limit ran out`, `interrupted`),
    /// else null.
    pub stopped: Option<String>,
    /// Whether every move can be made back.
    pub symmetric: Option<bool>,
    /// The theorems that apply to this board and piece, as sentences.
    pub theorems: Option<Vec<String>>,
}

/// A board in `check`'s report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CheckBoard {
    /// Ranks.
    pub height: u32,
    /// Squares removed.
    pub removed: usize,
    /// Squares on the board (removed ones left out).
    pub squares: usize,
    /// `plain`, `cylinder`, `torus`, … as a puzzle file writes it.
    pub topology: String,
    /// Files.
    pub width: u32,
}

/// The two classes of squares.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ClassesJson {
    /// `board_colours`, `files`, `ranks` or `unnamed`.
    pub kind: &'static str,
    /// Each class's name (`dark squares`, `light squares`).
    pub names: [&'static str; 2],
    /// Each class's squares.
    pub sizes: [usize; 2],
}

/// Squares with a number of moves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Degree {
    /// The number of moves out.
    pub moves: usize,
    /// How many squares have it.
    pub squares: usize,
}

/// The squares with no moves out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NoMoves {
    /// How many there are.
    pub count: usize,
    /// The first 26, by name.
    pub squares: Vec<String>,
}

/// The parts of the move graph.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Parts {
    /// How many there are.
    pub count: usize,
    /// The first 26 in board order.
    pub listed: Vec<PartJson>,
}

/// One part of the move graph.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PartJson {
    /// Its first square in board order, by name.
    pub first: String,
    /// Its squares.
    pub size: usize,
}

impl CheckJson {
    /// The report on the puzzle `name` (`piece_text`, read as `piece`, on
    /// `board`): the analysis, or what stopped it (`Err`).
    pub fn new(
        name: &str,
        board: &Board,
        piece_text: &str,
        piece: &Piece,
        analysis: Result<&Analysis, Stop>,
    ) -> CheckJson {
        let mut report = CheckJson {
            board: CheckBoard {
                height: board.height(),
                removed: board.removed_count(),
                squares: board.len(),
                topology: board.topology().to_string(),
                width: board.width(),
            },
            classes: None,
            colour_bound: None,
            degrees: None,
            impossible: false,
            moves: None,
            moves_of_piece: piece.to_string(),
            name: name.to_string(),
            no_moves: None,
            parts: None,
            piece: piece_text.to_string(),
            proof: None,
            stopped: None,
            symmetric: None,
            theorems: None,
        };
        let a = match analysis {
            Ok(a) => a,
            Err(stop) => {
                report.stopped = Some(stop.to_string());
                return report;
            }
        };
        report.classes = match (a.classes, a.bipartite) {
            (Some(k), Some((x, y))) => Some(ClassesJson {
                kind: match k {
                    Classes::BoardColours => "board_colours",
                    Classes::Files => "files",
                    Classes::Ranks => "ranks",
                    Classes::Unnamed => "unnamed",
                },
                names: [k.plural(0), k.plural(1)],
                sizes: [x, y],
            }),
            _ => None,
        };
        report.colour_bound = Some(a.colour_bound);
        report.degrees = Some(
            a.degree_histogram
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(d, c)| Degree {
                    moves: d,
                    squares: *c,
                })
                .collect(),
        );
        report.impossible = a.impossible.is_some();
        report.moves = Some(a.moves);
        report.no_moves = Some(NoMoves {
            count: a.degree_histogram.first().copied().unwrap_or(0),
            squares: a.no_moves.iter().map(|&s| board.name(s)).collect(),
        });
        report.parts = Some(Parts {
            count: a.components,
            listed: a
                .parts
                .iter()
                .map(|p| PartJson {
                    first: board.name(p.first),
                    size: p.size,
                })
                .collect(),
        });
        report.proof = a.impossible.clone();
        report.symmetric = Some(a.symmetric);
        report.theorems = Some(a.notes.clone());
        report
    }
}
