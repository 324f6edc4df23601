//! The generator of word puzzles (`engine make --text`): the text's units
//! laid on the squares of a random tour, one a square in reading order,
//! tried tour after tour until the tour is the only one that reads the text
//! — proved by the clause-learning search, which finds it and no other —
//! with the first square given when that hint is asked. Then the puzzle
//! file: its letters as a picture and the text.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Failure, Miss, WALKS, tour};
use crate::halt::{Limits, Stop};
use crate::model::letters::{NO_UNIT, unit_key};
use crate::model::{Board, Cell, Constraints, Letters, MoveGraph, Topology};
use crate::progress::{Progress, Unit};
use crate::puzzle::Puzzle;
use crate::solve::clued::sat::{self, Answer};
use crate::words::counted;

/// What to make.
#[derive(Clone, Copy, Debug)]
pub struct WordOptions {
    /// Seed of every random choice.
    pub seed: u64,
    /// Tours to try before giving up.
    pub attempts: u32,
    /// Conflicts each proof of uniqueness may take.
    pub conflicts: u64,
    /// Give the first square (as the puzzle's `start`).
    pub start: bool,
}

/// Tours tried, by default, before `make --text` gives up.
pub const DEFAULT_ATTEMPTS: u32 = 200;

/// A word puzzle made.
#[derive(Clone, Debug)]
pub struct MadeWords {
    /// The solution, verified with its letters.
    pub tour: Vec<u32>,
    /// The units on the squares and the text.
    pub letters: Letters,
    /// The first square, when it is given.
    pub start: Option<u32>,
    /// Conflicts of the proof that the tour is the only one.
    pub conflicts: u64,
    /// The attempt (from 1) that made it.
    pub attempt: u32,
    /// Attempts whose tour was not the only one that reads the text.
    pub multiple: u32,
    /// Attempts whose proof ran out of conflicts.
    pub unknown: u32,
}

/// The board a text of `units` units is laid on when none is given: the
/// rectangle nearest a square with room for them (`w` = ⌈√units⌉ files,
/// as few ranks as hold them), the squares left over taken off the right
/// of the top rank. The first of [`boards_for`].
pub fn board_for(units: usize) -> Board {
    let units = units.max(1);
    let mut w = units.isqrt();
    if w * w < units {
        w += 1;
    }
    let h = units.div_ceil(w);
    hollowed(w, h, w * h - units, Spare::Right)
}

/// The most boards [`boards_for`] offers.
pub const BOARDS_TRIED: usize = 48;

/// Where the squares a rectangle has over the text's units are taken off.
#[derive(Clone, Copy)]
enum Spare {
    /// The right end of the top rank.
    Right,
    /// Both ends of the top rank, the right first.
    Ends,
    /// The corners, top right, top left, bottom right, bottom left, then
    /// on along the top rank from its right end.
    Corners,
}

/// A `w` by `h` rectangle with `spare` squares taken off as `at` says.
fn hollowed(w: usize, h: usize, spare: usize, at: Spare) -> Board {
    let top = h - 1;
    let mut off: Vec<(usize, usize)> = Vec::with_capacity(spare);
    let push = |c: (usize, usize), off: &mut Vec<(usize, usize)>| {
        if off.len() < spare && !off.contains(&c) {
            off.push(c);
        }
    };
    match at {
        Spare::Right => (0..w).rev().for_each(|x| push((x, top), &mut off)),
        Spare::Ends => (0..w).for_each(|i| {
            let x = if i % 2 == 0 { w - 1 - i / 2 } else { i / 2 };
            push((x, top), &mut off)
        }),
        Spare::Corners => {
            for c in [(w - 1, top), (0, top), (w - 1, 0), (0, 0)] {
                push(c, &mut off);
            }
            (0..w).rev().for_each(|x| push((x, top), &mut off));
        }
    }
    Board::new(w as u32, h as u32, Topology::Plain, |c: Cell| {
        !off.contains(&(c.x as usize, c.y as usize))
    })
}

/// The boards a text of `units` units may be laid on when none is given,
/// in the order they are tried until one has a tour: rectangles by their
/// area, the nearest a square first, each with its spare squares (fewer
/// than a rank) off the right of the top rank, then off both its ends,
/// then off the corners; [`board_for`] first, at most [`BOARDS_TRIED`].
pub fn boards_for(units: usize) -> Vec<Board> {
    let units = units.max(1);
    let mut shapes: Vec<(usize, usize)> = Vec::new();
    for area in units..=4 * units + 16 {
        let mut here: Vec<(usize, usize)> = (1..=area.isqrt())
            .filter(|h| area % h == 0)
            .map(|h| (area / h, h))
            .filter(|&(w, h)| area - units < w && (h > 1 || units == area))
            .collect();
        here.sort_by_key(|&(w, h)| w - h);
        shapes.extend(here);
    }
    let first = board_for(units);
    let mut boards = vec![first.clone()];
    for (w, h) in shapes {
        for at in [Spare::Right, Spare::Ends, Spare::Corners] {
            let board = hollowed(w, h, w * h - units, at);
            if board.len() == units && !boards.contains(&board) {
                boards.push(board);
            }
        }
        if boards.len() >= BOARDS_TRIED {
            break;
        }
    }
    boards.truncate(BOARDS_TRIED);
    boards
}

/// The rectangles tried, nearest a square first, for the last resort of
/// a text whose [`boards_for`] have no tour: a path of `units` squares on
/// one of them, its other squares removed ([`path_board`]).
pub fn rectangles_for(units: usize) -> Vec<(u32, u32)> {
    let units = units.max(1);
    let mut out = Vec::new();
    for area in units..=4 * units + 16 {
        let mut here: Vec<(u32, u32)> = (2..=area.isqrt())
            .filter(|h| area % h == 0)
            .map(|h| ((area / h) as u32, h as u32))
            .collect();
        here.sort_by_key(|&(w, h)| w - h);
        out.extend(here);
    }
    out.truncate(BOARDS_TRIED);
    out
}

/// The board made of the squares of a path of `units` squares of `graph`
/// on `board` (found by seeded walks from `seed`), the others removed: a
/// board on which the piece has a tour. `Ok(None)` when no walk found one.
pub fn path_board(
    board: &Board,
    graph: &MoveGraph,
    units: usize,
    seed: u64,
    limits: &Limits<'_>,
) -> Result<Option<Board>, Stop> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let Some(path) = tour::random_path(graph, units, &mut rng, 16, 100_000, limits)? else {
        return Ok(None);
    };
    let on: std::collections::HashSet<Cell> = path.iter().map(|&s| board.cell(s)).collect();
    Ok(Some(Board::new(
        board.width(),
        board.height(),
        board.topology(),
        |c: Cell| on.contains(&c),
    )))
}

/// The letters of `units` (as written) laid along `tour`, reading `text`.
pub fn lay(n: usize, tour: &[u32], units: &[String], text: &str) -> Letters {
    let mut number: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let reading: Vec<u32> = units
        .iter()
        .map(|u| {
            let next = number.len() as u32;
            *number.entry(unit_key(u)).or_insert(next)
        })
        .collect();
    let mut written = vec![String::new(); n];
    let mut unit_of = vec![NO_UNIT; n];
    for ((&s, u), &id) in tour.iter().zip(units).zip(&reading) {
        written[s as usize] = u.clone();
        unit_of[s as usize] = id;
    }
    Letters {
        written,
        text: text.to_string(),
        unit_of,
        reading,
    }
}

/// Makes a word puzzle of `units` (the text's units as written, as many as
/// `puzzle`'s squares) reading `text`, on `puzzle`'s board with its piece
/// and goal and its move graph `graph`, within `limits`; `progress` counts
/// the tours tried.
pub fn make_words(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    units: &[String],
    text: &str,
    opts: &WordOptions,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<MadeWords, Failure> {
    let n = graph.len();
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let walk_nodes = (64 * n as u64).max(100_000);
    progress.start(Unit::Tours, Some(u64::from(opts.attempts)));
    let (mut multiple, mut unknown) = (0, 0);
    let mut found_any = false;
    for attempt in 1..=opts.attempts.max(1) {
        progress.set(u64::from(attempt - 1));
        let Some(tour) =
            tour::random_tour(graph, &puzzle.goal, &mut rng, WALKS, walk_nodes, &limits)?
        else {
            continue;
        };
        found_any = true;
        let letters = lay(n, &tour, units, text);
        let start = opts.start.then(|| tour[0]);
        let c = Constraints {
            letters: Some(letters),
            ..Constraints::default()
        };
        super::check_with(puzzle, "the random walk", &tour, &c)?;
        let Some(letters) = c.letters else {
            continue;
        };
        // The start and end the puzzle fixes, and the start given, are
        // clues 1 and n.
        let mut clues = Vec::new();
        if let Some(s) = start.or(puzzle.goal.start) {
            clues.push((1, s));
        }
        if let (false, Some(e)) = (puzzle.goal.closed, puzzle.goal.end) {
            clues.push((n as u32, e));
        }
        let (answer, conflicts) = sat::solutions_with(
            graph,
            puzzle.goal.closed,
            &clues,
            Some(&letters),
            None,
            (2, opts.conflicts),
            &limits,
        )?;
        match answer {
            Answer::Tours(tours) if tours.len() == 1 && tours[0] == tour => {
                return Ok(MadeWords {
                    tour,
                    letters,
                    start,
                    conflicts,
                    attempt,
                    multiple,
                    unknown,
                });
            }
            Answer::Tours(tours) if tours.len() >= 2 => {
                for t in &tours {
                    let c = Constraints {
                        letters: Some(letters.clone()),
                        ..Constraints::default()
                    };
                    super::check_with(puzzle, "the clause-learning search", t, &c)?;
                }
                multiple += 1;
            }
            Answer::Tours(_) => {
                return Err(Failure::Bug(crate::solve::runner::InvalidTour {
                    solver: "the clause-learning search".to_string(),
                    problem: "it does not find the tour the text was laid on".to_string(),
                }));
            }
            Answer::OutOfNodes => unknown += 1,
        }
    }
    if !found_any {
        // No walk found a tour: the runner's complete search finds one
        // (proving nothing about the reading) or proves there is none.
        let _ = super::complete_tour(puzzle, graph, limits, progress)?;
    }
    let tries = counted(u64::from(opts.attempts.max(1)), "tour");
    Err(Failure::Missed(Miss::Target(format!(
        "no tour of {tries} was the only one to read the text ({multiple} had another, {unknown} ran out of {})",
        counted(opts.conflicts, "conflict")
    ))))
}

/// The letters picture of `letters` on `board`: one line per rank, top
/// rank first, each square's unit (a syllable in brackets, `.` for none,
/// `#` a removed square) padded to the widest, indented by `indent`.
pub fn picture(board: &Board, letters: &Letters, indent: usize) -> String {
    let shown = |s: u32| letters.shown(s);
    let width = (0..board.len() as u32)
        .map(|s| shown(s).chars().count())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for y in (0..board.height()).rev() {
        let tokens: Vec<String> = (0..board.width())
            .map(|x| {
                let t = match board.square_at(Cell::new(x, y)) {
                    None => "#".to_string(),
                    Some(s) => shown(s),
                };
                format!("{t:<width$}")
            })
            .collect();
        out.push_str(&" ".repeat(indent));
        out.push_str(tokens.join(" ").trim_end());
        out.push('\n');
    }
    out
}

/// The lengths of the text's words, in units: a word is what lies
/// between spaces, and its units are its letters and digits, a syllable
/// in brackets one (punctuation is none).
pub fn word_lengths(text: &str) -> Vec<usize> {
    text.split_whitespace()
        .map(|w| {
            let mut count = 0;
            let mut in_bracket = false;
            for c in w.chars() {
                match c {
                    '[' => {
                        in_bracket = true;
                        count += 1;
                    }
                    ']' => in_bracket = false,
                    c if c.is_alphanumeric() && !in_bracket => count += 1,
                    _ => {}
                }
            }
            count
        })
        .filter(|&c| c > 0)
        .collect()
}

/// The text of the puzzle file of a word puzzle: `header` as `//`
/// comments, then the puzzle named `name` with `puzzle`'s piece (and named
/// pieces), tour kind and a board the picture cannot state, the first
/// square when it is given, the letters as a picture and the text.
pub fn puzzle_text(puzzle: &Puzzle, made: &MadeWords, name: &str, header: &[String]) -> String {
    let quote = super::file::quote;
    let mut t = super::file::puzzle_head(puzzle, name, header);
    if let Some(s) = made.start.or(puzzle.goal.start) {
        t.push_str(&format!("    start: {},\n", quote(&puzzle.board.name(s))));
    }
    if let (false, Some(e)) = (puzzle.goal.closed, puzzle.goal.end) {
        t.push_str(&format!("    end: {},\n", quote(&puzzle.board.name(e))));
    }
    t.push_str("    letters: r#\"\n");
    t.push_str(&picture(&puzzle.board, &made.letters, 4));
    t.push_str("\"#,\n");
    t.push_str(&format!("    text: {},\n", quote(&made.letters.text)));
    t.push_str("    solutions: Unique,\n)\n");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_the_nearest_square_with_room() {
        let b = board_for(64);
        assert_eq!((b.width(), b.height(), b.len()), (8, 8, 64));
        let b = board_for(62);
        assert_eq!((b.width(), b.height(), b.len()), (8, 8, 62));
        assert!(!b.is_square(Cell::new(7, 7)) && !b.is_square(Cell::new(6, 7)));
        let b = board_for(30);
        assert_eq!((b.width(), b.height(), b.len()), (6, 5, 30));
        assert_eq!(board_for(100).width(), 10);
    }

    #[test]
    fn the_boards_tried_have_room_for_the_text_and_differ() {
        for units in [1, 2, 5, 10, 12, 30, 64, 101] {
            let boards = boards_for(units);
            assert!(boards[0] == board_for(units));
            assert!(boards.len() > 3 || units < 5, "{units}: {}", boards.len());
            for (i, b) in boards.iter().enumerate() {
                assert_eq!(b.len(), units);
                assert!(!boards[..i].contains(b));
            }
        }
    }

    #[test]
    fn word_lengths_count_units() {
        assert_eq!(word_lengths("To be, [or] not — to be!"), [2, 2, 1, 3, 2, 2]);
    }
}
