//! The board: its shape, removed squares, topology, and the one ray walk
//! every move follows.

use std::fmt;

use super::{Cell, Move};

/// Largest width or height a board may have.
pub const MAX_SIDE: u32 = 4096;

/// How the edges of the board behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Topology {
    /// Edges stop the piece.
    #[default]
    Plain,
    /// Files wrap around (the a-file touches the last file).
    Cylinder,
    /// Files and ranks both wrap around.
    Torus,
    /// Files wrap around with a twist: leaving past the last file comes back
    /// on the a-file with the ranks reversed (rank r becomes rank h + 1 − r).
    /// Ranks do not wrap.
    Mobius,
    /// Files wrap as on a cylinder, and ranks wrap with a twist: leaving past
    /// the top rank comes back on rank 1 with the files reversed.
    Klein,
}

impl Topology {
    /// Whether the files wrap (a piece may leave past one side edge).
    pub fn wraps_files(self) -> bool {
        self != Topology::Plain
    }

    /// Whether the ranks wrap (a piece may leave past the top or bottom).
    pub fn wraps_ranks(self) -> bool {
        matches!(self, Topology::Torus | Topology::Klein)
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Topology::Plain => "plain",
            Topology::Cylinder => "cylinder",
            Topology::Torus => "torus",
            Topology::Mobius => "mobius",
            Topology::Klein => "klein",
        })
    }
}

/// A rectangular board with some squares removed.
///
/// Squares that remain are numbered `0..len()` in *board order*: rank 1 from
/// the a-file to the last file, then rank 2, and so on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u32,
    height: u32,
    topology: Topology,
    /// Number of squares.
    squares: usize,
    /// Per cell (`y * width + x`): its square number, or `NONE` if removed.
    /// Empty for a full board, where square and cell numbers coincide (this
    /// keeps a 4096x4096 board from costing 128 MB).
    square_of: Vec<u32>,
    /// Per square: its cell index. Empty for a full board.
    cell_of: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Board {
    /// A board of `width` x `height` cells; `present(cell)` tells which exist.
    pub fn new(
        width: u32,
        height: u32,
        topology: Topology,
        present: impl Fn(Cell) -> bool,
    ) -> Board {
        let cells = width as usize * height as usize;
        let full = (0..height).all(|y| (0..width).all(|x| present(Cell::new(x, y))));
        if full {
            return Board {
                width,
                height,
                topology,
                squares: cells,
                square_of: Vec::new(),
                cell_of: Vec::new(),
            };
        }
        let mut square_of = vec![NONE; cells];
        let mut cell_of = Vec::with_capacity(cells);
        for y in 0..height {
            for x in 0..width {
                if present(Cell::new(x, y)) {
                    let i = y as usize * width as usize + x as usize;
                    square_of[i] = cell_of.len() as u32;
                    cell_of.push(i as u32);
                }
            }
        }
        Board {
            width,
            height,
            topology,
            squares: cell_of.len(),
            square_of,
            cell_of,
        }
    }

    /// A full rectangle.
    pub fn rectangle(width: u32, height: u32) -> Board {
        Board::new(width, height, Topology::Plain, |_| true)
    }

    /// Files.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Ranks.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Edge behaviour.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Number of squares (cells not removed).
    pub fn len(&self) -> usize {
        self.squares
    }

    /// True when every cell is removed.
    pub fn is_empty(&self) -> bool {
        self.squares == 0
    }

    /// True when no cell is removed: square `s` is then cell `s`
    /// (`x = s % width`, `y = s / width`).
    pub fn is_full(&self) -> bool {
        self.squares == self.width as usize * self.height as usize
    }

    /// Number of removed cells.
    pub fn removed_count(&self) -> usize {
        self.width as usize * self.height as usize - self.len()
    }

    /// Whether `cell` lies inside the rectangle.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// The square number at `cell`, or None if it is off the board or removed.
    pub fn square_at(&self, cell: Cell) -> Option<u32> {
        if !self.contains(cell) {
            return None;
        }
        let i = cell.y as usize * self.width as usize + cell.x as usize;
        if self.is_full() {
            return Some(i as u32);
        }
        let s = self.square_of[i];
        (s != NONE).then_some(s)
    }

    /// Whether `cell` is on the board and not removed.
    pub fn is_square(&self, cell: Cell) -> bool {
        self.square_at(cell).is_some()
    }

    /// The cell of square number `square`.
    pub fn cell(&self, square: u32) -> Cell {
        let i = if self.is_full() {
            square
        } else {
            self.cell_of[square as usize]
        };
        Cell::new(i % self.width, i / self.width)
    }

    /// The algebraic name of square number `square`.
    pub fn name(&self, square: u32) -> String {
        self.cell(square).algebraic()
    }

    /// The cell reached from `from` by the vector (dx, dy), wrapping as the
    /// topology says; None if it leaves the board (removed cells are returned).
    pub fn offset(&self, from: Cell, dx: i64, dy: i64) -> Option<Cell> {
        self.locate(i64::from(from.x) + dx, i64::from(from.y) + dy)
    }

    /// The cell at (x, y) of the plane the board is folded from: the board
    /// itself for `0 ≤ x < width`, `0 ≤ y < height`, and beyond it the cell
    /// the wrapping edges lead to (None where an edge stops the piece). On a
    /// Möbius band each crossing of the file seam reverses the ranks; on a
    /// Klein bottle each crossing of the rank seam reverses the files.
    pub fn locate(&self, x: i64, y: i64) -> Option<Cell> {
        self.land(x, y).map(|(c, _)| c)
    }

    /// [`Board::locate`], and whether (x, y) lies on a mirror image of the
    /// board (an odd number of twisted seams away): there a step of the
    /// plane is a mirrored step on the board, (dx, −dy) on a Möbius band
    /// and (−dx, dy) on a Klein bottle.
    pub fn land(&self, x: i64, y: i64) -> Option<(Cell, bool)> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let (mut x, mut y) = (x, y);
        let mut mirrored = false;
        match self.topology {
            Topology::Plain => {}
            Topology::Cylinder => x = x.rem_euclid(w),
            Topology::Torus => {
                x = x.rem_euclid(w);
                y = y.rem_euclid(h);
            }
            Topology::Mobius => {
                if x.div_euclid(w) % 2 != 0 {
                    y = h - 1 - y;
                    mirrored = true;
                }
                x = x.rem_euclid(w);
            }
            Topology::Klein => {
                if y.div_euclid(h) % 2 != 0 {
                    x = w - 1 - x;
                    mirrored = true;
                }
                y = y.rem_euclid(h);
                x = x.rem_euclid(w);
            }
        }
        if (0..w).contains(&x) && (0..h).contains(&y) {
            Some((Cell::new(x as u32, y as u32), mirrored))
        } else {
            None
        }
    }

    /// The places of `cell` in the plane the board is folded from, near the
    /// board itself: the cell, and its images one seam away in each
    /// direction that wraps ([`Board::locate`] takes each back to `cell`).
    pub fn images(&self, cell: Cell) -> Vec<(i64, i64)> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let (x, y) = (i64::from(cell.x), i64::from(cell.y));
        // The board itself first: on a tie the move is drawn the direct way.
        let kx: &[i64] = if self.topology.wraps_files() {
            &[0, -1, 1]
        } else {
            &[0]
        };
        let ky: &[i64] = if self.topology.wraps_ranks() {
            &[0, -1, 1]
        } else {
            &[0]
        };
        let mut out = Vec::with_capacity(kx.len() * ky.len());
        for &l in ky {
            for &k in kx {
                out.push(match self.topology {
                    Topology::Mobius if k % 2 != 0 => (x + k * w, h - 1 - y),
                    Topology::Klein if l % 2 != 0 => (w - 1 - x + k * w, y + l * h),
                    _ => (x + k * w, y + l * h),
                });
            }
        }
        out
    }

    /// The shortest vector from `a` to a place of `b` ([`Board::images`]):
    /// how a move from `a` to `b` is drawn, across a wrapping edge when
    /// that is the short way.
    pub fn shortest_vector(&self, a: Cell, b: Cell) -> (i64, i64) {
        let (ax, ay) = (i64::from(a.x), i64::from(a.y));
        self.images(b)
            .into_iter()
            .map(|(x, y)| (x - ax, y - ay))
            .min_by_key(|&(dx, dy)| dx * dx + dy * dy)
            .unwrap_or((0, 0))
    }

    /// The squares move `m` reaches from square `s`, in order: the landing
    /// square of a leap; each square of a ride, until the edge, a removed
    /// square or the move's range stops it (a ride passes over every square
    /// whether visited or not). A lame move is also stopped by a removed
    /// square (or the edge) on its path ([`Move::path`]).
    ///
    /// A ride goes straight on in the plane the board is folded from
    /// ([`Board::land`]), across every seam; across a twisted one it comes
    /// back mirrored, and may pass its own square heading another way (it
    /// goes on over it, as over any square, but never lands there). It
    /// ends when it is back on its own square heading the way it set out:
    /// from there it would go round the same squares again. (Each step
    /// goes on from a square and a heading in one way only, and can be
    /// retraced, so the first square and heading it meets again is the
    /// one it set out with, within twice the board's cells.) A square
    /// reached twice is given twice. The move graph and the genetic
    /// solver's move slots are both read off this walk.
    pub fn ray<'b>(&'b self, s: u32, m: &Move) -> Ray<'b> {
        let c = self.cell(s);
        let cells = u64::from(self.width) * u64::from(self.height);
        Ray {
            board: self,
            from: s,
            x: i64::from(c.x),
            y: i64::from(c.y),
            dx: i64::from(m.dx),
            dy: i64::from(m.dy),
            path: if m.lame { m.path() } else { Vec::new() },
            left: u64::from(m.range).min(2 * cells),
        }
    }

    /// A short description like `8x8`, `4x4 - 5 removed`, `8x8 torus`.
    pub fn describe(&self) -> String {
        let mut s = format!("{}x{}", self.width, self.height);
        if self.topology != Topology::Plain {
            s.push(' ');
            s.push_str(&self.topology.to_string());
        }
        if self.removed_count() > 0 {
            s.push_str(&format!(", {} removed", self.removed_count()));
        }
        s
    }
}

/// The squares one move reaches from a square, nearest first: see
/// [`Board::ray`].
#[derive(Clone, Debug)]
pub struct Ray<'b> {
    board: &'b Board,
    from: u32,
    /// Where the ray is, in the plane the board is folded from.
    x: i64,
    y: i64,
    dx: i64,
    dy: i64,
    /// A lame move's path, relative to each step's start.
    path: Vec<(i32, i32)>,
    /// Steps still allowed: the move's range, and never more than twice
    /// the board's cells (the most a ride takes to come back round).
    left: u64,
}

impl Iterator for Ray<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.left > 0 {
            let (x, y) = (self.x, self.y);
            let open = |(px, py): &(i32, i32)| {
                self.board
                    .locate(x + i64::from(*px), y + i64::from(*py))
                    .is_some_and(|c| self.board.is_square(c))
            };
            let landed = (self.path.iter().all(open))
                .then(|| self.board.land(x + self.dx, y + self.dy))
                .flatten()
                .and_then(|(c, mirrored)| Some((self.board.square_at(c)?, mirrored)));
            let Some((t, mirrored)) = landed else { break };
            self.x += self.dx;
            self.y += self.dy;
            self.left -= 1;
            if t != self.from {
                return Some(t);
            }
            // Its own square: the ride ends there heading the way it set
            // out, and goes on over it heading another way (on a mirror
            // image, unless the mirror leaves the step as it is).
            let turned = match self.board.topology {
                Topology::Mobius => self.dy != 0,
                Topology::Klein => self.dx != 0,
                _ => false,
            };
            if !(mirrored && turned) {
                break;
            }
        }
        self.left = 0;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_order_is_rank_major_from_a1() {
        let b = Board::new(3, 2, Topology::Plain, |c| c != Cell::new(1, 0));
        assert_eq!(b.len(), 5);
        assert_eq!(b.name(0), "a1");
        assert_eq!(b.name(1), "c1");
        assert_eq!(b.name(2), "a2");
        assert_eq!(b.square_at(Cell::new(1, 0)), None);
        assert_eq!(b.square_at(Cell::new(3, 0)), None);
    }

    #[test]
    fn rays_stop_at_edges_holes_range_and_home() {
        let b = Board::new(5, 1, Topology::Plain, |c| c.x != 3);
        let names = |s: u32, m: Move| -> Vec<String> { b.ray(s, &m).map(|t| b.name(t)).collect() };
        assert_eq!(names(0, Move::ride(1, 0, u32::MAX)), ["b1", "c1"]);
        assert_eq!(names(0, Move::ride(1, 0, 1)), ["b1"]);
        assert_eq!(names(0, Move::leap(-1, 0)), Vec::<String>::new());
        // On a torus a ride ends when it comes back round to its square.
        let t = Board::new(3, 3, Topology::Torus, |_| true);
        let ride: Vec<u32> = t.ray(0, &Move::ride(1, 0, u32::MAX)).collect();
        assert_eq!(ride, [1, 2]);
        let diag: Vec<u32> = t.ray(0, &Move::ride(1, 2, u32::MAX)).collect();
        assert_eq!(diag.len(), 2);
    }

    #[test]
    fn rays_go_over_their_own_square_heading_another_way() {
        // The bishop's (1,1) ray from b1 on a 3x3 Klein bottle: c2, a3,
        // over b1 heading (-1,1) (the rank seam turned the files over), a2,
        // c3, and back on b1 heading (1,1), where it ends.
        let k = Board::new(3, 3, Topology::Klein, |_| true);
        let names: Vec<String> = k
            .ray(1, &Move::ride(1, 1, u32::MAX))
            .map(|t| k.name(t))
            .collect();
        assert_eq!(names, ["c2", "a3", "a2", "c3"]);
        // A mirror that leaves the step as it is (a file step on a Möbius
        // band) brings it back heading the same way: the middle rank's ride
        // ends on its own square after one lap.
        let m = Board::new(4, 3, Topology::Mobius, |_| true);
        let lap: Vec<String> = m
            .ray(4, &Move::ride(1, 0, u32::MAX))
            .map(|t| m.name(t))
            .collect();
        assert_eq!(lap, ["b2", "c2", "d2"]);
        // Off the middle rank it takes two laps, the second on the mirrored rank.
        let two: Vec<String> = m
            .ray(0, &Move::ride(1, 0, u32::MAX))
            .map(|t| m.name(t))
            .collect();
        assert_eq!(two, ["b1", "c1", "d1", "a3", "b3", "c3", "d3"]);
    }

    #[test]
    fn twisted_edges_reverse_the_other_axis() {
        let m = Board::new(5, 4, Topology::Mobius, |_| true);
        // Past the last file: back on the a-file, ranks reversed.
        assert_eq!(m.offset(Cell::new(4, 0), 1, 0), Some(Cell::new(0, 3)));
        assert_eq!(m.offset(Cell::new(0, 1), -1, 1), Some(Cell::new(4, 1)));
        assert_eq!(m.offset(Cell::new(0, 0), 0, -1), None);
        // Twice round is the identity.
        assert_eq!(m.offset(Cell::new(2, 1), 10, 0), Some(Cell::new(2, 1)));
        let k = Board::new(5, 4, Topology::Klein, |_| true);
        assert_eq!(k.offset(Cell::new(1, 3), 0, 1), Some(Cell::new(3, 0)));
        assert_eq!(k.offset(Cell::new(0, 0), -1, 0), Some(Cell::new(4, 0)));
        assert_eq!(k.offset(Cell::new(1, 0), 1, -1), Some(Cell::new(2, 3)));
        for b in [&m, &k] {
            for s in 0..b.len() as u32 {
                let c = b.cell(s);
                for (x, y) in b.images(c) {
                    assert_eq!(b.locate(x, y), Some(c), "{} {c}", b.describe());
                }
            }
        }
        // The short way from the last file to the first crosses the seam.
        assert_eq!(m.shortest_vector(Cell::new(4, 0), Cell::new(0, 3)), (1, 0));
        assert_eq!(k.shortest_vector(Cell::new(1, 3), Cell::new(3, 0)), (0, 1));
    }

    #[test]
    fn wrapping_follows_topology() {
        let t = Board::new(5, 4, Topology::Torus, |_| true);
        assert_eq!(t.offset(Cell::new(0, 0), -1, -2), Some(Cell::new(4, 2)));
        let c = Board::new(5, 4, Topology::Cylinder, |_| true);
        assert_eq!(c.offset(Cell::new(0, 0), -1, 2), Some(Cell::new(4, 2)));
        assert_eq!(c.offset(Cell::new(0, 0), 0, -1), None);
    }
}
