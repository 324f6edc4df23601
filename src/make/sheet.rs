//! A sheet of made puzzles to print: pages of blank puzzles, each page with
//! a legend of the piece's moves and the rule, then pages of their
//! solutions — as one SVG (the pages one under another) or as a PDF of A4
//! pages. Both are drawn from the same list of marks, so they agree; every
//! number in the SVG is a `<text>` with its square in `data-square` and its
//! puzzle in `data-puzzle`, so a program can read the sheet back.

use std::io::{self, Write};

use crate::model::{Board, Cell, Piece, file_name};
use crate::render::svg::escape;

/// One made puzzle on a sheet.
pub struct Entry<'a> {
    /// Its name, as its file gives it.
    pub title: String,
    /// The board.
    pub board: &'a Board,
    /// Its clues: `(step, square)`.
    pub clues: &'a [(u32, u32)],
    /// Its one tour.
    pub tour: &'a [u32],
    /// Its difficulty band, by name.
    pub band: &'static str,
}

/// What a sheet shows: a title, the piece (spelled so that a solver can
/// read it), its moves for the legend, the goal, and the puzzles.
pub struct Sheet<'a> {
    /// The first line of every page.
    pub title: String,
    /// The piece, as a solver reads it.
    pub piece: String,
    /// Its moves, drawn in the legend.
    pub moves: &'a Piece,
    /// Whether the tours are closed.
    pub closed: bool,
    /// The puzzles, in order.
    pub puzzles: Vec<Entry<'a>>,
}

/// A4, in points.
const PAGE_W: f32 = 595.0;
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 36.0;
/// The legend's band under the page's title.
const LEGEND_H: f32 = 112.0;
/// The smallest square worth printing numbers in, in points: boards that
/// would be drawn smaller take a page each.
const SMALLEST_CELL: f32 = 14.0;

/// A colour, as red, green and blue from 0 to 255.
#[derive(Clone, Copy)]
struct Rgb(u8, u8, u8);

const INK: Rgb = Rgb(0x1e, 0x24, 0x30);
const GREY: Rgb = Rgb(0x5a, 0x62, 0x72);
const LINE: Rgb = Rgb(0x33, 0x33, 0x33);
const SHADE: Rgb = Rgb(0x8c, 0x8c, 0x8c);
const PATH: Rgb = Rgb(0x9d, 0xb8, 0xd9);
const WHITE: Rgb = Rgb(0xff, 0xff, 0xff);
const MARKED: Rgb = Rgb(0x3b, 0x6e, 0xa8);
const RIDE: Rgb = Rgb(0xb9, 0xcd, 0xe6);

/// What a number on a square is, for the SVG's readers.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A given step (bold).
    Clue,
    /// A step of the solution.
    Step,
}

/// One thing drawn on a page, in points from the page's top left corner.
enum Mark {
    /// A rectangle, filled and/or outlined (colour and width).
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Rgb>,
        stroke: Option<(Rgb, f32)>,
    },
    /// Lines joining the points in turn.
    Path {
        points: Vec<(f32, f32)>,
        colour: Rgb,
        width: f32,
    },
    /// Text from (x, y) on its baseline, or centred on x.
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        colour: Rgb,
        centred: bool,
        text: String,
        /// A number on a square: its role, puzzle (from 1) and square.
        number: Option<(Role, usize, String)>,
    },
}

/// A page: its marks in drawing order.
struct Page {
    marks: Vec<Mark>,
}

impl Page {
    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, colour: Rgb, text: String) {
        self.marks.push(Mark::Text {
            x,
            y,
            size,
            bold,
            colour,
            centred: false,
            text,
            number: None,
        });
    }
}

/// The width of `text` in Helvetica at `size` points, near enough to
/// centre numbers and to wrap lines: digits are 0.556 em, other letters
/// taken as 0.55 em and spaces 0.28.
fn text_width(text: &str, size: f32) -> f32 {
    text.chars()
        .map(|c| if c == ' ' { 0.278 } else { 0.556 })
        .sum::<f32>()
        * size
}

/// `text` in lines no wider than `width` at `size`, broken at spaces.
pub(crate) fn wrap(text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&tried, size) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = tried;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The panels a page of puzzles on `board` holds: columns and rows.
fn grid(board: &Board, top: f32) -> (usize, usize) {
    let (cols, rows) = (board.width() as f32 + 1.0, board.height() as f32 + 1.0);
    let fits = |c: usize, r: usize| {
        let w = (PAGE_W - 2.0 * MARGIN) / c as f32;
        let h = (PAGE_H - top - MARGIN) / r as f32 - 30.0;
        (w / cols).min(h / rows) >= SMALLEST_CELL
    };
    [(2, 3), (2, 2), (1, 2), (1, 1)]
        .into_iter()
        .find(|&(c, r)| fits(c, r))
        .unwrap_or((1, 1))
}

/// The sheet's pages: the puzzles with the legend, then the solutions.
fn pages(sheet: &Sheet<'_>) -> Vec<Page> {
    let Some(first) = sheet.puzzles.first() else {
        return Vec::new();
    };
    let squares = first.board.len();
    let (pc, pr) = grid(first.board, MARGIN + 24.0 + LEGEND_H);
    let (sc, sr) = grid(first.board, MARGIN + 24.0);
    let puzzle_pages = sheet.puzzles.len().div_ceil(pc * pr);
    let solution_pages = sheet.puzzles.len().div_ceil(sc * sr);
    let total = puzzle_pages + solution_pages;
    let mut out = Vec::with_capacity(total);
    for (kind, per, (c, r)) in [
        (Role::Clue, pc * pr, (pc, pr)),
        (Role::Step, sc * sr, (sc, sr)),
    ] {
        for (chunk_no, chunk) in sheet.puzzles.chunks(per).enumerate() {
            let mut page = Page { marks: Vec::new() };
            let number = out.len() + 1;
            let what = if kind == Role::Clue {
                "puzzles"
            } else {
                "solutions"
            };
            page.text(MARGIN, MARGIN + 14.0, 14.0, true, INK, sheet.title.clone());
            page.text(
                MARGIN,
                MARGIN + 28.0,
                9.0,
                false,
                GREY,
                format!("The {what}, page {number} of {total}"),
            );
            let mut top = MARGIN + 24.0 + 12.0;
            if kind == Role::Clue {
                legend(&mut page, sheet, squares, top);
                top += LEGEND_H;
            }
            let w = (PAGE_W - 2.0 * MARGIN) / c as f32;
            let h = (PAGE_H - top - MARGIN) / r as f32;
            for (i, entry) in chunk.iter().enumerate() {
                let index = chunk_no * per + i;
                let (x, y) = (MARGIN + (i % c) as f32 * w, top + (i / c) as f32 * h);
                panel(
                    &mut page,
                    entry,
                    index + 1,
                    kind,
                    sheet.closed,
                    (x, y, w, h),
                );
            }
            out.push(page);
        }
    }
    out
}

/// The legend: the piece's moves drawn from a square, and the rule.
fn legend(page: &mut Page, sheet: &Sheet<'_>, squares: usize, top: f32) {
    // Reach: the longest leap's largest step, at most 5 (riders shown to
    // the diagram's edge), at least 2.
    let reach = sheet
        .moves
        .moves()
        .iter()
        .map(|m| m.dx.unsigned_abs().max(m.dy.unsigned_abs()))
        .max()
        .unwrap_or(1)
        .clamp(2, 5) as i32;
    let side = 2 * reach + 1;
    let size = LEGEND_H - 16.0;
    let cell = size / side as f32;
    let (x0, y0) = (MARGIN, top);
    let at = |dx: i32, dy: i32| {
        (
            x0 + (dx + reach) as f32 * cell,
            y0 + (reach - dy) as f32 * cell,
        )
    };
    let mut marked = vec![None; (side * side) as usize];
    for m in sheet.moves.moves() {
        let steps = if m.is_rider() { side } else { 1 };
        for k in 1..=steps {
            let (dx, dy) = (m.dx * k, m.dy * k);
            if dx.abs() > reach || dy.abs() > reach {
                break;
            }
            let slot = ((dy + reach) * side + dx + reach) as usize;
            let colour = if k == 1 { MARKED } else { RIDE };
            if marked[slot].is_none() || k == 1 {
                marked[slot] = Some(colour);
            }
        }
    }
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let (x, y) = at(dx, dy);
            page.marks.push(Mark::Rect {
                x,
                y,
                w: cell,
                h: cell,
                fill: Some(WHITE),
                stroke: Some((SHADE, 0.5)),
            });
            let slot = ((dy + reach) * side + dx + reach) as usize;
            let fill = if (dx, dy) == (0, 0) {
                Some(INK)
            } else {
                marked[slot]
            };
            if let Some(fill) = fill {
                let inset = cell * 0.2;
                page.marks.push(Mark::Rect {
                    x: x + inset,
                    y: y + inset,
                    w: cell - 2.0 * inset,
                    h: cell - 2.0 * inset,
                    fill: Some(fill),
                    stroke: None,
                });
            }
        }
    }
    let tx = x0 + size + 18.0;
    let width = PAGE_W - MARGIN - tx;
    let rides = sheet.moves.moves().iter().any(|m| m.is_rider());
    let mut lines = wrap(&format!("The piece: {}", sheet.piece), 11.0, width);
    let moves_said = if rides {
        "From the dark square it moves to each blue one; the pale ones go on along the line, as far as the board lets it."
    } else {
        "From the dark square it moves to each blue one."
    };
    let rule = format!(
        "Write the steps 1 to {squares} on the squares so that each step is one move from the step before{}. The bold numbers are given; each puzzle has one solution.",
        if sheet.closed {
            ", and the last one move from the first"
        } else {
            ""
        }
    );
    let first_lines = lines.len();
    lines.extend(wrap(moves_said, 9.5, width));
    lines.extend(wrap(&rule, 9.5, width));
    let mut y = top + 12.0;
    for (i, line) in lines.into_iter().enumerate() {
        let (size, bold) = if i < first_lines {
            (11.0, true)
        } else {
            (9.5, false)
        };
        page.text(tx, y, size, bold, INK, line);
        y += size + 4.0;
    }
}

/// One puzzle (or its solution) in the box (x, y, w, h).
fn panel(
    page: &mut Page,
    entry: &Entry<'_>,
    number: usize,
    kind: Role,
    closed: bool,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    let board = entry.board;
    page.text(
        x,
        y + 12.0,
        11.0,
        true,
        INK,
        format!("{number}. {}", entry.title),
    );
    page.text(
        x,
        y + 24.0,
        8.5,
        false,
        GREY,
        format!(
            "{} on {}: {} {}, {}",
            if kind == Role::Clue {
                "To solve"
            } else {
                "Solution"
            },
            board.describe(),
            entry.clues.len(),
            if entry.clues.len() == 1 {
                "clue"
            } else {
                "clues"
            },
            entry.band
        ),
    );
    let (cols, rows) = (board.width() as f32, board.height() as f32);
    let label = 12.0;
    let cell = ((w - label - 12.0) / cols).min((h - 34.0 - label - 10.0) / rows);
    let (bx, by) = (x + label, y + 32.0);
    let corner = |c: Cell| {
        (
            bx + c.x as f32 * cell,
            by + (rows - 1.0 - c.y as f32) * cell,
        )
    };
    for yy in 0..board.height() {
        for xx in 0..board.width() {
            let c = Cell::new(xx, yy);
            let (cx, cy) = corner(c);
            page.marks.push(Mark::Rect {
                x: cx,
                y: cy,
                w: cell,
                h: cell,
                fill: Some(if board.is_square(c) { WHITE } else { SHADE }),
                stroke: Some((LINE, 0.5)),
            });
        }
    }
    page.marks.push(Mark::Rect {
        x: bx,
        y: by,
        w: cols * cell,
        h: rows * cell,
        fill: None,
        stroke: Some((INK, 1.2)),
    });
    let centre = |s: u32| {
        let (cx, cy) = corner(board.cell(s));
        (cx + cell / 2.0, cy + cell / 2.0)
    };
    let mut steps = vec![0u32; board.len()];
    let mut given = vec![false; board.len()];
    for &(k, s) in entry.clues {
        steps[s as usize] = k;
        given[s as usize] = true;
    }
    if kind == Role::Step {
        // The path, light, under the numbers; a move across a wrapping
        // edge breaks it (drawn straight it would cross the board).
        let mut run: Vec<(f32, f32)> = Vec::new();
        let closing = (closed && entry.tour.len() > 2)
            .then(|| (entry.tour[entry.tour.len() - 1], entry.tour[0]));
        let moves = entry.tour.windows(2).map(|m| (m[0], m[1])).chain(closing);
        for (a, b) in moves {
            let (ca, cb) = (board.cell(a), board.cell(b));
            let direct = (
                i64::from(cb.x) - i64::from(ca.x),
                i64::from(cb.y) - i64::from(ca.y),
            );
            if board.shortest_vector(ca, cb) != direct {
                flush(page, &mut run);
                continue;
            }
            if run.last() != Some(&centre(a)) {
                flush(page, &mut run);
                run.push(centre(a));
            }
            run.push(centre(b));
        }
        flush(page, &mut run);
        for (i, &s) in entry.tour.iter().enumerate() {
            steps[s as usize] = i as u32 + 1;
        }
    }
    let digits = board.len().to_string().len() as f32;
    let size = (cell * 0.5)
        .min(cell * 1.5 / (digits * 0.556 + 0.4))
        .min(16.0);
    for s in 0..board.len() as u32 {
        let k = steps[s as usize];
        if k == 0 {
            continue;
        }
        let (cx, cy) = centre(s);
        let bold = given[s as usize];
        if kind == Role::Step {
            // A white ground, so that the path under it does not cross the
            // number.
            let wide = text_width(&k.to_string(), size) + size * 0.2;
            page.marks.push(Mark::Rect {
                x: cx - wide / 2.0,
                y: cy - size * 0.42,
                w: wide,
                h: size * 0.84,
                fill: Some(WHITE),
                stroke: None,
            });
        }
        page.marks.push(Mark::Text {
            x: cx,
            y: cy + size * 0.36,
            size,
            bold,
            colour: if bold { INK } else { GREY },
            centred: true,
            text: k.to_string(),
            number: Some((
                if bold { Role::Clue } else { Role::Step },
                number,
                board.name(s),
            )),
        });
    }
    // File letters under the board, rank numbers left of it.
    let small = (cell * 0.45).clamp(5.0, 8.0);
    for xx in 0..board.width() {
        let (cx, _) = corner(Cell::new(xx, 0));
        page.marks.push(Mark::Text {
            x: cx + cell / 2.0,
            y: by + rows * cell + small + 2.0,
            size: small,
            bold: false,
            colour: GREY,
            centred: true,
            text: file_name(xx),
            number: None,
        });
    }
    for yy in 0..board.height() {
        let (_, cy) = corner(Cell::new(0, yy));
        let text = (yy + 1).to_string();
        page.marks.push(Mark::Text {
            x: bx - 2.0 - text_width(&text, small),
            y: cy + cell / 2.0 + small * 0.36,
            size: small,
            bold: false,
            colour: GREY,
            centred: false,
            text,
            number: None,
        });
    }
}

/// Draws the path gathered in `run` (two points or more) and empties it.
fn flush(page: &mut Page, run: &mut Vec<(f32, f32)>) {
    if run.len() > 1 {
        page.marks.push(Mark::Path {
            points: std::mem::take(run),
            colour: PATH,
            width: 1.5,
        });
    }
    run.clear();
}

/// The gap between pages in the SVG.
const GAP: f32 = 24.0;

/// Writes the sheet as one SVG: its pages one under another, each framed.
/// The number of pages.
pub fn write_svg<W: Write>(w: &mut W, sheet: &Sheet<'_>) -> io::Result<usize> {
    let pages = pages(sheet);
    let height = pages.len() as f32 * (PAGE_H + GAP) - GAP;
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}" height="{height}" viewBox="0 0 {PAGE_W} {height}" font-family="Helvetica, Arial, DejaVu Sans, sans-serif">"#
    )?;
    writeln!(w, "<title>{}</title>", escape(&sheet.title))?;
    for (i, page) in pages.iter().enumerate() {
        let top = i as f32 * (PAGE_H + GAP);
        writeln!(
            w,
            r##"<g class="page" transform="translate(0 {top})"><rect width="{PAGE_W}" height="{PAGE_H}" fill="#ffffff" stroke="#c8ccd4"/>"##
        )?;
        for mark in &page.marks {
            svg_mark(w, mark)?;
        }
        writeln!(w, "</g>")?;
    }
    writeln!(w, "</svg>")?;
    Ok(pages.len())
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn svg_mark<W: Write>(w: &mut W, mark: &Mark) -> io::Result<()> {
    match mark {
        Mark::Rect {
            x,
            y,
            w: width,
            h,
            fill,
            stroke,
        } => {
            let fill = fill.map_or("none".to_string(), hex);
            let stroke = match stroke {
                Some((c, sw)) => format!(r#" stroke="{}" stroke-width="{sw}""#, hex(*c)),
                None => String::new(),
            };
            writeln!(
                w,
                r#"<rect x="{x}" y="{y}" width="{width}" height="{h}" fill="{fill}"{stroke}/>"#
            )
        }
        Mark::Path {
            points,
            colour,
            width,
        } => {
            let d: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
            writeln!(
                w,
                r#"<polyline class="path" points="{}" fill="none" stroke="{}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                d.join(" "),
                hex(*colour)
            )
        }
        Mark::Text {
            x,
            y,
            size,
            bold,
            colour,
            centred,
            text,
            number,
        } => {
            let weight = if *bold { r#" font-weight="bold""# } else { "" };
            let anchor = if *centred {
                r#" text-anchor="middle""#
            } else {
                ""
            };
            let data = match number {
                Some((role, puzzle, square)) => format!(
                    r#" class="{}" data-puzzle="{puzzle}" data-square="{square}""#,
                    if *role == Role::Clue { "clue" } else { "step" }
                ),
                None => String::new(),
            };
            writeln!(
                w,
                r#"<text{data} x="{x}" y="{y}" font-size="{size}"{weight}{anchor} fill="{}">{}</text>"#,
                hex(*colour),
                escape(text)
            )
        }
    }
}

/// Writes the sheet as a PDF of A4 pages, in the standard Helvetica fonts
/// (no font is embedded; characters outside Windows-1252 print as `?`).
/// The number of pages.
pub fn write_pdf<W: Write>(w: &mut W, sheet: &Sheet<'_>) -> io::Result<usize> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
    let pages = pages(sheet);
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let (regular, bold) = (Ref::new(3), Ref::new(4));
    let page_ref = |i: usize| Ref::new(5 + 2 * i as i32);
    let content_ref = |i: usize| Ref::new(6 + 2 * i as i32);
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids((0..pages.len()).map(page_ref))
        .count(pages.len() as i32);
    for (id, name) in [(regular, "Helvetica"), (bold, "Helvetica-Bold")] {
        pdf.type1_font(id)
            .base_font(Name(name.as_bytes()))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    let flip = |y: f32| PAGE_H - y;
    let colour = |c: Rgb| {
        (
            f32::from(c.0) / 255.0,
            f32::from(c.1) / 255.0,
            f32::from(c.2) / 255.0,
        )
    };
    for (i, page) in pages.iter().enumerate() {
        let mut p = pdf.page(page_ref(i));
        p.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H));
        p.parent(tree);
        p.contents(content_ref(i));
        p.resources()
            .fonts()
            .pair(Name(b"F1"), regular)
            .pair(Name(b"F2"), bold);
        p.finish();
        let mut c = Content::new();
        for mark in &page.marks {
            match mark {
                Mark::Rect {
                    x,
                    y,
                    w: width,
                    h,
                    fill,
                    stroke,
                } => {
                    if let Some(f) = fill {
                        let (r, g, b) = colour(*f);
                        c.set_fill_rgb(r, g, b);
                        c.rect(*x, flip(y + h), *width, *h);
                        c.fill_nonzero();
                    }
                    if let Some((s, sw)) = stroke {
                        let (r, g, b) = colour(*s);
                        c.set_stroke_rgb(r, g, b);
                        c.set_line_width(*sw);
                        c.rect(*x, flip(y + h), *width, *h);
                        c.stroke();
                    }
                }
                Mark::Path {
                    points,
                    colour: col,
                    width,
                } => {
                    let (r, g, b) = colour(*col);
                    c.set_stroke_rgb(r, g, b);
                    c.set_line_width(*width);
                    c.set_line_cap(pdf_writer::types::LineCapStyle::RoundCap);
                    c.set_line_join(pdf_writer::types::LineJoinStyle::RoundJoin);
                    for (k, (x, y)) in points.iter().enumerate() {
                        if k == 0 {
                            c.move_to(*x, flip(*y));
                        } else {
                            c.line_to(*x, flip(*y));
                        }
                    }
                    c.stroke();
                }
                Mark::Text {
                    x,
                    y,
                    size,
                    bold,
                    colour: col,
                    centred,
                    text,
                    ..
                } => {
                    let (r, g, b) = colour(*col);
                    let x = if *centred {
                        x - text_width(text, *size) / 2.0
                    } else {
                        *x
                    };
                    c.set_fill_rgb(r, g, b);
                    c.begin_text();
                    c.set_font(Name(if *bold { b"F2" } else { b"F1" }), *size);
                    c.next_line(x, flip(*y));
                    c.show(Str(&win_ansi(text)));
                    c.end_text();
                }
            }
        }
        pdf.stream(content_ref(i), &c.finish());
    }
    w.write_all(&pdf.finish())?;
    Ok(pages.len())
}

/// `text` in Windows-1252, the standard fonts' encoding: Latin-1 as it is,
/// the dashes, quotes and ellipsis at their places, anything else `?`.
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{ff}' => c as u8,
            '\u{2013}' => 0x96,
            '\u{2014}' => 0x97,
            '\u{2018}' => 0x91,
            '\u{2019}' => 0x92,
            '\u{201c}' => 0x93,
            '\u{201d}' => 0x94,
            '\u{2026}' => 0x85,
            '\u{2022}' => 0x95,
            _ => b'?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wrap_at_spaces_within_the_width() {
        let lines = wrap("one two three four five six seven", 10.0, 60.0);
        assert!(lines.len() > 1);
        assert!(
            lines
                .iter()
                .all(|l| text_width(l, 10.0) <= 60.0 || !l.contains(' '))
        );
        assert_eq!(lines.join(" "), "one two three four five six seven");
    }

    #[test]
    fn windows_1252_keeps_latin_1_and_the_dashes() {
        assert_eq!(win_ansi("a—é…☃"), vec![b'a', 0x97, 0xe9, 0x85, b'?']);
    }
}
