//! Magic tours: the step numbers of every rank sum alike, and of every file
//! (semi-magic), and of both long diagonals too (diagonally magic). The
//! lines of a board, the sum each must reach, and the arithmetic that rules
//! a board out before any search.

use super::Board;

/// Which sums a magic tour holds equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Magic {
    /// Every rank's step numbers sum alike, and every file's.
    Semi,
    /// Every rank, every file and both long diagonals (square boards).
    Diagonal,
}

impl Magic {
    /// Its name for people: `semi-magic`, `diagonally magic`.
    pub fn describe(self) -> &'static str {
        match self {
            Magic::Semi => "semi-magic",
            Magic::Diagonal => "diagonally magic",
        }
    }

    /// Why no tour on `board` can be magic this way, from the arithmetic
    /// alone: a board with removed squares, a diagonal sum asked of a board
    /// that is not square, or sums that cannot be whole numbers. None when
    /// the sums can be met.
    pub fn refusal(self, board: &Board) -> Option<String> {
        let (w, h) = (u64::from(board.width()), u64::from(board.height()));
        if !board.is_full() {
            return Some(format!(
                "a magic tour numbers every square of a full rectangle, and this board has {} removed",
                crate::words::counted(board.removed_count() as u64, "square")
            ));
        }
        if self == Magic::Diagonal && w != h {
            return Some(format!(
                "a diagonally magic tour needs a square board, and this one is {w}x{h}"
            ));
        }
        let n = w * h;
        let total = n * (n + 1) / 2;
        for (lines, what) in [(h, "ranks"), (w, "files")] {
            if total % lines != 0 {
                let d = gcd(total, lines);
                return Some(format!(
                    "the numbers 1 to {n} sum to {total}, so a {w}x{h} board's {lines} {what} would each sum to {total}/{lines} = {}/{}: not a whole number",
                    total / d,
                    lines / d
                ));
            }
        }
        None
    }
}

/// The greatest common divisor.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The lines of a full board whose sums a magic tour holds equal: every
/// rank, every file and (diagonally magic) the two long diagonals, each
/// with the sum its step numbers must reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// For each square, the lines it is on (its rank, its file, and the
    /// diagonals it lies on).
    pub of_square: Vec<Vec<u32>>,
    /// For each line, the sum of its step numbers (steps from 1).
    pub target: Vec<u64>,
    /// For each line, its squares.
    pub squares: Vec<Vec<u32>>,
}

impl Lines {
    /// The lines of `board` for `magic`; the board must pass
    /// [`Magic::refusal`].
    pub fn new(board: &Board, magic: Magic) -> Lines {
        let (w, h) = (board.width(), board.height());
        let n = board.len() as u64;
        let (wu, hu) = (w as usize, h as usize);
        let diagonals = if magic == Magic::Diagonal && w == h {
            2
        } else {
            0
        };
        let count = hu + wu + diagonals;
        let mut squares = vec![Vec::new(); count];
        let mut of_square = vec![Vec::new(); board.len()];
        for s in 0..board.len() as u32 {
            let c = board.cell(s);
            let mut on = vec![c.y, h + c.x];
            if diagonals > 0 && c.x == c.y {
                on.push(h + w);
            }
            if diagonals > 0 && c.x + c.y + 1 == w {
                on.push(h + w + 1);
            }
            for &l in &on {
                squares[l as usize].push(s);
            }
            of_square[s as usize] = on;
        }
        let target = squares
            .iter()
            .map(|sq| sq.len() as u64 * (n + 1) / 2)
            .collect();
        Lines {
            of_square,
            target,
            squares,
        }
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// True for a board with no lines.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cell, Topology};

    #[test]
    fn the_arithmetic_rules_out_boards_whose_sums_are_not_whole() {
        assert_eq!(Magic::Semi.refusal(&Board::rectangle(8, 8)), None);
        assert_eq!(Magic::Diagonal.refusal(&Board::rectangle(4, 4)), None);
        // 1..12 sum to 78: four ranks of 19.5.
        let why = Magic::Semi.refusal(&Board::rectangle(3, 4));
        assert_eq!(
            why.as_deref(),
            Some(
                "the numbers 1 to 12 sum to 78, so a 3x4 board's 4 ranks would each sum to 78/4 = 39/2: not a whole number"
            )
        );
        // 1..15 sum to 120: whole for 3 files of 5 and 5 ranks of 3.
        assert_eq!(Magic::Semi.refusal(&Board::rectangle(3, 5)), None);
        assert!(Magic::Diagonal.refusal(&Board::rectangle(3, 5)).is_some());
        let holed = Board::new(4, 4, Topology::Plain, |c| c != Cell::new(0, 0));
        assert!(Magic::Semi.refusal(&holed).is_some());
    }

    #[test]
    fn lines_and_targets() {
        let l = Lines::new(&Board::rectangle(8, 8), Magic::Diagonal);
        assert_eq!(l.len(), 18);
        assert!(l.target.iter().all(|&t| t == 260));
        assert!(l.squares.iter().all(|s| s.len() == 8));
        let semi = Lines::new(&Board::rectangle(5, 3), Magic::Semi);
        // 3 ranks of 5 squares sum to 40, 5 files of 3 to 24.
        assert_eq!(semi.target, [40, 40, 40, 24, 24, 24, 24, 24]);
    }
}
