//! The measured difficulty of a clue puzzle: how many squares the forced
//! deductions of [`crate::solve::clued::deduce`] fill before a search must
//! guess, and the bands (`easy`, `medium`, `hard`) drawn on that measure.

/// The difficulty bands, on the share of squares the deductions fill
/// (clues included), in percent: `easy` 100 (the deductions alone solve
/// it), `medium` at least [`MEDIUM_FLOOR`] and below 100, `hard` below
/// [`MEDIUM_FLOOR`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// The deductions fill every square.
    Easy,
    /// They fill at least [`MEDIUM_FLOOR`] percent, not all.
    Medium,
    /// They fill less than [`MEDIUM_FLOOR`] percent.
    Hard,
}

/// The lowest share of filled squares, in percent, of a `medium` puzzle.
pub const MEDIUM_FLOOR: u32 = 50;

impl Difficulty {
    /// The band `filled` squares of `squares` fall in.
    pub fn of(filled: usize, squares: usize) -> Difficulty {
        if filled >= squares {
            Difficulty::Easy
        } else if filled * 100 >= squares * MEDIUM_FLOOR as usize {
            Difficulty::Medium
        } else {
            Difficulty::Hard
        }
    }

    /// The fewest filled squares of `squares` this band allows.
    pub fn floor(self, squares: usize) -> usize {
        match self {
            Difficulty::Easy => squares,
            Difficulty::Medium => (squares * MEDIUM_FLOOR as usize).div_ceil(100),
            Difficulty::Hard => 0,
        }
    }

    /// The band's name, as `--difficulty` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands() {
        assert_eq!(Difficulty::of(64, 64), Difficulty::Easy);
        assert_eq!(Difficulty::of(32, 64), Difficulty::Medium);
        assert_eq!(Difficulty::of(31, 64), Difficulty::Hard);
        assert_eq!(Difficulty::Medium.floor(64), 32);
        assert_eq!(Difficulty::Medium.floor(25), 13);
        assert_eq!(Difficulty::of(13, 25), Difficulty::Medium);
        assert_eq!(Difficulty::of(12, 25), Difficulty::Hard);
    }
}
