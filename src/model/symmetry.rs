//! Symmetries of a puzzle: the rotations and reflections of the rectangle that
//! map the board (its removed squares and topology) and the piece's move set
//! onto themselves.

use super::{Board, Cell, Piece, Topology};

/// One of the eight rotations/reflections of a square (the dihedral group),
/// written as: optionally swap x and y, then optionally mirror x, then y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Swap files and ranks first (a reflection in the diagonal).
    pub swap: bool,
    /// Then mirror the files.
    pub flip_x: bool,
    /// Then mirror the ranks.
    pub flip_y: bool,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        swap: false,
        flip_x: false,
        flip_y: false,
    };

    /// All eight.
    pub fn all() -> impl Iterator<Item = Transform> {
        (0..8u8).map(|i| Transform {
            swap: i & 4 != 0,
            flip_x: i & 2 != 0,
            flip_y: i & 1 != 0,
        })
    }

    /// The image of `cell` on a `width` x `height` board (the board must be
    /// square when `swap` is set).
    pub fn cell(self, cell: Cell, width: u32, height: u32) -> Cell {
        let (mut x, mut y) = (cell.x, cell.y);
        let (mut w, mut h) = (width, height);
        if self.swap {
            (x, y) = (y, x);
            (w, h) = (h, w);
        }
        if self.flip_x {
            x = w - 1 - x;
        }
        if self.flip_y {
            y = h - 1 - y;
        }
        Cell::new(x, y)
    }

    /// The image of a move vector.
    pub fn vector(self, dx: i32, dy: i32) -> (i32, i32) {
        let (mut x, mut y) = (dx, dy);
        if self.swap {
            (x, y) = (y, x);
        }
        if self.flip_x {
            x = -x;
        }
        if self.flip_y {
            y = -y;
        }
        (x, y)
    }
}

/// The transforms that map `board` and `piece` onto themselves, identity first.
pub fn symmetries(board: &Board, piece: &Piece) -> Vec<Transform> {
    let (w, h) = (board.width(), board.height());
    let mut moves: Vec<(i32, i32, u32, bool)> = piece
        .moves()
        .iter()
        .map(|m| (m.dx, m.dy, m.range, m.lame))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    Transform::all()
        .filter(|t| {
            // Swapping files and ranks needs both to wrap alike.
            if t.swap
                && (w != h
                    || board.topology().wraps_files() != board.topology().wraps_ranks()
                    || matches!(board.topology(), Topology::Mobius | Topology::Klein))
            {
                return false;
            }
            let mut images: Vec<(i32, i32, u32, bool)> = moves
                .iter()
                .map(|&(dx, dy, r, lame)| {
                    let (x, y) = t.vector(dx, dy);
                    (x, y, r, lame)
                })
                .collect();
            images.sort_unstable();
            images.dedup();
            images == moves
                && (0..board.len() as u32).all(|s| board.is_square(t.cell(board.cell(s), w, h)))
        })
        .collect()
}

/// For each symmetry, where every square goes: `maps[k][s]` is the image of
/// square `s` under `symmetries(..)[k]`.
pub fn square_maps(board: &Board, transforms: &[Transform]) -> Vec<Vec<u32>> {
    let (w, h) = (board.width(), board.height());
    transforms
        .iter()
        .map(|t| {
            (0..board.len() as u32)
                .map(|s| board.square_at(t.cell(board.cell(s), w, h)).unwrap_or(s))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_board_with_knight_has_eight() {
        assert_eq!(
            symmetries(&Board::rectangle(8, 8), &Piece::leaper(1, 2, 1)).len(),
            8
        );
        assert_eq!(
            symmetries(&Board::rectangle(3, 4), &Piece::leaper(1, 2, 1)).len(),
            4
        );
    }

    #[test]
    fn holes_and_one_way_pieces_break_symmetry() {
        let b = Board::new(4, 4, Topology::Plain, |c| c != Cell::new(0, 0));
        // Only the diagonal through a1 survives (and the identity).
        assert_eq!(symmetries(&b, &Piece::leaper(1, 2, 1)).len(), 2);
        let one_way = Piece::new([crate::model::Move::leap(1, 2)]);
        assert_eq!(
            symmetries(&Board::rectangle(5, 5), &one_way),
            [Transform::IDENTITY]
        );
        let cyl = Board::new(4, 4, Topology::Cylinder, |_| true);
        assert_eq!(symmetries(&cyl, &Piece::leaper(1, 2, 1)).len(), 4);
    }
}
