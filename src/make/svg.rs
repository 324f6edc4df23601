//! The printable pictures of a made puzzle, as SVG: the blank puzzle (the
//! grid, removed squares shaded, the clues' numbers on their squares) and
//! its solution (a number on every square, the clues in bold, the path
//! drawn lightly beneath). Every number is a `<text>` element with the
//! square's name in `data-square`, so a program can read the picture back.

use std::io::{self, Write};

use crate::model::{Board, Cell, Letters, file_name};
use crate::render::svg::escape;

/// Units per square.
const CELL: i64 = 40;
/// Room for the rank numbers left of the board and above it.
const LEFT: i64 = 40;
const TOP: i64 = 20;

/// What the picture shows besides the board.
pub struct Legend<'a> {
    /// The first line under the board.
    pub title: &'a str,
    /// The second.
    pub subtitle: &'a str,
}

/// Writes the blank puzzle: `board` with `clues` (`(step, square)`).
pub fn write_puzzle<W: Write>(
    w: &mut W,
    board: &Board,
    clues: &[(u32, u32)],
    caption: &Legend<'_>,
) -> io::Result<()> {
    let mut steps = vec![0u32; board.len()];
    for &(k, s) in clues {
        steps[s as usize] = k;
    }
    picture(w, board, &steps, &steps, None, None, caption)
}

/// Writes the solution: `tour` on `board`, the squares of `clues` in bold.
pub fn write_solution<W: Write>(
    w: &mut W,
    board: &Board,
    tour: &[u32],
    clues: &[(u32, u32)],
    closed: bool,
    caption: &Legend<'_>,
) -> io::Result<()> {
    let mut given = vec![0u32; board.len()];
    for &(k, s) in clues {
        given[s as usize] = k;
    }
    let mut steps = vec![0u32; board.len()];
    for (i, &s) in tour.iter().enumerate() {
        steps[s as usize] = i as u32 + 1;
    }
    picture(
        w,
        board,
        &steps,
        &given,
        Some((tour, closed)),
        None,
        caption,
    )
}

/// Writes a blank word puzzle: `board` with each square's unit of
/// `letters`, and step 1 on `start` when it is given.
pub fn write_words<W: Write>(
    w: &mut W,
    board: &Board,
    letters: &Letters,
    start: Option<u32>,
    caption: &Legend<'_>,
) -> io::Result<()> {
    let mut steps = vec![0u32; board.len()];
    if let Some(s) = start {
        steps[s as usize] = 1;
    }
    picture(w, board, &steps, &steps, None, Some(letters), caption)
}

/// Writes a word puzzle's solution: each square's unit with its step in
/// the corner, `start` (given) in bold, the path drawn beneath.
pub fn write_words_solution<W: Write>(
    w: &mut W,
    board: &Board,
    letters: &Letters,
    tour: &[u32],
    start: Option<u32>,
    closed: bool,
    caption: &Legend<'_>,
) -> io::Result<()> {
    let mut steps = vec![0u32; board.len()];
    for (i, &s) in tour.iter().enumerate() {
        steps[s as usize] = i as u32 + 1;
    }
    let mut given = vec![0u32; board.len()];
    if let Some(s) = start {
        given[s as usize] = 1;
    }
    picture(
        w,
        board,
        &steps,
        &given,
        Some((tour, closed)),
        Some(letters),
        caption,
    )
}

/// The picture: `steps` (0: no number) on the squares, those in `given` in
/// bold, `path` drawn beneath; with `letters`, each square's unit in the
/// middle and its step, if any, small in the top left corner.
fn picture<W: Write>(
    w: &mut W,
    board: &Board,
    steps: &[u32],
    given: &[u32],
    path: Option<(&[u32], bool)>,
    letters: Option<&Letters>,
    caption: &Legend<'_>,
) -> io::Result<()> {
    let (cols, rows) = (i64::from(board.width()), i64::from(board.height()));
    let (bw, bh) = (cols * CELL, rows * CELL);
    let width = (LEFT + bw + 20).max(320);
    // The subtitle wrapped to the picture's width, a line of 16 units each.
    let lines = super::sheet::wrap(caption.subtitle, 12.0, (width - 20) as f32);
    let height = TOP + bh + 30 + 22 + 16 * lines.len().max(1) as i64 + 16;
    let corner = |c: Cell| {
        (
            LEFT + i64::from(c.x) * CELL,
            TOP + (rows - 1 - i64::from(c.y)) * CELL,
        )
    };
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    )?;
    writeln!(w, "<title>{}</title>", escape(caption.title))?;
    writeln!(
        w,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    )?;
    // Squares: white; removed ones shaded.
    for y in 0..board.height() {
        for x in 0..board.width() {
            let c = Cell::new(x, y);
            let (x0, y0) = corner(c);
            let fill = if board.is_square(c) {
                "#ffffff"
            } else {
                "#8c8c8c"
            };
            writeln!(
                w,
                r##"<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#333333" stroke-width="1"/>"##
            )?;
        }
    }
    writeln!(
        w,
        r##"<rect x="{LEFT}" y="{TOP}" width="{bw}" height="{bh}" fill="none" stroke="#000000" stroke-width="2"/>"##
    )?;
    // The path, light, under the numbers.
    if let Some((tour, closed)) = path {
        let centre = |s: u32| {
            let (x0, y0) = corner(board.cell(s));
            (x0 + CELL / 2, y0 + CELL / 2)
        };
        let mut d = String::new();
        let mut pen = None;
        let moves = tour.windows(2).map(|m| (m[0], m[1]));
        let closing = (closed && tour.len() > 2)
            .then(|| (tour[tour.len() - 1], tour[0]))
            .into_iter();
        for (a, b) in moves.chain(closing) {
            // A move across a wrapping edge is left out: drawn straight it
            // would cross the board.
            let (ca, cb) = (board.cell(a), board.cell(b));
            let direct = (
                i64::from(cb.x) - i64::from(ca.x),
                i64::from(cb.y) - i64::from(ca.y),
            );
            if board.shortest_vector(ca, cb) != direct {
                pen = None;
                continue;
            }
            let (p, q) = (centre(a), centre(b));
            if pen != Some(p) {
                d.push_str(&format!("M{} {}", p.0, p.1));
            }
            d.push_str(&format!("L{} {}", q.0, q.1));
            pen = Some(q);
        }
        writeln!(
            w,
            r##"<path class="path" d="{d}" fill="none" stroke="#9db8d9" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>"##
        )?;
    }
    if let Some(letters) = letters {
        // The units, large, each in the middle of its square.
        let widest = letters
            .written
            .iter()
            .map(|u| u.chars().count())
            .max()
            .unwrap_or(1) as i64;
        let size = (CELL * 10 / (6 * widest.max(1) + 6)).min(22);
        for s in 0..board.len() as u32 {
            let unit = &letters.written[s as usize];
            if unit.is_empty() {
                continue;
            }
            let (x0, y0) = corner(board.cell(s));
            writeln!(
                w,
                r##"<text class="unit" data-square="{}" x="{}" y="{}" font-size="{size}" fill="#000000" text-anchor="middle" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
                board.name(s),
                x0 + CELL / 2,
                y0 + CELL / 2 + size * 7 / 20,
                escape(&unit.to_uppercase())
            )?;
        }
    }
    // The numbers; small in a corner beside the units.
    let digits = board.len().to_string().len() as i64;
    let size = (CELL * 10 / (6 * digits + 6)).min(20);
    let size = if letters.is_some() {
        size.min(11)
    } else {
        size
    };
    for s in 0..board.len() as u32 {
        let k = steps[s as usize];
        if k == 0 {
            continue;
        }
        let c = board.cell(s);
        let (x0, y0) = corner(c);
        let bold = given[s as usize] == k;
        let (class, weight, colour) = if bold {
            ("clue", "bold", "#000000")
        } else {
            ("step", "normal", "#555555")
        };
        let (x, y, anchor) = if letters.is_some() {
            (x0 + 3, y0 + size, "start")
        } else {
            (x0 + CELL / 2, y0 + CELL / 2 + size * 7 / 20, "middle")
        };
        writeln!(
            w,
            r##"<text class="{class}" data-square="{}" x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{colour}" text-anchor="{anchor}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{k}</text>"##,
            board.name(s),
        )?;
    }
    // File letters under the board, rank numbers left of it.
    writeln!(
        w,
        r##"<g font-size="12" fill="#6e7686" text-anchor="middle">"##
    )?;
    for x in 0..board.width() {
        let (x0, _) = corner(Cell::new(x, 0));
        writeln!(
            w,
            r#"<text x="{}" y="{}">{}</text>"#,
            x0 + CELL / 2,
            TOP + bh + 16,
            file_name(x)
        )?;
    }
    for y in 0..board.height() {
        let (_, y0) = corner(Cell::new(0, y));
        writeln!(
            w,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            LEFT - 6,
            y0 + CELL / 2 + 4,
            y + 1
        )?;
    }
    writeln!(w, "</g>")?;
    let y = TOP + bh + 30;
    writeln!(
        w,
        r##"<text x="10" y="{}" font-size="16" fill="#1e2430">{}</text>"##,
        y + 16,
        escape(caption.title)
    )?;
    for (i, line) in lines.iter().enumerate() {
        writeln!(
            w,
            r##"<text x="10" y="{}" font-size="12" fill="#5a6272">{}</text>"##,
            y + 38 + 16 * i as i64,
            escape(line)
        )?;
    }
    writeln!(w, "</svg>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blank_puzzle_shows_the_clues_only() {
        let board = Board::rectangle(3, 3);
        let mut out = Vec::new();
        let caption = Legend {
            title: "a <b>",
            subtitle: "c",
        };
        let Ok(()) = write_puzzle(&mut out, &board, &[(1, 0), (9, 8)], &caption) else {
            panic!("written")
        };
        let text = String::from_utf8(out).unwrap_or_default();
        assert_eq!(text.matches("<text class=\"clue\"").count(), 2);
        assert!(text.contains(r#"data-square="c3""#));
        assert!(text.contains("a &lt;b&gt;"));
        assert!(!text.contains("class=\"path\""));
    }
}
