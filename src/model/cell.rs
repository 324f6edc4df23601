//! Squares by position: the [`Cell`] type and its names — the one routine
//! that writes algebraic names (`a1`, `z26`, `aa27`) and the one that reads
//! them back.

use std::fmt;

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
        write_file(self.x, out);
        // Ranks count from 1.
        let mut buf = [0u8; 10];
        let mut i = buf.len();
        let mut r = u64::from(self.y) + 1;
        while r > 0 {
            i -= 1;
            buf[i] = b'0' + (r % 10) as u8;
            r /= 10;
        }
        out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
    }

    /// Reads an algebraic name (`a1`, `aa10`): lowercase file letters, then
    /// the rank from 1. Returns the zero-based file and rank, which may be
    /// far off any board; None if it is not such a name.
    ///
    /// ```
    /// use engine::model::Cell;
    /// assert_eq!(Cell::parse_algebraic("aa10"), Some((26, 9)));
    /// assert_eq!(Cell::parse_algebraic("a0"), None);
    /// ```
    pub fn parse_algebraic(text: &str) -> Option<(u64, u64)> {
        let split = text.find(|c: char| c.is_ascii_digit())?;
        let x = file_index(&text[..split])?;
        let digits = &text[split..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank = digits.parse::<u64>().ok()?;
        Some((x, rank.checked_sub(1)?))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.algebraic())
    }
}

/// Appends the letters of file `x`: a..z, then aa, ab, … (bijective base 26).
fn write_file(x: u32, out: &mut String) {
    // At most 7 letters for a u32 file, built backwards.
    let mut buf = [0u8; 8];
    let mut i = buf.len();
    let mut n = u64::from(x) + 1;
    while n > 0 {
        i -= 1;
        buf[i] = b'a' + ((n - 1) % 26) as u8;
        n = (n - 1) / 26;
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

/// The letters of file `x`: a..z, then aa, ab, … (bijective base 26).
pub fn file_name(x: u32) -> String {
    let mut s = String::new();
    write_file(x, &mut s);
    s
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
    fn names_read_back() {
        for x in [0u32, 25, 26, 701, 702, 4095] {
            for y in [0u32, 9, 4095] {
                let name = Cell::new(x, y).algebraic();
                assert_eq!(
                    Cell::parse_algebraic(&name),
                    Some((u64::from(x), u64::from(y)))
                );
            }
        }
        for bad in ["", "a", "1", "A1", "a1b", "a-1", "a0"] {
            assert_eq!(Cell::parse_algebraic(bad), None, "{bad}");
        }
    }
}
