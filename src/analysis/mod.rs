//! What can be known without searching: square and degree counts, how the
//! move graph divides the board, the theorems that apply, and proofs that
//! no tour exists. `engine run` uses the same proofs before searching.

pub mod cuts;
pub mod shape;
pub mod theorems;

pub use shape::{Classes, Part};
pub use theorems::{Conrad, Knuth, Schwenk, conrad, knuth, schwenk};

use crate::halt::{self, Halt};
use crate::model::graph::walks;
use crate::model::{Board, Goal, MoveGraph, Piece};

/// How many parts, and how many squares with no moves, are listed by name.
pub const LISTED: usize = 26;

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
    /// Sizes of the two classes if the move graph is bipartite, in the
    /// order of [`Analysis::classes`] when it names them.
    pub bipartite: Option<(usize, usize)>,
    /// What the two classes are on the board, when the graph is bipartite
    /// (in several parts, only when one pattern names the classes of every
    /// part).
    pub classes: Option<Classes>,
    /// Number of (weakly) connected parts.
    pub components: usize,
    /// The first [`LISTED`] parts in board order, when there are several.
    pub parts: Vec<Part>,
    /// Every move keeps the colour of its square (where the graph falls
    /// apart, that is the reason).
    pub colour_bound: bool,
    /// The first [`LISTED`] squares with no moves out (all of them are
    /// counted in `degree_histogram[0]`).
    pub no_moves: Vec<u32>,
    /// A proof that no tour exists, if one was found.
    pub impossible: Option<String>,
    /// The theorems that apply to this board and piece, stated and applied
    /// (Schwenk's, the open-tour theorem, Knuth's on leaper graphs).
    pub notes: Vec<String>,
}

/// Analyses `g` on `board` for `goal`, stopping when `halt` says so (it is
/// asked every few thousand squares, so a deadline or an interrupt is
/// honoured on the largest boards too).
pub fn analyse<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    halt: &H,
) -> Result<Analysis, H::Stop> {
    let n = g.len();
    let mut histogram = Vec::new();
    let mut no_moves = Vec::new();
    for s in 0..n as u32 {
        halt::poll(halt, s as usize)?;
        let d = g.degree(s);
        if histogram.len() <= d {
            histogram.resize(d + 1, 0);
        }
        histogram[d] += 1;
        if d == 0 && no_moves.len() < LISTED {
            no_moves.push(s);
        }
    }
    let (components, colour) = walks::parts_and_colours(g, halt)?;
    // Which squares are in which part, and why, only when it is the answer.
    let labelled = if components > 1 {
        Some(shape::parts(g, halt)?)
    } else {
        None
    };
    // In several parts, each part's colouring may be swapped: the classes
    // are named when one pattern fits every part, and not otherwise.
    let classes = colour.as_deref().filter(|_| n > 0).and_then(|c| {
        let k = match &labelled {
            None => shape::name_classes(board, c),
            Some((label, parts)) => shape::name_classes_in_parts(board, c, label, parts.len()),
        };
        (labelled.is_none() || k != shape::Classes::Unnamed).then_some(k)
    });
    let bipartite = colour.as_ref().map(|c| {
        let a = match classes {
            Some(k) => (0..n as u32)
                .filter(|&s| k.class_of(board, s, c) == 0)
                .count(),
            None => c.iter().filter(|&&x| x == 0).count(),
        };
        (a, n - a)
    });
    let parts = match labelled {
        Some((_, mut parts)) => {
            parts.truncate(LISTED);
            parts
        }
        None => Vec::new(),
    };
    let colour_bound = shape::colour_bound(g, board, halt)?;
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
        classes,
        components,
        parts,
        colour_bound,
        no_moves,
        impossible: None,
        notes: Vec::new(),
    };
    // A symmetric graph in one part is strongly connected; only a directed
    // one needs the two extra searches, and only for a closed tour.
    let strong = !goal.closed || g.is_symmetric() || walks::strongly_connected(g, rev, halt)?;
    a.impossible = prove(g, rev, goal, board, &a, colour.as_deref(), strong);
    Ok(a)
}

/// [`analyse`], plus the theorems about the board and piece themselves,
/// each as a note and as the proof when it rules the tour out: Schwenk's
/// for closed knight's tours, the open-tour theorem for open ones (both on
/// full plain rectangles), and Knuth's on when an {r,s}-leaper graph is
/// connected; and last the proof by a cut of the board ([`cuts`]).
pub fn analyse_board<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    piece: &Piece,
    halt: &H,
) -> Result<Analysis, H::Stop> {
    let mut a = analyse_board_quick(g, goal, board, piece, halt)?;
    if a.impossible.is_none() {
        a.impossible = cut_proof(g, goal, board, &a, halt)?;
    }
    Ok(a)
}

/// [`analyse_board`] without its last proof, the cut of the board
/// ([`cut_proof`]): the facts and proofs that take a pass or a few over
/// the board.
pub fn analyse_board_quick<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    piece: &Piece,
    halt: &H,
) -> Result<Analysis, H::Stop> {
    let mut a = analyse(g, goal, board, halt)?;
    let size = format!("{}x{}", board.width(), board.height());
    if goal.closed
        && let Some(k) = schwenk(board, piece)
    {
        a.notes.push(k.note());
        if a.impossible.is_none()
            && let Some(why) = k.obstruction
        {
            a.impossible = Some(format!(
                "by Schwenk's theorem no {size} board has a closed knight's tour ({why})"
            ));
        }
    }
    if !goal.closed
        && let Some(k) = conrad(board, piece)
    {
        a.notes.push(k.note());
        if a.impossible.is_none()
            && let Some(why) = k.obstruction
        {
            a.impossible = Some(format!(
                "by the open-tour theorem of Conrad et al. no {size} board has an open knight's tour ({why})"
            ));
        }
    }
    if let Some(k) = knuth(board, piece) {
        a.notes.push(k.note());
    }
    Ok(a)
}

/// Whether a proof that no tour exists is in sight before the passes of
/// [`analyse`] over the board: a theorem on the board's rectangle rules the
/// tour out (Schwenk's for closed knight's tours, the open-tour theorem) or
/// the leaper's graph apart (Knuth's); or every move of `g` keeps the
/// colour of its square (found at the first move that changes it, so at
/// once for a piece that is not colour-bound); or every move changes it
/// (single leaps of odd length on a plain board) and the board has too
/// many squares of one colour for a tour that alternates them. A caller
/// with a quick search to try before [`analyse_board`] skips it then.
pub fn obstruction_in_sight<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    piece: &Piece,
    halt: &H,
) -> Result<bool, H::Stop> {
    let theorem = (goal.closed && schwenk(board, piece).is_some_and(|k| k.obstruction.is_some()))
        || (!goal.closed && conrad(board, piece).is_some_and(|k| k.obstruction.is_some()))
        || knuth(board, piece).is_some_and(|k| !k.connected());
    if theorem || shape::colour_bound(g, board, halt)? {
        return Ok(true);
    }
    let alternates = board.topology() == crate::model::Topology::Plain
        && piece
            .moves()
            .iter()
            .all(|m| m.range == 1 && !m.lame && (m.dx + m.dy) % 2 != 0);
    if !alternates {
        return Ok(false);
    }
    let n = board.len();
    let light = if board.is_full() {
        // The board's own rectangle: its dark squares (a1's colour) are
        // the larger half, or half.
        n / 2
    } else {
        let mut light = 0;
        for s in 0..n as u32 {
            halt::poll(halt, s as usize)?;
            let c = board.cell(s);
            light += ((c.x + c.y) % 2) as usize;
        }
        light
    };
    let dark = n - light;
    Ok(if goal.closed {
        dark != light
    } else {
        dark.abs_diff(light) > 1
    })
}

/// Whether [`cut_proof`] looks for a cut of `g` at all, given its analysis
/// `a`: on a board of 3 to 64 squares in one part, where it tries
/// thousands of cuts.
pub fn cuts_tried(g: &MoveGraph, a: &Analysis) -> bool {
    a.components == 1 && (3..=64).contains(&g.len())
}

/// The last and least simple proof of [`analyse_board`]: a cut of the
/// board into too many parts ([`cuts`]), looked for only where
/// [`cuts_tried`] says.
pub fn cut_proof<H: Halt>(
    g: &MoveGraph,
    goal: &Goal,
    board: &Board,
    a: &Analysis,
    halt: &H,
) -> Result<Option<String>, H::Stop> {
    if !cuts_tried(g, a) {
        return Ok(None);
    }
    Ok(cuts::find(g, board, goal.closed, halt)?.map(|cut| cut.reason(board, goal.closed)))
}

/// The first proof that applies, or None.
fn prove(
    g: &MoveGraph,
    rev: &MoveGraph,
    goal: &Goal,
    board: &Board,
    a: &Analysis,
    colour: Option<&[u8]>,
    strong: bool,
) -> Option<String> {
    let n = g.len();
    let name = |s: u32| board.name(s);
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
    if a.components > 1 {
        let why = if a.colour_bound {
            "every move keeps the colour of its square (the piece is colour-bound), so "
        } else {
            ""
        };
        return Some(format!(
            "{why}the move graph falls into {} separate parts ({}); the piece can never get from one to another",
            a.components,
            parts_list(board, a)
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
    // Two classes: every move changes class, so a tour alternates them.
    if let (Some(colour), Some(k)) = (colour, a.classes) {
        let class = |s: u32| k.class_of(board, s, colour);
        let (a0, a1) = a.bipartite.unwrap_or((0, 0));
        let (p0, p1) = (k.plural(0), k.plural(1));
        let moves = k.moves();
        if goal.closed && a0 != a1 {
            return Some(format!(
                "{moves}, so a closed tour needs as many {p0} as {p1}, but there are {a0} and {a1}"
            ));
        }
        let (big, small) = (a0.max(a1), a0.min(a1));
        if big > small + 1 {
            return Some(format!(
                "{moves}, so a tour alternates between {p0} and {p1}, but there are {a0} and {a1}"
            ));
        }
        if !goal.closed {
            let larger = u8::from(a1 > a0);
            if big == small + 1 {
                for &s in goal.start.iter().chain(goal.end.iter()) {
                    if class(s) != larger {
                        return Some(format!(
                            "{moves} and there is one more of the {} ({big} against {small}), so a tour must start and end on them; {} is {}",
                            k.plural(larger),
                            name(s),
                            k.on(1 - larger)
                        ));
                    }
                }
            } else if let (Some(s), Some(e)) = (goal.start, goal.end)
                && class(s) == class(e)
            {
                return Some(format!(
                    "{moves} and there are as many {p0} as {p1} ({a0} each), so a tour starts on one and ends on the other; {} and {} are both {}",
                    name(s),
                    name(e),
                    k.on(class(s))
                ));
            }
        }
    }
    None
}

/// The parts of a graph that falls apart, for people: `32 squares from a1,
/// 32 from b1` or `8 squares from a1; b2 alone, with no moves`.
pub fn parts_list(board: &Board, a: &Analysis) -> String {
    let shown = 4;
    let mut items: Vec<String> = a
        .parts
        .iter()
        .take(shown)
        .enumerate()
        .map(|(i, p)| {
            let first = board.name(p.first);
            match p.size {
                // A part of one square has no move in or out.
                1 => format!("{first} alone, with no moves"),
                size if i == 0 => format!("{size} squares from {first}"),
                size => format!("{size} from {first}"),
            }
        })
        .collect();
    if a.components > shown {
        items.push(format!("and {} more", a.components - shown));
    }
    items.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Piece};

    fn analyse_board(w: u32, h: u32, piece: Piece, goal: Goal) -> Analysis {
        let b = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&b, &piece, &Never);
        let Ok(a) = analyse(&g, &goal, &b, &Never);
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
    fn schwenk_rules_out_what_the_graph_alone_cannot() {
        let knight = Piece::leaper(1, 2, 1);
        // 4x100 has no closed tour; only the theorem can say so quickly.
        let b = Board::rectangle(4, 100);
        let Ok(g) = MoveGraph::build(&b, &knight, &Never);
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let Ok(a) = super::analyse_board(&g, &closed, &b, &knight, &Never);
        let Ok(plain) = analyse(&g, &closed, &b, &Never);
        assert!(plain.impossible.is_none());
        assert!(a.impossible.unwrap_or_default().contains("Schwenk"));
        assert_eq!(a.notes.len(), 2, "Schwenk's and Knuth's: {:?}", a.notes);
    }

    /// The open-tour theorem against search on every board up to 6x6 and
    /// a few beyond: where it promises an open tour Warnsdorff's rule or
    /// the backtracker finds one; where it rules one out, exhaustive
    /// search from every square finds none.
    #[test]
    fn the_open_tour_theorem_agrees_with_search() {
        use crate::solve::{Outcome, Solver, Task};
        let knight = Piece::leaper(1, 2, 1);
        let open = Goal::default();
        let mut boards: Vec<(u32, u32)> =
            (1..=6).flat_map(|m| (m..=6).map(move |n| (m, n))).collect();
        boards.extend([(3, 7), (3, 8), (4, 7), (2, 9), (1, 7)]);
        for (w, h) in boards {
            let b = Board::rectangle(w, h);
            let c = conrad(&b, &knight).unwrap_or_else(|| panic!("{w}x{h} is covered"));
            let Ok(g) = MoveGraph::build(&b, &knight, &Never);
            let task = Task::new(&g, &b, &knight, open);
            let r = crate::solve::backtrack::BacktrackOptions::default().solve_quietly(&task);
            match r.outcome {
                Outcome::Found(t) => {
                    assert!(c.open_tour_exists(), "{w}x{h}");
                    assert_eq!(crate::verify::verify(&b, &knight, &open, &t), Ok(()));
                }
                Outcome::Impossible(_) => assert!(!c.open_tour_exists(), "{w}x{h}"),
                other => panic!("{w}x{h}: {other:?}"),
            }
        }
    }

    #[test]
    fn parts_and_classes_are_named() {
        // The camel: colour-bound, two parts of 32.
        let a = analyse_board(8, 8, Piece::leaper(1, 3, 1), Goal::default());
        let why = a.impossible.unwrap_or_default();
        assert!(why.starts_with("every move keeps the colour of its square (the piece is colour-bound), so the move graph falls into 2 separate parts (32 squares from a1, 32 from b1)"), "{why}");
        // 3x3 knight: b2 is named.
        let a = analyse_board(3, 3, Piece::leaper(1, 2, 1), Goal::default());
        let why = a.impossible.unwrap_or_default();
        assert!(
            why.contains("(8 squares from a1, b2 alone, with no moves)"),
            "{why}"
        );
        assert_eq!(a.no_moves, [4]);
        // 5x5 knight closed: the board's colours, dark first.
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let a = analyse_board(5, 5, Piece::leaper(1, 2, 1), closed);
        assert_eq!(a.classes, Some(Classes::BoardColours));
        assert_eq!(a.bipartite, Some((13, 12)));
        assert_eq!(
            a.impossible.as_deref(),
            Some(
                "every move changes the colour of its square, so a closed tour needs as many dark squares as light squares, but there are 13 and 12"
            )
        );
    }

    #[test]
    fn isolated_squares() {
        // 3x3 knight: the centre has no moves.
        let a = analyse_board(3, 3, Piece::leaper(1, 2, 1), Goal::default());
        assert!(a.impossible.is_some());
        assert_eq!(a.degree_histogram[0], 1);
    }
}
