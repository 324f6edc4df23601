//! Word puzzles in the file: the `letters` picture (a unit of text on each
//! square — a letter, a syllable in brackets, `.` for none, `#` a removed
//! square) and the `text` the tour reads, split into units as the picture
//! writes them and checked against it: the text must use every unit on the
//! board once.

use super::lang::LangError;
use crate::error::{ErrorKind, Span};
use crate::model::letters::{Letters, NO_UNIT, unit_key};
use crate::model::{Board, Cell, Topology};

/// One unit as written: its text (without brackets) and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The letter, or the syllable without its brackets.
    pub text: String,
    /// Where it is written, brackets included.
    pub span: Span,
}

/// What a cell of the picture holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    /// A removed square (`#`).
    Removed,
    /// A square with no unit (`.`).
    Blank,
    /// A square with a unit.
    Unit(Unit),
}

/// The units of a line of text from byte `at` (its offset `base + at` in
/// the file): a bracketed syllable, or one letter or digit; `keep` decides
/// what else is skipped (spaces and punctuation in a text) or refused.
fn units(
    line: &str,
    base: usize,
    mut other: impl FnMut(char, Span) -> Result<Option<Token>, LangError>,
) -> Result<Vec<Token>, LangError> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let span = Span::new(base + i, base + i + c.len_utf8());
        if c == '[' {
            let Some(close) = line[i..].find(']') else {
                return Err(LangError::new(
                    ErrorKind::Syntax,
                    span,
                    "this bracket is not closed: a syllable is written `[sch]`",
                ));
            };
            let inner = &line[i + 1..i + close];
            if let Some(j) = inner.find('[') {
                let at = base + i + 1 + j;
                return Err(LangError::new(
                    ErrorKind::Syntax,
                    Span::new(at, at + 1),
                    "a bracket inside a syllable: the syllable before it is not closed",
                ));
            }
            if unit_key(inner).is_empty() {
                return Err(LangError::new(
                    ErrorKind::BadValue,
                    Span::new(base + i, base + i + close + 1),
                    "a syllable needs a letter",
                ));
            }
            out.push(Token::Unit(Unit {
                text: inner.trim().to_string(),
                span: Span::new(base + i, base + i + close + 1),
            }));
            while chars.peek().is_some_and(|&(j, _)| j <= i + close) {
                chars.next();
            }
        } else if c.is_alphanumeric() {
            out.push(Token::Unit(Unit {
                text: c.to_string(),
                span,
            }));
        } else if let Some(t) = other(c, span)? {
            out.push(t);
        }
    }
    Ok(out)
}

/// A letters picture: one line per rank, top rank first — a letter or
/// digit, a syllable in brackets, `.` a square with no unit, `#` a removed
/// square; spaces between them are optional. Blank lines are ignored;
/// every line has the same number of squares. Returns the board (plain)
/// and each square's unit, if any.
pub fn parse_picture(text: &str, base: usize) -> Result<(Board, Vec<Option<Unit>>), LangError> {
    let mut rows: Vec<(Vec<Token>, Span)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let tokens = units(line, base + at, |c, span| match c {
            '.' => Ok(Some(Token::Blank)),
            '#' => Ok(Some(Token::Removed)),
            c if c.is_whitespace() => Ok(None),
            ']' => Err(LangError::new(
                ErrorKind::Syntax,
                span,
                "a closing bracket with no opening one",
            )),
            c => Err(LangError::new(
                ErrorKind::Syntax,
                span,
                format!(
                    "`{c}` is not a square: a letter or digit, a syllable in brackets (`[sch]`), `.` a square with none, `#` a removed square"
                ),
            )),
        })?;
        if !tokens.is_empty() {
            let trimmed = line.trim();
            let from = base + at + line.find(trimmed).unwrap_or(0);
            rows.push((tokens, Span::new(from, from + trimmed.len())));
        }
    }
    let Some((first, _)) = rows.first() else {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "the letters picture has no squares",
        ));
    };
    let (width, height) = (first.len(), rows.len());
    let side = crate::model::MAX_SIDE as usize;
    if width > side || height > side {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            format!(
                "the letters picture is {width}x{height}; a side may have at most {side} squares"
            ),
        ));
    }
    let mut cells: Vec<Token> = Vec::with_capacity(width * height);
    // Top row first in the picture; the board's rank 0 is the bottom one.
    for (tokens, span) in rows.into_iter().rev() {
        if tokens.len() != width {
            return Err(LangError::new(
                ErrorKind::Syntax,
                span,
                format!(
                    "this row has {} squares, the first row {width}: every row of a letters picture has one unit, `.` or `#` per square",
                    tokens.len()
                ),
            )
            .with_help("a syllable is one square: `[sch]`"));
        }
        cells.extend(tokens);
    }
    let board = Board::new(width as u32, height as u32, Topology::Plain, |c| {
        cells[c.y as usize * width + c.x as usize] != Token::Removed
    });
    if board.is_empty() {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "every square is removed: the board is empty",
        ));
    }
    let units = (0..board.len() as u32)
        .map(|s| {
            let Cell { x, y } = board.cell(s);
            match &cells[y as usize * width + x as usize] {
                Token::Unit(u) => Some(u.clone()),
                _ => None,
            }
        })
        .collect();
    Ok((board, units))
}

/// Why the letters picture `pic` does not draw `board`'s shape, if it
/// does not: another size, or a square removed in one and not the other.
pub fn fits(board: &Board, pic: &Board) -> Option<String> {
    if (board.width(), board.height()) != (pic.width(), pic.height()) {
        return Some(format!(
            "the letters picture is {}x{} but the board is {}x{}",
            pic.width(),
            pic.height(),
            board.width(),
            board.height()
        ));
    }
    let cells = (0..board.height()).flat_map(|y| (0..board.width()).map(move |x| Cell::new(x, y)));
    for c in cells {
        match (board.square_at(c), pic.square_at(c)) {
            (Some(s), None) => {
                return Some(format!(
                    "the letters picture removes {}, the board does not: a square of the board has a unit or `.`",
                    board.name(s)
                ));
            }
            (None, Some(s)) => {
                return Some(format!(
                    "the board removes {}, the letters picture does not: a removed square is `#` in the picture",
                    pic.name(s)
                ));
            }
            _ => {}
        }
    }
    None
}

/// The units of a text (from `base` in the file): a syllable in brackets,
/// or each letter and digit; spaces and punctuation are skipped.
pub fn parse_text(text: &str, base: usize) -> Result<Vec<Unit>, LangError> {
    let tokens = units(text, base, |c, span| match c {
        ']' => Err(LangError::new(
            ErrorKind::Syntax,
            span,
            "a closing bracket with no opening one",
        )),
        _ => Ok(None),
    })?;
    let out: Vec<Unit> = tokens
        .into_iter()
        .filter_map(|t| match t {
            Token::Unit(u) => Some(u),
            _ => None,
        })
        .collect();
    if out.is_empty() {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "the text has no letters",
        ));
    }
    Ok(out)
}

/// The letters of a puzzle: each square's unit on `board` (`on`, by square)
/// and the text's units, which must be the same units (as a multiset,
/// compared by [`unit_key`]). The first unit the text reads once too often
/// is refused where the text has it; else the first unit on the board the
/// text does not read, where the picture has it.
pub fn build(
    board: &Board,
    on: &[Option<Unit>],
    text: &str,
    reading: &[Unit],
) -> Result<Letters, LangError> {
    use std::collections::HashMap;
    let mut number: HashMap<String, u32> = HashMap::new();
    let mut on_board: Vec<u32> = Vec::new();
    let mut unit_of = vec![NO_UNIT; board.len()];
    for (s, u) in on.iter().enumerate() {
        if let Some(u) = u {
            let next = number.len() as u32;
            let id = *number.entry(unit_key(&u.text)).or_insert(next);
            if id as usize == on_board.len() {
                on_board.push(0);
            }
            on_board[id as usize] += 1;
            unit_of[s] = id;
        }
    }
    let mut read = vec![0u32; on_board.len()];
    let mut ids = Vec::with_capacity(reading.len());
    for u in reading {
        let key = unit_key(&u.text);
        let Some(&id) = number.get(&key) else {
            return Err(LangError::new(
                ErrorKind::Mismatch,
                u.span,
                format!("the text reads `{}` here, and no square has it", u.text),
            )
            .with_help("the text must use every unit of the letters once, and no other"));
        };
        read[id as usize] += 1;
        if read[id as usize] > on_board[id as usize] {
            return Err(LangError::new(
                ErrorKind::Mismatch,
                u.span,
                format!(
                    "the text reads `{}` {} times by here, and the board has it on {}",
                    u.text,
                    read[id as usize],
                    crate::words::counted(u64::from(on_board[id as usize]), "square")
                ),
            )
            .with_help("the text must use every unit of the letters once, and no other"));
        }
        ids.push(id);
    }
    // A unit on the board the text reads fewer times: at its last square
    // in the picture's order (top row first).
    let short = |s: usize| {
        unit_of[s] != NO_UNIT && read[unit_of[s] as usize] < on_board[unit_of[s] as usize]
    };
    let in_picture = |s: usize| {
        let c = board.cell(s as u32);
        (board.height() - c.y, c.x)
    };
    if let Some(s) = (0..board.len())
        .filter(|&s| short(s))
        .max_by_key(|&s| in_picture(s))
        && let Some(u) = &on[s]
    {
        let id = unit_of[s] as usize;
        return Err(LangError::new(
            ErrorKind::Mismatch,
            u.span,
            format!(
                "`{}` is on {} (here on {}), and the text reads it {}",
                u.text,
                crate::words::counted(u64::from(on_board[id]), "square"),
                board.name(s as u32),
                crate::words::counted(u64::from(read[id]), "time")
            ),
        )
        .with_help("the text must use every unit of the letters once, and no other"));
    }
    Ok(Letters {
        written: on
            .iter()
            .map(|u| u.as_ref().map_or(String::new(), |u| u.text.clone()))
            .collect(),
        text: text.to_string(),
        unit_of,
        reading: ids,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(picture: &str, text: &str) -> Result<Letters, LangError> {
        let (board, on) = parse_picture(picture, 0)?;
        let reading = parse_text(text, 1000)?;
        build(&board, &on, text, &reading)
    }

    #[test]
    fn a_picture_reads_as_it_looks() {
        let Ok((board, on)) = parse_picture("\n  A b #\n  [sch] . c\n", 0) else {
            panic!("reads")
        };
        assert_eq!((board.width(), board.height(), board.len()), (3, 2, 5));
        let shown: Vec<Option<String>> = on
            .iter()
            .map(|u| u.as_ref().map(|u| u.text.clone()))
            .collect();
        // Squares in board order: a1 b1 c1 a2 b2.
        assert_eq!(
            shown,
            [
                Some("sch".into()),
                None,
                Some("c".into()),
                Some("A".into()),
                Some("b".into())
            ]
        );
        // Spaces are optional.
        let Ok((b2, _)) = parse_picture("Ab#\n[sch].c", 0) else {
            panic!("reads")
        };
        assert_eq!(b2, board);
    }

    #[test]
    fn the_text_and_the_board_have_the_same_units() {
        let Ok(l) = letters("ABA\nNN.", "Ann, ab!") else {
            panic!("reads")
        };
        assert_eq!(l.reading.len(), 5);
        assert_eq!(l.blanks(), 1);
        // One `n` too many: at the text's third n.
        let e = letters("ABA\nNN.", "Annna, ab").err();
        assert_eq!(e.as_ref().map(|e| e.kind), Some(ErrorKind::Mismatch));
        assert_eq!(e.map(|e| e.span.start), Some(1003));
        // A unit the text leaves out: at its square.
        let e = letters("ABA\nNN.", "Ann, b").err();
        assert_eq!(
            e.map(|e| (e.span.start, e.message)),
            Some((
                2,
                "`A` is on 2 squares (here on c2), and the text reads it 1 time".to_string()
            ))
        );
    }

    #[test]
    fn errors_point_at_the_character() {
        let at = |p: &str| parse_picture(p, 0).err().map(|e| (e.kind, e.span.start));
        assert_eq!(at("ab\n[cd"), Some((ErrorKind::Syntax, 3)));
        assert_eq!(at("ab\nc!"), Some((ErrorKind::Syntax, 4)));
        assert_eq!(at("ab\nc]"), Some((ErrorKind::Syntax, 4)));
        assert_eq!(at("ab\nabc"), Some((ErrorKind::Syntax, 3)));
        assert_eq!(at("ab\n[]b"), Some((ErrorKind::BadValue, 3)));
        let e = parse_text("so [far", 0).err().map(|e| e.span);
        assert_eq!(e, Some(Span::new(3, 4)));
        assert!(parse_text(" ,; ", 0).is_err());
    }
}
