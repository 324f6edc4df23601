//! The tour as a still SVG picture, for print (`run --svg OUT.svg`): the
//! board and its labels, the path as one vector path, a dot and the step
//! number on every square, and the caption.
//!
//! The board is drawn in units of [`CELL`] per square; the picture scales
//! to any size. Boards over [`SQUARES_MAX_SIDE`] squares a side get the
//! path alone (no dots, no numbers), so a 1000x1000 tour stays one path of
//! a million points rather than millions of elements.

use std::io::Write;

use crate::halt::{Halt, Stop};
use crate::model::{Board, Cell, file_name};
use crate::render::gif::{GifError, SQUARES_MAX_SIDE, Scene};

/// Squares written between two looks at the halt.
const LOOK_EVERY: usize = 1 << 16;

/// Units per square.
pub const CELL: i64 = 40;
/// Where the board's top-left corner is on `board`'s picture: room for the
/// rank numbers left of it (`(40, 20)` on boards of up to 64 squares a
/// side, more where the labels are larger).
pub fn origin(board: &Board) -> (i64, i64) {
    let label = label_size(board);
    let digits = board.height().to_string().len() as i64;
    ((label * 6 * digits / 10 + label).max(40), 20)
}

/// The labels' font size: larger on large boards, where they are spaced
/// out.
fn label_size(board: &Board) -> i64 {
    let side = i64::from(board.width().max(board.height()));
    if side <= i64::from(SQUARES_MAX_SIDE) {
        14
    } else {
        14 * (side / 32).clamp(1, 8)
    }
}
/// The caption's font size; its characters are about 0.6 of it wide.
const TITLE_SIZE: i64 = 18;
const SUBTITLE_SIZE: i64 = 13;

/// Writes `tour` in `scene` as an SVG picture. A closed scene adds the
/// closing move, dashed. Moves that cross a wrapping edge leave the board
/// on one side and come back in on the other, as in the GIFs: the path is
/// broken there (a new `M` in its `d`).
///
/// `halt` is looked at as the board and the path are written (every
/// `LOOK_EVERY` squares): a stop ends the writing with
/// [`GifError::Stopped`].
pub fn write_svg<W: Write>(
    w: &mut W,
    scene: &Scene,
    tour: &[u32],
    halt: &impl Halt<Stop = Stop>,
) -> Result<(), GifError> {
    let look = |i: usize| {
        if i.is_multiple_of(LOOK_EVERY) {
            halt.check().map_err(GifError::Stopped)
        } else {
            Ok(())
        }
    };
    let board = scene.board;
    let (cols, rows) = (i64::from(board.width()), i64::from(board.height()));
    let (bw, bh) = (cols * CELL, rows * CELL);
    let small = board.width().max(board.height()) <= SQUARES_MAX_SIDE;
    // Labels every `step` squares on large boards.
    let step = (cols.max(rows) / 32).max(1);
    let label = label_size(board);
    let (ox, oy) = origin(board);
    let width = (bw + ox + 20).max(320);
    // The caption, wrapped to the picture's width (monospace: 0.6 em).
    let wrap_at = |size: i64| ((width - 20) * 10 / (size * 6)).max(8) as usize;
    // The caption grows with the labels on large boards, so it keeps its
    // size next to the board when the picture is scaled down.
    let (title_size, subtitle_size) = (TITLE_SIZE * label / 14, SUBTITLE_SIZE * label / 14);
    let title = wrap(&scene.title, wrap_at(title_size));
    let subtitle = wrap(&scene.subtitle, wrap_at(subtitle_size));
    let caption_y = oy + bh + label * 15 / 7;
    let height = caption_y
        + title.len() as i64 * (title_size * 4 / 3)
        + subtitle.len() as i64 * (subtitle_size * 4 / 3)
        + 12;
    let centre = |x: i64, y: i64| {
        (
            ox + x * CELL + CELL / 2,
            oy + (rows - 1 - y) * CELL + CELL / 2,
        )
    };
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">"#
    )?;
    writeln!(w, "<title>{}</title>", escape(&scene.title))?;
    writeln!(
        w,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    )?;
    // The board: light, with the dark squares (a1 is dark) as one path;
    // boards too large for squares are left light.
    writeln!(
        w,
        r##"<rect x="{ox}" y="{oy}" width="{bw}" height="{bh}" fill="#eee9da"/>"##
    )?;
    if small {
        let mut d = String::new();
        for y in 0..rows {
            for x in (0..cols).filter(|x| (x + y) % 2 == 0) {
                let (cx, cy) = centre(x, y);
                d.push_str(&format!(
                    "M{} {}h{CELL}v{CELL}h-{CELL}z",
                    cx - CELL / 2,
                    cy - CELL / 2
                ));
            }
        }
        writeln!(w, r##"<path d="{d}" fill="#c5d1b8"/>"##)?;
    }
    // Removed squares: dark, crossed.
    for y in 0..rows {
        halt.check().map_err(GifError::Stopped)?;
        for x in 0..cols {
            if board.is_square(Cell::new(x as u32, y as u32)) {
                continue;
            }
            let (cx, cy) = centre(x, y);
            let (x0, y0) = (cx - CELL / 2, cy - CELL / 2);
            let i = CELL / 5;
            writeln!(
                w,
                r##"<g class="removed"><rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="#3a3a44"/><path d="M{} {}L{} {}M{} {}L{} {}" stroke="#8a8a96" stroke-width="2"/></g>"##,
                x0 + i,
                y0 + i,
                x0 + CELL - i,
                y0 + CELL - i,
                x0 + CELL - i,
                y0 + i,
                x0 + i,
                y0 + CELL - i
            )?;
        }
    }
    // Wrapping edges: dashed.
    let topo = board.topology();
    let edge = |w: &mut W, x0: i64, y0: i64, x1: i64, y1: i64| {
        writeln!(
            w,
            r##"<path class="wrap" d="M{x0} {y0}L{x1} {y1}" stroke="#d9822b" stroke-width="4" stroke-dasharray="{} {}" stroke-dashoffset="{}"/>"##,
            CELL / 2,
            CELL / 2,
            -CELL / 4
        )
    };
    if topo.wraps_files() {
        edge(w, ox, oy, ox, oy + bh)?;
        edge(w, ox + bw, oy, ox + bw, oy + bh)?;
    }
    if topo.wraps_ranks() {
        edge(w, ox, oy, ox + bw, oy)?;
        edge(w, ox, oy + bh, ox + bw, oy + bh)?;
    }
    // File letters under the board, rank numbers left of it.
    writeln!(
        w,
        r##"<g font-size="{label}" fill="#6e7686" text-anchor="middle">"##
    )?;
    for x in (0..cols).step_by(step as usize) {
        let (cx, _) = centre(x, 0);
        writeln!(
            w,
            r#"<text x="{cx}" y="{}">{}</text>"#,
            oy + bh + label + 2,
            file_name(x as u32)
        )?;
    }
    writeln!(w, "</g>")?;
    writeln!(
        w,
        r##"<g font-size="{label}" fill="#6e7686" text-anchor="end">"##
    )?;
    for y in (0..rows).step_by(step as usize) {
        let (_, cy) = centre(0, y);
        writeln!(
            w,
            r#"<text x="{}" y="{}">{}</text>"#,
            ox - 6,
            cy + label * 7 / 20,
            y + 1
        )?;
    }
    writeln!(w, "</g>")?;
    // The path, and the closing move.
    let stroke = if small { 3 } else { CELL / 8 };
    let mut d = String::new();
    let mut pen: Option<(f64, f64)> = None;
    for (i, m) in tour.windows(2).enumerate() {
        look(i)?;
        for (a, b) in segments(board, m[0], m[1], &centre)
            .into_iter()
            .filter_map(|s| clip(s, (ox, oy), (ox + bw, oy + bh)))
        {
            if pen != Some(a) {
                d.push_str(&format!("M{} {}", num(a.0), num(a.1)));
            }
            d.push_str(&format!("L{} {}", num(b.0), num(b.1)));
            pen = Some(b);
        }
    }
    if tour.len() == 1 {
        let c = board.cell(tour[0]);
        let (cx, cy) = centre(i64::from(c.x), i64::from(c.y));
        d = format!("M{cx} {cy}");
    }
    writeln!(
        w,
        r##"<path id="tour" d="{d}" fill="none" stroke="#2f6db5" stroke-width="{stroke}" stroke-linecap="round" stroke-linejoin="round"/>"##
    )?;
    if scene.closed && tour.len() > 2 {
        let mut d = String::new();
        for (a, b) in segments(board, tour[tour.len() - 1], tour[0], &centre)
            .into_iter()
            .filter_map(|s| clip(s, (ox, oy), (ox + bw, oy + bh)))
        {
            d.push_str(&format!(
                "M{} {}L{} {}",
                num(a.0),
                num(a.1),
                num(b.0),
                num(b.1)
            ));
        }
        writeln!(
            w,
            r##"<path id="closing" d="{d}" fill="none" stroke="#d63384" stroke-width="{stroke}" stroke-dasharray="6 4" stroke-linecap="round"/>"##
        )?;
    }
    // Dots and step numbers.
    if small {
        writeln!(w, r##"<g fill="#173f73">"##)?;
        for (i, &s) in tour.iter().enumerate() {
            look(i)?;
            let c = board.cell(s);
            let (cx, cy) = centre(i64::from(c.x), i64::from(c.y));
            writeln!(w, r#"<circle cx="{cx}" cy="{cy}" r="3.5"/>"#)?;
        }
        writeln!(w, "</g>")?;
        let digits = tour.len().to_string().len() as i64;
        // Numbers in the top-left corner, as wide as the square allows.
        let size = (CELL * 10 / (6 * digits + 4)).min(12);
        // A white halo keeps the numbers readable over the path.
        writeln!(
            w,
            r##"<g font-size="{size}" fill="#1e2430" stroke="#ffffff" stroke-width="2.5" stroke-linejoin="round" paint-order="stroke">"##
        )?;
        for (i, &s) in tour.iter().enumerate() {
            let c = board.cell(s);
            let (cx, cy) = centre(i64::from(c.x), i64::from(c.y));
            writeln!(
                w,
                r#"<text x="{}" y="{}">{}</text>"#,
                cx - CELL / 2 + 2,
                cy - CELL / 2 + size,
                i + 1
            )?;
        }
        writeln!(w, "</g>")?;
    }
    // The caption.
    let mut y = caption_y;
    for line in &title {
        y += title_size;
        writeln!(
            w,
            r##"<text x="10" y="{y}" font-size="{title_size}" fill="#1e2430">{}</text>"##,
            escape(line)
        )?;
        y += title_size / 3;
    }
    for line in &subtitle {
        y += subtitle_size;
        writeln!(
            w,
            r##"<text x="10" y="{y}" font-size="{subtitle_size}" fill="#5a6272">{}</text>"##,
            escape(line)
        )?;
        y += subtitle_size / 3;
    }
    writeln!(w, "</svg>")?;
    Ok(())
}

/// A line between two points, in picture units.
type Segment = ((f64, f64), (f64, f64));

/// The move `a -> b` as drawn: one line, or two when it crosses a wrapping
/// edge (out of one side towards `b`'s place beyond it, in from `a`'s place
/// beyond the other).
fn segments(
    board: &Board,
    a: u32,
    b: u32,
    centre: &impl Fn(i64, i64) -> (i64, i64),
) -> Vec<Segment> {
    let (ca, cb) = (board.cell(a), board.cell(b));
    let (ax, ay, bx, by) = (
        i64::from(ca.x),
        i64::from(ca.y),
        i64::from(cb.x),
        i64::from(cb.y),
    );
    let f = |(x, y): (i64, i64)| (x as f64, y as f64);
    let (dx, dy) = board.shortest_vector(ca, cb);
    if (ax + dx, ay + dy) == (bx, by) {
        vec![(f(centre(ax, ay)), f(centre(bx, by)))]
    } else {
        let (ex, ey) = board.shortest_vector(cb, ca);
        vec![
            (f(centre(ax, ay)), f(centre(ax + dx, ay + dy))),
            (f(centre(bx + ex, by + ey)), f(centre(bx, by))),
        ]
    }
}

/// The part of segment `s` inside the rectangle `lo..hi` (Liang-Barsky),
/// clipped here rather than by the SVG, which not every renderer honours.
fn clip(s: Segment, lo: (i64, i64), hi: (i64, i64)) -> Option<Segment> {
    let ((x0, y0), (x1, y1)) = s;
    let (dx, dy) = (x1 - x0, y1 - y0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, x0 - lo.0 as f64),
        (dx, hi.0 as f64 - x0),
        (-dy, y0 - lo.1 as f64),
        (dy, hi.1 as f64 - y0),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some(((x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy)))
}

/// A coordinate as written: whole numbers without a fraction, else two
/// decimals.
fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// The most lines of the caption's title or subtitle: a longer one is cut
/// with `...` (a picture shows no more).
const CAPTION_LINES: usize = 3;

/// `text` in at most [`CAPTION_LINES`] lines of at most `width` characters,
/// broken at spaces where there are any (a longer word is broken inside);
/// text past the last line is left out, and the line ends in `...`.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(4);
    let mut lines: Vec<String> = Vec::new();
    let mut line: Vec<char> = Vec::new();
    let mut cut = false;
    'words: for word in text.split(' ') {
        let mut word = word.chars();
        let mut rest: Vec<char> = Vec::new();
        loop {
            // As much of the word as a line can hold, and no more.
            rest.extend(word.by_ref().take(width + 1 - rest.len().min(width + 1)));
            let gap = usize::from(!line.is_empty());
            if line.len() + gap + rest.len() <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.append(&mut rest);
                break;
            }
            if lines.len() + 1 >= CAPTION_LINES {
                if line.is_empty() {
                    line = rest;
                }
                cut = true;
                break 'words;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line).into_iter().collect());
                continue;
            }
            let tail = rest.split_off(width);
            lines.push(rest.into_iter().collect());
            rest = tail;
        }
    }
    if cut {
        // The last line, its end making room for `...`.
        line.truncate(width - 3);
        while line.last() == Some(&' ') {
            line.pop();
        }
        line.extend("...".chars());
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line.into_iter().collect());
    }
    lines
}

/// `s` with the characters XML gives meaning to escaped, and control
/// characters (which XML does not allow) written as `\u{..}`.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_wrap_and_escape() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        // A caption longer than its lines is cut, in time linear in what
        // is shown.
        let long = "x".repeat(1_000_000);
        let lines = wrap(&long, 10);
        assert_eq!(lines.len(), CAPTION_LINES);
        assert_eq!(lines[2], "xxxxxxx...");
        let words = "word ".repeat(200_000);
        let lines = wrap(&words, 12);
        assert_eq!(lines, ["word word", "word word", "word word..."]);
        assert_eq!(wrap("a b c d e f g h", 4), ["a b", "c d", "e..."]);
        assert_eq!(
            escape("a<b & \"c\"\u{1b}"),
            "a&lt;b &amp; &quot;c&quot;\\u{1b}"
        );
    }

    #[test]
    fn clipping_keeps_the_part_inside() {
        let s = ((-10.0, 5.0), (10.0, 5.0));
        assert_eq!(clip(s, (0, 0), (20, 20)), Some(((0.0, 5.0), (10.0, 5.0))));
        assert_eq!(clip(((30.0, 5.0), (40.0, 5.0)), (0, 0), (20, 20)), None);
    }
}
