//! Pieces: an ordered list of move vectors, each a leap or a ride.

use std::fmt;

/// One move vector of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Files moved (positive: towards higher files).
    pub dx: i32,
    /// Ranks moved (positive: towards higher ranks).
    pub dy: i32,
    /// How many times the step may repeat: 1 for a leap, `UNLIMITED` for a
    /// rider with no cap.
    pub range: u32,
    /// Lame (Betza's `n`): a removed square on the move's path blocks it
    /// (see [`Move::path`]).
    pub lame: bool,
}

/// `range` of a rider with no maximum distance.
pub const UNLIMITED: u32 = u32::MAX;

impl Move {
    /// A single leap by (dx, dy).
    pub fn leap(dx: i32, dy: i32) -> Move {
        Move::ride(dx, dy, 1)
    }

    /// A slide by repeated (dx, dy) steps, at most `range` of them.
    pub fn ride(dx: i32, dy: i32, range: u32) -> Move {
        Move {
            dx,
            dy,
            range,
            lame: false,
        }
    }

    /// The steps a lame move's leap passes over, relative to where it starts
    /// (the leap's own target excluded): for an orthogonal or diagonal leap
    /// the squares between; for an oblique leap the orthogonal steps along
    /// the longer leg first, then the diagonal ones — so the knight's (1,2)
    /// passes (0,1), as the xiangqi horse does.
    pub fn path(&self) -> Vec<(i32, i32)> {
        let (ax, ay) = (self.dx.abs(), self.dy.abs());
        let (sx, sy) = (self.dx.signum(), self.dy.signum());
        let (long, short) = (ax.max(ay), ax.min(ay));
        let mut out = Vec::new();
        let (mut x, mut y) = (0, 0);
        // Orthogonal steps along the longer leg: long − short of them (none
        // for a diagonal leap).
        for _ in 0..long - short {
            if ax >= ay {
                x += sx;
            } else {
                y += sy;
            }
            out.push((x, y));
        }
        // Then the diagonal steps, but the last lands on the target.
        for _ in 0..short {
            x += sx;
            y += sy;
            out.push((x, y));
        }
        out.pop();
        out
    }

    /// True for a rider (more than one step allowed).
    pub fn is_rider(&self) -> bool {
        self.range > 1
    }
}

/// Above this product of the moves a union holds and those it adds, the
/// moves are hashed rather than compared one with another.
const COMPARE_BELOW: usize = 8192;

/// A piece: its moves in the order backtracking with `order: Given` tries them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Piece {
    moves: Vec<Move>,
}

impl Piece {
    /// A piece with exactly these moves, in this order (repeats dropped).
    pub fn new(moves: impl IntoIterator<Item = Move>) -> Piece {
        let mut p = Piece::default();
        p.extend(moves);
        p
    }

    /// Appends moves not already present (the union of move sets), in time
    /// linear in the moves: a few are compared with every move held, more
    /// are hashed (with a fast hash, in a set sized up front: a file may
    /// make thousands of unions of lists of thousands of moves).
    pub fn extend(&mut self, moves: impl IntoIterator<Item = Move>) {
        let moves = moves.into_iter();
        let incoming = moves.size_hint().1.unwrap_or(usize::MAX);
        if self
            .moves
            .len()
            .saturating_add(incoming)
            .saturating_mul(incoming)
            <= COMPARE_BELOW
        {
            for m in moves {
                if !self.moves.contains(&m) {
                    self.moves.push(m);
                }
            }
            return;
        }
        let room = self.moves.len() + moves.size_hint().0;
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(
            room,
            foldhash::fast::FixedState::default(),
        );
        seen.extend(self.moves.iter().copied());
        for m in moves {
            if seen.insert(m) {
                self.moves.push(m);
            }
        }
    }

    /// The union: `self`'s moves, then `other`'s that are new.
    pub fn union(mut self, other: &Piece) -> Piece {
        self.extend(other.moves.iter().copied());
        self
    }

    /// The moves in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// True if any move is a ride.
    pub fn has_rider(&self) -> bool {
        self.moves.iter().any(Move::is_rider)
    }

    /// The (m, n) leaper: every sign and swap image of (m, n), deduplicated,
    /// in compass order — clockwise by bearing, starting from the image that
    /// points most nearly straight up (north, +rank).
    ///
    /// ```
    /// use engine::model::Piece;
    /// let knight = Piece::leaper(1, 2, 1);
    /// let v: Vec<(i32, i32)> = knight.moves().iter().map(|m| (m.dx, m.dy)).collect();
    /// assert_eq!(v, [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
    /// ```
    pub fn leaper(m: i32, n: i32, range: u32) -> Piece {
        let mut images = Vec::with_capacity(8);
        for (a, b) in [(m, n), (n, m)] {
            for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let v = (a * sa, b * sb);
                if !images.contains(&v) {
                    images.push(v);
                }
            }
        }
        images.sort_by(|&p, &q| compass_cmp(p, q));
        Piece::new(images.into_iter().map(|(dx, dy)| Move::ride(dx, dy, range)))
    }
}

/// Orders vectors clockwise by bearing, north (0, +1) first.
fn compass_cmp(p: (i32, i32), q: (i32, i32)) -> std::cmp::Ordering {
    // Half 0: bearing in [0, 180) i.e. dx > 0, or dx == 0 && dy > 0.
    let half = |(dx, dy): (i32, i32)| u8::from(!(dx > 0 || (dx == 0 && dy > 0)));
    half(p).cmp(&half(q)).then_with(|| {
        // Within a half, clockwise means the cross product p x q is negative.
        let cross = i64::from(p.0) * i64::from(q.1) - i64::from(p.1) * i64::from(q.0);
        cross.cmp(&0)
    })
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .moves
            .iter()
            .map(|m| {
                let lame = if m.lame { "n" } else { "" };
                match m.range {
                    1 => format!("{lame}({},{})", m.dx, m.dy),
                    UNLIMITED => format!("{lame}({},{})*", m.dx, m.dy),
                    k => format!("{lame}({},{})*{k}", m.dx, m.dy),
                }
            })
            .collect();
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(p: &Piece) -> Vec<(i32, i32)> {
        p.moves().iter().map(|m| (m.dx, m.dy)).collect()
    }

    #[test]
    fn wazir_images_are_deduplicated_in_compass_order() {
        assert_eq!(
            vectors(&Piece::leaper(0, 1, 1)),
            [(0, 1), (1, 0), (0, -1), (-1, 0)]
        );
        assert_eq!(
            vectors(&Piece::leaper(1, 1, 1)),
            [(1, 1), (1, -1), (-1, -1), (-1, 1)]
        );
    }

    #[test]
    fn lame_paths_step_orthogonally_then_diagonally() {
        assert_eq!(Move::leap(1, 2).path(), [(0, 1)]);
        assert_eq!(Move::leap(-2, 1).path(), [(-1, 0)]);
        assert_eq!(Move::leap(1, 3).path(), [(0, 1), (0, 2)]);
        assert_eq!(Move::leap(2, -3).path(), [(0, -1), (1, -2)]);
        assert_eq!(Move::leap(0, 3).path(), [(0, 1), (0, 2)]);
        assert_eq!(Move::leap(2, 2).path(), [(1, 1)]);
        assert!(Move::leap(1, 1).path().is_empty());
        assert!(Move::leap(0, 1).path().is_empty());
    }

    #[test]
    fn union_keeps_left_order_and_drops_repeats() {
        let a = Piece::leaper(0, 1, 1);
        let b = Piece::new([Move::leap(1, 0), Move::leap(5, 5)]);
        assert_eq!(
            vectors(&a.union(&b)),
            [(0, 1), (1, 0), (0, -1), (-1, 0), (5, 5)]
        );
    }
}
