//! Betza's notation as composers write it: atoms, riders and ranges,
//! direction modifiers and lame (non-jumping) moves — one word read into a
//! [`Piece`], or an error that says where and why.
//!
//! A word is a sequence of *parts*, each written `modifiers ATOM [ATOM] [range]`:
//!
//! - atoms `W F D N A H C Z G` (the leaps (0,1) (1,1) (0,2) (1,2) (2,2) (0,3)
//!   (1,3) (2,3) (3,3)), with `L` for the camel `C` and `J` for the zebra `Z`
//!   as the extended notation of XBoard writes them, and the compounds
//!   `K` = `WF`, `R` = `WW`, `B` = `FF`, `Q` = `WWFF`;
//! - the longer leaps of the Chess Variant Pages' extended notation, an
//!   atom and `X` (three squares further along its longer leg: `WX` (0,4),
//!   `FX` (1,4) the giraffe, `DX NX AX HX CX ZX GX`) or `Y` (two squares
//!   further each way: `DY` (2,4), `NY AY CY ZY`);
//! - a doubled atom is its rider (`NN`, the nightrider); a number after an atom
//!   or a rider limits its range (`R4`, `NN2`, `W3`); `1` is the leap itself,
//!   and `0`, as in XBoard's notation, any number of steps (`N0` = `NN`);
//! - direction modifiers before the atom select some of its moves, "forward"
//!   meaning towards higher ranks and "right" towards higher files:
//!   - on an orthogonal atom (`W D H R`): `f b l r` one direction each, `v` = `fb`,
//!     `s` = `lr`; letters together are a union (`fr` = forward and right);
//!   - on a diagonal atom (`F A G B`): `f b l r` the two diagonals on that side,
//!     `v` and `s` all four; a pair across (`fr`, `fl`, `br`, `bl`, in either
//!     order) the one diagonal between them;
//!   - on an oblique atom (`N C Z`), of the eight moves (a,b) with a < b:
//!     `f b l r` the four on that side; `v` the four narrow vertical ones
//!     (±a,±b), `s` the four wide sideways ones (±b,±a); a doubled letter the
//!     narrow pair (`ff` = (±a,+b), `rr` = (+b,±a)); `fs bs` the wide vertical
//!     pairs (±b,±a with that sign of y) and `lv rv` the narrow sideways ones;
//!     a pair across names one move: the second letter's pair, its member
//!     nearest the first letter (`fr` = (+b,+a), `rf` = (+a,+b));
//!   - several selections before one atom are a union (`fbN`, `ffbbN`);
//!   - `n` makes the move lame: a removed square on its path blocks it; the
//!     path of an orthogonal or diagonal leap is the squares between, and of
//!     an oblique leap (a,b) the orthogonal steps along the longer leg first,
//!     then the diagonal ones (the xiangqi horse `nN` steps one square
//!     orthogonally, then one diagonally);
//!   - `h` (half) after a direction on an oblique atom changes nothing:
//!     `fhN`, the four forward moves, is `fN`;
//! - capture and hopper modifiers (`m c p g` and the like) have no meaning in a
//!   tour, which has one piece and no captures, and castling (`O`) moves two
//!   pieces: they are errors that say so; the modifiers of other extensions
//!   (`o` wrapping round the board's edge, `a` and `t` moves of several legs,
//!   `z` and `q` crooked and circular riders) are errors that say how to
//!   write the move here.

use super::piece::MAX_MOVES;
use crate::error::ErrorKind;
use crate::model::{Move, Piece, UNLIMITED};

/// What is wrong with a Betza word: a byte range in the word, a message and
/// maybe a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// What kind of fault it is.
    pub kind: ErrorKind,
    /// First byte of the offending text, in the word.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// What is wrong.
    pub message: String,
    /// How to write it instead, when known.
    pub help: Option<String>,
}

impl BetzaError {
    fn new(kind: ErrorKind, start: usize, end: usize, message: impl Into<String>) -> BetzaError {
        BetzaError {
            kind,
            start,
            end,
            message: message.into(),
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> BetzaError {
        self.help = Some(help.into());
        self
    }
}

/// The atoms and compounds, as a hint after a letter that is none of them.
pub const ATOMS: &str = "the atoms are W F D N A H C Z G, L for C and J for Z, the compounds K R B Q, and the longer leaps WX FX DX NX AX HX CX ZX GX DY NY AY CY ZY";

/// The longer leaps of the extended notation, as a hint.
const EXTENDED: &str = "the longer leaps are WX FX DX NX AX HX CX ZX GX (three squares further along the longer leg) and DY NY AY CY ZY (two squares further each way)";

/// The largest range a number may give.
pub const MAX_RANGE: u32 = 1 << 20;

/// Whether `word` is written in Betza's letters at all (an atom letter, and
/// only modifier letters, atom letters and digits): such a word is read as
/// Betza, and its errors are Betza errors.
pub fn is_betza_word(word: &str) -> bool {
    let letter = |b: u8| atom(b).is_some() || b == b'O';
    word.bytes().any(letter)
        && word.bytes().all(|b| {
            letter(b) || matches!(b, b'X' | b'Y') || b.is_ascii_lowercase() || b.is_ascii_digit()
        })
}

/// The leap (a, b), 0 ≤ a ≤ b, of an extended atom: `letter` then `X`
/// (three squares further along the longer leg) or `Y` (two further each
/// way), as the Chess Variant Pages' extended notation draws them.
fn extended(letter: u8, suffix: u8) -> Option<(i32, i32)> {
    Some(match (letter, suffix) {
        (b'W', b'X') => (0, 4),
        (b'F', b'X') => (1, 4),
        (b'D', b'X') => (0, 5),
        (b'N', b'X') => (1, 5),
        (b'A', b'X') => (2, 5),
        (b'H', b'X') => (0, 6),
        (b'C' | b'L', b'X') => (1, 6),
        (b'Z' | b'J', b'X') => (2, 6),
        (b'G', b'X') => (3, 6),
        (b'D', b'Y') => (2, 4),
        (b'N', b'Y') => (3, 4),
        (b'A', b'Y') => (4, 4),
        (b'C' | b'L', b'Y') => (3, 5),
        (b'Z' | b'J', b'Y') => (4, 5),
        _ => return None,
    })
}

/// The shape of an atom's moves, which decides what modifiers mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// (0, k): four moves.
    Orthogonal,
    /// (k, k): four moves.
    Diagonal,
    /// (a, b), 0 < a < b: eight moves.
    Oblique,
}

/// The leaps of an atom letter: (a, b) with 0 ≤ a ≤ b; compounds give two.
fn atom(letter: u8) -> Option<&'static [(i32, i32)]> {
    Some(match letter {
        b'W' | b'R' => &[(0, 1)],
        b'F' | b'B' => &[(1, 1)],
        b'D' => &[(0, 2)],
        b'N' => &[(1, 2)],
        b'A' => &[(2, 2)],
        b'H' => &[(0, 3)],
        // `L` and `J` are other references' letters for the camel and zebra.
        b'C' | b'L' => &[(1, 3)],
        b'Z' | b'J' => &[(2, 3)],
        b'G' => &[(3, 3)],
        b'K' | b'Q' => &[(0, 1), (1, 1)],
        _ => return None,
    })
}

/// Atoms that are riders as written (`R B Q`).
fn is_rider_letter(letter: u8) -> bool {
    matches!(letter, b'R' | b'B' | b'Q')
}

/// Atoms that may be doubled into a rider.
fn is_doublable(letter: u8) -> bool {
    matches!(
        letter,
        b'W' | b'F' | b'D' | b'N' | b'A' | b'H' | b'C' | b'Z' | b'G' | b'L' | b'J'
    )
}

/// Reads a Betza word. `Ok(None)` if it is not written in Betza's letters
/// (see [`is_betza_word`]); an error points into the word.
///
/// ```
/// use engine::puzzle::betza::parse;
/// let v = |w: &str| -> Vec<(i32, i32)> {
///     parse(w).unwrap().unwrap().moves().iter().map(|m| (m.dx, m.dy)).collect()
/// };
/// assert_eq!(v("ffN"), [(1, 2), (-1, 2)]);
/// assert_eq!(v("fsN"), [(2, 1), (-2, 1)]);
/// assert_eq!(v("frF"), [(1, 1)]);
/// assert!(parse("NNN").is_err());
/// assert_eq!(parse("knight"), Ok(None));
/// ```
pub fn parse(word: &str) -> Result<Option<Piece>, BetzaError> {
    if !is_betza_word(word) {
        return Ok(None);
    }
    let b = word.as_bytes();
    // The moves in order, each once: a long word (or one of many ranges)
    // is read in time linear in its length, and refused once it has more
    // moves than a piece may.
    let mut moves: Vec<Move> = Vec::new();
    let mut seen: std::collections::HashSet<Move> = std::collections::HashSet::new();
    let mut i = 0;
    while i < b.len() {
        let mods_start = i;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        let mods = &word[mods_start..i];
        let Some(&letter) = b.get(i) else {
            return Err(BetzaError::new(
                ErrorKind::Syntax,
                mods_start,
                i,
                format!("`{mods}` modifies nothing: modifiers come before an atom letter"),
            )
            .help("write the atom after them, like `fN` or `nN`"));
        };
        if letter == b'O' {
            return Err(BetzaError::new(
                ErrorKind::BadValue,
                i,
                i + 1,
                "`O` (castling) moves two pieces, the king and a rook; a tour has one piece",
            )
            .help("leave it out"));
        }
        if matches!(letter, b'X' | b'Y') {
            return Err(BetzaError::new(
                ErrorKind::UnknownName,
                i,
                i + 1,
                format!(
                    "`{}` lengthens the atom before it, and there is none",
                    letter as char
                ),
            )
            .help(EXTENDED));
        }
        let Some(plain) = atom(letter) else {
            return Err(BetzaError::new(
                ErrorKind::UnknownName,
                i,
                i + 1,
                format!("`{}` is not a Betza atom", letter as char),
            )
            .help(ATOMS));
        };
        let atom_start = i;
        i += 1;
        // An extended atom: the letter and `X` or `Y`.
        let long = match b.get(i) {
            Some(&suffix @ (b'X' | b'Y')) => match extended(letter, suffix) {
                Some(leap) => {
                    i += 1;
                    Some(leap)
                }
                None => {
                    return Err(BetzaError::new(
                        ErrorKind::UnknownName,
                        atom_start,
                        i + 1,
                        format!("`{}` is not an atom", &word[atom_start..i + 1]),
                    )
                    .help(EXTENDED));
                }
            },
            _ => None,
        };
        let long_leap = long.map(|leap| [leap]);
        let leaps: &[(i32, i32)] = match &long_leap {
            Some(one) => one,
            None => plain,
        };
        if long.is_some() && b.get(i..i + 2) == Some(&b[atom_start..i]) {
            let text = &word[atom_start..i];
            return Err(BetzaError::new(
                ErrorKind::Syntax,
                atom_start,
                i + 2,
                format!("`{text}{text}` doubles an atom of two letters"),
            )
            .help(format!(
                "its rider is `{text}0` (any number of steps) or `{text}3` (at most 3)"
            )));
        }
        let mut rider = long.is_none() && is_rider_letter(letter);
        if long.is_none() && b.get(i) == Some(&letter) {
            if !is_doublable(letter) {
                return Err(BetzaError::new(
                    ErrorKind::Syntax,
                    atom_start,
                    i + 1,
                    format!(
                        "`{0}{0}` doubles a piece that is not a single atom",
                        letter as char
                    ),
                )
                .help(match letter {
                    b'R' | b'B' | b'Q' => format!("`{}` is already a rider", letter as char),
                    _ => "double a single atom: `WWFF` is the king's rider".to_string(),
                }));
            }
            i += 1;
            rider = true;
            if b.get(i) == Some(&letter) {
                let mut j = i;
                while b.get(j) == Some(&letter) {
                    j += 1;
                }
                return Err(BetzaError::new(
                    ErrorKind::Syntax,
                    atom_start,
                    j,
                    format!("`{}` repeats an atom more than twice", &word[atom_start..j]),
                )
                .help(format!(
                    "a doubled atom is its rider: `{0}{0}`; a number limits its range: `{0}{0}3`",
                    letter as char
                )));
            }
        }
        let range_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let range = if range_start < i {
            let digits = &word[range_start..i];
            match digits.parse::<u32>() {
                // XBoard's extended notation: any number of steps.
                Ok(0) if digits.len() == 1 => UNLIMITED,
                Ok(0) => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        range_start,
                        i,
                        format!("`{digits}` is no range"),
                    )
                    .help("a range is at least 1, or 0 for any number of steps"));
                }
                Ok(n) if n <= MAX_RANGE => n,
                _ => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        range_start,
                        i,
                        format!("the range {digits} is out of range (at most {MAX_RANGE})"),
                    ));
                }
            }
        } else if rider {
            UNLIMITED
        } else {
            1
        };
        let sel = Selection::read(mods, mods_start, leaps, &word[atom_start..range_start])?;
        for &(a, bb) in leaps {
            let shape = if a == 0 {
                Shape::Orthogonal
            } else if a == bb {
                Shape::Diagonal
            } else {
                Shape::Oblique
            };
            for (dx, dy) in sel.moves(shape, a, bb) {
                let m = Move {
                    dx,
                    dy,
                    range,
                    lame: sel.lame,
                };
                if seen.insert(m) {
                    moves.push(m);
                }
            }
        }
        if moves.len() > MAX_MOVES {
            return Err(BetzaError::new(
                ErrorKind::TooBig,
                mods_start,
                i,
                format!(
                    "more than {MAX_MOVES} moves by this part: a piece may have at most {MAX_MOVES}"
                ),
            ));
        }
    }
    Ok(Some(Piece::new(moves)))
}

/// What a part's modifiers select.
struct Selection {
    /// The direction tokens, in order; empty: all moves.
    tokens: Vec<Token>,
    lame: bool,
}

/// One direction selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// One of f b l r v s.
    One(u8),
    /// Two letters read together (`ff`, `fs`, `fr`, `rf`…).
    Two(u8, u8),
}

impl Selection {
    /// Reads the modifiers `mods` (at `at` in the word) of the atom written
    /// `atom_text` with leaps `leaps`.
    fn read(
        mods: &str,
        at: usize,
        leaps: &[(i32, i32)],
        atom_text: &str,
    ) -> Result<Selection, BetzaError> {
        let oblique = leaps.iter().any(|&(a, b)| a != 0 && a != b);
        let diagonal = leaps.iter().any(|&(a, b)| a != 0 && a == b);
        let b = mods.as_bytes();
        let mut tokens = Vec::new();
        let mut lame = false;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            match c {
                b'n' => {
                    lame = true;
                    i += 1;
                }
                b'f' | b'b' | b'l' | b'r' | b'v' | b's' => {
                    let next = b.get(i + 1).copied();
                    let pair = next.filter(|&d| {
                        let two = Token::Two(c, d);
                        (oblique && two.oblique_pair().is_some())
                            || (diagonal && !oblique && two.diagonal_pair().is_some())
                    });
                    match pair {
                        Some(d) => {
                            tokens.push(Token::Two(c, d));
                            i += 2;
                        }
                        None => {
                            tokens.push(Token::One(c));
                            i += 1;
                        }
                    }
                }
                // `h` (half) after a direction: on an oblique atom, the
                // four moves on that side, which the letter alone names here.
                b'h' if oblique
                    && i > 0
                    && matches!(b[i - 1], b'f' | b'b' | b'l' | b'r')
                    && tokens.last() == Some(&Token::One(b[i - 1])) =>
                {
                    i += 1;
                }
                b'h' => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        at + i,
                        at + i + 1,
                        "`h` (half) goes after a direction on an oblique atom, like `fhN`: the four forward moves",
                    )
                    .help(if oblique {
                        format!("write the direction before it, like `fh{atom_text}`, or `f{atom_text}`")
                    } else {
                        "on an orthogonal or diagonal atom the directions f b l r v s say it".to_string()
                    }));
                }
                b'o' => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        at + i,
                        at + i + 1,
                        "`o` (moves that leave the board on one side and come back on the other) is the board's topology here",
                    )
                    .help(format!(
                        "write the board with `cylinder` (the files wrap) or `torus` (both edges wrap), like `8x8 cylinder`, and the piece as `{atom_text}`"
                    )));
                }
                b'a' | b't' => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        at + i,
                        at + i + 1,
                        format!(
                            "`{}` joins the legs of a move of several steps, and such moves are not read here",
                            c as char
                        ),
                    )
                    .help("write the squares such a move reaches as `jumps (x,y), …`; a leap that a removed square blocks on its way is `n` (the xiangqi horse `nN`)"));
                }
                b'z' | b'q' => {
                    return Err(BetzaError::new(
                        ErrorKind::BadValue,
                        at + i,
                        at + i + 1,
                        format!(
                            "`{}` makes a {} rider, which is not read here",
                            c as char,
                            if c == b'z' {
                                "crooked (zigzag)"
                            } else {
                                "circular"
                            }
                        ),
                    )
                    .help("write the squares it reaches as `jumps (x,y), …`"));
                }
                b'm' | b'c' | b'p' | b'g' | b'e' | b'i' | b'j' | b'u' | b'k' | b'd' | b'x'
                | b'y' | b'w' => {
                    let (what, help) = match c {
                        b'm' => (
                            "`m` (move without capturing) changes nothing in a tour, which has one piece and captures nothing",
                            format!("write `{atom_text}` without it"),
                        ),
                        b'c' => (
                            "`c` (capture only) leaves no move in a tour, which has one piece and captures nothing",
                            format!("a tour piece moves without capturing: write `{atom_text}`"),
                        ),
                        b'p' | b'g' => (
                            "hopper modifiers (`p`, `g`) need a piece to jump over, and a tour has only one",
                            "for a fixed set of jumps write `jumps (x,y), …`; for a slide, `rider m n max k`"
                                .to_string(),
                        ),
                        _ => (
                            "this modifier has no meaning in a tour (only f b l r v s and n do)",
                            "direction modifiers are f b l r v s; `n` makes a move lame".to_string(),
                        ),
                    };
                    return Err(
                        BetzaError::new(ErrorKind::BadValue, at + i, at + i + 1, what).help(help),
                    );
                }
                _ => {
                    return Err(BetzaError::new(
                        ErrorKind::UnknownName,
                        at + i,
                        at + i + 1,
                        format!("`{}` is not a Betza modifier", c as char),
                    )
                    .help("direction modifiers are f b l r v s; `n` makes a move lame"));
                }
            }
        }
        Ok(Selection { tokens, lame })
    }

    /// The moves of leap (a, b) of the given shape that the tokens select,
    /// in compass order.
    fn moves(&self, shape: Shape, a: i32, b: i32) -> Vec<(i32, i32)> {
        let all: Vec<(i32, i32)> = Piece::leaper(a, b, 1)
            .moves()
            .iter()
            .map(|m| (m.dx, m.dy))
            .collect();
        if self.tokens.is_empty() {
            return all;
        }
        all.into_iter()
            .filter(|&v| self.tokens.iter().any(|t| t.selects(shape, a, b, v)))
            .collect()
    }
}

impl Token {
    /// Whether this token selects move `v` of a leap (a, b) of `shape`.
    fn selects(self, shape: Shape, a: i32, b: i32, (dx, dy): (i32, i32)) -> bool {
        match self {
            Token::One(c) => side(c, shape, a, b, (dx, dy)),
            Token::Two(c, d) => match shape {
                Shape::Oblique => self
                    .oblique_pair()
                    .is_some_and(|f| f(a, b).contains(&(dx, dy))),
                Shape::Diagonal if self.diagonal_pair().is_some() => {
                    side(c, shape, a, b, (dx, dy)) && side(d, shape, a, b, (dx, dy))
                }
                _ => side(c, shape, a, b, (dx, dy)) || side(d, shape, a, b, (dx, dy)),
            },
        }
    }

    /// For a diagonal atom, a pair of perpendicular directions names one
    /// diagonal.
    fn diagonal_pair(self) -> Option<()> {
        let Token::Two(c, d) = self else { return None };
        let vert = |x: u8| x == b'f' || x == b'b';
        let horiz = |x: u8| x == b'l' || x == b'r';
        ((vert(c) && horiz(d)) || (horiz(c) && vert(d))).then_some(())
    }

    /// For an oblique atom (a, b), the moves a two-letter token names.
    #[allow(clippy::type_complexity)]
    fn oblique_pair(self) -> Option<fn(i32, i32) -> Vec<(i32, i32)>> {
        let Token::Two(c, d) = self else { return None };
        Some(match (c, d) {
            // Narrow pairs: the long leg that way.
            (b'f', b'f') => |a, b| vec![(a, b), (-a, b)],
            (b'b', b'b') => |a, b| vec![(a, -b), (-a, -b)],
            (b'r', b'r') => |a, b| vec![(b, a), (b, -a)],
            (b'l', b'l') => |a, b| vec![(-b, a), (-b, -a)],
            // Wide pairs: the short leg that way.
            (b'f', b's') => |a, b| vec![(b, a), (-b, a)],
            (b'b', b's') => |a, b| vec![(b, -a), (-b, -a)],
            (b'r', b'v') => |a, b| vec![(a, b), (a, -b)],
            (b'l', b'v') => |a, b| vec![(-a, b), (-a, -b)],
            // One move: the second letter's pair, its member nearest the first.
            (b'f', b'r') => |a, b| vec![(b, a)],
            (b'f', b'l') => |a, b| vec![(-b, a)],
            (b'b', b'r') => |a, b| vec![(b, -a)],
            (b'b', b'l') => |a, b| vec![(-b, -a)],
            (b'r', b'f') => |a, b| vec![(a, b)],
            (b'l', b'f') => |a, b| vec![(-a, b)],
            (b'r', b'b') => |a, b| vec![(a, -b)],
            (b'l', b'b') => |a, b| vec![(-a, -b)],
            _ => return None,
        })
    }
}

/// Whether one direction letter selects move (dx, dy) of a leap (a, b).
fn side(c: u8, shape: Shape, _a: i32, b: i32, (dx, dy): (i32, i32)) -> bool {
    match c {
        b'f' => dy > 0,
        b'b' => dy < 0,
        b'r' => dx > 0,
        b'l' => dx < 0,
        b'v' => match shape {
            Shape::Oblique => dy.abs() == b,
            Shape::Orthogonal => dx == 0,
            Shape::Diagonal => true,
        },
        b's' => match shape {
            Shape::Oblique => dx.abs() == b,
            Shape::Orthogonal => dy == 0,
            Shape::Diagonal => true,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(word: &str) -> Vec<(i32, i32, u32, bool)> {
        match parse(word) {
            Ok(Some(p)) => p
                .moves()
                .iter()
                .map(|m| (m.dx, m.dy, m.range, m.lame))
                .collect(),
            other => panic!("{word}: {other:?}"),
        }
    }

    fn moves_of(p: &Piece) -> Vec<(i32, i32, u32, bool)> {
        p.moves()
            .iter()
            .map(|m| (m.dx, m.dy, m.range, m.lame))
            .collect()
    }

    fn jumps(word: &str) -> Vec<(i32, i32)> {
        let mut v: Vec<(i32, i32)> = moves(word).iter().map(|m| (m.0, m.1)).collect();
        v.sort_unstable();
        v
    }

    fn set(v: &[(i32, i32)]) -> Vec<(i32, i32)> {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn atoms_compounds_riders_and_ranges() {
        assert_eq!(jumps("K"), jumps("WF"));
        assert_eq!(moves("R"), moves("WW"));
        assert_eq!(moves("B"), moves("FF"));
        assert_eq!(moves("Q"), moves("WWFF"));
        assert!(moves("R4").iter().all(|m| m.2 == 4));
        assert!(moves("W4").iter().all(|m| m.2 == 4));
        assert!(moves("NN2").iter().all(|m| m.2 == 2));
        assert!(moves("N2").iter().all(|m| m.2 == 2));
        assert_eq!(moves("N1"), moves("N"));
        assert!(moves("NN").iter().all(|m| m.2 == UNLIMITED));
        // Other references' letters for the camel and the zebra.
        assert_eq!(moves("L"), moves("C"));
        assert_eq!(moves("J"), moves("Z"));
        assert_eq!(moves("ffLLJ2"), moves("ffCCZ2"));
    }

    #[test]
    fn orthogonal_and_diagonal_directions() {
        assert_eq!(jumps("fW"), [(0, 1)]);
        assert_eq!(jumps("bW"), [(0, -1)]);
        assert_eq!(jumps("sW"), set(&[(1, 0), (-1, 0)]));
        assert_eq!(jumps("vW"), set(&[(0, 1), (0, -1)]));
        assert_eq!(jumps("frW"), set(&[(0, 1), (1, 0)]));
        assert_eq!(jumps("fF"), set(&[(1, 1), (-1, 1)]));
        assert_eq!(jumps("frF"), [(1, 1)]);
        assert_eq!(jumps("rfF"), [(1, 1)]);
        assert_eq!(jumps("lF"), set(&[(-1, 1), (-1, -1)]));
        assert_eq!(jumps("fR"), [(0, 1)]);
        assert_eq!(jumps("fK"), set(&[(0, 1), (1, 1), (-1, 1)]));
        assert_eq!(
            jumps("WfF"),
            set(&[(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, 1)])
        );
    }

    #[test]
    fn oblique_directions_name_narrow_wide_and_single_moves() {
        assert_eq!(jumps("fN"), set(&[(1, 2), (-1, 2), (2, 1), (-2, 1)]));
        assert_eq!(jumps("ffN"), set(&[(1, 2), (-1, 2)]));
        assert_eq!(jumps("fsN"), set(&[(2, 1), (-2, 1)]));
        assert_eq!(jumps("rrN"), set(&[(2, 1), (2, -1)]));
        assert_eq!(jumps("rvN"), set(&[(1, 2), (1, -2)]));
        assert_eq!(jumps("frN"), [(2, 1)]);
        assert_eq!(jumps("rfN"), [(1, 2)]);
        assert_eq!(jumps("blN"), [(-2, -1)]);
        assert_eq!(jumps("vN"), set(&[(1, 2), (-1, 2), (1, -2), (-1, -2)]));
        assert_eq!(jumps("sN"), set(&[(2, 1), (2, -1), (-2, 1), (-2, -1)]));
        assert_eq!(jumps("fbN").len(), 8);
        assert_eq!(jumps("ffbbN"), jumps("vN"));
        // fs = fl + fr (the wide forward pair).
        let mut fl_fr = jumps("flN");
        fl_fr.extend(jumps("frN"));
        assert_eq!(set(&fl_fr), jumps("fsN"));
        assert_eq!(jumps("ffC"), set(&[(1, 3), (-1, 3)]));
        assert_eq!(jumps("fsZ"), set(&[(3, 2), (-3, 2)]));
    }

    /// Every form against a hand-written `jumps` or `rider` equivalent,
    /// through the piece language (as a puzzle file writes them).
    #[test]
    fn every_form_matches_its_hand_written_equivalent() {
        let cases = [
            ("W", "jumps (0,1), (1,0), (0,-1), (-1,0)"),
            ("fN", "jumps (1,2), (-1,2), (2,1), (-2,1)"),
            ("bW", "jumps (0,-1)"),
            ("sW", "jumps (1,0), (-1,0)"),
            ("vN", "jumps (1,2), (-1,2), (1,-2), (-1,-2)"),
            ("sN", "jumps (2,1), (-2,1), (2,-1), (-2,-1)"),
            ("ffN", "jumps (1,2), (-1,2)"),
            ("bbN", "jumps (1,-2), (-1,-2)"),
            ("llN", "jumps (-2,1), (-2,-1)"),
            ("fsN", "jumps (2,1), (-2,1)"),
            ("bsN", "jumps (2,-1), (-2,-1)"),
            ("lvN", "jumps (-1,2), (-1,-2)"),
            ("frN", "jumps (2,1)"),
            ("flN", "jumps (-2,1)"),
            ("rfN", "jumps (1,2)"),
            ("lbN", "jumps (-1,-2)"),
            ("fbN", "leaper 1 2"),
            ("WfF", "jumps (0,1), (1,0), (0,-1), (-1,0), (1,1), (-1,1)"),
            ("fF", "jumps (1,1), (-1,1)"),
            ("brF", "jumps (1,-1)"),
            ("K", "leaper 0 1 | leaper 1 1"),
            ("R", "rider 0 1"),
            ("B", "rider 1 1"),
            ("Q", "rider 0 1 | rider 1 1"),
            ("R4", "rider 0 1 max 4"),
            ("W4", "rider 0 1 max 4"),
            ("NN2", "rider 1 2 max 2"),
            ("N2", "rider 1 2 max 2"),
            ("fR", "rider 0 1"),
            ("ffC", "jumps (1,3), (-1,3)"),
            ("fsZ", "jumps (3,2), (-3,2)"),
            ("DA", "leaper 0 2 | leaper 2 2"),
        ];
        let set = |p: &Piece| {
            let mut v: Vec<(i32, i32, u32)> = p
                .moves()
                .iter()
                .map(|m| (m.dx, m.dy, m.range.min(1 << 20)))
                .collect();
            v.sort_unstable();
            v
        };
        for (word, plain) in cases {
            let ours = crate::puzzle::lang::resolve_piece(word, 0, &[])
                .unwrap_or_else(|e| panic!("{word}: {e:?}"));
            let theirs = crate::puzzle::lang::resolve_piece(plain, 0, &[])
                .unwrap_or_else(|e| panic!("{plain}: {e:?}"));
            let theirs = if word == "fR" {
                // `rider` has no direction: the forward rook's one ray.
                Piece::new([Move::ride(0, 1, UNLIMITED)])
            } else {
                theirs
            };
            assert_eq!(set(&ours), set(&theirs), "{word} against {plain}");
        }
    }

    #[test]
    fn the_longer_leaps_of_the_extended_notation() {
        for (word, a, b) in [
            ("WX", 0, 4),
            ("FX", 1, 4),
            ("DX", 0, 5),
            ("NX", 1, 5),
            ("AX", 2, 5),
            ("HX", 0, 6),
            ("CX", 1, 6),
            ("LX", 1, 6),
            ("ZX", 2, 6),
            ("JX", 2, 6),
            ("GX", 3, 6),
            ("DY", 2, 4),
            ("NY", 3, 4),
            ("AY", 4, 4),
            ("CY", 3, 5),
            ("LY", 3, 5),
            ("ZY", 4, 5),
            ("JY", 4, 5),
        ] {
            assert_eq!(moves(word), moves_of(&Piece::leaper(a, b, 1)), "{word}");
        }
        // Directions, ranges and unions as on any atom.
        assert_eq!(jumps("ffFX"), set(&[(1, 4), (-1, 4)]));
        assert!(moves("FX0").iter().all(|m| m.2 == UNLIMITED));
        assert!(moves("NY2").iter().all(|m| m.2 == 2));
        assert_eq!(jumps("NFX").len(), 16);
        let e = parse("WY").unwrap_err();
        assert_eq!((e.start, e.end, e.kind), (0, 2, ErrorKind::UnknownName));
        let e = parse("FXFX").unwrap_err();
        assert_eq!((e.start, e.end), (0, 4));
        assert!(e.help.unwrap_or_default().contains("`FX0`"));
        let e = parse("NX1X").unwrap_err();
        assert_eq!((e.start, e.end), (3, 4));
    }

    #[test]
    fn half_after_a_direction_on_an_oblique_atom_changes_nothing() {
        assert_eq!(moves("fhN"), moves("fN"));
        assert_eq!(moves("bhC"), moves("bC"));
        assert_eq!(moves("lhZ"), moves("lZ"));
        assert_eq!(moves("rhNN"), moves("rNN"));
        for word in ["hN", "fhW", "fhF", "ffhN"] {
            let e = parse(word).unwrap_err();
            assert!(e.message.contains("`h` (half)"), "{word}: {}", e.message);
        }
    }

    #[test]
    fn other_extensions_are_answered_with_how_to_write_them() {
        for (word, at, said, help) in [
            ("O", 0, "castling", "leave it out"),
            ("KO", 1, "castling", "leave it out"),
            ("oR", 0, "topology", "`8x8 cylinder`"),
            ("afsW", 0, "several steps", "jumps (x,y)"),
            ("WtR", 1, "several steps", "jumps (x,y)"),
            ("zB", 0, "crooked", "jumps (x,y)"),
            ("qN", 0, "circular", "jumps (x,y)"),
        ] {
            let e = parse(word).unwrap_err();
            assert_eq!(e.start, at, "{word}");
            assert!(e.message.contains(said), "{word}: {}", e.message);
            assert!(e.help.unwrap_or_default().contains(help), "{word}");
        }
    }

    #[test]
    fn lame_moves_are_marked() {
        assert!(moves("nN").iter().all(|m| m.3));
        assert!(moves("N").iter().all(|m| !m.3));
        assert!(moves("nfN").iter().all(|m| m.3));
    }

    #[test]
    fn malformed_words_are_errors_at_the_right_place() {
        let e = parse("NNN").unwrap_err();
        assert_eq!((e.start, e.end), (0, 3));
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.help.unwrap_or_default().contains("`NN`"));
        let e = parse("WRR").unwrap_err();
        assert_eq!((e.start, e.end), (1, 3));
        let e = parse("mN").unwrap_err();
        assert_eq!((e.start, e.end), (0, 1));
        assert!(e.message.contains("changes nothing"), "{}", e.message);
        assert_eq!(e.kind, ErrorKind::BadValue);
        assert!(
            parse("cN")
                .unwrap_err()
                .message
                .contains("captures nothing")
        );
        assert!(parse("pR").unwrap_err().message.contains("hopper"));
        assert_eq!(parse("Nf").map_err(|e| e.kind), Err(ErrorKind::Syntax));
        // `h` (half) needs a direction before it.
        assert_eq!(parse("hN").map_err(|e| e.kind), Err(ErrorKind::BadValue));
        // `0` alone is any number of steps (XBoard's notation).
        assert_eq!(moves("W0"), moves("WW"));
        let e = parse("W00").unwrap_err();
        assert_eq!((e.start, e.end, e.kind), (1, 3, ErrorKind::BadValue));
        assert!(
            parse("W99999999999")
                .unwrap_err()
                .message
                .contains("out of range")
        );
        assert_eq!(parse("knight"), Ok(None));
        // Read as Betza (K, then modifiers with no atom): the caller offers
        // the built-in name instead.
        assert!(parse("Knight").is_err());
    }
}
