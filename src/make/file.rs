//! The puzzle file of a made puzzle: a comment header (how it was made, its
//! clues, its measured difficulty), then the puzzle with its clues as a
//! picture, numbers standing on their squares, that `engine run` reads.

use crate::model::{Board, Cell, Topology, file_name};
use crate::puzzle::Puzzle;

use super::Made;

/// The clue picture of `board` with `clues` (`(step, square)`): one line
/// per rank, top rank first, each token right-aligned to the width of the
/// largest step — `.` a square, `#` a removed square, a number a clue —
/// indented by `indent` spaces.
pub fn picture(board: &Board, clues: &[(u32, u32)], indent: usize) -> String {
    let mut step_of = vec![0u32; board.len()];
    for &(k, s) in clues {
        step_of[s as usize] = k;
    }
    let w = board.len().to_string().len();
    let mut out = String::new();
    for y in (0..board.height()).rev() {
        let tokens: Vec<String> = (0..board.width())
            .map(|x| {
                let t = match board.square_at(Cell::new(x, y)) {
                    None => "#".to_string(),
                    Some(s) if step_of[s as usize] > 0 => step_of[s as usize].to_string(),
                    Some(_) => ".".to_string(),
                };
                format!("{t:>w$}")
            })
            .collect();
        out.push_str(&" ".repeat(indent));
        out.push_str(&tokens.join(" "));
        out.push('\n');
    }
    out
}

/// A string as RON writes it.
pub(crate) fn quote(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// The board expression of a board the picture alone cannot state: its
/// size and topology, with its removed squares (which the picture must
/// not remove on its own). `None` for a plain board.
pub(super) fn board_expression(board: &Board) -> Option<String> {
    if board.topology() == Topology::Plain {
        return None;
    }
    let mut s = format!("{}x{} {}", board.width(), board.height(), board.topology());
    let mut first = true;
    for y in 0..board.height() {
        for x in 0..board.width() {
            if !board.is_square(Cell::new(x, y)) {
                s.push_str(if first { " - " } else { " " });
                first = false;
                s.push_str(&format!("{}{}", file_name(x), y + 1));
            }
        }
    }
    Some(s)
}

/// What every made puzzle's first line says (see the header `engine
/// make` writes): it marks the file as one `make` may write over.
pub const MADE_MARK: &str = "made by `engine make";

/// A made puzzle file, as an output: one whose first line is a comment
/// with [`MADE_MARK`]. A hand-written puzzle is another kind, not replaced
/// unless forced.
pub const KIND: crate::output::Kind = crate::output::Kind {
    name: "a puzzle made by `engine make`",
    is: |b| {
        let line = b.split(|&c| c == b'\n').next().unwrap_or_default();
        line.starts_with(b"//")
            && line
                .windows(MADE_MARK.len())
                .any(|w| w == MADE_MARK.as_bytes())
    },
};

/// The opening of a made puzzle's file: the `header` lines as comments,
/// then `Puzzle(` with `name`, the board (unless 8x8), the piece, its
/// named pieces and a closed tour; the caller adds its fields and `)`.
pub(crate) fn puzzle_head(puzzle: &Puzzle, name: &str, header: &[String]) -> String {
    let mut t = String::new();
    for line in header {
        t.push_str("// ");
        t.push_str(line);
        t.push('\n');
    }
    t.push_str("Puzzle(\n");
    t.push_str(&format!("    name: {},\n", quote(name)));
    if let Some(b) = board_expression(&puzzle.board) {
        t.push_str(&format!("    board: {},\n", quote(&b)));
    }
    t.push_str(&format!("    piece: {},\n", quote(&puzzle.piece_text)));
    let defs: Vec<(&str, &str)> = puzzle.piece_defs().collect();
    if !defs.is_empty() {
        t.push_str("    pieces: {\n");
        for (k, v) in defs {
            t.push_str(&format!("        {}: {},\n", quote(k), quote(v)));
        }
        t.push_str("    },\n");
    }
    if puzzle.goal.closed {
        t.push_str("    tour: Closed,\n");
    }
    t
}

/// The text of the puzzle file: `header` as `//` comments, then the puzzle
/// named `name`, with `puzzle`'s piece (and named pieces), tour kind and
/// board, magic sums, and `made`'s clues as a picture. Start and end are left out:
/// clues 1 and n, always given, say them.
pub fn puzzle_text(puzzle: &Puzzle, made: &Made, name: &str, header: &[String]) -> String {
    let mut t = puzzle_head(puzzle, name, header);
    if let Some(magic) = puzzle.constraints.magic {
        t.push_str(&format!("    magic: {magic:?},\n"));
    }
    t.push_str("    clues: r#\"\n");
    t.push_str(&picture(&puzzle.board, &made.clues, 4));
    t.push_str("\"#,\n)\n");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_aligns_numbers_and_marks_removed_squares() {
        let board = Board::new(3, 4, Topology::Plain, |c| c != Cell::new(2, 3));
        // Squares in board order: a1 b1 c1 a2 … a4 b4.
        let pic = picture(&board, &[(1, 0), (11, 10)], 2);
        assert_eq!(pic, "   . 11  #\n   .  .  .\n   .  .  .\n   1  .  .\n");
    }

    #[test]
    fn a_wrapping_board_is_stated_with_its_holes() {
        let board = Board::new(4, 4, Topology::Torus, |c| c != Cell::new(1, 0));
        assert_eq!(board_expression(&board).as_deref(), Some("4x4 torus - b1"));
        assert_eq!(board_expression(&Board::rectangle(4, 4)), None);
    }
}
