//! What can be known without searching: square and degree counts, and proofs
//! that no tour exists. `engine run` uses the same proofs before searching.

use crate::halt::{self, Halt};
use crate::model::graph::walks;
use crate::model::{Board, Goal, Move, MoveGraph, Piece, Topology};

/// Facts about a move graph that need no search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Number of squares.
    pub squares: usize,
    /// Number of moves (directed).
    pub moves: usize,
    /// `histogram[d]` = squares with `d` moves out.
    pub degree_histogram: Vec<usize>,
    /// Whether every move can be made back.
    pub symmetric: bool,
    /// Sizes of the two colour classes if the move graph is bipartite.
    pub bipartite: Option<(usize, usize)>,
    /// Number of (weakly) connected parts.
    pub components: usize,
    /// A proof that no tour exists, if one was found.
    pub impossible: Option<String>,
    /// Known facts about this board and piece, for people (e.g. Schwenk's
    /// theorem for the knight on a full rectangle).
    pub notes: Vec<String>,
}

/// Analyses `g` for `goal`, stopping when `halt` says so (it is asked
/// every few thousand squares, so a deadline or an interrupt is honoured on
/// the largest boards too). `name(s)` names a square for messages.
pub fn analyse<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    name: &dyn Fn(u32) -> String,
    halt: &H,
) -> Result<Analysis, H::Stop> {
    let n = g.len();
    let mut histogram = Vec::new();
    for s in 0..n as u32 {
        halt::poll(halt, s as usize)?;
        let d = g.degree(s);
        if histogram.len() <= d {
            histogram.resize(d + 1, 0);
        }
        histogram[d] += 1;
    }
    let (components, colour) = walks::parts_and_colours(g, halt)?;
    let bipartite = colour.as_ref().map(|c| {
        let a = c.iter().filter(|&&x| x == 0).count();
        (a, n - a)
    });
    // A symmetric graph is its own reverse.
    let reversed;
    let rev = if g.is_symmetric() {
        g
    } else {
        halt::between_passes(halt, n)?;
        reversed = g.reversed();
        &reversed
    };
    let mut a = Analysis {
        squares: n,
        moves: g.edge_count(),
        degree_histogram: histogram,
        symmetric: g.is_symmetric(),
        bipartite,
        components,
        impossible: None,
        notes: Vec::new(),
    };
    // A symmetric graph in one part is strongly connected; only a directed
    // one needs the two extra searches, and only for a closed tour.
    let strong = !goal.closed || g.is_symmetric() || walks::strongly_connected(g, rev, halt)?;
    a.impossible = prove(g, rev, goal, components, colour.as_deref(), name, strong);
    Ok(a)
}

/// [`analyse`], plus what is known about the board and piece themselves:
/// Schwenk's theorem as a note for the knight on a full plain rectangle,
/// and as the proof when it rules a closed tour out.
pub fn analyse_board<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    piece: &Piece,
    name: &dyn Fn(u32) -> String,
    halt: &H,
) -> Result<Analysis, H::Stop> {
    let mut a = analyse(g, goal, name, halt)?;
    if let Some(k) = schwenk(board, piece) {
        a.notes.push(k.note());
        if goal.closed
            && a.impossible.is_none()
            && let Some(why) = k.obstruction
        {
            a.impossible = Some(format!(
                "by Schwenk's theorem no {}x{} board has a closed knight's tour ({why})",
                board.width(),
                board.height()
            ));
        }
    }
    Ok(a)
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

    /// One line for people.
    pub fn note(&self) -> String {
        match self.obstruction {
            None => format!(
                "Schwenk's theorem: a closed knight's tour of a full {}x{} board exists",
                self.m, self.n
            ),
            Some(why) => format!(
                "Schwenk's theorem: no closed knight's tour of a full {}x{} board exists ({why}); open tours may",
                self.m, self.n
            ),
        }
    }
}

/// Schwenk's verdict when `piece` is exactly the knight (its eight leaps, in
/// any order) and `board` a full plain rectangle; None otherwise.
pub fn schwenk(board: &Board, piece: &Piece) -> Option<Schwenk> {
    if !board.is_full() || board.topology() != Topology::Plain || !is_knight(piece) {
        return None;
    }
    let (m, n) = (
        board.width().min(board.height()),
        board.width().max(board.height()),
    );
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

/// True when `piece` moves exactly like a knight.
fn is_knight(piece: &Piece) -> bool {
    let moves = piece.moves();
    moves.len() == 8
        && moves.iter().all(
            |&Move {
                 dx,
                 dy,
                 range,
                 lame,
             }| {
                range == 1 && !lame && matches!((dx.abs(), dy.abs()), (1, 2) | (2, 1))
            },
        )
}

/// The first proof that applies, or None.
fn prove(
    g: &MoveGraph,
    rev: &MoveGraph,
    goal: &Goal,
    components: usize,
    colour: Option<&[u8]>,
    name: &dyn Fn(u32) -> String,
    strong: bool,
) -> Option<String> {
    let n = g.len();
    if n == 1 {
        return goal
            .closed
            .then(|| "a closed tour needs at least two squares".to_string());
    }
    let list = |v: &[u32]| {
        let mut names: Vec<String> = v.iter().take(6).map(|&s| name(s)).collect();
        if v.len() > 6 {
            names.push(format!("and {} more", v.len() - 6));
        }
        names.join(", ")
    };
    // Squares the piece can never leave, or never enter.
    let no_out: Vec<u32> = (0..n as u32).filter(|&s| g.degree(s) == 0).collect();
    let no_in: Vec<u32> = (0..n as u32).filter(|&s| rev.degree(s) == 0).collect();
    if goal.closed {
        if let Some(&s) = no_out.first() {
            return Some(format!(
                "{} has no moves, so no closed tour can pass it",
                name(s)
            ));
        }
        if let Some(&s) = no_in.first() {
            return Some(format!(
                "no move reaches {}, so no closed tour can pass it",
                name(s)
            ));
        }
    } else {
        let stuck: Vec<u32> = no_out
            .iter()
            .copied()
            .filter(|&s| Some(s) != goal.end)
            .collect();
        if stuck.len() > 1 || (goal.end.is_some() && !stuck.is_empty()) {
            return Some(format!(
                "{} {} no moves and a tour can end on only one square: {}",
                stuck.len(),
                if stuck.len() == 1 {
                    "square has"
                } else {
                    "squares have"
                },
                list(&stuck)
            ));
        }
        let unreachable: Vec<u32> = no_in
            .iter()
            .copied()
            .filter(|&s| Some(s) != goal.start)
            .collect();
        if unreachable.len() > 1 || (goal.start.is_some() && !unreachable.is_empty()) {
            return Some(format!(
                "no move reaches {} {}, and a tour can start on only one square",
                if unreachable.len() == 1 {
                    "square"
                } else {
                    "squares"
                },
                list(&unreachable)
            ));
        }
    }
    if components > 1 {
        return Some(format!(
            "the move graph falls into {components} separate parts; the piece can never get from one to another"
        ));
    }
    if !strong {
        return Some(
            "some square cannot be reached back from another, so no closed tour exists".to_string(),
        );
    }
    // Dead ends: a square with one move (both ways) must be an end of the tour.
    if g.is_symmetric() {
        let ones: Vec<u32> = (0..n as u32).filter(|&s| g.degree(s) == 1).collect();
        if goal.closed && n > 2 && !ones.is_empty() {
            return Some(format!(
                "{} {} only one move; a closed tour needs two at every square: {}",
                ones.len(),
                if ones.len() == 1 {
                    "square has"
                } else {
                    "squares have"
                },
                list(&ones)
            ));
        }
        if !goal.closed {
            let fixed: Vec<u32> = goal.start.iter().chain(goal.end.iter()).copied().collect();
            let free_ends = 2 - fixed.len();
            let others: Vec<u32> = ones
                .iter()
                .copied()
                .filter(|s| !fixed.contains(s))
                .collect();
            if others.len() > free_ends {
                return Some(format!(
                    "{} squares have only one move, so each must be an end of the tour, but a tour has {} free end{}: {}",
                    others.len(),
                    free_ends,
                    if free_ends == 1 { "" } else { "s" },
                    list(&others)
                ));
            }
        }
    }
    // Colours: every move changes colour, so a tour alternates colours.
    if let Some(colour) = colour {
        let a = colour.iter().filter(|&&c| c == 0).count();
        let b = n - a;
        let (big, small) = (a.max(b), a.min(b));
        let side = |s: u32| colour[s as usize];
        let larger = u8::from(b > a);
        if goal.closed && a != b {
            return Some(format!(
                "every move changes colour, so a closed tour needs equally many squares of each colour, but there are {a} and {b}"
            ));
        }
        if big > small + 1 {
            return Some(format!(
                "every move changes colour, so a tour alternates colours, but there are {big} squares of one colour and only {small} of the other"
            ));
        }
        if !goal.closed {
            if big == small + 1 {
                for s in goal.start.iter().chain(goal.end.iter()) {
                    if side(*s) != larger {
                        return Some(format!(
                            "every move changes colour and one colour has one square more ({big} against {small}), so a tour must start and end on it; {} is on the other",
                            name(*s)
                        ));
                    }
                }
            } else if let (Some(s), Some(e)) = (goal.start, goal.end)
                && side(s) == side(e)
            {
                return Some(format!(
                    "every move changes colour and both colours have {a} squares, so a tour starts and ends on different colours; {} and {} share one",
                    name(s),
                    name(e)
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Piece};

    fn analyse_board(w: u32, h: u32, piece: Piece, goal: Goal) -> Analysis {
        let b = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&b, &piece, &Never);
        let Ok(a) = analyse(&g, &goal, &|s| b.name(s), &Never);
        a
    }

    #[test]
    fn camel_is_colour_bound() {
        let a = analyse_board(8, 8, Piece::leaper(1, 3, 1), Goal::default());
        assert_eq!(a.components, 2);
        assert!(a.impossible.unwrap_or_default().contains("separate parts"));
    }

    #[test]
    fn odd_boards_have_no_closed_knight_tour() {
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let a = analyse_board(5, 5, Piece::leaper(1, 2, 1), closed);
        assert!(a.impossible.unwrap_or_default().contains("13 and 12"));
        let open = analyse_board(5, 5, Piece::leaper(1, 2, 1), Goal::default());
        assert_eq!(open.impossible, None);
        assert_eq!(open.bipartite, Some((13, 12)));
    }

    #[test]
    fn start_on_the_minority_colour_is_refused() {
        // b1 is on the 12-square colour of 5x5.
        let goal = Goal {
            start: Some(1),
            ..Goal::default()
        };
        let a = analyse_board(5, 5, Piece::leaper(1, 2, 1), goal);
        assert!(a.impossible.is_some());
    }

    /// Schwenk's theorem against search on every board up to 6x6 and a
    /// few beyond: where it promises a closed tour the Warnsdorff solver
    /// finds one; where it rules one out, exhaustive search finds none.
    #[test]
    fn schwenk_agrees_with_search() {
        use crate::solve::{Outcome, Solver, Task};
        let knight = Piece::leaper(1, 2, 1);
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let mut boards: Vec<(u32, u32)> =
            (1..=6).flat_map(|m| (m..=6).map(move |n| (m, n))).collect();
        boards.extend([(3, 8), (5, 4), (3, 10), (8, 3), (8, 8), (4, 7)]);
        for (w, h) in boards {
            let b = Board::rectangle(w, h);
            let s = schwenk(&b, &knight).unwrap_or_else(|| panic!("{w}x{h} is covered"));
            let Ok(g) = MoveGraph::build(&b, &knight, &Never);
            let task = Task::new(&g, &b, &knight, closed);
            let r = if s.closed_tour_exists() {
                crate::solve::warnsdorff::WarnsdorffOptions::default().solve_quietly(&task)
            } else {
                crate::solve::backtrack::BacktrackOptions::default().solve_quietly(&task)
            };
            match r.outcome {
                Outcome::Found(t) => {
                    assert!(s.closed_tour_exists(), "{w}x{h}");
                    assert_eq!(crate::verify::verify(&b, &knight, &closed, &t), Ok(()));
                }
                Outcome::Impossible(_) => assert!(!s.closed_tour_exists(), "{w}x{h}"),
                other => panic!("{w}x{h}: {other:?}"),
            }
        }
    }

    #[test]
    fn schwenk_applies_only_to_the_knight_on_full_plain_rectangles() {
        let knight = Piece::leaper(1, 2, 1);
        let shuffled = Piece::new(knight.moves().iter().rev().copied());
        assert!(schwenk(&Board::rectangle(8, 8), &shuffled).is_some());
        assert!(schwenk(&Board::rectangle(8, 8), &Piece::leaper(1, 3, 1)).is_none());
        let more = knight.clone().union(&Piece::leaper(0, 1, 1));
        assert!(schwenk(&Board::rectangle(8, 8), &more).is_none());
        let torus = Board::new(8, 8, crate::model::Topology::Torus, |_| true);
        assert!(schwenk(&torus, &knight).is_none());
        let holed = Board::new(8, 8, crate::model::Topology::Plain, |c| c.x + c.y > 0);
        assert!(schwenk(&holed, &knight).is_none());
        // 4x100 has no closed tour; only the theorem can say so quickly.
        let b = Board::rectangle(4, 100);
        let Ok(g) = MoveGraph::build(&b, &knight, &Never);
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let Ok(a) = super::analyse_board(&g, &closed, &b, &knight, &|s| b.name(s), &Never);
        let Ok(plain) = analyse(&g, &closed, &|s| b.name(s), &Never);
        assert!(plain.impossible.is_none());
        assert!(a.impossible.unwrap_or_default().contains("Schwenk"));
        assert_eq!(a.notes.len(), 1);
    }

    #[test]
    fn isolated_squares() {
        // 3x3 knight: the centre has no moves.
        let a = analyse_board(3, 3, Piece::leaper(1, 2, 1), Goal::default());
        assert!(a.impossible.is_some());
        assert_eq!(a.degree_histogram[0], 1);
    }
}
