//! Theorems about leapers on full rectangles, stated and applied to one
//! board: Schwenk's on closed knight's tours, the open-tour theorem of
//! Conrad et al. on open ones, and Knuth's on when a leaper graph is
//! connected. Each applies only to a full plain m x n board and exactly the
//! piece it is about.

use crate::model::{Board, Move, Piece, Topology};

/// The shorter and the longer side of a full plain board, if `board` is one.
fn full_rectangle(board: &Board) -> Option<(u32, u32)> {
    (board.is_full() && board.topology() == Topology::Plain).then(|| {
        (
            board.width().min(board.height()),
            board.width().max(board.height()),
        )
    })
}

/// Schwenk's theorem (1991) for one board: an m x n board with m <= n has a
/// closed knight's tour unless m and n are both odd; or m is 1, 2 or 4; or
/// m = 3 and n is 4, 6 or 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schwenk {
    /// The shorter side.
    pub m: u32,
    /// The longer side.
    pub n: u32,
    /// Which condition rules a closed tour out, if one does.
    pub obstruction: Option<&'static str>,
}

impl Schwenk {
    /// Whether the board has a closed knight's tour.
    pub fn closed_tour_exists(&self) -> bool {
        self.obstruction.is_none()
    }

    /// The theorem and its verdict here, for people.
    pub fn note(&self) -> String {
        let statement = "Schwenk's theorem (1991): a full m x n board, m <= n, has a closed knight's tour unless m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8";
        match self.obstruction {
            None => format!("{statement}; so this {}x{} board has one", self.m, self.n),
            Some(why) => format!(
                "{statement}; so this {}x{} board has none ({why})",
                self.m, self.n
            ),
        }
    }
}

/// Schwenk's verdict when `piece` is exactly the knight (its eight leaps, in
/// any order) and `board` a full plain rectangle; None otherwise.
pub fn schwenk(board: &Board, piece: &Piece) -> Option<Schwenk> {
    let (m, n) = full_rectangle(board)?;
    if !is_leaper(piece, 1, 2) {
        return None;
    }
    let obstruction = if m % 2 == 1 && n % 2 == 1 {
        Some("both sides are odd")
    } else if matches!(m, 1 | 2 | 4) {
        Some("a side of 1, 2 or 4")
    } else if m == 3 && matches!(n, 4 | 6 | 8) {
        Some("3x4, 3x6 and 3x8 are the exceptions")
    } else {
        None
    };
    Some(Schwenk { m, n, obstruction })
}

/// The open-tour theorem (Conrad, Hindrichs, Morsy and Wegener, 1994) for
/// one board: an m x n board with m <= n has an open knight's tour unless
/// m = 1 < n; or m = 2; or m = 3 and n is 3, 5 or 6; or m = n = 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conrad {
    /// The shorter side.
    pub m: u32,
    /// The longer side.
    pub n: u32,
    /// Which condition rules an open tour out, if one does.
    pub obstruction: Option<&'static str>,
}

impl Conrad {
    /// Whether the board has an open knight's tour.
    pub fn open_tour_exists(&self) -> bool {
        self.obstruction.is_none()
    }

    /// The theorem and its verdict here, for people.
    pub fn note(&self) -> String {
        let statement = "the open-tour theorem (Conrad, Hindrichs, Morsy and Wegener, 1994): a full m x n board, m <= n, has an open knight's tour unless m = 1 < n, m = 2, m = 3 and n is 3, 5 or 6, or m = n = 4";
        match self.obstruction {
            None => format!("{statement}; so this {}x{} board has one", self.m, self.n),
            Some(why) => format!(
                "{statement}; so this {}x{} board has none ({why})",
                self.m, self.n
            ),
        }
    }
}

/// The open-tour theorem's verdict when `piece` is exactly the knight and
/// `board` a full plain rectangle; None otherwise.
pub fn conrad(board: &Board, piece: &Piece) -> Option<Conrad> {
    let (m, n) = full_rectangle(board)?;
    if !is_leaper(piece, 1, 2) {
        return None;
    }
    let obstruction = if m == 1 && n > 1 {
        Some("a side of 1")
    } else if m == 2 {
        Some("a side of 2")
    } else if m == 3 && matches!(n, 3 | 5 | 6) {
        Some("3x3, 3x5 and 3x6 are the exceptions")
    } else if m == 4 && n == 4 {
        Some("4x4 is the exception")
    } else {
        None
    };
    Some(Conrad { m, n, obstruction })
}

/// Knuth's theorem on leaper graphs (1994) for one board: with r <= s and
/// 2 <= m <= n, the {r,s}-leaper graph of an m x n board is connected
/// exactly when r + s is odd, gcd(r, s) = 1, m >= r + s and n >= 2s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knuth {
    /// The smaller leap.
    pub r: u32,
    /// The larger leap.
    pub s: u32,
    /// The shorter side.
    pub m: u32,
    /// The longer side.
    pub n: u32,
    /// The conditions that fail here (none: connected).
    pub failing: Vec<String>,
}

impl Knuth {
    /// Whether the move graph is connected.
    pub fn connected(&self) -> bool {
        self.failing.is_empty()
    }

    /// The theorem and its verdict here, for people.
    pub fn note(&self) -> String {
        let (r, s, m, n) = (self.r, self.s, self.m, self.n);
        let statement = format!(
            "Knuth's theorem on leaper graphs (1994): with r <= s and 2 <= m <= n, the {{r,s}}-leaper graph of an m x n board is connected exactly when r + s is odd, gcd(r, s) = 1, m >= r + s and n >= 2s; for the {{{r},{s}}}-leaper on {m}x{n}"
        );
        if self.connected() {
            format!(
                "{statement} all four hold ({} odd, gcd 1, {m} >= {}, {n} >= {}), so it is connected",
                r + s,
                r + s,
                2 * s
            )
        } else {
            format!(
                "{statement} {}, so it is not connected",
                self.failing.join(" and ")
            )
        }
    }
}

/// Knuth's verdict when `piece` is exactly an {r,s}-leaper (s >= 1) and
/// `board` a full plain rectangle with both sides at least 2; None otherwise.
pub fn knuth(board: &Board, piece: &Piece) -> Option<Knuth> {
    let (m, n) = full_rectangle(board)?;
    let first = piece.moves().first()?;
    let (r, s) = (
        first.dx.unsigned_abs().min(first.dy.unsigned_abs()),
        first.dx.unsigned_abs().max(first.dy.unsigned_abs()),
    );
    if m < 2 || s == 0 || !is_leaper(piece, r, s) {
        return None;
    }
    let mut failing = Vec::new();
    if (r + s) % 2 == 0 {
        failing.push(format!("r + s = {} is even", r + s));
    }
    let g = gcd(r, s);
    if g != 1 {
        failing.push(format!("gcd({r}, {s}) = {g}"));
    }
    if m < r + s {
        failing.push(format!("m = {m} < r + s = {}", r + s));
    }
    if n < 2 * s {
        failing.push(format!("n = {n} < 2s = {}", 2 * s));
    }
    Some(Knuth {
        r,
        s,
        m,
        n,
        failing,
    })
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// True when `piece` moves exactly like the {r,s}-leaper (every one of its
/// leaps, in any order, none lame or repeated).
pub fn is_leaper(piece: &Piece, r: u32, s: u32) -> bool {
    let want = Piece::leaper(r as i32, s as i32, 1);
    let plain = |m: &Move| m.range == 1 && !m.lame;
    piece.moves().len() == want.moves().len()
        && piece.moves().iter().all(plain)
        && want.moves().iter().all(|w| piece.moves().contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::MoveGraph;
    use crate::model::graph::walks;

    /// Knuth's theorem against the move graph's own parts on every board
    /// up to 9x9 for every leaper with s <= 4.
    #[test]
    fn knuth_agrees_with_the_move_graph() {
        for s in 1..=4i32 {
            for r in 0..=s {
                let piece = Piece::leaper(r, s, 1);
                for m in 2..=9 {
                    for n in m..=9 {
                        let b = Board::rectangle(m, n);
                        let k = knuth(&b, &piece).unwrap_or_else(|| panic!("{r},{s} {m}x{n}"));
                        let Ok(g) = MoveGraph::build(&b, &piece, &Never);
                        let Ok((parts, _)) = walks::parts_and_colours(&g, &Never);
                        assert_eq!(k.connected(), parts == 1, "{{{r},{s}}} on {m}x{n}");
                    }
                }
            }
        }
    }

    #[test]
    fn theorems_apply_only_to_their_piece_on_full_plain_rectangles() {
        let knight = Piece::leaper(1, 2, 1);
        let shuffled = Piece::new(knight.moves().iter().rev().copied());
        assert!(schwenk(&Board::rectangle(8, 8), &shuffled).is_some());
        assert!(conrad(&Board::rectangle(8, 8), &shuffled).is_some());
        assert!(schwenk(&Board::rectangle(8, 8), &Piece::leaper(1, 3, 1)).is_none());
        assert!(knuth(&Board::rectangle(8, 8), &Piece::leaper(1, 3, 1)).is_some());
        let more = knight.clone().union(&Piece::leaper(0, 1, 1));
        assert!(schwenk(&Board::rectangle(8, 8), &more).is_none());
        assert!(knuth(&Board::rectangle(8, 8), &more).is_none());
        let half = Piece::new(knight.moves().iter().take(7).copied());
        assert!(knuth(&Board::rectangle(8, 8), &half).is_none());
        let rider = Piece::leaper(1, 2, 2);
        assert!(knuth(&Board::rectangle(8, 8), &rider).is_none());
        let torus = Board::new(8, 8, Topology::Torus, |_| true);
        assert!(schwenk(&torus, &knight).is_none());
        assert!(knuth(&torus, &knight).is_none());
        let holed = Board::new(8, 8, Topology::Plain, |c| c.x + c.y > 0);
        assert!(conrad(&holed, &knight).is_none());
    }

    #[test]
    fn notes_state_the_verdict() {
        let knight = Piece::leaper(1, 2, 1);
        let c = conrad(&Board::rectangle(6, 3), &knight).map(|c| c.note());
        assert!(
            c.unwrap_or_default()
                .ends_with("so this 3x6 board has none (3x3, 3x5 and 3x6 are the exceptions)")
        );
        let k = knuth(&Board::rectangle(8, 8), &Piece::leaper(1, 3, 1)).map(|k| k.note());
        assert!(
            k.unwrap_or_default()
                .ends_with("r + s = 4 is even, so it is not connected")
        );
        let k = knuth(&Board::rectangle(2, 8), &knight).map(|k| k.note());
        assert!(
            k.unwrap_or_default()
                .ends_with("m = 2 < r + s = 3, so it is not connected")
        );
    }
}
