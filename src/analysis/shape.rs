//! How a move graph divides the board, in the board's own terms: the two
//! classes of a 2-colouring named by what they are (the board's dark and
//! light squares, alternate files, alternate ranks), the parts with their
//! sizes and first squares, and whether the piece is colour-bound.

use crate::halt::{self, Halt};
use crate::model::{Board, MoveGraph};

/// What the two classes of a bipartite move graph are on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classes {
    /// The board's colours: class 0 holds a1 and the squares of its colour
    /// (dark, as on a chessboard), class 1 the light squares.
    BoardColours,
    /// Alternate files: class 0 is files a, c, e…, class 1 files b, d, f….
    Files,
    /// Alternate ranks: class 0 is ranks 1, 3, 5…, class 1 ranks 2, 4, 6….
    Ranks,
    /// Two classes no simple pattern names: class 0 holds the first square.
    Unnamed,
}

impl Classes {
    /// What every move does, as the start of a sentence.
    pub fn moves(self) -> &'static str {
        match self {
            Classes::BoardColours => "every move changes the colour of its square",
            Classes::Files => "every move goes between the files a, c, e… and b, d, f…",
            Classes::Ranks => "every move goes between the ranks 1, 3, 5… and 2, 4, 6…",
            Classes::Unnamed => "every move goes between two classes of squares",
        }
    }

    /// The squares of one class, in the plural: `dark squares`.
    pub fn plural(self, class: u8) -> &'static str {
        match (self, class) {
            (Classes::BoardColours, 0) => "dark squares",
            (Classes::BoardColours, _) => "light squares",
            (Classes::Files, 0) => "squares on files a, c, e…",
            (Classes::Files, _) => "squares on files b, d, f…",
            (Classes::Ranks, 0) => "squares on ranks 1, 3, 5…",
            (Classes::Ranks, _) => "squares on ranks 2, 4, 6…",
            (Classes::Unnamed, 0) => "squares of the first class",
            (Classes::Unnamed, _) => "squares of the second class",
        }
    }

    /// Where one square of the class is: `dark`, `on files b, d, f…`.
    pub fn on(self, class: u8) -> &'static str {
        match (self, class) {
            (Classes::BoardColours, 0) => "dark",
            (Classes::BoardColours, _) => "light",
            (Classes::Files, 0) => "on files a, c, e…",
            (Classes::Files, _) => "on files b, d, f…",
            (Classes::Ranks, 0) => "on ranks 1, 3, 5…",
            (Classes::Ranks, _) => "on ranks 2, 4, 6…",
            (Classes::Unnamed, 0) => "in the first class",
            (Classes::Unnamed, _) => "in the second class",
        }
    }

    /// The class of `s` under this naming (for `Unnamed`, `colour` itself).
    pub fn class_of(self, board: &Board, s: u32, colour: &[u8]) -> u8 {
        let c = board.cell(s);
        match self {
            Classes::BoardColours => ((c.x + c.y) % 2) as u8,
            Classes::Files => (c.x % 2) as u8,
            Classes::Ranks => (c.y % 2) as u8,
            Classes::Unnamed => colour[s as usize] ^ colour[0],
        }
    }
}

/// Names the classes of `colour`, a 2-colouring of a move graph in one
/// part: the first pattern that agrees with it on every square (or on none,
/// the classes being swapped).
pub fn name_classes(board: &Board, colour: &[u8]) -> Classes {
    name_classes_in_parts(board, colour, &vec![0; colour.len()], 1)
}

/// Names the classes of `colour`, a 2-colouring of a move graph whose
/// square `s` is in part `label[s]` of `parts`: the first pattern that
/// agrees with it on every square of each part, or on none (each part's
/// colouring may be swapped, as a 2-colouring of a part can be).
pub fn name_classes_in_parts(board: &Board, colour: &[u8], label: &[u32], parts: usize) -> Classes {
    [Classes::BoardColours, Classes::Files, Classes::Ranks]
        .into_iter()
        .find(|&k| {
            let mut flips: Vec<Option<u8>> = vec![None; parts];
            (0..colour.len() as u32).all(|s| {
                let flip = k.class_of(board, s, colour) ^ colour[s as usize];
                match label
                    .get(s as usize)
                    .and_then(|&l| flips.get_mut(l as usize))
                {
                    Some(seen @ None) => {
                        *seen = Some(flip);
                        true
                    }
                    Some(Some(f)) => *f == flip,
                    None => false,
                }
            })
        })
        .unwrap_or(Classes::Unnamed)
}

/// One part of a move graph that falls apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its first square in board order.
    pub first: u32,
    /// Its number of squares.
    pub size: usize,
}

/// The (weakly) connected parts of `g`: each square's part, numbered in
/// the order of their first squares, and the parts.
pub fn parts<H: Halt>(g: &MoveGraph, halt: &H) -> Result<(Vec<u32>, Vec<Part>), H::Stop> {
    let n = g.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut s: u32) -> u32 {
        while parent[s as usize] != s {
            let up = parent[parent[s as usize] as usize];
            parent[s as usize] = up;
            s = up;
        }
        s
    }
    for s in 0..n as u32 {
        halt::poll(halt, s as usize)?;
        for t in g.neighbours(s) {
            let (a, b) = (root(&mut parent, s), root(&mut parent, t));
            if a != b {
                // The smaller root stays: a part's root is its first square.
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut label = vec![0u32; n];
    let mut parts: Vec<Part> = Vec::new();
    for s in 0..n as u32 {
        halt::poll(halt, s as usize)?;
        let r = root(&mut parent, s);
        let l = if r == s {
            parts.push(Part { first: s, size: 0 });
            parts.len() as u32 - 1
        } else {
            label[r as usize]
        };
        label[s as usize] = l;
        parts[l as usize].size += 1;
    }
    Ok((label, parts))
}

/// Whether every move of `g` keeps the colour of its square (the piece is
/// colour-bound, as the camel, ferz, alfil and dabbaba are); false when
/// there are no moves at all.
pub fn colour_bound<H: Halt>(g: &MoveGraph, board: &Board, halt: &H) -> Result<bool, H::Stop> {
    let colour = |s: u32| {
        let c = board.cell(s);
        (c.x + c.y) % 2
    };
    let mut any = false;
    for s in 0..g.len() as u32 {
        halt::poll(halt, s as usize)?;
        for t in g.neighbours(s) {
            if colour(s) != colour(t) {
                return Ok(false);
            }
            any = true;
        }
    }
    Ok(any)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Cell, Piece, Topology};

    fn graph(b: &Board, p: &Piece) -> MoveGraph {
        let Ok(g) = MoveGraph::build(b, p, &Never);
        g
    }

    fn classes(b: &Board, p: &Piece) -> Option<Classes> {
        let g = graph(b, p);
        let Ok((1, colour)) = crate::model::graph::walks::parts_and_colours(&g, &Never) else {
            return None;
        };
        colour.map(|c| name_classes(b, &c))
    }

    #[test]
    fn classes_are_named_by_what_they_are() {
        let b = Board::rectangle(8, 8);
        assert_eq!(
            classes(&b, &Piece::leaper(1, 2, 1)),
            Some(Classes::BoardColours)
        );
        assert_eq!(
            classes(&b, &Piece::leaper(0, 1, 1)),
            Some(Classes::BoardColours)
        );
        // The camel's graph falls apart; on one colour its moves change file parity.
        assert_eq!(classes(&b, &Piece::leaper(1, 3, 1)), None);
        // Diagonal steps and sideways steps all change the file's parity.
        let step = |dx, dy| crate::model::Move {
            dx,
            dy,
            range: 1,
            lame: false,
        };
        let files = Piece::leaper(1, 1, 1).union(&Piece::new([step(1, 0), step(-1, 0)]));
        assert_eq!(classes(&b, &files), Some(Classes::Files));
        let ranks = Piece::leaper(1, 1, 1).union(&Piece::new([step(0, 1), step(0, -1)]));
        assert_eq!(classes(&b, &ranks), Some(Classes::Ranks));
        // A 5x5 torus: the wrap joins a1 to e1, both dark, so no colouring.
        let torus = Board::new(5, 5, Topology::Torus, |_| true);
        assert_eq!(classes(&torus, &Piece::leaper(0, 1, 1)), None);
        // 3x3 knight without its centre: an 8-cycle, on the board's colours.
        let ring = Board::new(3, 3, Topology::Plain, |c| c != Cell::new(1, 1));
        assert_eq!(
            classes(&ring, &Piece::leaper(1, 2, 1)),
            Some(Classes::BoardColours)
        );
    }

    #[test]
    fn parts_are_numbered_by_their_first_square() {
        let b = Board::rectangle(3, 3);
        let Ok((label, three)) = parts(&graph(&b, &Piece::leaper(1, 2, 1)), &Never);
        assert_eq!(
            three,
            [Part { first: 0, size: 8 }, Part { first: 4, size: 1 }]
        );
        assert_eq!(label[4], 1);
        assert!(label.iter().enumerate().all(|(s, &l)| (s == 4) == (l == 1)));
        let b8 = Board::rectangle(8, 8);
        let Ok((_, dabbaba)) = parts(&graph(&b8, &Piece::leaper(0, 2, 1)), &Never);
        assert_eq!(dabbaba.iter().map(|p| p.size).collect::<Vec<_>>(), [16; 4]);
        assert_eq!(
            dabbaba.iter().map(|p| p.first).collect::<Vec<_>>(),
            [0, 1, 8, 9]
        );
    }

    #[test]
    fn colour_bound_pieces() {
        let b = Board::rectangle(8, 8);
        for (r, s, bound) in [
            (1, 3, true),
            (1, 1, true),
            (2, 2, true),
            (0, 2, true),
            (1, 2, false),
            (0, 1, false),
        ] {
            let Ok(c) = colour_bound(&graph(&b, &Piece::leaper(r, s, 1)), &b, &Never);
            assert_eq!(c, bound, "{{{r},{s}}}");
        }
        // On a 7-file torus the wrap changes a square's colour.
        let torus = Board::new(7, 8, Topology::Torus, |_| true);
        let Ok(c) = colour_bound(&graph(&torus, &Piece::leaper(1, 1, 1)), &torus, &Never);
        assert!(!c);
    }
}
