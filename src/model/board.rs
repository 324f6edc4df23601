//! The board: its shape, removed squares, topology, and square names.

use std::fmt;

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
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Topology::Plain => "plain",
            Topology::Cylinder => "cylinder",
            Topology::Torus => "torus",
        })
    }
}

/// A cell position: `x` is the file (0 = a), `y` the rank (0 = rank 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// File, zero-based.
    pub x: u32,
    /// Rank, zero-based from the bottom.
    pub y: u32,
}

impl Cell {
    /// The cell at file `x`, rank `y` (both zero-based).
    pub fn new(x: u32, y: u32) -> Cell {
        Cell { x, y }
    }

    /// The algebraic name, e.g. `a1`, `z26`, `aa27`.
    ///
    /// ```
    /// use engine::model::Cell;
    /// assert_eq!(Cell::new(0, 0).algebraic(), "a1");
    /// assert_eq!(Cell::new(26, 9).algebraic(), "aa10");
    /// ```
    pub fn algebraic(self) -> String {
        let mut s = String::new();
        self.write_algebraic(&mut s);
        s
    }

    /// Appends the algebraic name to `out`.
    pub fn write_algebraic(self, out: &mut String) {
        // Letters (at most 7 for a u32 file) then digits (at most 10), built
        // backwards from the end of a small buffer.
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        let mut r = u64::from(self.y) + 1;
        while r > 0 {
            i -= 1;
            buf[i] = b'0' + (r % 10) as u8;
            r /= 10;
        }
        let mut n = u64::from(self.x) + 1;
        while n > 0 {
            i -= 1;
            buf[i] = b'a' + ((n - 1) % 26) as u8;
            n = (n - 1) / 26;
        }
        out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.algebraic())
    }
}

/// The letters of file `x`: a..z, then aa, ab, … (bijective base 26).
pub fn file_name(x: u32) -> String {
    let mut n = x as u64 + 1;
    let mut letters = Vec::new();
    while n > 0 {
        let r = ((n - 1) % 26) as u8;
        letters.push(b'a' + r);
        n = (n - 1) / 26;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

/// The file index of letters like `a`, `z`, `aa` (None if not lowercase letters
/// or absurdly long).
pub fn file_index(letters: &str) -> Option<u64> {
    if letters.is_empty() || letters.len() > 8 {
        return None;
    }
    let mut n: u64 = 0;
    for b in letters.bytes() {
        if !b.is_ascii_lowercase() {
            return None;
        }
        n = n * 26 + u64::from(b - b'a' + 1);
    }
    Some(n - 1)
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
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let mut x = i64::from(from.x) + dx;
        let mut y = i64::from(from.y) + dy;
        match self.topology {
            Topology::Plain => {}
            Topology::Cylinder => x = x.rem_euclid(w),
            Topology::Torus => {
                x = x.rem_euclid(w);
                y = y.rem_euclid(h);
            }
        }
        if (0..w).contains(&x) && (0..h).contains(&y) {
            Some(Cell::new(x as u32, y as u32))
        } else {
            None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_bijective_base_26() {
        for x in [0u32, 1, 25, 26, 27, 51, 52, 701, 702, 4095] {
            assert_eq!(file_index(&file_name(x)), Some(u64::from(x)));
        }
        assert_eq!(file_name(25), "z");
        assert_eq!(file_name(26), "aa");
        assert_eq!(file_name(701), "zz");
        assert_eq!(file_name(702), "aaa");
    }

    #[test]
    fn names_are_file_letters_then_rank() {
        for x in [0u32, 1, 25, 26, 27, 701, 702, 4095, u32::MAX] {
            for y in [0u32, 8, 9, 99, 4095, u32::MAX - 1] {
                let name = Cell::new(x, y).algebraic();
                assert_eq!(name, format!("{}{}", file_name(x), u64::from(y) + 1));
            }
        }
    }

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
    fn wrapping_follows_topology() {
        let t = Board::new(5, 4, Topology::Torus, |_| true);
        assert_eq!(t.offset(Cell::new(0, 0), -1, -2), Some(Cell::new(4, 2)));
        let c = Board::new(5, 4, Topology::Cylinder, |_| true);
        assert_eq!(c.offset(Cell::new(0, 0), -1, 2), Some(Cell::new(4, 2)));
        assert_eq!(c.offset(Cell::new(0, 0), 0, -1), None);
    }
}
