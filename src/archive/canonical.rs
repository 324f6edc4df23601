//! Canonical forms: the text that names a puzzle up to its symmetries (the
//! group a run is counted in), and the form of a tour that is equal for a
//! tour and its images.

use sha2::{Digest, Sha256};

use crate::model::symmetry::{square_maps, symmetries};
use crate::model::{Board, Cell, Goal, Piece};
use crate::puzzle::Puzzle;

/// The group of runs a puzzle belongs to: its squares, move set, topology,
/// tour kind, and start and end up to the puzzle's symmetries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleKey {
    /// The canonical text (see [`canonical_puzzle`]).
    pub canonical: String,
    /// SHA-256 of `canonical`, hex.
    pub hash: String,
    /// SHA-256 of the board-and-piece part alone, hex: equal for every tour
    /// kind, start and end on that board with that piece.
    pub board_hash: String,
    /// Closed tour.
    pub closed: bool,
    /// The canonical start square, if the puzzle fixes one.
    pub start: Option<u32>,
    /// The canonical end square, if the puzzle fixes one.
    pub end: Option<u32>,
    /// The tour kind and ends as people read them: `open from a1`.
    pub tour: String,
}

impl PuzzleKey {
    /// The key of `p`. Its start and end must be squares of its board (a
    /// parsed puzzle's are).
    pub fn of(p: &Puzzle) -> PuzzleKey {
        let board = canonical_board(&p.board, &p.piece);
        let (start, end) = canonical_ends(&p.board, &p.piece, &p.goal);
        let at = |s: Option<u32>| {
            s.map_or_else(
                || "any".to_string(),
                |s| {
                    let c = p.board.cell(s);
                    format!("{},{}", c.x, c.y)
                },
            )
        };
        let canonical = format!(
            "{board}; {}; start {}; end {}",
            kind(p.goal.closed),
            at(start),
            at(end)
        );
        PuzzleKey {
            hash: sha256_hex(canonical.as_bytes()),
            board_hash: sha256_hex(board.as_bytes()),
            canonical,
            closed: p.goal.closed,
            start,
            end,
            tour: tour_label(&p.board, p.goal.closed, start, end),
        }
    }
}

fn kind(closed: bool) -> &'static str {
    if closed { "closed" } else { "open" }
}

/// `open`, `open from a1`, `open from a1 to h8`, `closed from b1`.
pub fn tour_label(board: &Board, closed: bool, start: Option<u32>, end: Option<u32>) -> String {
    let mut out = kind(closed).to_string();
    if let Some(s) = start {
        out.push_str(" from ");
        out.push_str(&board.name(s));
    }
    if let Some(e) = end {
        out.push_str(" to ");
        out.push_str(&board.name(e));
    }
    out
}

/// A text equal for two boards and pieces exactly when they have the same
/// squares, topology and move set.
pub fn canonical_board(b: &Board, piece: &Piece) -> String {
    let mut removed = Vec::new();
    if !b.is_full() {
        for y in 0..b.height() {
            for x in 0..b.width() {
                if !b.is_square(Cell::new(x, y)) {
                    removed.push(format!("{x},{y}"));
                }
            }
        }
    }
    let mut moves: Vec<String> = piece
        .moves()
        .iter()
        .map(|m| {
            // Lame moves are marked; plain ones read as before, so archives
            // made before lame moves existed keep their puzzles.
            let lame = if m.lame { ",n" } else { "" };
            format!("{},{},{}{lame}", m.dx, m.dy, m.range)
        })
        .collect();
    moves.sort();
    moves.dedup();
    format!(
        "board {}x{} {} removed [{}]; moves [{}]",
        b.width(),
        b.height(),
        b.topology(),
        removed.join(" "),
        moves.join(" "),
    )
}

/// A text equal for two puzzles exactly when they have the same squares,
/// move set and topology, the same tour kind, and starts and ends that a
/// symmetry of the puzzle maps onto each other.
pub fn canonical_puzzle(p: &Puzzle) -> String {
    PuzzleKey::of(p).canonical
}

/// The least image of the goal's (start, end) under the symmetries of
/// `board` and `piece`: a1 and h8 of a plain 8x8 knight board are one start.
/// Both must be squares of `board`.
pub fn canonical_ends(board: &Board, piece: &Piece, goal: &Goal) -> (Option<u32>, Option<u32>) {
    let (w, h) = (board.width(), board.height());
    let image = |t: &crate::model::symmetry::Transform, s: u32| {
        board.square_at(t.cell(board.cell(s), w, h)).unwrap_or(s)
    };
    symmetries(board, piece)
        .iter()
        .map(|t| {
            (
                goal.start.map(|s| image(t, s)),
                goal.end.map(|s| image(t, s)),
            )
        })
        .min()
        .unwrap_or((goal.start, goal.end))
}

/// The canonical form of a tour: the lexicographically least of its images
/// under the puzzle's symmetries; a closed tour is first rotated to start on
/// square 0 and read in the direction whose second square is smaller. Every
/// square must be one of `board`'s.
pub fn canonical_tour(board: &Board, piece: &Piece, tour: &[u32], closed: bool) -> Vec<u32> {
    let maps = square_maps(board, &symmetries(board, piece));
    let mut best: Option<Vec<u32>> = None;
    let mut image = Vec::with_capacity(tour.len());
    for map in &maps {
        image.clear();
        image.extend(tour.iter().map(|&s| map[s as usize]));
        if closed && !image.is_empty() {
            let n = image.len();
            let at = image.iter().position(|&s| s == 0).unwrap_or(0);
            image.rotate_left(at);
            if n > 2 && image[n - 1] < image[1] {
                image[1..].reverse();
            }
        }
        if best.as_ref().is_none_or(|b| image < *b) {
            best = Some(image.clone());
        }
    }
    best.unwrap_or_default()
}

/// SHA-256 of `bytes`, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::solve::Outcome;
    use crate::verify::verify;

    fn knight5() -> (Board, Piece) {
        (Board::rectangle(5, 5), Piece::leaper(1, 2, 1))
    }

    /// A verified tour found by the backtracker.
    fn solved(b: &Board, p: &Piece, goal: &Goal) -> Vec<u32> {
        let Ok(g) = crate::model::MoveGraph::build(b, p, &Never);
        let task = crate::solve::Task::new(&g, b, p, *goal);
        let r = crate::solve::Solver::solve_quietly(
            &crate::solve::backtrack::BacktrackOptions::default(),
            &task,
        );
        let Outcome::Found(tour) = r.outcome else {
            panic!("a tour exists")
        };
        assert_eq!(verify(b, p, goal, &tour), Ok(()));
        tour
    }

    #[test]
    fn mirror_images_are_one_tour() {
        let (b, p) = knight5();
        let goal = Goal {
            start: Some(0),
            ..Goal::default()
        };
        let tour = solved(&b, &p, &goal);
        let maps = square_maps(&b, &symmetries(&b, &p));
        assert_eq!(maps.len(), 8);
        let c = canonical_tour(&b, &p, &tour, false);
        for m in &maps {
            let image: Vec<u32> = tour.iter().map(|&s| m[s as usize]).collect();
            assert_eq!(verify(&b, &p, &Goal::default(), &image), Ok(()));
            assert_eq!(canonical_tour(&b, &p, &image, false), c);
        }
        // Reversal of an open tour is another tour.
        let mut rev = tour.clone();
        rev.reverse();
        assert_ne!(canonical_tour(&b, &p, &rev, false), c);
    }

    #[test]
    fn closed_tours_ignore_start_and_direction() {
        let b = Board::rectangle(6, 6);
        let p = Piece::leaper(1, 2, 1);
        let goal = Goal {
            closed: true,
            ..Goal::default()
        };
        let tour = solved(&b, &p, &goal);
        let c = canonical_tour(&b, &p, &tour, true);
        let mut other = tour.clone();
        other.rotate_left(7);
        other.reverse();
        assert_eq!(verify(&b, &p, &goal, &other), Ok(()));
        assert_eq!(canonical_tour(&b, &p, &other, true), c);
    }

    fn parse(text: &str) -> Puzzle {
        match Puzzle::parse("t.ron", text) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn ends_are_equal_up_to_the_symmetries() {
        let key = |start: &str, end: Option<&str>, extra: &str| {
            let end = end.map(|e| format!(", end: \"{e}\"")).unwrap_or_default();
            PuzzleKey::of(&parse(&format!(
                "Puzzle(board: \"8x8\", piece: \"knight\", start: \"{start}\"{end}{extra})"
            )))
        };
        let a1 = key("a1", None, "");
        for corner in ["h8", "a8", "h1"] {
            assert_eq!(key(corner, None, ""), a1, "{corner}");
        }
        assert_eq!(a1.tour, "open from a1");
        assert_ne!(key("d4", None, ""), a1);
        assert_eq!(key("e5", None, "").tour, "open from d4");
        let closed = key("a1", None, ", tour: Closed");
        assert_ne!(closed.hash, a1.hash);
        assert_eq!(closed.board_hash, a1.board_hash);
        assert_eq!(closed.tour, "closed from a1");
        // The pair maps as one: h8 to a1 is a1 to h8; a1 to h1 is not.
        assert_eq!(key("h8", Some("a1"), ""), key("a1", Some("h8"), ""));
        assert_eq!(key("a1", Some("h1"), "").tour, "open from a1 to h1");
        assert_eq!(key("h8", Some("a8"), "").tour, "open from a1 to h1");
        assert_ne!(key("a1", Some("h1"), ""), key("a1", Some("h8"), ""));
        // A board with fewer symmetries keeps more starts apart.
        let rect = |s: &str| {
            PuzzleKey::of(&parse(&format!(
                "Puzzle(board: \"3x4\", piece: \"knight\", start: \"{s}\")"
            )))
        };
        assert_eq!(rect("a1"), rect("c4"));
        assert_ne!(rect("a1"), rect("a2"));
        let free = PuzzleKey::of(&parse(r#"Puzzle(board: "8x8", piece: "knight")"#));
        assert_eq!(free.tour, "open");
        assert!(free.canonical.ends_with("; open; start any; end any"));
    }
}
