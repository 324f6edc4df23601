//! A proof by cutting the board: squares whose removal leaves the others in
//! more pieces than a tour can pass through.
//!
//! Take a set `S` of squares out of a tour: an open tour falls into at most
//! `|S| + 1` paths, a closed one into at most `|S|` (`S` not empty). Each
//! path lies inside one part of what is left of the move graph (its squares
//! are joined by moves), and every part needs at least one. When every move
//! changes class, a path alternates the two classes, so a part with `k` more
//! squares of one class than of the other needs at least `k`. When the parts
//! need more paths than the tour has, no tour exists.
//!
//! On boards of at most 64 squares, the sets tried are the unions of orbits
//! of the board's symmetries (when there are at most [`MAX_ORBITS`] orbits:
//! at most 65,536 unions), the cuts that settle the hardest small boards
//! being symmetric shapes such as the centre of an 8x8 board for the giraffe
//! or the zebra; then the neighbours of sets of squares of one class with
//! the fewest moves, which cut the sides of boards too narrow for a piece's
//! long moves (the union of the zebra and the (3,4)-leaper on 8x6); squares
//! of equally few moves are taken rank by rank and then file by file, so a
//! board and its turn are tried alike.

use crate::halt::{self, Halt};
use crate::model::Symmetries;
use crate::model::graph::walks;
use crate::model::{Board, MoveGraph};

/// Boards whose symmetries leave more orbits than this get no union of
/// orbits tried.
pub const MAX_ORBITS: usize = 16;

/// The squares of each class whose neighbours are tried as cuts: this many
/// with the fewest moves (`2^12` sets a class).
const NEAR_CANDIDATES: usize = 12;

/// A set of squares that cuts every tour into too many paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The squares taken away, in board order.
    pub removed: Vec<u32>,
    /// The parts the other squares fall into.
    pub parts: usize,
    /// The paths those parts need (more than `parts` when a part has more
    /// squares of one class than of the other).
    pub needed: usize,
    /// The paths a tour without the squares is at most.
    pub paths: usize,
}

impl Cut {
    /// The proof, for people.
    pub fn reason(&self, board: &Board, closed: bool) -> String {
        let mut names: Vec<String> = self
            .removed
            .iter()
            .take(8)
            .map(|&s| board.name(s))
            .collect();
        if self.removed.len() > 8 {
            names.push(format!("and {} more", self.removed.len() - 8));
        }
        let k = self.removed.len();
        let (kind, bound) = if closed {
            ("a closed", "as many as the squares taken out")
        } else {
            ("an open", "one more than the squares taken out")
        };
        let head = format!(
            "without the {k} squares {} the others fall into {} parts, and {kind} tour without them falls into at most {} paths ({bound})",
            names.join(" "),
            self.parts,
            self.paths
        );
        if self.needed > self.parts {
            format!(
                "{head}; but the parts need {}: every move changes class, so a path alternates classes, and a part with k more squares of one class than of the other needs k paths",
                self.needed
            )
        } else {
            format!("{head}; but each part needs one")
        }
    }
}

/// Looks for a cut of `g` (on `board`) among the unions of orbits of the
/// board's symmetries, then among the neighbours of sets of squares with few
/// moves.
pub fn find<H: Halt>(
    g: &MoveGraph,
    board: &Board,
    closed: bool,
    halt: &H,
) -> Result<Option<Cut>, H::Stop> {
    let n = g.len();
    if !(3..=64).contains(&n) {
        return Ok(None);
    }
    // The two classes, when every move changes class.
    let (_, colour) = walks::parts_and_colours(g, halt)?;
    let orbits = orbits(&Symmetries::of_board(board, g));
    // Parts are joined by moves either way.
    let mut near = vec![0u64; n];
    for s in 0..n as u32 {
        for &t in g.targets(s) {
            near[s as usize] |= 1 << t;
            near[t as usize] |= 1 << s;
        }
    }
    // A set's neighbours in eight lookups.
    let spread = crate::search::tables::spread_tables(&near);
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let ones = colour.map(|c| (0..n).fold(0u64, |m, s| m | u64::from(c[s] & 1) << s));
    let mut tried = 0usize;
    let mut attempt = |removed: u64| -> Result<Option<Cut>, H::Stop> {
        tried += 1;
        halt::poll(halt, tried)?;
        let size = removed.count_ones() as usize;
        let paths = if closed { size } else { size + 1 };
        // Each part needs at most as many paths as it has squares.
        if size == 0 || n - size <= paths {
            return Ok(None);
        }
        Ok(
            pieces(&spread, all & !removed, ones, paths).map(|(parts, needed)| Cut {
                removed: (0..n as u32).filter(|&s| removed >> s & 1 == 1).collect(),
                parts,
                needed,
                paths,
            }),
        )
    };
    // First the unions of orbits, fewest orbits first, so the cut reported
    // is a small one.
    if orbits.len() <= MAX_ORBITS {
        for pick in subsets(orbits.len()) {
            let removed = orbits
                .iter()
                .enumerate()
                .filter(|&(i, _)| pick >> i & 1 == 1)
                .fold(0u64, |m, (_, o)| m | o);
            if let Some(cut) = attempt(removed)? {
                return Ok(Some(cut));
            }
        }
    }
    // Then the neighbours of a few squares of one class with the fewest
    // moves: taking them out leaves each of those squares alone (or with
    // others of the few), which is how boards too narrow for a piece's long
    // moves come apart — one side's squares hang on a handful of squares of
    // the middle, and no symmetry of the board need map the cut onto itself.
    let classes = match ones {
        Some(o) => vec![all & o, all & !o],
        None => vec![all],
    };
    // Squares of equally few moves are taken rank by rank, then file by
    // file where that picks others: a board and its turn try the same sets.
    let by_file: Vec<u32> = (0..n as u32)
        .map(|s| {
            let c = board.cell(s);
            c.x * board.height() + c.y
        })
        .collect();
    let mut picks: Vec<Vec<usize>> = Vec::new();
    for tie in [0, 1] {
        for &class in &classes {
            let mut few: Vec<usize> = (0..n).filter(|&s| class >> s & 1 == 1).collect();
            few.sort_by_key(|&s| {
                let at = if tie == 0 { s as u32 } else { by_file[s] };
                (near[s].count_ones(), at)
            });
            few.truncate(NEAR_CANDIDATES);
            let same = |p: &Vec<usize>| {
                let (mut a, mut b) = (p.clone(), few.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            };
            if !picks.iter().any(same) {
                picks.push(few);
            }
        }
    }
    for few in picks {
        for pick in subsets(few.len()) {
            let (chosen, around) = few
                .iter()
                .enumerate()
                .filter(|&(i, _)| pick >> i & 1 == 1)
                .fold((0u64, 0u64), |(c, a), (_, &s)| (c | 1 << s, a | near[s]));
            if let Some(cut) = attempt(around & !chosen)? {
                return Ok(Some(cut));
            }
        }
    }
    Ok(None)
}

/// The non-empty subsets of `k` things as masks, fewest first, each size in
/// increasing order (Gosper's hack).
fn subsets(k: usize) -> impl Iterator<Item = u64> {
    (1..=k).flat_map(move |r| {
        let mut pick: u64 = (1 << r) - 1;
        std::iter::from_fn(move || {
            if pick >= 1 << k {
                return None;
            }
            let out = pick;
            let low = pick & pick.wrapping_neg();
            let up = pick + low;
            pick = (((up ^ pick) >> 2) / low) | up;
            Some(out)
        })
    })
}

/// The orbits of the squares, as masks.
fn orbits(group: &Symmetries) -> Vec<u64> {
    let n = group.squares();
    let mut seen = 0u64;
    let mut out = Vec::new();
    for s in 0..n {
        if seen >> s & 1 == 1 {
            continue;
        }
        let orbit = group.elements().iter().fold(0u64, |m, p| m | 1 << p[s]);
        seen |= orbit;
        out.push(orbit);
    }
    out
}

/// The parts of `rest` and the paths they need, if more than `paths`
/// (`spread` as built in [`find`]).
fn pieces(
    spread: &[[u64; 256]],
    mut rest: u64,
    ones: Option<u64>,
    paths: usize,
) -> Option<(usize, usize)> {
    let (mut parts, mut needed) = (0usize, 0usize);
    while rest != 0 {
        let mut part = rest & rest.wrapping_neg();
        let mut front = part;
        while front != 0 {
            let next = spread
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, t)| m | t[(front >> (8 * k)) as usize & 255]);
            front = next & rest & !part;
            part |= front;
        }
        rest &= !part;
        parts += 1;
        needed += match ones {
            Some(o) => {
                let a = (part & o).count_ones() as usize;
                let b = (part & !o).count_ones() as usize;
                a.abs_diff(b).max(1)
            }
            None => 1,
        };
    }
    (needed > paths).then_some((parts, needed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::Piece;

    fn cut(w: u32, h: u32, piece: Piece, closed: bool) -> Option<Cut> {
        let board = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&board, &piece, &Never);
        let Ok(c) = find(&g, &board, closed, &Never);
        c
    }

    /// Checks `c` afresh: the parts by a plain search, the classes by the
    /// squares' colours (for pieces that always change colour).
    fn recheck(w: u32, h: u32, piece: &Piece, c: &Cut, closed: bool) {
        let board = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&board, piece, &Never);
        let n = board.len() as u32;
        assert_eq!(c.paths, c.removed.len() + usize::from(!closed), "{c:?}");
        let mut seen: Vec<bool> = (0..n).map(|s| c.removed.contains(&s)).collect();
        let (mut parts, mut needed) = (0, 0);
        for s in 0..n {
            if seen[s as usize] {
                continue;
            }
            parts += 1;
            seen[s as usize] = true;
            let (mut stack, mut balance) = (vec![s], 0i32);
            while let Some(u) = stack.pop() {
                let cell = board.cell(u);
                balance += if (cell.x + cell.y).is_multiple_of(2) {
                    1
                } else {
                    -1
                };
                for &t in g.targets(u) {
                    if !seen[t as usize] {
                        seen[t as usize] = true;
                        stack.push(t);
                    }
                }
            }
            needed += balance.unsigned_abs().max(1) as usize;
        }
        assert_eq!((parts, needed), (c.parts, c.needed));
        assert!(c.needed > c.paths, "{c:?}");
        let text = c.reason(&board, closed);
        assert!(
            text.starts_with(&format!("without the {} squares", c.removed.len())),
            "{text}"
        );
    }

    #[test]
    fn the_centre_cuts_the_zebras_8x8() {
        let zebra = Piece::leaper(2, 3, 1);
        let Some(c) = cut(8, 8, zebra.clone(), false) else {
            panic!("no cut");
        };
        recheck(8, 8, &zebra, &c, false);
    }

    #[test]
    fn the_neighbours_of_one_side_cut_a_narrow_board() {
        // No symmetry of the 8x6 board maps this cut onto itself: it takes
        // out the neighbours of six squares on files a and b.
        let piece = Piece::leaper(2, 3, 1).union(&Piece::leaper(3, 4, 1));
        let Some(c) = cut(8, 6, piece.clone(), true) else {
            panic!("no cut");
        };
        recheck(8, 6, &piece, &c, true);
    }

    #[test]
    fn a_board_and_its_turn_are_cut_alike() {
        // The giraffe's closed tours: the cut found on 7x8 is found on 8x7
        // too, whichever way the squares with fewest moves tie.
        let giraffe = Piece::leaper(1, 4, 1);
        for (w, h) in [(7, 8), (8, 7)] {
            let Some(c) = cut(w, h, giraffe.clone(), true) else {
                panic!("no cut of {w}x{h}");
            };
            recheck(w, h, &giraffe, &c, true);
        }
    }

    #[test]
    fn no_cut_where_tours_exist() {
        assert_eq!(cut(8, 8, Piece::leaper(1, 2, 1), false), None);
        assert_eq!(cut(8, 8, Piece::leaper(1, 2, 1), true), None);
        assert_eq!(cut(5, 5, Piece::leaper(1, 2, 1), false), None);
    }
}
