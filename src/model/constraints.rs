//! What a tour must satisfy beyond its goal: clues (a square's step number,
//! the Hidato family), letters (the text a tour must read), a symmetry of
//! the board that maps the tour onto itself, and magic sums.

use super::letters::Letters;
use super::magic::Magic;
use super::symmetry::Transform;

/// A rotation or reflection of the board that a symmetric tour is mapped
/// onto itself by.
///
/// A closed tour is symmetric when the image of each of its moves is one of
/// its moves (the cycle, as a set of moves, is mapped onto itself). An open
/// tour is symmetric when the image of its i-th square is its (n+1-i)-th:
/// the path is mapped onto itself reversed, so the symmetry must be its own
/// inverse (a quarter-turn cannot map an open path onto itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum TourSymmetry {
    /// A half-turn about the board's centre: (x, y) to (w-1-x, h-1-y).
    Rotate180,
    /// A quarter-turn anticlockwise (square boards): (x, y) to (n-1-y, x).
    Rotate90,
    /// The files mirrored: (x, y) to (w-1-x, y).
    MirrorFiles,
    /// The ranks mirrored: (x, y) to (x, h-1-y).
    MirrorRanks,
    /// The a1–h8 diagonal (square boards): (x, y) to (y, x).
    MirrorDiagonal,
}

impl TourSymmetry {
    /// As a transform of the rectangle.
    pub fn transform(self) -> Transform {
        let t = |swap, flip_x, flip_y| Transform {
            swap,
            flip_x,
            flip_y,
        };
        match self {
            TourSymmetry::Rotate180 => t(false, true, true),
            TourSymmetry::Rotate90 => t(true, true, false),
            TourSymmetry::MirrorFiles => t(false, true, false),
            TourSymmetry::MirrorRanks => t(false, false, true),
            TourSymmetry::MirrorDiagonal => t(true, false, false),
        }
    }

    /// Whether applying it twice is the identity (needed for open tours).
    pub fn is_involution(self) -> bool {
        self != TourSymmetry::Rotate90
    }

    /// Its order: how many times it is applied before every square is back.
    pub fn order(self) -> usize {
        if self.is_involution() { 2 } else { 4 }
    }

    /// Its name for people: `the half-turn`, `the mirror of the files`…
    pub fn describe(self) -> &'static str {
        match self {
            TourSymmetry::Rotate180 => "the half-turn",
            TourSymmetry::Rotate90 => "the quarter-turn",
            TourSymmetry::MirrorFiles => "the mirror of the files",
            TourSymmetry::MirrorRanks => "the mirror of the ranks",
            TourSymmetry::MirrorDiagonal => "the mirror in the a1 diagonal",
        }
    }
}

/// Clues, letters, symmetry and magic sums; the default constrains nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// `(step, square)` pairs, steps numbered from 1, sorted by step, each
    /// step and each square at most once.
    pub clues: Vec<(u32, u32)>,
    /// The symmetry the tour must have, if any.
    pub symmetry: Option<TourSymmetry>,
    /// The units on the squares and the text the tour must read, if any.
    pub letters: Option<Letters>,
    /// The sums the tour's step numbers must hold equal, if any.
    pub magic: Option<Magic>,
}

impl Constraints {
    /// True when nothing is constrained.
    pub fn is_empty(&self) -> bool {
        self.clues.is_empty()
            && self.symmetry.is_none()
            && self.letters.is_none()
            && self.magic.is_none()
    }

    /// True when the search over the steps must honour them: clues or
    /// letters.
    pub fn on_steps(&self) -> bool {
        !self.clues.is_empty() || self.letters.is_some()
    }

    /// The square of step `k` (1-based), if a clue fixes it.
    pub fn square_of_step(&self, k: u32) -> Option<u32> {
        self.clues
            .binary_search_by_key(&k, |&(step, _)| step)
            .ok()
            .map(|i| self.clues[i].1)
    }
}
