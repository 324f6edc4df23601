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
//! The sets tried are the unions of orbits of the board's symmetries, on
//! boards of at most 64 squares with at most [`MAX_ORBITS`] orbits (at most
//! 65,536 unions, a few milliseconds): the cuts that settle the hardest
//! small boards are symmetric shapes, such as the centre of an 8x8 board
//! for the giraffe or the zebra.

use crate::count::Symmetries;
use crate::halt::{self, Halt};
use crate::model::graph::walks;
use crate::model::{Board, MoveGraph};

/// Boards whose symmetries leave more orbits than this are not tried.
pub const MAX_ORBITS: usize = 16;

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
/// board's symmetries.
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
    if orbits.len() > MAX_ORBITS {
        return Ok(None);
    }
    // Parts are joined by moves either way.
    let mut near = vec![0u64; n];
    for s in 0..n as u32 {
        for &t in g.targets(s) {
            near[s as usize] |= 1 << t;
            near[t as usize] |= 1 << s;
        }
    }
    // For each byte of a mask and each value of it, the squares joined to
    // the squares it holds: a set's neighbours in eight lookups.
    let spread: Vec<[u64; 256]> = (0..8)
        .map(|k| {
            let mut table = [0u64; 256];
            for (v, slot) in table.iter_mut().enumerate() {
                for b in 0..8 {
                    let s = 8 * k + b;
                    if v >> b & 1 == 1 && s < n {
                        *slot |= near[s];
                    }
                }
            }
            table
        })
        .collect();
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let ones = colour.map(|c| (0..n).fold(0u64, |m, s| m | u64::from(c[s] & 1) << s));
    let k = orbits.len();
    let mut tried = 0usize;
    // Fewest orbits first, so the cut reported is a small one.
    for r in 1..=k {
        // The r-subsets of the orbits in increasing order (Gosper's hack).
        let mut pick: u64 = (1 << r) - 1;
        while pick < 1 << k {
            tried += 1;
            halt::poll(halt, tried)?;
            let removed = (0..k)
                .filter(|&i| pick >> i & 1 == 1)
                .fold(0u64, |m, i| m | orbits[i]);
            let size = removed.count_ones() as usize;
            let paths = if closed { size } else { size + 1 };
            // Each part needs at most as many paths as it has squares.
            if n - size > paths
                && let Some((parts, needed)) = pieces(&spread, all & !removed, ones, paths)
            {
                return Ok(Some(Cut {
                    removed: (0..n as u32).filter(|&s| removed >> s & 1 == 1).collect(),
                    parts,
                    needed,
                    paths,
                }));
            }
            let low = pick & pick.wrapping_neg();
            let up = pick + low;
            pick = (((up ^ pick) >> 2) / low) | up;
        }
    }
    Ok(None)
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

    #[test]
    fn the_centre_cuts_the_zebras_8x8() {
        let Some(c) = cut(8, 8, Piece::leaper(2, 3, 1), false) else {
            panic!("no cut");
        };
        assert!(
            c.needed > c.paths && c.paths == c.removed.len() + 1,
            "{c:?}"
        );
        // Checked afresh: the parts by a plain search, the classes by the
        // squares' colours (the zebra always changes colour).
        let board = Board::rectangle(8, 8);
        let Ok(g) = MoveGraph::build(&board, &Piece::leaper(2, 3, 1), &Never);
        let mut seen: Vec<bool> = (0..64).map(|s| c.removed.contains(&s)).collect();
        let (mut parts, mut needed) = (0, 0);
        for s in 0..64u32 {
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
        let text = c.reason(&board, false);
        assert!(
            text.starts_with(&format!("without the {} squares", c.removed.len())),
            "{text}"
        );
    }

    #[test]
    fn no_cut_where_tours_exist() {
        assert_eq!(cut(8, 8, Piece::leaper(1, 2, 1), false), None);
        assert_eq!(cut(8, 8, Piece::leaper(1, 2, 1), true), None);
        assert_eq!(cut(5, 5, Piece::leaper(1, 2, 1), false), None);
    }
}
