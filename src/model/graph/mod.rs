//! The move graph: what every solver sees. Squares are `0..n`; each has its
//! targets in the piece's move order.

use std::sync::OnceLock;

use rayon::prelude::*;

pub mod walks;

use super::{Board, Piece, Topology};
use crate::halt::{self, Halt, Never};

/// Moves a graph's building adds between two looks at its halt, besides
/// the look every [`halt::POLL_EVERY`] squares (some twenty milliseconds).
const MOVES_BETWEEN_LOOKS: usize = 1 << 22;

/// Squares `0..n` with ordered target lists.
///
/// Two layouts, chosen by [`MoveGraph::build`]:
/// - **Lists**: flat CSR arrays (`offsets`, `targets`), for any board and
///   piece.
/// - **Leaper**: for up to 8 single leaps on a full plain board, no lists at
///   all: one byte per square says which of the moves stay on the board, and
///   a target is the square number plus that move's fixed offset. A
///   4096x4096 knight graph takes 16 MB instead of 600 MB.
///
/// Every method works on both; [`MoveGraph::targets`] and [`MoveGraph::raw`]
/// need slices, so on a leaper graph they build the lists once, on first
/// use. Code meant for huge boards walks targets with
/// [`MoveGraph::neighbours`] or [`MoveGraph::adjacency`] instead.
#[derive(Clone, Debug)]
pub struct MoveGraph {
    repr: Repr,
    /// The lists of a leaper graph, built on first use of `targets`/`raw`.
    lists: OnceLock<Lists>,
    symmetric: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Lists {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

#[derive(Clone, Debug)]
enum Repr {
    Lists(Lists),
    Leaper(Leaper),
}

/// The implicit layout: move `k` of square `s` exists when bit `k` of
/// `masks[s]` is set, and leads to `s + deltas[k]` (the offsets kept as
/// `u32` and added wrapping: a move a mask allows stays on the board, so the
/// sum is the target, with no sign to extend or overflow to check).
#[derive(Clone, Debug)]
struct Leaper {
    width: u32,
    moves: Vec<(i32, i32)>,
    deltas: [u32; 8],
    masks: Vec<u8>,
    edges: usize,
}

impl Leaper {
    /// The layout for `moves` on a full plain `width` x `height` board.
    fn new(width: u32, height: u32, moves: Vec<(i32, i32)>) -> Leaper {
        let (w, h) = (i64::from(width), i64::from(height));
        let mut deltas = [0u32; 8];
        // Bit k of xs[x] (ys[y]): move k keeps the file (rank) on the board.
        let mut xs = vec![0u8; width as usize];
        let mut ys = vec![0u8; height as usize];
        for (k, &(dx, dy)) in moves.iter().enumerate() {
            deltas[k] = (i64::from(dy) * w + i64::from(dx)) as u32;
            for (x, m) in xs.iter_mut().enumerate() {
                if (0..w).contains(&(x as i64 + i64::from(dx))) {
                    *m |= 1 << k;
                }
            }
            for (y, m) in ys.iter_mut().enumerate() {
                if (0..h).contains(&(y as i64 + i64::from(dy))) {
                    *m |= 1 << k;
                }
            }
        }
        // Row by row on every core: 16 million squares on the largest boards
        // (small boards here: starting the thread pool costs more).
        let mut masks = vec![0u8; width as usize * height as usize];
        let row = |(row, &my): (&mut [u8], &u8)| {
            let mut edges = 0;
            for (m, &mx) in row.iter_mut().zip(&xs) {
                *m = mx & my;
                edges += m.count_ones() as usize;
            }
            edges
        };
        let side = width.max(1) as usize;
        let edges: usize = if masks.len() <= 1 << 16 {
            masks.chunks_mut(side).zip(&ys).map(row).sum()
        } else {
            masks.par_chunks_mut(side).zip(ys.par_iter()).map(row).sum()
        };
        Leaper {
            width,
            moves,
            deltas,
            masks,
            edges,
        }
    }

    fn height(&self) -> u32 {
        (self.masks.len() / self.width as usize) as u32
    }
}

/// A way to walk a graph's targets without slices, for hot loops that must
/// work on both layouts. Get one from [`MoveGraph::adjacency`].
pub trait Adjacent: Sync {
    /// Number of squares.
    fn len(&self) -> usize;
    /// True with no squares.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Out-degree of `s`.
    fn degree(&self, s: u32) -> usize;
    /// Calls `f` on each target of `s`, in move order.
    fn each(&self, s: u32, f: impl FnMut(u32));
}

/// The lists layout, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct ListsAdj<'a> {
    offsets: &'a [u32],
    targets: &'a [u32],
}

impl Adjacent for ListsAdj<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    #[inline]
    fn degree(&self, s: u32) -> usize {
        (self.offsets[s as usize + 1] - self.offsets[s as usize]) as usize
    }
    #[inline]
    fn each(&self, s: u32, mut f: impl FnMut(u32)) {
        let a = self.offsets[s as usize] as usize;
        let b = self.offsets[s as usize + 1] as usize;
        for &t in &self.targets[a..b] {
            f(t);
        }
    }
}

/// The leaper layout, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct LeaperAdj<'a> {
    masks: &'a [u8],
    deltas: &'a [u32; 8],
}

impl Adjacent for LeaperAdj<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.masks.len()
    }
    #[inline]
    fn degree(&self, s: u32) -> usize {
        self.masks[s as usize].count_ones() as usize
    }
    #[inline]
    fn each(&self, s: u32, mut f: impl FnMut(u32)) {
        let mut m = self.masks[s as usize];
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            f(s.wrapping_add(self.deltas[k]));
        }
    }
}

/// A borrowed view of either layout; match on it once, then run a loop
/// generic over [`Adjacent`].
#[derive(Clone, Copy, Debug)]
pub enum Adjacency<'a> {
    /// Flat lists.
    Lists(ListsAdj<'a>),
    /// Implicit leaper.
    Leaper(LeaperAdj<'a>),
}

/// The targets of one square, in move order (see [`MoveGraph::neighbours`]).
#[derive(Clone, Debug)]
pub enum Targets<'a> {
    /// From the lists.
    Slice(std::slice::Iter<'a, u32>),
    /// From a leaper mask.
    Mask {
        /// The square.
        from: u32,
        /// Moves not yet yielded.
        mask: u8,
        /// Offsets of the moves (added wrapping).
        deltas: &'a [u32; 8],
    },
}

impl Iterator for Targets<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Targets::Slice(it) => it.next().copied(),
            Targets::Mask { from, mask, deltas } => {
                if *mask == 0 {
                    return None;
                }
                let k = mask.trailing_zeros() as usize;
                *mask &= *mask - 1;
                Some(from.wrapping_add(deltas[k]))
            }
        }
    }

    // One dispatch per square rather than per target (`for_each` uses this).
    #[inline]
    fn fold<Acc, F: FnMut(Acc, u32) -> Acc>(self, init: Acc, mut f: F) -> Acc {
        match self {
            Targets::Slice(it) => it.fold(init, |acc, &t| f(acc, t)),
            Targets::Mask {
                from,
                mut mask,
                deltas,
            } => {
                let mut acc = init;
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    acc = f(acc, from.wrapping_add(deltas[k]));
                }
                acc
            }
        }
    }
}

impl MoveGraph {
    /// Builds the graph of `piece` on `board`, stopping when `halt` says
    /// so (it is asked every few thousand squares). Leaps that leave the
    /// board or land on a removed square are dropped; a ride stops at the
    /// edge or at a removed square, and passes over visited squares (visits
    /// do not exist yet here) — see [`Board::ray`]. A target reachable by
    /// several moves appears once, at its first move; a move that wraps back
    /// onto its own square is dropped.
    ///
    /// Up to 8 leaps on a full plain board get the implicit leaper layout.
    pub fn build<H: Halt>(board: &Board, piece: &Piece, halt: &H) -> Result<MoveGraph, H::Stop> {
        let moves = piece.moves();
        if board.is_full()
            && board.topology() == Topology::Plain
            && moves.len() <= 8
            && moves
                .iter()
                .all(|m| m.range == 1 && !m.lame && (m.dx, m.dy) != (0, 0))
        {
            let v: Vec<(i32, i32)> = moves.iter().map(|m| (m.dx, m.dy)).collect();
            return Ok(MoveGraph::leaper(board.width(), board.height(), v));
        }
        let n = board.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * piece.moves().len().min(16));
        // stamp[t] == s + 1 means t is already a target of s.
        let mut stamp = vec![0u32; n];
        offsets.push(0u32);
        // Dense pieces (riders on large boards) look by moves as well as by
        // squares: a rook on 644x644 has 1,286 moves a square.
        let mut next_look = MOVES_BETWEEN_LOOKS;
        for s in 0..n as u32 {
            halt::poll(halt, s as usize)?;
            if targets.len() >= next_look {
                halt.check()?;
                next_look = targets.len() + MOVES_BETWEEN_LOOKS;
            }
            for m in piece.moves() {
                for t in board.ray(s, m) {
                    if stamp[t as usize] != s + 1 {
                        stamp[t as usize] = s + 1;
                        targets.push(t);
                    }
                }
            }
            offsets.push(targets.len() as u32);
        }
        // Every move's opposite is a move with the same range: then each
        // ray can be run backwards over the same squares, so every move can
        // be made back and there is nothing to compare.
        // (A lame move's way back passes other squares, and across a
        // twisted seam a move's way back is its mirror image: compare.)
        let untwisted = !matches!(board.topology(), Topology::Mobius | Topology::Klein);
        let opposites = untwisted
            && moves.iter().all(|m| {
                !m.lame
                    && moves
                        .iter()
                        .any(|o| (o.dx, o.dy, o.range, o.lame) == (-m.dx, -m.dy, m.range, false))
            });
        if opposites {
            return Ok(MoveGraph {
                repr: Repr::Lists(Lists { offsets, targets }),
                lists: OnceLock::new(),
                symmetric: true,
            });
        }
        Ok(MoveGraph::from_csr(offsets, targets))
    }

    /// An upper bound, reckoned before building, on the bytes of the move
    /// graph of `piece` on `board`: four per move plus the per-square
    /// arrays. A ride is bounded by how far it can go on the board (on a
    /// wrapping board, until it has passed every cell).
    pub fn estimate_bytes(board: &Board, piece: &Piece) -> u64 {
        let n = board.len() as u64;
        n.saturating_mul(MoveGraph::max_moves_per_square(board, piece).min(n))
            .saturating_mul(4)
            + n * 16
    }

    /// An upper bound on the moves of `piece` from one square of `board`:
    /// each of its moves counted once per step it can ride ([`Board::ray`]:
    /// on a board that wraps, until it has passed every cell, on a twisted
    /// one every cell heading either way).
    pub fn max_moves_per_square(board: &Board, piece: &Piece) -> u64 {
        let (w, h) = (u64::from(board.width()), u64::from(board.height()));
        piece
            .moves()
            .iter()
            .map(|m| {
                let step = u64::from(m.dx.unsigned_abs().max(m.dy.unsigned_abs())).max(1);
                let reach = match board.topology() {
                    Topology::Plain => w.max(h) / step,
                    Topology::Cylinder | Topology::Torus => w * h,
                    Topology::Mobius | Topology::Klein => 2 * w * h,
                };
                u64::from(m.range).min(reach.max(1))
            })
            .fold(0u64, u64::saturating_add)
    }

    /// The implicit graph of distinct nonzero leaps `moves` (at most 8) on a
    /// full plain board.
    fn leaper(width: u32, height: u32, moves: Vec<(i32, i32)>) -> MoveGraph {
        let l = Leaper::new(width, height, moves);
        // A move whose opposite is not a move breaks symmetry if it fits
        // anywhere: on a plain board no other move leads back.
        let used = l.masks.iter().fold(0u8, |a, &m| a | m);
        let symmetric = l
            .moves
            .iter()
            .enumerate()
            .all(|(k, &(dx, dy))| used & (1 << k) == 0 || l.moves.contains(&(-dx, -dy)));
        MoveGraph {
            repr: Repr::Leaper(l),
            lists: OnceLock::new(),
            symmetric,
        }
    }

    fn from_csr(offsets: Vec<u32>, targets: Vec<u32>) -> MoveGraph {
        let mut g = MoveGraph {
            repr: Repr::Lists(Lists { offsets, targets }),
            lists: OnceLock::new(),
            symmetric: false,
        };
        g.symmetric = g.compute_symmetric();
        g
    }

    /// Builds a graph from explicit target lists (for tests and tools).
    pub fn from_lists(lists: &[Vec<u32>]) -> MoveGraph {
        let mut offsets = vec![0u32];
        let mut targets = Vec::new();
        for l in lists {
            targets.extend_from_slice(l);
            offsets.push(targets.len() as u32);
        }
        MoveGraph::from_csr(offsets, targets)
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Lists(l) => l.offsets.len() - 1,
            Repr::Leaper(l) => l.masks.len(),
        }
    }

    /// True with no squares.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the graph uses the implicit leaper layout (no lists stored).
    pub fn is_implicit(&self) -> bool {
        matches!(self.repr, Repr::Leaper(_))
    }

    /// A leaper's graph on a full plain board (the implicit layout): the
    /// board's width and the moves, in move order; None for other graphs.
    pub fn plain_leaper(&self) -> Option<(u32, &[(i32, i32)])> {
        match &self.repr {
            Repr::Leaper(l) => Some((l.width, &l.moves)),
            Repr::Lists(_) => None,
        }
    }

    /// A borrowed view for loops generic over [`Adjacent`]; never builds lists.
    #[inline]
    pub fn adjacency(&self) -> Adjacency<'_> {
        match &self.repr {
            Repr::Lists(l) => Adjacency::Lists(ListsAdj {
                offsets: &l.offsets,
                targets: &l.targets,
            }),
            Repr::Leaper(l) => Adjacency::Leaper(LeaperAdj {
                masks: &l.masks,
                deltas: &l.deltas,
            }),
        }
    }

    /// Targets of `s` in move order, without building lists.
    #[inline]
    pub fn neighbours(&self, s: u32) -> Targets<'_> {
        match &self.repr {
            Repr::Lists(l) => {
                let a = l.offsets[s as usize] as usize;
                let b = l.offsets[s as usize + 1] as usize;
                Targets::Slice(l.targets[a..b].iter())
            }
            Repr::Leaper(l) => Targets::Mask {
                from: s,
                mask: l.masks[s as usize],
                deltas: &l.deltas,
            },
        }
    }

    fn lists(&self) -> &Lists {
        match &self.repr {
            Repr::Lists(l) => l,
            Repr::Leaper(_) => self.lists.get_or_init(|| {
                let Ok(lists) = self.build_lists(&Never);
                lists
            }),
        }
    }

    fn build_lists<H: Halt>(&self, halt: &H) -> Result<Lists, H::Stop> {
        let n = self.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(self.edge_count());
        offsets.push(0);
        for s in 0..n as u32 {
            halt::poll(halt, s as usize)?;
            targets.extend(self.neighbours(s));
            offsets.push(targets.len() as u32);
        }
        Ok(Lists { offsets, targets })
    }

    /// Makes sure the target lists exist (an implicit leaper graph builds
    /// them on first use), stopping when `halt` says so. On the largest
    /// boards they take a second and hundreds of megabytes, so solvers that
    /// use [`MoveGraph::targets`] call this first under their limits.
    pub fn prepare_lists<H: Halt>(&self, halt: &H) -> Result<(), H::Stop> {
        if matches!(self.repr, Repr::Lists(_)) || self.lists.get().is_some() {
            return Ok(());
        }
        let l = self.build_lists(halt)?;
        let _ = self.lists.set(l);
        Ok(())
    }

    /// Targets of square `s`, in move order. On a leaper graph the first call
    /// builds the lists (see [`MoveGraph::neighbours`] for a way without).
    #[inline]
    pub fn targets(&self, s: u32) -> &[u32] {
        let l = self.lists();
        let a = l.offsets[s as usize] as usize;
        let b = l.offsets[s as usize + 1] as usize;
        &l.targets[a..b]
    }

    /// Out-degree of `s`.
    #[inline]
    pub fn degree(&self, s: u32) -> usize {
        match &self.repr {
            Repr::Lists(l) => (l.offsets[s as usize + 1] - l.offsets[s as usize]) as usize,
            Repr::Leaper(l) => l.masks[s as usize].count_ones() as usize,
        }
    }

    /// The largest out-degree.
    pub fn max_degree(&self) -> usize {
        match &self.repr {
            Repr::Lists(_) => (0..self.len() as u32)
                .map(|s| self.degree(s))
                .max()
                .unwrap_or(0),
            Repr::Leaper(l) => l
                .masks
                .iter()
                .map(|m| m.count_ones() as usize)
                .max()
                .unwrap_or(0),
        }
    }

    /// The flat arrays (offsets of length n + 1, targets), for hot loops. On
    /// a leaper graph the first call builds them.
    #[inline]
    pub fn raw(&self) -> (&[u32], &[u32]) {
        let l = self.lists();
        (&l.offsets, &l.targets)
    }

    /// Total number of moves (directed edges).
    pub fn edge_count(&self) -> usize {
        match &self.repr {
            Repr::Lists(l) => l.targets.len(),
            Repr::Leaper(l) => l.edges,
        }
    }

    /// True when every move can be made back (the graph is undirected).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Whether `t` is a target of `s`.
    pub fn has_edge(&self, s: u32, t: u32) -> bool {
        self.neighbours(s).any(|u| u == t)
    }

    /// The reversed graph: `t -> s` for every move `s -> t`. A leaper graph
    /// stays implicit (its moves negated, so targets come in that order).
    pub fn reversed(&self) -> MoveGraph {
        if let Repr::Leaper(l) = &self.repr {
            let moves = l.moves.iter().map(|&(dx, dy)| (-dx, -dy)).collect();
            return MoveGraph::leaper(l.width, l.height(), moves);
        }
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for s in 0..n as u32 {
            for t in self.neighbours(s) {
                count[t as usize + 1] += 1;
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let offsets = count.clone();
        let mut fill = count;
        let mut targets = vec![0u32; self.edge_count()];
        for s in 0..n as u32 {
            for t in self.neighbours(s) {
                targets[fill[t as usize] as usize] = s;
                fill[t as usize] += 1;
            }
        }
        MoveGraph {
            repr: Repr::Lists(Lists { offsets, targets }),
            lists: OnceLock::new(),
            symmetric: self.symmetric,
        }
    }

    fn compute_symmetric(&self) -> bool {
        let r = self.reversed();
        (0..self.len() as u32).all(|s| {
            let mut a: Vec<u32> = self.neighbours(s).collect();
            let mut b: Vec<u32> = r.neighbours(s).collect();
            a.sort_unstable();
            b.sort_unstable();
            a == b
        })
    }
}

/// Two graphs are equal when they have the same targets in the same order,
/// whatever their layout.
impl PartialEq for MoveGraph {
    fn eq(&self, other: &MoveGraph) -> bool {
        self.len() == other.len()
            && (0..self.len() as u32).all(|s| self.neighbours(s).eq(other.neighbours(s)))
    }
}

impl Eq for MoveGraph {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cell, Move, Topology};

    fn build(b: &Board, p: &Piece) -> MoveGraph {
        let Ok(g) = MoveGraph::build(b, p, &Never);
        g
    }

    #[test]
    fn knight_corner_has_two_moves_in_order() {
        let b = Board::rectangle(8, 8);
        let g = build(&b, &Piece::leaper(1, 2, 1));
        let names: Vec<String> = g.targets(0).iter().map(|&t| b.name(t)).collect();
        assert_eq!(names, ["b3", "c2"]);
        assert!(g.is_symmetric());
        assert_eq!(g.edge_count(), 336);
    }

    #[test]
    fn rook_slides_stop_at_removed_squares() {
        let b = Board::new(4, 1, Topology::Plain, |c| c != Cell::new(2, 0));
        let g = build(&b, &Piece::leaper(0, 1, crate::model::UNLIMITED));
        let names: Vec<String> = g.targets(0).iter().map(|&t| b.name(t)).collect();
        assert_eq!(names, ["b1"]);
    }

    #[test]
    fn torus_wrap_has_no_duplicate_or_self_targets() {
        let b = Board::new(2, 2, Topology::Torus, |_| true);
        let g = build(&b, &Piece::leaper(0, 1, 1));
        // On a 2x2 torus, north and south reach the same square.
        assert_eq!(g.targets(0).len(), 2);
        let rook = build(&b, &Piece::leaper(0, 1, crate::model::UNLIMITED));
        assert_eq!(rook.targets(0).len(), 2);
    }

    #[test]
    fn one_way_jumps_make_a_directed_graph() {
        let b = Board::rectangle(3, 3);
        let g = build(&b, &Piece::new([Move::leap(1, 2)]));
        assert!(!g.is_symmetric());
    }

    /// The leaper layout against lists built the general way (a board with
    /// one removed square forces lists; the same board full is implicit).
    #[test]
    fn leaper_layout_matches_lists() {
        for (w, h) in [(1, 1), (3, 2), (8, 8), (5, 9), (12, 7)] {
            for piece in [
                Piece::leaper(1, 2, 1),
                Piece::leaper(1, 4, 1),
                Piece::leaper(0, 1, 1),
                Piece::new([Move::leap(2, 3), Move::leap(-1, 0)]),
            ] {
                let full = Board::rectangle(w, h);
                let g = build(&full, &piece);
                assert!(g.is_implicit());
                // Lists built directly, square by square.
                let lists: Vec<Vec<u32>> = (0..full.len() as u32)
                    .map(|s| {
                        let c = full.cell(s);
                        piece
                            .moves()
                            .iter()
                            .filter_map(|m| full.offset(c, i64::from(m.dx), i64::from(m.dy)))
                            .filter_map(|c| full.square_at(c))
                            .collect()
                    })
                    .collect();
                let l = MoveGraph::from_lists(&lists);
                assert!(!l.is_implicit());
                assert_eq!(g, l, "{w}x{h} {piece}");
                assert_eq!(g.is_symmetric(), l.is_symmetric(), "{w}x{h} {piece}");
                assert_eq!(g.edge_count(), l.edge_count());
                assert_eq!(g.max_degree(), l.max_degree());
                assert_eq!(g.raw().1, l.raw().1);
                let (gr, lr) = (g.reversed(), l.reversed());
                for s in 0..full.len() as u32 {
                    assert_eq!(g.degree(s), l.degree(s));
                    assert_eq!(g.targets(s), l.targets(s));
                    let mut a: Vec<u32> = gr.neighbours(s).collect();
                    let mut b = lr.targets(s).to_vec();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn symmetry_shortcut_agrees_with_comparing_lists() {
        let boards = [
            Board::new(6, 5, Topology::Plain, |c| (c.x + 2 * c.y) % 7 != 3),
            Board::new(5, 4, Topology::Cylinder, |c| c != Cell::new(2, 1)),
            Board::new(4, 4, Topology::Torus, |_| true),
            Board::new(7, 1, Topology::Plain, |c| c.x != 3),
            Board::new(2, 4, Topology::Mobius, |_| true),
            Board::new(5, 4, Topology::Mobius, |c| c != Cell::new(1, 1)),
            Board::new(4, 5, Topology::Klein, |_| true),
        ];
        let pieces = [
            Piece::leaper(1, 2, 1),
            Piece::leaper(0, 1, crate::model::UNLIMITED),
            Piece::leaper(1, 1, 3),
            Piece::new([Move::leap(1, 0), Move::leap(0, 2)]),
            Piece::new([Move::leap(1, 0), Move::leap(-1, 0), Move::leap(0, 1)]),
            Piece::leaper(0, 1, 1).union(&Piece::leaper(0, 1, 2)),
            // Opposite moves, but not mirror-symmetric: on a twisted board
            // a move's way back across the seam is its mirror image.
            Piece::new([
                Move::leap(1, 1),
                Move::leap(-1, -1),
                Move::leap(1, 0),
                Move::leap(-1, 0),
            ]),
        ];
        for b in &boards {
            for p in &pieces {
                let g = build(b, p);
                assert_eq!(
                    g.is_symmetric(),
                    g.compute_symmetric(),
                    "{p} on {}",
                    b.describe()
                );
            }
        }
    }

    /// The graph's targets are exactly the squares the verifier's own
    /// geometry allows, on boards with holes and every topology (the
    /// twisted ones included), for lame and plain leaps and riders.
    #[test]
    fn targets_agree_with_the_verifier() {
        let lame = |p: Piece| Piece::new(p.moves().iter().map(|m| Move { lame: true, ..*m }));
        let pieces = [
            lame(Piece::leaper(1, 2, 1)),
            lame(Piece::leaper(2, 3, 1)),
            lame(Piece::leaper(0, 2, 1)),
            lame(Piece::leaper(2, 2, 1)),
            lame(Piece::leaper(1, 2, 3)),
            Piece::leaper(1, 2, 1),
            Piece::leaper(0, 1, crate::model::UNLIMITED),
            Piece::leaper(1, 1, 3),
            Piece::new([Move::leap(1, 2), Move::ride(2, 1, 4)]),
        ];
        let topologies = [
            Topology::Plain,
            Topology::Cylinder,
            Topology::Torus,
            Topology::Mobius,
            Topology::Klein,
        ];
        for (w, h) in [(5u32, 5u32), (7, 6), (4, 3)] {
            for (seed, topology) in (0..10u32).zip(topologies.iter().cycle()) {
                let board = Board::new(w, h, *topology, |c| {
                    (c.x * 7 + c.y * 13 + seed * 5) % 6 != 0
                });
                for p in &pieces {
                    let g = build(&board, p);
                    for s in 0..board.len() as u32 {
                        let mut mine: Vec<u32> = g.neighbours(s).collect();
                        mine.sort_unstable();
                        let theirs: Vec<u32> = (0..board.len() as u32)
                            .filter(|&t| {
                                crate::verify::legal(&board, p, board.cell(s), board.cell(t))
                            })
                            .collect();
                        assert_eq!(
                            mine,
                            theirs,
                            "{p} on {} at {}",
                            board.describe(),
                            board.name(s)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn building_stops_when_asked() {
        let b = Board::new(300, 300, Topology::Plain, |c| c != Cell::new(5, 5));
        let p = Piece::leaper(1, 2, 1);
        let stopped = crate::halt::Limits::none().with_time(Some(0.0));
        assert!(MoveGraph::build(&b, &p, &stopped).is_err());
        let Ok(g) = MoveGraph::build(&b, &p, &Never);
        assert_eq!(g.len(), b.len());
    }
}
