//! The symmetries a count may use: permutations of the squares that map the
//! move graph onto itself.
//!
//! A permutation `σ` of the squares is an *automorphism* of the move graph
//! when `s → t` is a move exactly when `σ(s) → σ(t)` is. Such a `σ` maps every
//! tour `s₀ s₁ … s₋₁` to the tour `σ(s₀) σ(s₁) … σ(s₋₁)`, open or closed, and
//! back again with `σ⁻¹`: a bijection between the tours that begin with a
//! prefix `p` and those that begin with `σ(p)`. The counter uses this to
//! count one prefix per orbit and multiply by the orbit's size.
//!
//! [`Symmetries::of_board`] looks for them among the board's geometry: the
//! reflections and rotations of the rectangle (a quarter turn only when it is
//! square and its edges wrap alike) and, where edges wrap, the translations.
//! It keeps a candidate only when it maps the squares onto the squares and
//! is an automorphism of the graph — checked move by move, so a piece whose
//! moves are not symmetric (a `jumps` piece, say) simply keeps fewer.

use crate::model::symmetry::Transform;
use crate::model::{Board, Cell, MoveGraph, Topology};
use std::collections::HashSet;

/// Largest `group size × squares` kept in memory; beyond it translations
/// are left out (the count stays exact, only the saving is smaller).
const MAX_TABLE: usize = 1 << 22;

/// Boards with more squares than this use no symmetry at all: their tours
/// cannot be counted anyway, and checking candidates would cost time.
const MAX_SQUARES: usize = 1 << 16;

/// A group of automorphisms of a move graph, the identity first. Built only
/// through constructors that check every element, so a count that uses it
/// stays exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetries {
    n: usize,
    /// `perms[i][s]`: the image of square `s` under element `i`.
    perms: Vec<Vec<u32>>,
}

impl Symmetries {
    /// The trivial group (the identity only) on `n` squares.
    pub fn none(n: usize) -> Symmetries {
        Symmetries {
            n,
            perms: vec![(0..n as u32).collect()],
        }
    }

    /// The geometric symmetries of `board` that are automorphisms of
    /// `graph` (the move graph of some piece on that board).
    ///
    /// ```
    /// use engine::model::{Board, MoveGraph, Piece};
    /// use engine::model::Symmetries;
    /// use engine::halt::Never;
    /// let board = Board::rectangle(5, 5);
    /// let Ok(knight) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
    /// assert_eq!(Symmetries::of_board(&board, &knight).len(), 8);
    /// let wide = Board::rectangle(5, 3);
    /// let Ok(g) = MoveGraph::build(&wide, &Piece::leaper(1, 2, 1), &Never);
    /// assert_eq!(Symmetries::of_board(&wide, &g).len(), 4);
    /// ```
    pub fn of_board(board: &Board, graph: &MoveGraph) -> Symmetries {
        let n = board.len();
        if n != graph.len() || n > MAX_SQUARES {
            return Symmetries::none(graph.len());
        }
        let (w, h) = (board.width(), board.height());
        let topo = board.topology();
        // The point group: the rectangle's rotations and reflections
        // (x ↦ ±x, y ↦ ±y, and the swap x ↔ y when the rectangle is square
        // and both axes behave alike).
        let swap_ok = w == h && matches!(topo, Topology::Plain | Topology::Torus);
        let dihedral: Vec<Transform> = Transform::all().filter(|t| swap_ok || !t.swap).collect();
        // Translations along the wrapping axes are candidates (on a twisted
        // board only some are automorphisms: every candidate is checked).
        let shifts_x = if topo.wraps_files() { w } else { 1 };
        let shifts_y = if topo.wraps_ranks() { h } else { 1 };
        let mut translations: Vec<(u32, u32)> = Vec::new();
        let with_shifts = (dihedral.len() as u64) * u64::from(shifts_x) * u64::from(shifts_y);
        if with_shifts.saturating_mul(n as u64) <= MAX_TABLE as u64 {
            for a in 0..shifts_x {
                for b in 0..shifts_y {
                    translations.push((a, b));
                }
            }
        } else {
            translations.push((0, 0));
        }
        let mut perms: Vec<Vec<u32>> = Vec::new();
        let mut kept: HashSet<Vec<u32>> = HashSet::new();
        let mut stamp = vec![0u32; n];
        let mut image = vec![0u32; n];
        for &(a, b) in &translations {
            for &tr in &dihedral {
                let map = |c: Cell| -> Option<Cell> {
                    let c = tr.cell(c, w, h);
                    board.locate(i64::from(c.x) + i64::from(a), i64::from(c.y) + i64::from(b))
                };
                let mut ok = true;
                for s in 0..n as u32 {
                    match map(board.cell(s)).and_then(|c| board.square_at(c)) {
                        Some(t) => image[s as usize] = t,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok && is_automorphism(graph, &image, &mut stamp) && kept.insert(image.clone()) {
                    perms.push(image.clone());
                }
            }
        }
        // The identity (no swap, no flips, no shift) is always a candidate and
        // always kept; make sure it comes first.
        let identity: Vec<u32> = (0..n as u32).collect();
        if let Some(i) = perms.iter().position(|p| *p == identity) {
            perms.swap(0, i);
        } else {
            perms.insert(0, identity);
        }
        // Counting one prefix per orbit needs a group. The candidates above
        // form one on plain boards, cylinders and tori (the elements of a
        // group that keep the squares and the moves); on a twisted board
        // the automorphisms found may compose to ones outside them, so
        // close the set under composition (compositions of automorphisms
        // are automorphisms). Should it grow past the table's size, count
        // with the identity alone: still exact, only slower.
        let limit = (MAX_TABLE / n.max(1)).max(perms.len());
        let twisted = matches!(topo, Topology::Mobius | Topology::Klein);
        if twisted && !close_under_composition(&mut perms, limit) {
            return Symmetries::none(n);
        }
        Symmetries { n, perms }
    }

    /// Number of elements (at least 1: the identity).
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    /// Never true: the identity is always there.
    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    /// Number of squares the permutations act on.
    pub fn squares(&self) -> usize {
        self.n
    }

    /// The elements, each as `image[square]`.
    pub fn elements(&self) -> &[Vec<u32>] {
        &self.perms
    }

    /// The elements that are automorphisms of `g` (all of them when the
    /// group was built for `g`): a subgroup, since automorphisms form a group.
    pub(crate) fn automorphisms_of(&self, g: &MoveGraph) -> Symmetries {
        if g.len() != self.n {
            return Symmetries::none(g.len());
        }
        if self.perms.len() == 1 {
            // The identity alone: nothing to check (on the largest boards
            // checking would build the whole target lists).
            return self.clone();
        }
        let mut stamp = vec![0u32; self.n];
        Symmetries {
            n: self.n,
            perms: self
                .perms
                .iter()
                .filter(|p| is_automorphism(g, p, &mut stamp))
                .cloned()
                .collect(),
        }
    }

    /// The subgroup fixing every square in `fixed`.
    pub(crate) fn stabiliser(&self, fixed: &[u32]) -> Symmetries {
        Symmetries {
            n: self.n,
            perms: self
                .perms
                .iter()
                .filter(|p| fixed.iter().all(|&s| p[s as usize] == s))
                .cloned()
                .collect(),
        }
    }

    /// Whether `prefix` is the least of its images (lexicographically), and
    /// if so the size of its orbit: `|G| / |stabiliser of prefix|`.
    pub(crate) fn canonical_weight(&self, prefix: &[u32]) -> Option<u64> {
        let mut fixing = 0u64;
        for p in &self.perms {
            let mut order = std::cmp::Ordering::Equal;
            for &s in prefix {
                let img = p[s as usize];
                if img != s {
                    order = img.cmp(&s);
                    break;
                }
            }
            match order {
                std::cmp::Ordering::Less => return None,
                std::cmp::Ordering::Equal => fixing += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        // The identity fixes every prefix, so `fixing >= 1`.
        Some(self.perms.len() as u64 / fixing.max(1))
    }

    /// Whether `prefix` is the least of its images.
    #[cfg(test)]
    pub(crate) fn is_canonical(&self, prefix: &[u32]) -> bool {
        self.canonical_weight(prefix).is_some()
    }
}

/// Adds to `perms` every composition of its elements until it is closed
/// (a finite set of permutations closed under composition is a group);
/// false if it would hold more than `limit`. The closure is the group the
/// elements generate, found breadth first: each element reached is composed
/// with each of the given ones, and a hash set says what is new, so the cost
/// is `group × given × squares` (a pairwise closure with a linear search took
/// a fifth of a second on the 512 symmetries of an 8x8 torus).
fn close_under_composition(perms: &mut Vec<Vec<u32>>, limit: usize) -> bool {
    let generators = perms.clone();
    let mut seen: HashSet<Vec<u32>> = perms.iter().cloned().collect();
    let mut next = 0;
    while next < perms.len() {
        for g in &generators {
            let c: Vec<u32> = perms[next].iter().map(|&s| g[s as usize]).collect();
            if !seen.contains(&c) {
                if perms.len() >= limit {
                    return false;
                }
                seen.insert(c.clone());
                perms.push(c);
            }
        }
        next += 1;
    }
    true
}

/// Whether `image` (a permutation of the squares) maps the moves of `g`
/// exactly onto the moves of `g`. `stamp` is scratch space of `g.len()`.
fn is_automorphism(g: &MoveGraph, image: &[u32], stamp: &mut [u32]) -> bool {
    stamp.fill(0);
    for s in 0..g.len() as u32 {
        let t = image[s as usize];
        if g.degree(s) != g.degree(t) {
            return false;
        }
        for &u in g.targets(t) {
            stamp[u as usize] = s + 1;
        }
        // Same out-degree and no repeated targets: every image of a target
        // of `s` being a target of `σ(s)` makes the two target sets equal.
        if g.targets(s)
            .iter()
            .any(|&u| stamp[image[u as usize] as usize] != s + 1)
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Move, Piece};

    fn compose(a: &[u32], b: &[u32]) -> Vec<u32> {
        b.iter().map(|&s| a[s as usize]).collect()
    }

    /// Closure under composition and inverses, and each an automorphism.
    fn assert_group(sym: &Symmetries, g: &MoveGraph) {
        let mut stamp = vec![0; g.len()];
        for p in sym.elements() {
            assert!(is_automorphism(g, p, &mut stamp));
            for q in sym.elements() {
                assert!(sym.elements().contains(&compose(p, q)));
            }
        }
    }

    #[test]
    fn twisted_boards_give_groups_of_automorphisms() {
        for topo in [Topology::Mobius, Topology::Klein] {
            for (w, h) in [(3u32, 2u32), (4, 3), (3, 3)] {
                for piece in [
                    Piece::leaper(1, 2, 1),
                    Piece::leaper(1, 1, crate::model::UNLIMITED),
                    Piece::leaper(0, 1, 1),
                ] {
                    let b = Board::new(w, h, topo, |_| true);
                    let Ok(g) = MoveGraph::build(&b, &piece, &Never);
                    let s = Symmetries::of_board(&b, &g);
                    assert!(!s.is_empty());
                    assert_group(&s, &g);
                }
            }
        }
    }

    #[test]
    fn square_board_has_eight_and_a_rectangle_four() {
        let b = Board::rectangle(6, 6);
        let Ok(g) = MoveGraph::build(&b, &Piece::leaper(1, 2, 1), &Never);
        let s = Symmetries::of_board(&b, &g);
        assert_eq!(s.len(), 8);
        assert_group(&s, &g);
        let b = Board::rectangle(4, 3);
        let Ok(g) = MoveGraph::build(&b, &Piece::leaper(1, 2, 1), &Never);
        let s = Symmetries::of_board(&b, &g);
        assert_eq!(s.len(), 4);
        assert_group(&s, &g);
    }

    #[test]
    fn torus_adds_translations_and_holes_remove_symmetry() {
        let b = Board::new(4, 4, Topology::Torus, |_| true);
        let Ok(g) = MoveGraph::build(&b, &Piece::leaper(1, 2, 1), &Never);
        let s = Symmetries::of_board(&b, &g);
        assert!(s.len() >= 8 * 16, "{}", s.len());
        assert_group(&s, &g);
        let b = Board::new(4, 4, Topology::Plain, |c| c != Cell::new(0, 0));
        let Ok(g) = MoveGraph::build(&b, &Piece::leaper(1, 2, 1), &Never);
        let s = Symmetries::of_board(&b, &g);
        // Only the diagonal through a1 survives.
        assert_eq!(s.len(), 2);
        assert_group(&s, &g);
    }

    #[test]
    fn one_way_jumps_keep_only_their_symmetries() {
        let b = Board::rectangle(5, 5);
        let Ok(g) = MoveGraph::build(
            &b,
            &Piece::new([Move::leap(1, 2), Move::leap(2, 1)]),
            &Never,
        );
        let s = Symmetries::of_board(&b, &g);
        // The swap x↔y maps (1,2) to (2,1): kept; flips are not.
        assert_eq!(s.len(), 2);
        assert_group(&s, &g);
    }

    #[test]
    fn canonical_prefixes_and_orbit_sizes() {
        let b = Board::rectangle(5, 5);
        let Ok(g) = MoveGraph::build(&b, &Piece::leaper(1, 2, 1), &Never);
        let s = Symmetries::of_board(&b, &g);
        // a1 = 0 is canonical among the corners; its orbit has 4 squares.
        assert_eq!(s.canonical_weight(&[0]), Some(4));
        assert!(!s.is_canonical(&[4])); // e1, a corner image of a1
        assert_eq!(s.canonical_weight(&[12]), Some(1)); // c3, the centre
        // From a1 the two first moves b3 (11) and c2 (7) are mirror images.
        assert_eq!(s.canonical_weight(&[0, 7]), Some(8));
        assert!(!s.is_canonical(&[0, 11]));
    }
}
