//! The two small languages inside a puzzle file — piece expressions and board
//! expressions — parsed with pest and turned into model values in one place.
//!
//! Every error carries a byte span into the text it came from, shifted by the
//! `base` offset the caller gives, so the spec layer can point into the file.

use pest::Parser;
use pest::iterators::Pair;

use crate::error::Span;
use crate::model::{Board, Cell, MAX_SIDE, Move, Piece, Topology, UNLIMITED};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/piece.pest"]
struct PieceParser;

mod board_grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/board.pest"]
    pub struct BoardParser;
}
use board_grammar::{BoardParser, Rule as BRule};

/// A language error: what is wrong and where (absolute byte span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangError {
    /// The offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl LangError {
    fn new(span: Span, message: impl Into<String>) -> LangError {
        LangError {
            span,
            message: message.into(),
        }
    }
}

/// Deepest nesting of parentheses a piece expression may use.
pub const MAX_NESTING: usize = 32;

/// The parser recurses on parentheses; refuse absurd nesting before it does.
fn check_nesting(text: &str, base: usize) -> Result<(), LangError> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(LangError::new(
                        Span::new(base + i, base + i + 1),
                        format!("parentheses nested more than {MAX_NESTING} deep"),
                    ));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Largest absolute value of a number in a jump.
pub const MAX_JUMP: i64 = 1 << 20;

/// A piece expression before names are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceExpr {
    /// Moves known without looking anything up.
    Moves(Piece),
    /// A name: from `pieces`, a built-in, or (for words of atom letters) Betza.
    Name(String, Span),
    /// Left then right, repeats dropped.
    Union(Vec<PieceExpr>),
}

/// Parses a piece expression. `base` is the offset of `text` in its file.
pub fn parse_piece(text: &str, base: usize) -> Result<PieceExpr, LangError> {
    check_nesting(text, base)?;
    let mut pairs =
        PieceParser::parse(Rule::piece, text).map_err(|e| pest_error(e, base, piece_rule_name))?;
    let piece = pairs
        .next()
        .ok_or_else(|| LangError::new(Span::new(base, base), "empty piece"))?;
    let union = piece
        .into_inner()
        .next()
        .ok_or_else(|| LangError::new(Span::new(base, base), "empty piece"))?;
    piece_union(union, base)
}

fn piece_union(pair: Pair<Rule>, base: usize) -> Result<PieceExpr, LangError> {
    let mut parts = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() == Rule::term {
            parts.push(piece_term(p, base)?);
        }
    }
    Ok(if parts.len() == 1 {
        parts.remove(0)
    } else {
        PieceExpr::Union(parts)
    })
}

fn span_of(p: &Pair<impl pest::RuleType>, base: usize) -> Span {
    let s = p.as_span();
    Span::new(base + s.start(), base + s.end())
}

fn piece_term(pair: Pair<Rule>, base: usize) -> Result<PieceExpr, LangError> {
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| LangError::new(Span::default(), "empty term"))?;
    let span = span_of(&inner, base);
    match inner.as_rule() {
        Rule::leaper | Rule::rider => {
            let rider = inner.as_rule() == Rule::rider;
            let ints: Vec<Pair<Rule>> = inner.into_inner().collect();
            let m = int_value(&ints[0], base)?;
            let n = int_value(&ints[1], base)?;
            if m == 0 && n == 0 {
                return Err(LangError::new(
                    span,
                    "a jump of (0,0) does not move the piece",
                ));
            }
            let range = if rider {
                match ints.get(2) {
                    Some(k) => {
                        let v = int_value(k, base)?;
                        if v < 1 {
                            return Err(LangError::new(
                                span_of(k, base),
                                format!("`max` must be at least 1, not {v}"),
                            ));
                        }
                        u32::try_from(v).unwrap_or(UNLIMITED)
                    }
                    None => UNLIMITED,
                }
            } else {
                1
            };
            Ok(PieceExpr::Moves(Piece::leaper(m as i32, n as i32, range)))
        }
        Rule::jumps => {
            let mut moves = Vec::new();
            for j in inner.into_inner() {
                let js = span_of(&j, base);
                let ints: Vec<Pair<Rule>> = j.into_inner().collect();
                let dx = int_value(&ints[0], base)?;
                let dy = int_value(&ints[1], base)?;
                if dx == 0 && dy == 0 {
                    return Err(LangError::new(
                        js,
                        "a jump of (0,0) does not move the piece",
                    ));
                }
                moves.push(Move::leap(dx as i32, dy as i32));
            }
            Ok(PieceExpr::Moves(Piece::new(moves)))
        }
        Rule::group => {
            let u = inner
                .into_inner()
                .next()
                .ok_or_else(|| LangError::new(span, "empty parentheses"))?;
            piece_union(u, base)
        }
        Rule::betza | Rule::name => Ok(PieceExpr::Name(inner.as_str().to_string(), span)),
        _ => Err(LangError::new(span, "unexpected piece term")),
    }
}

fn int_value(p: &Pair<Rule>, base: usize) -> Result<i64, LangError> {
    let span = span_of(p, base);
    match p.as_str().parse::<i64>() {
        Ok(v) if v.abs() <= MAX_JUMP => Ok(v),
        _ => Err(LangError::new(
            span,
            format!("number too large (at most {MAX_JUMP} either way)"),
        )),
    }
}

/// The built-in piece names and their expressions.
pub const BUILTINS: [(&str, &str); 13] = [
    ("knight", "leaper 1 2"),
    ("camel", "leaper 1 3"),
    ("zebra", "leaper 2 3"),
    ("giraffe", "leaper 1 4"),
    ("wazir", "leaper 0 1"),
    ("ferz", "leaper 1 1"),
    ("dabbaba", "leaper 0 2"),
    ("alfil", "leaper 2 2"),
    ("king", "leaper 0 1 | leaper 1 1"),
    ("rook", "rider 0 1"),
    ("bishop", "rider 1 1"),
    ("queen", "rider 0 1 | rider 1 1"),
    ("nightrider", "rider 1 2"),
];

/// The moves of a word of Betza atom letters, or None if it is not one.
///
/// ```
/// let p = engine::puzzle::lang::betza("NN").unwrap();
/// assert!(p.moves().iter().all(|m| m.is_rider()));
/// ```
pub fn betza(word: &str) -> Option<Piece> {
    let atom = |c: u8| -> Option<(i32, i32)> {
        Some(match c {
            b'W' => (0, 1),
            b'F' => (1, 1),
            b'D' => (0, 2),
            b'N' => (1, 2),
            b'A' => (2, 2),
            b'H' => (0, 3),
            b'C' => (1, 3),
            b'Z' => (2, 3),
            b'G' => (3, 3),
            _ => return None,
        })
    };
    let b = word.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut piece = Piece::default();
    let mut i = 0;
    while i < b.len() {
        let (m, n) = atom(b[i])?;
        let doubled = i + 1 < b.len() && b[i + 1] == b[i];
        let range = if doubled { UNLIMITED } else { 1 };
        piece = piece.union(&Piece::leaper(m, n, range));
        i += if doubled { 2 } else { 1 };
    }
    Some(piece)
}

/// A named piece definition: its name, its expression text, and where that
/// text starts in the file.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The name used to refer to it.
    pub name: String,
    /// The expression.
    pub text: String,
    /// Offset of `text` in the file.
    pub base: usize,
}

/// Parses and resolves a piece expression against `defs` and the built-ins.
/// Names in `defs` take precedence over built-in names and Betza words.
pub fn resolve_piece(text: &str, base: usize, defs: &[PieceDef]) -> Result<Piece, LangError> {
    let expr = parse_piece(text, base)?;
    let mut stack = Vec::new();
    resolve(&expr, defs, &mut stack)
}

fn resolve(
    expr: &PieceExpr,
    defs: &[PieceDef],
    stack: &mut Vec<String>,
) -> Result<Piece, LangError> {
    match expr {
        PieceExpr::Moves(p) => Ok(p.clone()),
        PieceExpr::Union(parts) => {
            let mut piece = Piece::default();
            for p in parts {
                piece = piece.union(&resolve(p, defs, stack)?);
            }
            Ok(piece)
        }
        PieceExpr::Name(name, span) => {
            if let Some(def) = defs.iter().find(|d| &d.name == name) {
                if let Some(i) = stack.iter().position(|s| s == name) {
                    let mut cycle: Vec<&str> = stack[i..].iter().map(String::as_str).collect();
                    cycle.push(name);
                    return Err(LangError::new(
                        *span,
                        format!("cycle in `pieces`: {}", cycle.join(" -> ")),
                    ));
                }
                stack.push(name.clone());
                let inner = parse_piece(&def.text, def.base)?;
                let piece = resolve(&inner, defs, stack)?;
                stack.pop();
                return Ok(piece);
            }
            if let Some((_, text)) = BUILTINS.iter().find(|(n, _)| n == name) {
                return resolve(&parse_piece(text, 0)?, &[], &mut Vec::new());
            }
            if let Some(p) = betza(name) {
                return Ok(p);
            }
            let mut known: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
            known.extend(BUILTINS.iter().map(|(n, _)| *n));
            Err(LangError::new(
                *span,
                format!("unknown piece `{name}` (known: {})", known.join(", ")),
            ))
        }
    }
}

fn piece_rule_name(r: &Rule) -> String {
    match r {
        Rule::int => "a number",
        Rule::union_op => "`|` or `+`",
        Rule::term | Rule::union => "a piece (e.g. `leaper 1 2`, `knight`, `NC`)",
        Rule::jump => "a jump like `(1,2)`",
        Rule::EOI => "end of the piece",
        _ => "a piece expression",
    }
    .to_string()
}

fn board_rule_name(r: &BRule) -> String {
    match r {
        BRule::int => "a number",
        BRule::dims => "a size like `8x8`",
        BRule::topology => "`torus` or `cylinder`",
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

fn pest_error<R: pest::RuleType>(
    e: pest::error::Error<R>,
    base: usize,
    rename: impl FnMut(&R) -> String,
) -> LangError {
    let e = e.renamed_rules(rename);
    let (a, b) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p + 1),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { .. } => e.variant.message().to_string(),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    LangError::new(Span::new(base + a, base + b), message)
}

/// Parses a board expression (or a picture of `.` and `#`).
pub fn parse_board(text: &str, base: usize) -> Result<Board, LangError> {
    let first = text.trim_start().chars().next();
    if text.contains('\n') || matches!(first, Some('.' | '#')) {
        return parse_picture(text, base);
    }
    let mut pairs =
        BoardParser::parse(BRule::board, text).map_err(|e| pest_error(e, base, board_rule_name))?;
    let board = pairs
        .next()
        .ok_or_else(|| LangError::new(Span::new(base, base), "empty board"))?;
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
                    return Err(LangError::new(span_of(&p, base), "topology given twice"));
                }
                topology = Some(if p.as_str().eq_ignore_ascii_case("torus") {
                    Topology::Torus
                } else {
                    Topology::Cylinder
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
            .ok_or_else(|| LangError::new(Span::default(), "empty item"))?;
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
            .ok_or_else(|| LangError::new(span, "empty square"))?
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
            span,
            format!("{} is off the {width}x{height} board", p.as_str()),
        ));
    }
    Ok(Cell::new(x as u32, y as u32))
}

/// Parses one square (`b3` or `(1,2)`) on `board`: it must exist and not be removed.
pub fn parse_square(text: &str, base: usize, board: &Board) -> Result<u32, LangError> {
    let mut pairs = BoardParser::parse(BRule::lone_square, text.trim())
        .map_err(|e| pest_error(e, base + leading_ws(text), board_rule_name))?;
    let sq = pairs
        .next()
        .and_then(|p| p.into_inner().next())
        .ok_or_else(|| LangError::new(Span::new(base, base), "empty square"))?;
    let shifted = base + leading_ws(text);
    let cell = square_cell(&sq, shifted, board.width(), board.height())?;
    board.square_at(cell).ok_or_else(|| {
        LangError::new(
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
/// lines are padded on the right with removed squares.
fn parse_picture(text: &str, base: usize) -> Result<Board, LangError> {
    let mut rows: Vec<Vec<bool>> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let lead = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        if !trimmed.is_empty() {
            let mut row = Vec::new();
            for (i, c) in trimmed.char_indices() {
                match c {
                    '.' => row.push(true),
                    '#' => row.push(false),
                    _ => {
                        let at = base + offset + lead + i;
                        return Err(LangError::new(
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
        return Err(LangError::new(whole, "the picture board has no squares"));
    }
    if width > MAX_SIDE as usize || height > MAX_SIDE as usize {
        return Err(LangError::new(
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
            whole,
            "every square is removed: the board is empty",
        ));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(text: &str) -> Result<Piece, LangError> {
        resolve_piece(text, 0, &[])
    }

    fn vectors(p: &Piece) -> Vec<(i32, i32, u32)> {
        p.moves().iter().map(|m| (m.dx, m.dy, m.range)).collect()
    }

    #[test]
    fn leaper_rider_and_jumps() {
        assert_eq!(piece("leaper 1 2").map(|p| p.moves().len()), Ok(8));
        assert_eq!(piece("leaper 0 1").map(|p| p.moves().len()), Ok(4));
        let r = piece("rider 1 1 max 2").unwrap_or_default();
        assert!(r.moves().iter().all(|m| m.range == 2));
        let j = piece("jumps (1,2), (2,-1)").unwrap_or_default();
        assert_eq!(vectors(&j), [(1, 2, 1), (2, -1, 1)]);
    }

    #[test]
    fn betza_and_builtins_agree() {
        assert_eq!(piece("N"), piece("knight"));
        assert_eq!(piece("NN"), piece("nightrider"));
        assert_eq!(piece("WF"), piece("king"));
        assert_eq!(piece("WW"), piece("rook"));
        assert_eq!(piece("NC").map(|p| p.moves().len()), Ok(16));
        assert_eq!(piece("N | C"), piece("NC"));
        assert_eq!(piece("(N + C)"), piece("NC"));
    }

    #[test]
    fn errors_point_at_the_text() {
        let e = piece("leaper 0 0").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (0, 10));
        let e = piece("rider 1 1 max -1").unwrap_err();
        assert_eq!(&"rider 1 1 max -1"[e.span.start..e.span.end], "-1");
        let e = piece("knight | wizard").unwrap_err();
        assert_eq!(e.span.start, 9);
        assert!(e.message.contains("unknown piece `wizard`"));
        let e = piece("leaper 1").unwrap_err();
        assert!(e.message.contains("number"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("{}N{}", "(".repeat(100_000), ")".repeat(100_000));
        let e = piece(&deep).unwrap_err();
        assert_eq!(e.span.start, MAX_NESTING);
        let ok = format!("{}N{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(piece(&ok), piece("N"));
    }

    #[test]
    fn cycles_are_found() {
        let defs = [
            PieceDef {
                name: "a".into(),
                text: "b | N".into(),
                base: 100,
            },
            PieceDef {
                name: "b".into(),
                text: "a".into(),
                base: 200,
            },
        ];
        let e = resolve_piece("a", 0, &defs).unwrap_err();
        assert!(e.message.contains("a -> b -> a"), "{}", e.message);
        assert_eq!(e.span.start, 200);
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
        let e = parse_board("8x8 - z9", 0).unwrap_err();
        assert!(e.message.contains("off the 8x8 board"));
        assert!(parse_board("0x5", 0).unwrap_err().message.contains("width"));
        assert!(parse_board("5000x5000", 0).is_err());
        assert!(
            parse_board("1x1 - a1", 0)
                .unwrap_err()
                .message
                .contains("empty")
        );
        let e = parse_board("..x\n...", 0).unwrap_err();
        assert_eq!(e.span.start, 2);
    }

    #[test]
    fn squares() {
        let b = parse_board("4x4 - b1", 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(parse_square("a1", 0, &b), Ok(0));
        assert_eq!(parse_square("(2,0)", 0, &b), Ok(1));
        assert!(
            parse_square("b1", 0, &b)
                .unwrap_err()
                .message
                .contains("removed")
        );
        assert!(
            parse_square("e1", 0, &b)
                .unwrap_err()
                .message
                .contains("off")
        );
    }
}
