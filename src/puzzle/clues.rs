//! Clues: step numbers standing on squares, as a map (`{ "a1": 1 }`) or as
//! a picture of the board typed as a published puzzle looks, and their
//! checks (numbers from 1 to the squares, none twice, on squares).

use super::lang::LangError;
use crate::error::{ErrorKind, Span};
use crate::model::{Board, Cell, Topology};

/// One clue as written: its step, its square, and where the number is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clue {
    /// The step number (1 is the first square).
    pub step: u64,
    /// The square.
    pub square: u32,
    /// Where it is written.
    pub span: Span,
}

/// A clue picture: one line per rank, top rank first, tokens separated by
/// spaces — `.` a square, `#` a removed square, a number a square with its
/// step. Blank lines are ignored; every line has the same number of
/// tokens. Returns the board (plain) and the clues.
pub fn parse_picture<'a>(text: &'a str, base: usize) -> Result<(Board, Vec<Clue>), LangError> {
    // The rows with a token, top row first, each with its offset in `text`;
    // read twice (their size, then their tokens), never stored whole: a
    // picture of 4,000 rows of 4,000 squares is 16 million tokens.
    let rows = || {
        let mut offset = 0;
        text.split_inclusive('\n').filter_map(move |line| {
            let at = offset;
            offset += line.len();
            line.split_whitespace()
                .next()
                .is_some()
                .then_some((at, line))
        })
    };
    // Each token of a row with its offset in the file.
    let tokens = |(at, line): (usize, &'a str)| {
        line.split_whitespace().map(move |t| {
            (
                t,
                base + at + (t.as_ptr() as usize - line.as_ptr() as usize),
            )
        })
    };
    let Some(first) = rows().next() else {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "the clue picture has no squares",
        ));
    };
    let width = tokens(first).count();
    let height = rows().count();
    if width > crate::model::MAX_SIDE as usize || height > crate::model::MAX_SIDE as usize {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            format!(
                "the clue picture is {width}x{height}; a side may have at most {} squares",
                crate::model::MAX_SIDE
            ),
        ));
    }
    let mut present = vec![true; width * height];
    let mut numbers: Vec<(u64, Cell, Span)> = Vec::new();
    for (r, row) in rows().enumerate() {
        let count = tokens(row).count();
        if count != width {
            let at = tokens(row).next().map_or(base + row.0, |(_, o)| o);
            let end = tokens(row).next_back().map_or(at, |(t, o)| o + t.len());
            return Err(LangError::new(ErrorKind::Syntax,
                Span::new(at, end),
                format!(
                    "this row has {count} squares, the first row {width}: every row of a clue picture has one token per square"
                ),
            )
            .with_help("`.` a square, `#` a removed square, a number a clue"));
        }
        let y = (height - 1 - r) as u32;
        for (x, (token, at)) in tokens(row).enumerate() {
            let span = Span::new(at, at + token.len());
            match token {
                "." => {}
                "#" => present[y as usize * width + x] = false,
                t if t.bytes().all(|b| b.is_ascii_digit()) => {
                    let step = t.parse::<u64>().map_err(|_| {
                        LangError::new(ErrorKind::BadValue, span, "number out of range".to_string())
                    })?;
                    numbers.push((step, Cell::new(x as u32, y), span));
                }
                _ => {
                    return Err(LangError::new(
                        ErrorKind::Syntax,
                        span,
                        format!(
                            "`{token}` is not a square: `.` a square, `#` a removed square, a number a clue"
                        ),
                    ));
                }
            }
        }
    }
    let board = Board::new(width as u32, height as u32, Topology::Plain, |c| {
        present[c.y as usize * width + c.x as usize]
    });
    if board.is_empty() {
        return Err(LangError::new(
            ErrorKind::BadValue,
            Span::new(base, base + text.len()),
            "every square is removed: the board is empty",
        ));
    }
    let clues = numbers
        .into_iter()
        .filter_map(|(step, cell, span)| {
            board
                .square_at(cell)
                .map(|square| Clue { step, square, span })
        })
        .collect();
    Ok((board, clues))
}

/// Checks `clues` (in file order) against `board`: every step from 1 to the
/// number of squares, no square given two clues (however it is written) and
/// no step given twice; each repeat is refused at its second place, naming
/// the first (through `name`). Returns `(step, square)` pairs sorted by step.
pub fn check(
    board: &Board,
    clues: &[Clue],
    name: &dyn Fn(Span) -> String,
) -> Result<Vec<(u32, u32)>, LangError> {
    let n = board.len() as u64;
    let mut out: Vec<(u32, u32, Span)> = Vec::with_capacity(clues.len());
    let mut seen: std::collections::HashMap<u32, &Clue> =
        std::collections::HashMap::with_capacity(clues.len());
    for c in clues {
        if c.step == 0 || c.step > n {
            return Err(LangError::new(
                ErrorKind::BadValue,
                c.span,
                format!(
                    "step {} is not on this tour: its steps are numbered 1 to {n}",
                    c.step
                ),
            ));
        }
        if let Some(first) = seen.insert(c.square, c) {
            let square = board.name(c.square);
            let message = if first.step == c.step {
                format!(
                    "the clue {square}: {} is given twice (first at {})",
                    c.step,
                    name(first.span)
                )
            } else {
                format!(
                    "{square} is given two clues: step {} here, and step {} at {}; a square holds one step",
                    c.step,
                    first.step,
                    name(first.span)
                )
            };
            return Err(LangError::new(ErrorKind::Duplicate, c.span, message));
        }
        out.push((c.step as u32, c.square, c.span));
    }
    out.sort_by_key(|&(step, _, _)| step);
    for w in out.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(LangError::new(
                ErrorKind::Duplicate,
                w[1].2,
                format!(
                    "step {} is given twice: on {} ({}) and on {}",
                    w[1].0,
                    board.name(w[0].1),
                    name(w[0].2),
                    board.name(w[1].1)
                ),
            ));
        }
    }
    Ok(out.into_iter().map(|(k, s, _)| (k, s)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_reads_as_it_looks() {
        let text = "\n   1  .  #\n   .  12 .\n";
        let Ok((board, clues)) = parse_picture(text, 0) else {
            panic!("reads");
        };
        assert_eq!((board.width(), board.height(), board.len()), (3, 2, 5));
        assert!(!board.is_square(Cell::new(2, 1)));
        let named: Vec<(u64, String)> = clues
            .iter()
            .map(|c| (c.step, board.name(c.square)))
            .collect();
        assert_eq!(named, [(1, "a2".to_string()), (12, "b1".to_string())]);
        assert_eq!(&text[clues[1].span.start..clues[1].span.end], "12");
    }

    #[test]
    fn picture_errors_point_at_the_token() {
        let text = "1 . .\n. x .";
        let e = parse_picture(text, 0).err().map(|e| (e.span, e.kind));
        assert_eq!(e.map(|e| e.1), Some(ErrorKind::Syntax));
        assert_eq!(e.map(|e| &text[e.0.start..e.0.end]), Some("x"));
        let ragged = "1 . .\n. .";
        assert_eq!(
            parse_picture(ragged, 0).err().map(|e| e.kind),
            Some(ErrorKind::Syntax)
        );
    }

    #[test]
    fn steps_must_fit_and_not_repeat() {
        let b = Board::rectangle(2, 2);
        let at = |step, square, s| Clue {
            step,
            square,
            span: Span::new(s, s + 1),
        };
        let name = |s: Span| format!("column {}", s.start + 1);
        assert_eq!(
            check(&b, &[at(5, 0, 0)], &name).err().map(|e| e.kind),
            Some(ErrorKind::BadValue)
        );
        assert_eq!(
            check(&b, &[at(0, 0, 0)], &name).err().map(|e| e.kind),
            Some(ErrorKind::BadValue)
        );
        let twice = check(&b, &[at(2, 0, 0), at(2, 3, 7)], &name).err();
        assert_eq!(twice.as_ref().map(|e| e.kind), Some(ErrorKind::Duplicate));
        let twice = twice.map(|e| e.message);
        assert_eq!(
            twice.as_deref(),
            Some("step 2 is given twice: on a1 (column 1) and on b2")
        );
        let square_twice = check(&b, &[at(1, 0, 0), at(3, 0, 7)], &name)
            .err()
            .map(|e| (e.span, e.message));
        assert_eq!(
            square_twice,
            Some((
                Span::new(7, 8),
                "a1 is given two clues: step 3 here, and step 1 at column 1; a square holds one step"
                    .to_string()
            ))
        );
        assert_eq!(
            check(&b, &[at(4, 3, 0), at(1, 0, 3)], &name).ok(),
            Some(vec![(1, 0), (4, 3)])
        );
    }
}
