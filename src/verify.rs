//! An independent tour checker. It works from the board and the piece's move
//! vectors with its own coordinate arithmetic — not from the move graph — so a
//! bug in graph building or in a solver cannot hide behind itself.

use rayon::prelude::*;

use crate::model::Goal;
use crate::model::{Board, Cell, Piece, Topology};

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
    // One bit a square: on the largest boards the marks stay in cache.
    let mut seen = vec![0u64; n.div_ceil(64)];
    for (i, &s) in tour.iter().enumerate() {
        if s as usize >= n {
            return Err(format!("step {}: square #{s} does not exist", i + 1));
        }
        let (word, bit) = (s as usize / 64, 1u64 << (s % 64));
        if seen[word] & bit != 0 {
            return Err(format!(
                "step {}: {} is visited twice",
                i + 1,
                board.name(s)
            ));
        }
        seen[word] |= bit;
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
    // The steps are independent: check them on every core (the first bad
    // one is reported, as a sequential check would).
    let leaps = plain_leaps(board, piece).map(|v| LeapTable::new(&v));
    let step_ok = |a: Cell, b: Cell| match &leaps {
        Some(leaps) => leaps.has(
            i64::from(b.x) - i64::from(a.x),
            i64::from(b.y) - i64::from(a.y),
        ),
        None => legal(board, piece, a, b),
    };
    // Steps `i` (from tour[i] to tour[i + 1]) in runs of CHUNK, one run a
    // task; the first bad step is reported, as a sequential check would.
    const CHUNK: usize = 1 << 14;
    let steps = n.saturating_sub(1);
    let run = |k: usize| {
        let (lo, hi) = (k * CHUNK, ((k + 1) * CHUNK).min(steps));
        let mut a = board.cell(tour[lo]);
        for i in lo..hi {
            let b = board.cell(tour[i + 1]);
            if !step_ok(a, b) {
                return Some(i);
            }
            a = b;
        }
        None
    };
    // A tour of fewer than PARALLEL steps is checked here: starting the
    // thread pool would cost more than the check (a few nanoseconds a step).
    const PARALLEL: usize = 1 << 18;
    let runs = steps.div_ceil(CHUNK);
    let bad = if steps < PARALLEL {
        (0..runs).find_map(run)
    } else {
        (0..runs).into_par_iter().find_map_first(run)
    };
    if let Some(i) = bad {
        return Err(format!(
            "step {}: {} to {} is not a move of the piece",
            i + 2,
            board.name(tour[i]),
            board.name(tour[i + 1])
        ));
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

/// The piece's jumps when every move is a single leap on a board that does
/// not wrap: then a step between two squares of the board is legal exactly
/// when its vector is one of them (what [`legal`] decides, without walking
/// each move). None otherwise.
fn plain_leaps(board: &Board, piece: &Piece) -> Option<Vec<(i64, i64)>> {
    let simple = piece.moves().iter().all(|m| m.range == 1 && !m.lame);
    (board.topology() == Topology::Plain && simple).then(|| {
        piece
            .moves()
            .iter()
            .map(|m| (i64::from(m.dx), i64::from(m.dy)))
            .filter(|&v| v != (0, 0))
            .collect()
    })
}

/// A set of leap vectors, looked up in a table when they are short (the
/// verifier asks it once per step of a tour of up to 16 million squares).
struct LeapTable {
    reach: i64,
    table: Vec<bool>,
    leaps: Vec<(i64, i64)>,
}

impl LeapTable {
    /// The longest leap kept in the table; longer sets are searched.
    const MAX_REACH: i64 = 16;

    fn new(leaps: &[(i64, i64)]) -> LeapTable {
        let reach = leaps
            .iter()
            .map(|&(x, y)| x.abs().max(y.abs()))
            .max()
            .unwrap_or(0);
        let mut table = Vec::new();
        if reach <= Self::MAX_REACH {
            let side = 2 * reach + 1;
            table = vec![false; (side * side) as usize];
            for &(x, y) in leaps {
                table[((y + reach) * side + x + reach) as usize] = true;
            }
        }
        LeapTable {
            reach,
            table,
            leaps: leaps.to_vec(),
        }
    }

    fn has(&self, dx: i64, dy: i64) -> bool {
        let r = self.reach;
        if self.table.is_empty() {
            return self.leaps.contains(&(dx, dy));
        }
        dx.abs() <= r && dy.abs() <= r && self.table[((dy + r) * (2 * r + 1) + dx + r) as usize]
    }
}

/// Whether the piece can go from `a` to `b` in one move on `board`.
pub fn legal(board: &Board, piece: &Piece, a: Cell, b: Cell) -> bool {
    if a == b || !board.is_square(a) || !board.is_square(b) {
        return false;
    }
    let (w, h) = (i64::from(board.width()), i64::from(board.height()));
    let topology = board.topology();
    // The cell at (x, y), wrapped as the topology says, and whether (x, y)
    // is a mirror image of it; None off the board. A twisted seam (Möbius:
    // the file seam; Klein: the rank seam) mirrors the other coordinate
    // each time it is crossed.
    let placed = |x: i64, y: i64| -> Option<(Cell, bool)> {
        let (mut x, mut y) = (x, y);
        let laps = |v: i64, side: i64| (v - v.rem_euclid(side)) / side;
        let mut mirror = false;
        match topology {
            Topology::Plain => {}
            Topology::Cylinder | Topology::Mobius => {
                if topology == Topology::Mobius && laps(x, w).rem_euclid(2) == 1 {
                    y = (h - 1) - y;
                    mirror = true;
                }
                x = x.rem_euclid(w);
            }
            Topology::Torus | Topology::Klein => {
                if topology == Topology::Klein && laps(y, h).rem_euclid(2) == 1 {
                    x = (w - 1) - x;
                    mirror = true;
                }
                x = x.rem_euclid(w);
                y = y.rem_euclid(h);
            }
        }
        ((0..w).contains(&x) && (0..h).contains(&y))
            .then(|| (Cell::new(x as u32, y as u32), mirror))
    };
    let place = |x: i64, y: i64| placed(x, y).map(|(c, _)| c);
    piece.moves().iter().any(|m| {
        let (dx, dy) = (i64::from(m.dx), i64::from(m.dy));
        let (mut x, mut y) = (i64::from(a.x), i64::from(a.y));
        // A lame leap passes `long - 1` squares: orthogonal steps along its
        // longer leg while the legs differ, then diagonal ones.
        let long = dx.abs().max(dy.abs());
        let straight = long - dx.abs().min(dy.abs());
        let blocked = |x: i64, y: i64| -> bool {
            (1..long).any(|k| {
                let (ox, oy) = if k <= straight {
                    if dx.abs() >= dy.abs() {
                        (k * dx.signum(), 0)
                    } else {
                        (0, k * dy.signum())
                    }
                } else {
                    let diag = k - straight;
                    if dx.abs() >= dy.abs() {
                        (
                            straight * dx.signum() + diag * dx.signum(),
                            diag * dy.signum(),
                        )
                    } else {
                        (
                            diag * dx.signum(),
                            straight * dy.signum() + diag * dy.signum(),
                        )
                    }
                };
                !place(x + ox, y + oy).is_some_and(|c| board.is_square(c))
            })
        };
        // A ride goes on over its own square when it comes back to it
        // heading another way (mirrored by a twisted seam, which turns the
        // step's other coordinate), and ends there heading as it set out.
        // Cells and headings number at most 2wh, so it ends within as many
        // steps.
        let turned = match topology {
            Topology::Mobius => dy != 0,
            Topology::Klein => dx != 0,
            _ => false,
        };
        let steps = u64::from(m.range).min(2 * (w * h) as u64);
        for _ in 0..steps {
            if m.lame && blocked(x, y) {
                return false;
            }
            x += dx;
            y += dy;
            let Some((c, mirror)) = placed(x, y) else {
                return false;
            };
            if c == b {
                return true;
            }
            if !board.is_square(c) || (c == a && !(mirror && turned)) {
                return false;
            }
        }
        false
    })
}

/// Checks that `tour` (already a tour, see [`verify`]) honours `c`: each
/// clue's square is visited at its step, the magic sums are equal (see
/// [`verify_magic`]), and the symmetry maps the tour onto itself (a closed
/// tour's moves onto its moves; an open tour's i-th square onto its
/// (n+1-i)-th). The images are computed here from coordinates.
pub fn verify_constraints(
    board: &Board,
    closed: bool,
    c: &crate::model::Constraints,
    tour: &[u32],
) -> Result<(), String> {
    for &(step, square) in &c.clues {
        match tour.get(step as usize - 1) {
            Some(&s) if s == square => {}
            Some(&s) => {
                return Err(format!(
                    "step {step} is on {}, not on its clue square {}",
                    board.name(s),
                    board.name(square)
                ));
            }
            None => return Err(format!("the tour has no step {step}")),
        }
    }
    if let Some(magic) = c.magic {
        verify_magic(board, magic, tour)?;
    }
    if let Some(letters) = &c.letters {
        verify_reading(board, letters, tour)?;
    }
    let Some(sym) = c.symmetry else {
        return Ok(());
    };
    let (w, h) = (board.width(), board.height());
    let image = |s: u32| -> Option<u32> {
        let Cell { x, y } = board.cell(s);
        let (x2, y2) = match sym {
            crate::model::TourSymmetry::Rotate180 => (w - 1 - x, h - 1 - y),
            crate::model::TourSymmetry::Rotate90 => (h.checked_sub(1 + y)?, x),
            crate::model::TourSymmetry::MirrorFiles => (w - 1 - x, y),
            crate::model::TourSymmetry::MirrorRanks => (x, h - 1 - y),
            crate::model::TourSymmetry::MirrorDiagonal => (y, x),
        };
        board.square_at(Cell::new(x2, y2))
    };
    let n = tour.len();
    if closed {
        // The moves of the cycle, each as an unordered pair.
        let pair = |a: u32, b: u32| (a.min(b), a.max(b));
        let mut moves: Vec<(u32, u32)> = (0..n).map(|i| pair(tour[i], tour[(i + 1) % n])).collect();
        moves.sort_unstable();
        for i in 0..n {
            let (a, b) = (tour[i], tour[(i + 1) % n]);
            let ok = match (image(a), image(b)) {
                (Some(a2), Some(b2)) => moves.binary_search(&pair(a2, b2)).is_ok(),
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "the move {}-{} has no image {sym:?} in the tour",
                    board.name(a),
                    board.name(b)
                ));
            }
        }
    } else {
        for i in 0..n {
            if image(tour[i]) != Some(tour[n - 1 - i]) {
                return Err(format!(
                    "{sym:?} maps step {} ({}) onto another square than step {} ({})",
                    i + 1,
                    board.name(tour[i]),
                    n - i,
                    board.name(tour[n - 1 - i])
                ));
            }
        }
    }
    Ok(())
}

/// Checks that the step numbers of `tour` (already a tour, see [`verify`];
/// steps from 1) sum alike in every rank and every file of the board — to
/// the whole board's sum shared among them — and, for [`Magic::Diagonal`],
/// in both long diagonals too. The sums are added here from the squares'
/// coordinates; the board must be a full rectangle.
///
/// [`Magic::Diagonal`]: crate::model::Magic::Diagonal
pub fn verify_magic(board: &Board, magic: crate::model::Magic, tour: &[u32]) -> Result<(), String> {
    let (w, h) = (board.width() as usize, board.height() as usize);
    let n = tour.len() as u64;
    if w * h != tour.len() || tour.iter().any(|&s| s as usize >= w * h) {
        return Err("a magic tour numbers every square of a full rectangle".to_string());
    }
    let mut ranks = vec![0u64; h];
    let mut files = vec![0u64; w];
    let (mut diagonal, mut anti) = (0u64, 0u64);
    for (i, &s) in tour.iter().enumerate() {
        let Cell { x, y } = board.cell(s);
        let step = i as u64 + 1;
        ranks[y as usize] += step;
        files[x as usize] += step;
        if x == y {
            diagonal += step;
        }
        if x as usize + y as usize + 1 == w {
            anti += step;
        }
    }
    let total = n * (n + 1) / 2;
    let name = |what: &str, i: usize| match what {
        "rank" => format!("rank {}", i + 1),
        _ => format!("file {}", crate::model::file_name(i as u32)),
    };
    for (what, sums) in [("rank", &ranks), ("file", &files)] {
        for (i, &sum) in sums.iter().enumerate() {
            if sum * sums.len() as u64 != total {
                return Err(format!(
                    "{} sums to {sum}, not to {total}/{}",
                    name(what, i),
                    sums.len()
                ));
            }
        }
    }
    if magic == crate::model::Magic::Diagonal {
        if w != h {
            return Err("a diagonally magic tour needs a square board".to_string());
        }
        for (what, sum) in [
            ("the a1 diagonal", diagonal),
            ("the other long diagonal", anti),
        ] {
            if sum * w as u64 != total {
                return Err(format!("{what} sums to {sum}, not to {}", total / w as u64));
            }
        }
    }
    Ok(())
}

/// Checks that `tour` reads the text of `letters`: the units on its squares
/// in order (squares with none read nothing) are the text's units, each
/// compared letter by letter ignoring case, the text split here from its
/// words as written (a syllable in brackets, else each letter or digit;
/// spaces and punctuation are no unit).
fn verify_reading(
    board: &Board,
    letters: &crate::model::Letters,
    tour: &[u32],
) -> Result<(), String> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let mut text: Vec<String> = Vec::new();
    let mut rest = letters.text.as_str();
    while let Some(c) = rest.chars().next() {
        if c == '[' {
            let close = rest.find(']').ok_or("the text has a bracket not closed")?;
            text.push(fold(&rest[1..close]));
            rest = &rest[close + 1..];
        } else {
            if c.is_alphanumeric() {
                text.push(fold(&c.to_string()));
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut read = tour.iter().enumerate().filter_map(|(i, &s)| {
        let unit = letters.written.get(s as usize).map_or("", String::as_str);
        (!unit.is_empty()).then_some((i, s, unit))
    });
    for (k, want) in text.iter().enumerate() {
        match read.next() {
            Some((_, _, unit)) if fold(unit) == *want => {}
            Some((i, s, unit)) => {
                return Err(format!(
                    "step {} is on {}, which reads `{unit}`; unit {} of the text is `{want}`",
                    i + 1,
                    board.name(s),
                    k + 1
                ));
            }
            None => {
                return Err(format!(
                    "the tour reads {k} units; the text has {}",
                    text.len()
                ));
            }
        }
    }
    match read.next() {
        Some((i, s, unit)) => Err(format!(
            "step {} ({}) reads `{unit}` after the whole text",
            i + 1,
            board.name(s)
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lame_moves_are_blocked_by_removed_squares_on_their_path() {
        // The xiangqi horse from a1 to b3 passes a2; to c2 it passes b1.
        let piece = Piece::new([crate::model::Move {
            lame: true,
            ..crate::model::Move::leap(1, 2)
        }]);
        let open = Board::rectangle(3, 3);
        assert!(legal(&open, &piece, Cell::new(0, 0), Cell::new(1, 2)));
        let a2 = Board::new(3, 3, Topology::Plain, |c| c != Cell::new(0, 1));
        assert!(!legal(&a2, &piece, Cell::new(0, 0), Cell::new(1, 2)));
        let b1 = Board::new(3, 3, Topology::Plain, |c| c != Cell::new(1, 0));
        assert!(legal(&b1, &piece, Cell::new(0, 0), Cell::new(1, 2)));
        // The zebra's (2,3) passes one orthogonal then one diagonal square.
        let zebra = Piece::new([crate::model::Move {
            lame: true,
            ..crate::model::Move::leap(2, 3)
        }]);
        let board = Board::rectangle(4, 4);
        assert!(legal(&board, &zebra, Cell::new(0, 0), Cell::new(2, 3)));
        for hole in [Cell::new(0, 1), Cell::new(1, 2)] {
            let holed = Board::new(4, 4, Topology::Plain, |c| c != hole);
            assert!(
                !legal(&holed, &zebra, Cell::new(0, 0), Cell::new(2, 3)),
                "{hole}"
            );
        }
        let other = Board::new(4, 4, Topology::Plain, |c| c != Cell::new(1, 1));
        assert!(legal(&other, &zebra, Cell::new(0, 0), Cell::new(2, 3)));
    }

    #[test]
    fn rides_go_over_their_own_square_across_a_twisted_seam() {
        // The bishop's (1,1) ray from b1 on a 3x3 Klein bottle comes back
        // over b1 heading (-1,1) and goes on to a2 and c3; on a torus it
        // ends at b1.
        let bishop = Piece::new([crate::model::Move::ride(1, 1, u32::MAX)]);
        let b1 = Cell::new(1, 0);
        let klein = Board::new(3, 3, Topology::Klein, |_| true);
        let torus = Board::new(3, 3, Topology::Torus, |_| true);
        for (x, y) in [(2, 1), (0, 2), (0, 1), (2, 2)] {
            assert!(legal(&klein, &bishop, b1, Cell::new(x, y)), "({x},{y})");
        }
        assert!(!legal(&klein, &bishop, b1, Cell::new(2, 0)));
        assert!(legal(&torus, &bishop, b1, Cell::new(0, 2)));
        assert!(!legal(&torus, &bishop, b1, Cell::new(0, 1)));
    }

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
    fn plain_leaps_decide_as_legal_does() {
        let board = Board::new(7, 5, Topology::Plain, |c| (c.x * 3 + c.y) % 5 != 2);
        let pieces = [
            Piece::leaper(1, 2, 1),
            Piece::leaper(1, 3, 1),
            Piece::leaper(0, 1, 1),
            Piece::new([
                crate::model::Move::leap(2, -1),
                crate::model::Move::leap(0, 3),
            ]),
        ];
        for piece in &pieces {
            let Some(leaps) = plain_leaps(&board, piece) else {
                panic!("{piece} is a plain leaper");
            };
            let table = LeapTable::new(&leaps);
            // The same set with the table off: the fallback search.
            let search = LeapTable {
                table: Vec::new(),
                ..LeapTable::new(&leaps)
            };
            for a in 0..board.len() as u32 {
                for b in 0..board.len() as u32 {
                    let (ca, cb) = (board.cell(a), board.cell(b));
                    let v = (
                        i64::from(cb.x) - i64::from(ca.x),
                        i64::from(cb.y) - i64::from(ca.y),
                    );
                    assert_eq!(
                        leaps.contains(&v),
                        legal(&board, piece, ca, cb),
                        "{piece} {ca} {cb}"
                    );
                    assert_eq!(table.has(v.0, v.1), leaps.contains(&v), "{piece} {ca} {cb}");
                    assert_eq!(
                        search.has(v.0, v.1),
                        leaps.contains(&v),
                        "{piece} {ca} {cb}"
                    );
                }
            }
        }
        let rook = Piece::leaper(0, 1, crate::model::UNLIMITED);
        assert_eq!(plain_leaps(&board, &rook), None);
        let torus = Board::new(3, 3, Topology::Torus, |_| true);
        assert_eq!(plain_leaps(&torus, &pieces[0]), None);
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
