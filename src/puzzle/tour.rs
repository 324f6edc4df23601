//! A tour written down outside the engine — a student's, a book's, another
//! program's — read onto a puzzle's board, for the independent verifier.
//!
//! Three ways of writing one are read, told apart by their first character:
//! - JSON (`{`): `run --format json`'s report, its `squares` by name;
//! - a grid of step numbers (a digit): one line a rank, the top rank first,
//!   a number (from 1) or `.` for each square of the rank, removed squares
//!   included — the grid `run` prints, its labels too;
//! - `run`'s text report, whole: the squares after `Tour:`;
//! - squares by name (anything else): `a1 b3 c5`, separated by spaces,
//!   commas, `-` or new lines; `(x,y)` pairs as in puzzle files.
//!
//! Each square must exist on the board; whether the tour is one is the
//! verifier's to say, not the reader's.

use std::path::Path;

use super::board::parse_square;
use crate::error::{Error, ErrorKind, Span};
use crate::model::{Board, Cell};

/// The tour in the file at `path` (`-`: standard input), on `board`.
pub fn read_tour(path: &Path, board: &Board) -> Result<Vec<u32>, Error> {
    let (file, text) = super::load::read_text(path, "a tour")?;
    parse_tour(&file, &text, board)
}

/// The tour written in `text`, which came from `file`, on `board`.
pub fn parse_tour(file: &str, text: &str, board: &Board) -> Result<Vec<u32>, Error> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let Some(first) = text.trim_start().chars().next() else {
        return Err(Error::whole_file(
            ErrorKind::Empty,
            file,
            "the file is empty: no tour",
        ));
    };
    // `run`'s text report: the squares after `Tour:`.
    if let Some((base, line)) = line_starts(text).find(|(_, l)| l.starts_with("Tour:")) {
        let skip = base + "Tour:".len();
        return from_names(file, text, skip, skip + line.len() - "Tour:".len(), board);
    }
    match first {
        '{' => from_json(file, text, board),
        c if c.is_ascii_digit() => from_grid(file, text, board),
        _ => from_names(file, text, 0, text.len(), board),
    }
}

/// `a1 b3 c5`, `a1-b3-c5`, `(0,0), (1,2)`: squares by name or pair, in
/// the bytes `from..to` of `text`.
fn from_names(
    file: &str,
    text: &str,
    from: usize,
    to: usize,
    board: &Board,
) -> Result<Vec<u32>, Error> {
    let mut tour = Vec::new();
    let mut start = None;
    let mut depth = 0u32;
    // A square ends at a separator outside parentheses.
    let mut flush = |from: Option<usize>, to: usize| -> Result<(), Error> {
        if let Some(from) = from {
            let word = &text[from..to];
            let s = parse_square(word, from, board).map_err(|e| {
                let err = Error::at(e.kind, file, text, e.span, e.message);
                match e.help {
                    Some(h) => err.with_help(h),
                    None => err,
                }
            })?;
            tour.push(s);
        }
        Ok(())
    };
    for (i, c) in text[from..to].char_indices() {
        let i = from + i;
        match c {
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 && (c.is_whitespace() || c == ',' || c == '-' || c == ';') => {
                flush(start.take(), i)?;
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    flush(start.take(), to)?;
    Ok(tour)
}

/// A grid of step numbers, the top rank first: the square numbered `k` is
/// the tour's `k`-th. Every number from 1 to the largest must be there once.
fn from_grid(file: &str, text: &str, board: &Board) -> Result<Vec<u32>, Error> {
    // `run`'s grid: a rank's label before `|`, the files' letters below.
    let lines: Vec<(usize, &str)> = line_starts(text)
        .map(|(base, l)| match l.find('|') {
            Some(bar) => (base + bar + 1, &l[bar + 1..]),
            None => (base, l),
        })
        .filter(|(_, l)| {
            !l.trim().is_empty()
                && !l
                    .split_whitespace()
                    .all(|w| w.chars().all(char::is_alphabetic))
        })
        .collect();
    let (w, h) = (board.width() as usize, board.height() as usize);
    if lines.len() != h {
        return Err(Error::whole_file(
            ErrorKind::BadValue,
            file,
            format!("the grid has {} ranks; the board has {h}", lines.len()),
        ));
    }
    let mut at: Vec<Option<(u32, Span)>> = Vec::new();
    let mut biggest = 0usize;
    for (row, &(base, line)) in lines.iter().enumerate() {
        let y = (h - 1 - row) as u32;
        let words = words_of(line);
        if words.len() != w {
            return Err(Error::at(
                ErrorKind::BadValue,
                file,
                text,
                Span::new(base, base + line.trim_end().len()),
                format!(
                    "this rank has {} entries; the board has {w} files",
                    words.len()
                ),
            ));
        }
        for (x, (off, word)) in words.into_iter().enumerate() {
            let span = Span::new(base + off, base + off + word.len());
            let bad = |message: String| Error::at(ErrorKind::BadValue, file, text, span, message);
            if word == "." {
                continue;
            }
            let k: usize = word
                .parse()
                .map_err(|_| bad(format!("`{word}` is not a step number (or `.`)")))?;
            if k == 0 || k > w * h {
                return Err(bad(format!("step {k} is not from 1 to {}", w * h)));
            }
            let Some(square) = board.square_at(Cell::new(x as u32, y)) else {
                return Err(bad(format!(
                    "{} is a removed square: it has no step",
                    Cell::new(x as u32, y).algebraic()
                )));
            };
            if at.len() < k {
                at.resize(k, None);
            }
            if let Some((other, _)) = at[k - 1] {
                return Err(bad(format!(
                    "step {k} is written twice: on {} and on {}",
                    board.name(other),
                    board.name(square)
                )));
            }
            at[k - 1] = Some((square, span));
            biggest = biggest.max(k);
        }
    }
    let mut tour = Vec::with_capacity(biggest);
    for (i, s) in at.iter().enumerate() {
        match s {
            Some((square, _)) => tour.push(*square),
            None => {
                return Err(Error::whole_file(
                    ErrorKind::BadValue,
                    file,
                    format!(
                        "step {} is missing from the grid (the largest is {biggest})",
                        i + 1
                    ),
                ));
            }
        }
    }
    Ok(tour)
}

/// `run --format json`'s report: its `squares`, by name.
fn from_json(file: &str, text: &str, board: &Board) -> Result<Vec<u32>, Error> {
    #[derive(serde::Deserialize)]
    struct Report {
        squares: Vec<String>,
    }
    let report: Report = serde_json::from_str(text).map_err(|e| {
        let (line, col) = (e.line(), e.column());
        Error::at_line_col(
            ErrorKind::Syntax,
            file,
            text,
            line,
            col.max(1),
            format!("not a tour in JSON (`squares`, as `run --format json` prints): {e}"),
        )
    })?;
    report
        .squares
        .iter()
        .map(|name| {
            parse_square(name, 0, board).map_err(|e| {
                Error::about(
                    e.kind,
                    file,
                    format!("in `squares`: `{name}`: {}", e.message),
                )
            })
        })
        .collect()
}

/// Each line of `text` with the byte offset it starts at.
fn line_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split('\n').map(move |l| {
        let start = at;
        at += l.len() + 1;
        (start, l.trim_end_matches('\r'))
    })
}

/// The words of `line` separated by white space, each with its offset.
fn words_of(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::rectangle(3, 4)
    }

    #[test]
    fn names_grids_and_json_read_the_same_tour() {
        let b = board();
        let names = parse_tour("t", "a1 c2 a3-b1, c3\n(0,1)", &b).unwrap_or_default();
        assert_eq!(
            names,
            ["a1", "c2", "a3", "b1", "c3", "a2"]
                .map(|n| parse_square(n, 0, &b).map_or(u32::MAX, |s| s))
                .to_vec()
        );
        let grid = parse_tour("t", ". . .\n3 . 5\n6 . 2\n1 4 .\n", &b).unwrap_or_default();
        assert_eq!(grid, names);
        let labelled = "4 | . . .\n3 | 3 . 5\n2 | 6 . 2\n1 | 1 4 .\n     a b c\n";
        assert_eq!(parse_tour("t", labelled, &b).unwrap_or_default(), names);
        let report = "Found it.\n\nTour: a1 c2 a3 b1 c3 a2\n";
        assert_eq!(parse_tour("t", report, &b).unwrap_or_default(), names);
        let json = parse_tour(
            "t",
            r#"{"status":"found","squares":["a1","c2","a3","b1","c3","a2"]}"#,
            &b,
        )
        .unwrap_or_default();
        assert_eq!(json, names);
    }

    #[test]
    fn a_bad_square_is_shown_where_it_is_written() {
        let e = parse_tour("t", "a1 b3\nz9 c1", &board()).err();
        let e = e.map(|e| (e.line, e.col, e.width));
        assert_eq!(e, Some((2, 1, 2)));
        let e = parse_tour("t", "1 . .\n. 2 .\n. . 2\n. . .", &board()).err();
        assert!(e.is_some_and(|e| e.message.contains("step 2 is written twice")));
        let e = parse_tour("t", "1 . .\n. 3 .\n. . .\n. . .", &board()).err();
        assert!(e.is_some_and(|e| e.message.contains("step 2 is missing")));
    }
}
