//! Board expressions (`8x8`, `4x4 - b1 a3`, `8x8 torus`), picture boards of
//! `.` and `#`, and single squares — parsed with the grammar in
//! `grammar/board.pest` into a [`Board`] or a square number.

use pest::Parser;
use pest::iterators::Pair;

use super::lang::{LangError, pest_error, span_of};
use crate::error::{ErrorKind, Span};
use crate::model::{Board, Cell, MAX_SIDE, Topology};

mod board_grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/board.pest"]
    pub struct BoardParser;
}
use board_grammar::{BoardParser, Rule as BRule};

fn board_rule_name(r: &BRule) -> String {
    match r {
        BRule::int => "a number",
        BRule::dims => "a size like `8x8`",
        BRule::topology => "`torus`, `cylinder`, `mobius` or `klein`",
        BRule::removed => "`-` and the removed squares",
        BRule::item | BRule::square | BRule::algebraic | BRule::coord => {
            "a square like `b3` or `(1,2)`"
        }
        BRule::rect => "a rectangle like `c3..d4`",
        BRule::EOI => "end of the board",
        _ => "a board expression",
    }
    .to_string()
}

/// What the parser expected within a lone square (a start, an end, a
/// clue's square): its end is the square's, not a board's.
fn square_rule_name(r: &BRule) -> String {
    match r {
        BRule::EOI => "the end of the square".to_string(),
        other => board_rule_name(other),
    }
}

/// Parses a board expression (or a picture of `.` and `#`).
pub fn parse_board(text: &str, base: usize) -> Result<Board, LangError> {
    let first = text.trim_start().chars().next();
    if text.contains('\n') || matches!(first, Some('.' | '#' | '|')) {
        return parse_picture(text, base);
    }
    let mut pairs = BoardParser::parse(BRule::board, text).map_err(|e| {
        let err = pest_error(e, base, board_rule_name);
        match dash_range(text, err.span.start.saturating_sub(base)) {
            Some(range) => err.with_help(format!("a range of squares is written `{range}`")),
            None => err,
        }
    })?;
    let board = pairs
        .next()
        .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::new(base, base), "empty board"))?;
    let mut width = 0;
    let mut height = 0;
    let mut topology: Option<Topology> = None;
    let mut removed_items = Vec::new();
    for p in board.into_inner() {
        match p.as_rule() {
            BRule::dims => {
                let ints: Vec<Pair<BRule>> = p.into_inner().collect();
                width = side(&ints[0], base, "width")?;
                height = side(&ints[1], base, "height")?;
            }
            BRule::topology => {
                if topology.is_some() {
                    return Err(LangError::new(
                        ErrorKind::Duplicate,
                        span_of(&p, base),
                        "topology given twice",
                    ));
                }
                let word = p.as_str().to_ascii_lowercase();
                topology = Some(match word.as_str() {
                    "torus" => Topology::Torus,
                    "mobius" => Topology::Mobius,
                    "klein" => Topology::Klein,
                    _ => Topology::Cylinder,
                });
            }
            BRule::removed => removed_items.extend(p.into_inner()),
            _ => {}
        }
    }
    let cells = width as usize * height as usize;
    let mut removed = vec![false; cells];
    for item in removed_items {
        let inner = item
            .into_inner()
            .next()
            .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::default(), "empty item"))?;
        let span = span_of(&inner, base);
        let (lo, hi) = if inner.as_rule() == BRule::rect {
            let sq: Vec<Pair<BRule>> = inner.into_inner().collect();
            let a = square_cell(&sq[0], base, width, height)?;
            let b = square_cell(&sq[1], base, width, height)?;
            (
                Cell::new(a.x.min(b.x), a.y.min(b.y)),
                Cell::new(a.x.max(b.x), a.y.max(b.y)),
            )
        } else {
            let c = square_cell(&inner, base, width, height)?;
            (c, c)
        };
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let i = y as usize * width as usize + x as usize;
                if removed[i] {
                    return Err(LangError::new(
                        ErrorKind::Duplicate,
                        span,
                        format!("{} is removed twice", Cell::new(x, y)),
                    ));
                }
                removed[i] = true;
            }
        }
    }
    let board = Board::new(width, height, topology.unwrap_or_default(), |c| {
        !removed[c.y as usize * width as usize + c.x as usize]
    });
    if board.is_empty() {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "every square is removed: the board is empty",
        ));
    }
    Ok(board)
}

fn side(p: &Pair<BRule>, base: usize, what: &str) -> Result<u32, LangError> {
    let span = span_of(p, base);
    match p.as_str().parse::<i64>() {
        Ok(v) if (1..=i64::from(MAX_SIDE)).contains(&v) => Ok(v as u32),
        _ => Err(LangError::new(
            ErrorKind::BadValue,
            span,
            format!(
                "the {what} must be from 1 to {MAX_SIDE}, not {}",
                p.as_str()
            ),
        )),
    }
}

/// The cell a `square` pair names, checked to lie on a `width` x `height` board.
fn square_cell(p: &Pair<BRule>, base: usize, width: u32, height: u32) -> Result<Cell, LangError> {
    let span = span_of(p, base);
    let inner = if p.as_rule() == BRule::square {
        p.clone()
            .into_inner()
            .next()
            .ok_or_else(|| LangError::new(ErrorKind::Syntax, span, "empty square"))?
    } else {
        p.clone()
    };
    let (x, y): (i64, i64) = match inner.as_rule() {
        BRule::algebraic => match Cell::parse_algebraic(inner.as_str()) {
            // Off any board when the file or rank is out of range.
            Some((x, y)) => (
                i64::try_from(x).unwrap_or(i64::MAX),
                i64::try_from(y).unwrap_or(i64::MAX),
            ),
            None => (i64::MAX, i64::MAX),
        },
        _ => {
            let ints: Vec<Pair<BRule>> = inner.into_inner().collect();
            let v = |p: &Pair<BRule>| p.as_str().parse::<i64>().unwrap_or(i64::MAX);
            (v(&ints[0]), v(&ints[1]))
        }
    };
    if x < 0 || y < 0 || x >= i64::from(width) || y >= i64::from(height) {
        return Err(LangError::new(
            ErrorKind::BadValue,
            span,
            format!("{} is off the {width}x{height} board", p.as_str()),
        ));
    }
    Ok(Cell::new(x as u32, y as u32))
}

/// The range `a..b` meant by a `-` at byte `at` of `text` between two
/// squares (`b2-c3`, `(1,1)-(2,2)`), if that is what stands there.
fn dash_range(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?.strip_prefix('-')?;
    let head = text.get(..at)?;
    let square = |s: &str| BoardParser::parse(BRule::lone_square, s).is_ok();
    // The square before: the longest run of non-spaces that is one.
    let left = head.rsplit(' ').next()?;
    let right_len = rest.find(' ').unwrap_or(rest.len());
    let right = &rest[..right_len];
    (square(left) && square(right)).then(|| format!("{left}..{right}"))
}

/// Parses one square (`b3` or `(1,2)`) on `board`: it must exist and not be removed.
pub fn parse_square(text: &str, base: usize, board: &Board) -> Result<u32, LangError> {
    let shifted = base + leading_ws(text);
    let mut pairs = BoardParser::parse(BRule::lone_square, text.trim()).map_err(|e| {
        let err = pest_error(e, shifted, square_rule_name);
        match dash_range(text.trim(), err.span.start.saturating_sub(shifted)) {
            Some(range) => err.with_help(format!(
                "one square is asked here; a range like `{range}` is written where squares are taken off a board"
            )),
            None => err,
        }
    })?;
    let sq = pairs
        .next()
        .and_then(|p| p.into_inner().next())
        .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::new(base, base), "empty square"))?;
    let cell = square_cell(&sq, shifted, board.width(), board.height())?;
    board.square_at(cell).ok_or_else(|| {
        LangError::new(
            ErrorKind::BadValue,
            span_of(&sq, shifted),
            format!("{} is a removed square", sq.as_str()),
        )
    })
}

fn leading_ws(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// A picture board: one line per rank, top rank first; `.` a square, `#` a
/// removed square. Blank lines and surrounding spaces are ignored; shorter
/// lines are padded on the right with removed squares. A line that starts
/// with the edge marker `|` (and may end with one) keeps its spaces: each is
/// a removed square.
fn parse_picture(text: &str, base: usize) -> Result<Board, LangError> {
    let mut rows: Vec<Vec<bool>> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let lead = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        // A row may start at an edge marker `|` (and end at another): then
        // its spaces are removed squares, so a shape can be drawn centred.
        let (marked, lead, trimmed) = match trimmed.strip_prefix('|') {
            Some(rest) => (
                true,
                lead + 1,
                rest.strip_suffix('|').unwrap_or(rest.trim_end()),
            ),
            None => (false, lead, trimmed),
        };
        if marked || !trimmed.is_empty() {
            let mut row = Vec::new();
            for (i, c) in trimmed.char_indices() {
                match c {
                    '.' => row.push(true),
                    '#' => row.push(false),
                    ' ' if marked => row.push(false),
                    _ => {
                        let at = base + offset + lead + i;
                        return Err(LangError::new(
                            ErrorKind::Syntax,
                            Span::new(at, at + c.len_utf8()),
                            format!(
                                "`{c}` in a picture board (use `.` for a square, `#` for a removed one)"
                            ),
                        ));
                    }
                }
            }
            rows.push(row);
        }
        offset += line.len();
    }
    let height = rows.len();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let whole = Span::new(base, base + text.len());
    if height == 0 || width == 0 {
        return Err(LangError::new(
            ErrorKind::BadValue,
            whole,
            "the picture board has no squares",
        ));
    }
    if width > MAX_SIDE as usize || height > MAX_SIDE as usize {
        return Err(LangError::new(
            ErrorKind::BadValue,
            whole,
            format!("the picture is {width}x{height}; each side must be at most {MAX_SIDE}"),
        ));
    }
    let board = Board::new(width as u32, height as u32, Topology::Plain, |c| {
        let row = &rows[height - 1 - c.y as usize];
        row.get(c.x as usize).copied().unwrap_or(false)
    });
    if board.is_empty() {
        return Err(LangError::new(
            ErrorKind::BadValue,
            whole,
            "every square is removed: the board is empty",
        ));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_markers_keep_leading_spaces() {
        let centred =
            parse_board("\n  |  ..\n  | ....\n  |......\n", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            (centred.width(), centred.height(), centred.len()),
            (6, 3, 12)
        );
        // The top rank's squares are c3 and d3, centred over a1..f1.
        let names: Vec<String> = (0..centred.len() as u32).map(|s| centred.name(s)).collect();
        assert_eq!(&names[names.len() - 2..], ["c3", "d3"]);
        // Without markers the same lines are left-aligned, as before.
        let left =
            parse_board("\n    ..\n   ....\n  ......\n", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(left.name(left.len() as u32 - 1), "b3");
        // A closing marker keeps trailing spaces too.
        let b = parse_board("|. |\n|...|\n", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((b.width(), b.len()), (3, 4));
    }

    #[test]
    fn boards() {
        let b = parse_board("4x4 - b1 a3 a4 c4 d4", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(b.len(), 11);
        let b = parse_board("10x10 - c3..d4 (9,9)", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(b.len(), 95);
        let b = parse_board("8x8 torus", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(b.topology(), Topology::Torus);
        let b = parse_board("\n  ..#..\n  .....\n  #...#\n", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((b.width(), b.height(), b.len()), (5, 3, 12));
        assert!(!b.is_square(Cell::new(2, 2)));
        assert!(!b.is_square(Cell::new(0, 0)));
    }

    #[test]
    fn board_errors() {
        let text = "8x8 - a1 a1";
        let e = parse_board(text, 0).unwrap_err();
        assert_eq!(&text[e.span.start..e.span.end], "a1");
        assert_eq!(e.span.start, 9);
        assert_eq!(e.kind, ErrorKind::Duplicate);
        let e = parse_board("8x8 - z9", 0).unwrap_err();
        assert!(e.message.contains("off the 8x8 board"));
        assert_eq!(e.kind, ErrorKind::BadValue);
        let e = parse_board("0x5", 0).unwrap_err();
        assert!(e.message.contains("width"));
        assert_eq!(e.kind, ErrorKind::BadValue);
        assert!(parse_board("5000x5000", 0).is_err());
        assert_eq!(
            parse_board("1x1 - a1", 0).map_err(|e| e.kind),
            Err(ErrorKind::BadValue)
        );
        let e = parse_board("..x\n...", 0).unwrap_err();
        assert_eq!(e.span.start, 2);
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(
            parse_board("8x8 torus torus", 0).map_err(|e| e.kind),
            Err(ErrorKind::Duplicate)
        );
        assert_eq!(
            parse_board("8x", 0).map_err(|e| e.kind),
            Err(ErrorKind::Syntax)
        );
    }

    #[test]
    fn squares() {
        let b = parse_board("4x4 - b1", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(parse_square("a1", 0, &b), Ok(0));
        assert_eq!(parse_square("(2,0)", 0, &b), Ok(1));
        let e = parse_square("b1", 0, &b).unwrap_err();
        assert!(e.message.contains("removed"));
        assert_eq!(e.kind, ErrorKind::BadValue);
        let e = parse_square("e1", 0, &b).unwrap_err();
        assert!(e.message.contains("off"));
        assert_eq!(e.kind, ErrorKind::BadValue);
        assert_eq!(
            parse_square("b", 0, &b).map_err(|e| e.kind),
            Err(ErrorKind::Syntax)
        );
    }
}
