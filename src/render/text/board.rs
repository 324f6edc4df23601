//! The board and the path as text: the numbered grid (and whether a report
//! prints it), the move list in algebraic names, and the parallel writer of
//! a path's squares that the move list and the JSON arrays share.

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::model::{Board, Cell, file_name};

/// Boards wider or taller than this print a summary instead of the grid
/// unless the grid is asked for.
pub const GRID_MAX_SIDE: u32 = 40;

/// Whether a report prints a board's grid and its tour's move list, and
/// what it says where it leaves them out: the caller's hints on how to have
/// them printed anyway (the command line names its flags). Both are left
/// out on boards more than [`GRID_MAX_SIDE`] squares a side, where the
/// report is a summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridChoice<'h> {
    /// Print the grid whatever the board's size.
    pub always: bool,
    /// How to have a grid left out printed, said after the note that it is.
    pub hint: Option<&'h str>,
    /// Print the move list whatever the board's size.
    pub moves: bool,
    /// How to have a move list left out printed.
    pub moves_hint: Option<&'h str>,
}

impl GridChoice<'_> {
    /// Whether the grid of `board` is printed.
    pub fn shows(&self, board: &Board) -> bool {
        self.always || grid_fits(board)
    }

    /// Whether the move list of a tour of `board` is printed.
    pub fn lists(&self, board: &Board) -> bool {
        self.moves || grid_fits(board)
    }

    /// The line said in the move list's place: `Tour: a1 … c2 (N squares;
    /// the move list is too long to print; HINT)`, for a path of `board`
    /// labelled `label`.
    pub fn moves_left_out(&self, board: &Board, label: &str, path: &[u32]) -> String {
        let ends = match (path.first(), path.last()) {
            (Some(&a), Some(&b)) => format!("{} … {}", board.name(a), board.name(b)),
            _ => String::new(),
        };
        let count = crate::words::many(path.len() as u64, "square");
        match self.moves_hint {
            Some(hint) => {
                format!("{label}: {ends} ({count}; the move list is too long to print; {hint})\n")
            }
            None => format!("{label}: {ends} ({count}; the move list is too long to print)\n"),
        }
    }

    /// The line said in the grid's place: `(WHAT too large to print; HINT)`.
    pub fn left_out(&self, what: &str) -> String {
        match self.hint {
            Some(hint) => format!("({what} too large to print; {hint})\n"),
            None => format!("({what} too large to print)\n"),
        }
    }
}

/// The board with each visited square's step number (1-based); removed
/// squares are `#`, unvisited squares `.`.
pub fn grid(board: &Board, path: &[u32]) -> String {
    let n = board.len();
    let mut step = vec![0usize; n];
    for (i, &s) in path.iter().enumerate() {
        step[s as usize] = i + 1;
    }
    grid_with(board, n.to_string().len().max(2), |s| {
        match step[s as usize] {
            0 => ".".to_string(),
            k => k.to_string(),
        }
    })
}

/// The board as a grid with rank numbers and file letters, each square
/// showing `cell(square)` right-aligned in `w` columns and removed squares
/// as `#`.
pub fn grid_with(board: &Board, w: usize, cell: impl Fn(u32) -> String) -> String {
    let rank_w = board.height().to_string().len();
    let mut out = String::new();
    for y in (0..board.height()).rev() {
        let _ = write!(out, "{:>rank_w$} |", y + 1);
        for x in 0..board.width() {
            let text = match board.square_at(Cell::new(x, y)) {
                None => "#".repeat(w),
                Some(s) => format!("{:>w$}", cell(s)),
            };
            out.push(' ');
            out.push_str(&text);
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>rank_w$}  ", "");
    for x in 0..board.width() {
        let _ = write!(out, " {:>w$}", file_name(x));
    }
    out.push('\n');
    out
}

/// Whether the grid of `board` is small enough to read.
pub fn grid_fits(board: &Board) -> bool {
    board.width() <= GRID_MAX_SIDE && board.height() <= GRID_MAX_SIDE
}

/// The squares of `path` in algebraic notation, space-separated.
pub fn move_list(board: &Board, path: &[u32]) -> String {
    let mut out = String::with_capacity(path.len() * 4);
    push_move_list(&mut out, board, path);
    out
}

/// Appends the move list to `out` (no allocation per square: a 4096x4096
/// tour has 16 million names).
pub fn push_move_list(out: &mut String, board: &Board, path: &[u32]) {
    each_move_list_part(board, path, |part| out.push_str(part));
}

/// Hands the move list to `emit` in parts, in order (names separated by
/// spaces).
pub(crate) fn each_move_list_part(board: &Board, path: &[u32], emit: impl FnMut(&str)) {
    let pieces = Pieces::new(board, file_name, |y| (y + 1).to_string(), " ");
    each_part(board, path, &pieces, emit);
}

/// At most this many bytes of text, copied as one block of this size: a
/// file's letters or a rank's digits, with the punctuation around them
/// (a `u32` coordinate has at most 7 letters or 10 digits).
const PIECE: usize = 16;

/// A short text kept in a fixed block, so that writing it is one copy of
/// [`PIECE`] bytes (of which the first `len` count) rather than a call to
/// copy a few bytes.
#[derive(Clone, Copy)]
struct Piece {
    bytes: [u8; PIECE],
    len: usize,
}

impl Piece {
    fn new(text: &str) -> Piece {
        let mut bytes = [0u8; PIECE];
        let len = text.len().min(PIECE);
        bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        Piece { bytes, len }
    }
}

/// How a path's squares are written: each square as its file's piece then
/// its rank's piece (a name `b3`, a JSON string `"b3"`, a pair `[1,2]`),
/// `sep` between squares.
pub(crate) struct Pieces {
    xs: Vec<Piece>,
    ys: Vec<Piece>,
    sep: Piece,
}

impl Pieces {
    /// The pieces of every file (`x`) and rank (`y`) of `board`.
    pub(crate) fn new(
        board: &Board,
        x: impl Fn(u32) -> String,
        y: impl Fn(u32) -> String,
        sep: &str,
    ) -> Pieces {
        Pieces {
            xs: (0..board.width()).map(|i| Piece::new(&x(i))).collect(),
            ys: (0..board.height()).map(|i| Piece::new(&y(i))).collect(),
            sep: Piece::new(sep),
        }
    }

    /// Writes `squares` into `buf` from `at` (`first`: the path's first
    /// square is among them, with no separator before it), and returns
    /// where the text ends. `buf` has room for [`Pieces::room`] bytes a
    /// square from `at`.
    fn fill(
        &self,
        buf: &mut [u8],
        at: usize,
        board: &Board,
        squares: &[u32],
        first: bool,
    ) -> usize {
        let mut pos = at;
        let mut put = |p: &Piece| {
            if let Some(block) = buf.get_mut(pos..pos + PIECE) {
                block.copy_from_slice(&p.bytes);
                pos += p.len;
            }
        };
        for (j, &s) in squares.iter().enumerate() {
            // A separator before every square but the very first.
            if !(first && j == 0) {
                put(&self.sep);
            }
            let c = board.cell(s);
            put(&self.xs[c.x as usize]);
            put(&self.ys[c.y as usize]);
        }
        pos
    }

    /// The bytes [`Pieces::fill`] may touch for `squares` squares.
    fn room(squares: usize) -> usize {
        3 * PIECE * squares
    }
}

/// Hands `path`, written with `pieces`, to `emit` in parts, in order: a few
/// thousand squares at a time through one buffer, or on the largest boards
/// (a 4096x4096 tour has 16 million squares) in chunks on every core.
pub(crate) fn each_part(board: &Board, path: &[u32], pieces: &Pieces, mut emit: impl FnMut(&str)) {
    // Square names are letters and digits, whole pieces: always text.
    let mut text = |bytes: &[u8]| match std::str::from_utf8(bytes) {
        Ok(t) => emit(t),
        Err(_) => emit(&String::from_utf8_lossy(bytes)),
    };
    const STEP: usize = 1 << 11;
    const CHUNK: usize = 1 << 16;
    if path.len() < 1 << 20 {
        let mut buf = vec![0u8; Pieces::room(STEP.min(path.len()))];
        for (i, squares) in path.chunks(STEP).enumerate() {
            let end = pieces.fill(&mut buf, 0, board, squares, i == 0);
            text(&buf[..end]);
        }
        return;
    }
    for (b, batch) in path.chunks(1 << 20).enumerate() {
        let parts: Vec<Vec<u8>> = batch
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(i, squares)| {
                let mut buf = vec![0u8; Pieces::room(squares.len())];
                let end = pieces.fill(&mut buf, 0, board, squares, b + i == 0);
                buf.truncate(end);
                buf
            })
            .collect();
        for part in &parts {
            text(part);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_lists_match_the_names() {
        // Wide enough for two-letter files, long enough for the table path
        // and for several chunks.
        let b = Board::rectangle(40, 3);
        let path: Vec<u32> = (0..300_000u32).map(|i| (i * 7919) % 120).collect();
        let names: Vec<String> = path.iter().map(|&s| b.name(s)).collect();
        assert_eq!(move_list(&b, &path), names.join(" "));
        assert_eq!(move_list(&b, &path[..5]), names[..5].join(" "));
        assert_eq!(move_list(&b, &[]), "");
    }

    #[test]
    fn grid_marks_removed_and_steps() {
        let b = Board::new(2, 2, crate::model::Topology::Plain, |c| {
            c != Cell::new(1, 1)
        });
        let g = grid(&b, &[0, 2]);
        assert_eq!(g, "2 |  2 ##\n1 |  1  .\n     a  b\n");
    }

    #[test]
    fn a_grid_left_out_says_the_hint() {
        let big = Board::rectangle(41, 2);
        let quiet = GridChoice::default();
        assert!(!quiet.shows(&big));
        assert!(
            GridChoice {
                always: true,
                ..GridChoice::default()
            }
            .shows(&big)
        );
        assert_eq!(quiet.left_out("board"), "(board too large to print)\n");
        let hinted = GridChoice {
            hint: Some("ask for it"),
            moves_hint: Some("ask for them"),
            ..GridChoice::default()
        };
        assert!(!hinted.lists(&big));
        assert_eq!(
            hinted.moves_left_out(&big, "Tour", &[0, 1, 43]),
            "Tour: a1 … c2 (3 squares; the move list is too long to print; ask for them)\n"
        );
        assert_eq!(
            hinted.left_out("board"),
            "(board too large to print; ask for it)\n"
        );
    }
}
