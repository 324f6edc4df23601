//! An independent tour checker. It works from the board and the piece's move
//! vectors with its own coordinate arithmetic — not from the move graph — so a
//! bug in graph building or in a solver cannot hide behind itself.

use crate::model::{Board, Cell, Piece, Topology};
use crate::solve::Goal;

/// Checks that `tour` visits every square of `board` exactly once by legal
/// moves of `piece`, honouring `goal` (start, end, closed). The error says
/// which step is wrong.
pub fn verify(board: &Board, piece: &Piece, goal: &Goal, tour: &[u32]) -> Result<(), String> {
    let n = board.len();
    if tour.len() != n {
        return Err(format!(
            "the tour has {} squares; the board has {n}",
            tour.len()
        ));
    }
    let mut seen = vec![false; n];
    for (i, &s) in tour.iter().enumerate() {
        if s as usize >= n {
            return Err(format!("step {}: square #{s} does not exist", i + 1));
        }
        if seen[s as usize] {
            return Err(format!(
                "step {}: {} is visited twice",
                i + 1,
                board.name(s)
            ));
        }
        seen[s as usize] = true;
    }
    if let (Some(s), Some(&first)) = (goal.start, tour.first())
        && s != first
    {
        return Err(format!(
            "the tour starts on {}, not on {}",
            board.name(first),
            board.name(s)
        ));
    }
    if let (Some(e), Some(&last)) = (goal.end, tour.last())
        && e != last
    {
        return Err(format!(
            "the tour ends on {}, not on {}",
            board.name(last),
            board.name(e)
        ));
    }
    for (i, w) in tour.windows(2).enumerate() {
        if !legal(board, piece, board.cell(w[0]), board.cell(w[1])) {
            return Err(format!(
                "step {}: {} to {} is not a move of the piece",
                i + 2,
                board.name(w[0]),
                board.name(w[1])
            ));
        }
    }
    if goal.closed {
        let (first, last) = (tour[0], tour[n - 1]);
        if n < 2 || !legal(board, piece, board.cell(last), board.cell(first)) {
            return Err(format!(
                "not closed: {} to {} is not a move of the piece",
                board.name(last),
                board.name(first)
            ));
        }
    }
    Ok(())
}

/// Whether the piece can go from `a` to `b` in one move on `board`.
pub fn legal(board: &Board, piece: &Piece, a: Cell, b: Cell) -> bool {
    if a == b || !board.is_square(a) || !board.is_square(b) {
        return false;
    }
    let (w, h) = (i64::from(board.width()), i64::from(board.height()));
    let wraps_x = board.topology() != Topology::Plain;
    let wraps_y = board.topology() == Topology::Torus;
    piece.moves().iter().any(|m| {
        let (mut x, mut y) = (i64::from(a.x), i64::from(a.y));
        // A ride longer than the board's cell count revisits cells.
        let steps = u64::from(m.range).min((w * h) as u64);
        for _ in 0..steps {
            x += i64::from(m.dx);
            y += i64::from(m.dy);
            if wraps_x {
                x = ((x % w) + w) % w;
            }
            if wraps_y {
                y = ((y % h) + h) % h;
            }
            if x < 0 || y < 0 || x >= w || y >= h {
                return false;
            }
            let c = Cell::new(x as u32, y as u32);
            if c == b {
                return true;
            }
            if !board.is_square(c) || c == a {
                return false;
            }
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_tours() {
        let board = Board::rectangle(3, 1);
        let wazir = Piece::leaper(0, 1, 1);
        let goal = Goal::default();
        assert_eq!(verify(&board, &wazir, &goal, &[0, 1, 2]), Ok(()));
        assert!(verify(&board, &wazir, &goal, &[0, 2, 1]).is_err());
        assert!(verify(&board, &wazir, &goal, &[0, 1]).is_err());
        assert!(verify(&board, &wazir, &goal, &[0, 1, 1]).is_err());
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        assert!(verify(&board, &wazir, &closed, &[0, 1, 2]).is_err());
        let rook = Piece::leaper(0, 1, crate::model::UNLIMITED);
        assert_eq!(verify(&board, &rook, &closed, &[0, 1, 2]), Ok(()));
        let fixed = Goal {
            start: Some(1),
            ..Goal::default()
        };
        assert!(verify(&board, &wazir, &fixed, &[0, 1, 2]).is_err());
    }

    #[test]
    fn rides_stop_at_removed_squares() {
        let board = Board::new(3, 1, Topology::Plain, |c| c.x != 1);
        let rook = Piece::leaper(0, 1, crate::model::UNLIMITED);
        assert!(!legal(&board, &rook, Cell::new(0, 0), Cell::new(2, 0)));
        let torus = Board::new(3, 1, Topology::Torus, |_| true);
        let wazir = Piece::leaper(0, 1, 1);
        assert!(legal(&torus, &wazir, Cell::new(0, 0), Cell::new(2, 0)));
    }
}
