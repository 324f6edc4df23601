//! Where everything goes in the image: the style and size picked for a
//! board, square and centre positions, and the pixel rectangles drawing
//! works in.

use crate::model::{Board, Cell};

use super::font::{CAPTION_LINES, text_width, wrap};
use super::{GifInfo, Style};

/// Boards with more squares than this on a side are drawn path-only.
pub const SQUARES_MAX_SIDE: u32 = 64;
/// The largest side, in pixels, of the board in the squares style.
const SQUARES_MAX_PX: u32 = 4096;
/// The side, in pixels, path-only boards are scaled to (at most).
const PATH_ONLY_PX: u32 = 1024;
/// Narrower boards are centred on an image this wide, for the caption.
const MIN_WIDTH: u32 = 256;

/// A rectangle of pixels, half-open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rect {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) x1: i64,
    pub(super) y1: i64,
}

impl Rect {
    pub(super) const EMPTY: Rect = Rect {
        x0: i64::MAX,
        y0: i64::MAX,
        x1: i64::MIN,
        y1: i64::MIN,
    };
    pub(super) fn new(x0: i64, y0: i64, x1: i64, y1: i64) -> Rect {
        Rect { x0, y0, x1, y1 }
    }
    pub(super) fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
    pub(super) fn union(self, o: Rect) -> Rect {
        if o.is_empty() {
            return self;
        }
        if self.is_empty() {
            return o;
        }
        Rect::new(
            self.x0.min(o.x0),
            self.y0.min(o.y0),
            self.x1.max(o.x1),
            self.y1.max(o.y1),
        )
    }
    pub(super) fn meet(self, o: Rect) -> Rect {
        let r = Rect::new(
            self.x0.max(o.x0),
            self.y0.max(o.y0),
            self.x1.min(o.x1),
            self.y1.min(o.y1),
        );
        if r.is_empty() { Rect::EMPTY } else { r }
    }
    pub(super) fn around(a: (i64, i64), b: (i64, i64), by: i64) -> Rect {
        Rect::new(
            a.0.min(b.0) - by,
            a.1.min(b.1) - by,
            a.0.max(b.0) + by + 1,
            a.1.max(b.1) + by + 1,
        )
    }
}

/// What a GIF's caption holds, for sizing the image.
#[derive(Clone, Copy, Debug)]
pub struct Caption<'c> {
    /// The first line (the puzzle's name), wrapped, never cut.
    pub title: &'c str,
    /// The second (piece, board, kind of tour), wrapped, never cut.
    pub subtitle: &'c str,
    /// Lines of status text that change from frame to frame.
    pub status_lines: usize,
    /// Whether a depth-over-time strip goes under the board.
    pub strip: bool,
}

/// Board labels: every `files`-th file letter under the board and every
/// `ranks`-th rank number left of it, at `scale`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Labels {
    pub(super) scale: i64,
    pub(super) files: i64,
    pub(super) ranks: i64,
    /// Where the file letters' tops are.
    pub(super) file_y: i64,
    /// Where the rank numbers' right edges are.
    pub(super) rank_x: i64,
}

/// Where everything goes in the image.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Drawing style.
    pub style: Style,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    pub(super) cols: i64,
    pub(super) rows: i64,
    /// Pixels per square: `num / den`.
    pub(super) num: i64,
    pub(super) den: i64,
    pub(super) ox: i64,
    pub(super) oy: i64,
    pub(super) board: Rect,
    pub(super) labels: Option<Labels>,
    /// The depth strip (empty when there is none).
    pub(super) strip: Rect,
    /// Scale of the status lines.
    pub(super) status_scale: i64,
    pub(super) status_y: i64,
    pub(super) status_lines: usize,
    pub(super) title: Vec<String>,
    pub(super) title_y: i64,
    pub(super) subtitle: Vec<String>,
    pub(super) subtitle_y: i64,
}

/// The height of a line of text at `scale`.
pub(super) fn line_height(scale: i64) -> i64 {
    10 * scale
}

/// The smallest of 1, 2, 5, 10, 20, 50, … at least `x`.
fn nice(x: f64) -> i64 {
    let mut k = 1i64;
    loop {
        for m in [1, 2, 5] {
            if (k * m) as f64 >= x {
                return k * m;
            }
        }
        k *= 10;
    }
}

impl Style {
    /// The style that stays readable on `board` at `cell` pixels a square:
    /// step numbers when they fit, else the path over the squares, else
    /// (small squares, or boards over [`SQUARES_MAX_SIDE`] a side) the path
    /// coloured by step.
    pub fn readable(board: &Board, cell: u32) -> Style {
        let side = board.width().max(board.height());
        if side > SQUARES_MAX_SIDE {
            return Style::Gradient;
        }
        let cell = Layout::board_cell(board, cell);
        if cell >= Layout::numbers_need(board) {
            Style::Numbers
        } else if cell >= 12 {
            Style::Path
        } else {
            Style::Gradient
        }
    }
}

impl Layout {
    /// What a GIF of `frames` frames in this layout is.
    pub(super) fn info(&self, frames: usize) -> GifInfo {
        GifInfo {
            frames,
            width: self.width,
            height: self.height,
            style: self.style,
        }
    }

    /// The pixels a square of `board` gets when `cell` is asked for (boards
    /// over [`SQUARES_MAX_SIDE`] a side may get less than one; this rounds
    /// down to whole pixels).
    pub fn board_cell(board: &Board, cell: u32) -> u32 {
        let side = board.width().max(board.height()).max(1);
        let cell = cell.max(1);
        if side <= SQUARES_MAX_SIDE {
            cell.min(SQUARES_MAX_PX / side).max(1)
        } else {
            cell.min(PATH_ONLY_PX / side)
        }
    }

    /// The least cell, in pixels, at which step numbers fit on `board`.
    pub fn numbers_need(board: &Board) -> u32 {
        let digits = board.len().max(1).to_string().len() as u32;
        // Seven pixels a digit and a margin; room left for the path.
        (digits * 7 + 6).max(20)
    }

    /// The layout of `board` at `cell` pixels per square in `style`, with
    /// room for `caption`.
    pub fn new(board: &Board, cell: u32, style: Style, caption: &Caption) -> Layout {
        let (cols, rows) = (board.width(), board.height());
        let side = cols.max(rows).max(1);
        let cell = cell.max(1);
        let (num, den) = if side <= SQUARES_MAX_SIDE {
            (cell.min(SQUARES_MAX_PX / side).max(1), 1)
        } else if side <= PATH_ONLY_PX {
            (cell.min(PATH_ONLY_PX / side).max(1), 1)
        } else {
            (PATH_ONLY_PX, side)
        };
        let (num, den) = (i64::from(num), i64::from(den));
        let px = num as f64 / den as f64;
        // At least a pixel each way, however long and thin the board.
        let bw = (i64::from(cols) * num / den).max(1);
        let bh = (i64::from(rows) * num / den).max(1);
        let pad = 6;
        let ls: i64 = if px >= 40.0 { 2 } else { 1 };
        let widest_rank = text_width(&rows.to_string(), ls);
        let widest_file = text_width(&crate::model::file_name(cols.saturating_sub(1)), ls);
        let files = nice((widest_file + 6) as f64 / px);
        let ranks = nice((8 * ls + 4) as f64 / px);
        let lm = widest_rank + 2 * pad;
        let rm = pad;
        let width = (lm + bw + rm).max(i64::from(MIN_WIDTH));
        let ox = lm + (width - (lm + bw + rm)) / 2;
        let oy = pad;
        let mut y = oy + bh;
        let labels = Labels {
            scale: ls,
            files,
            ranks,
            file_y: y + 4,
            rank_x: ox - pad,
        };
        y += 4 + 8 * ls + pad;
        let strip = if caption.strip {
            let r = Rect::new(ox, y, ox + bw.max(200).min(width - ox - rm), y + 36);
            y = r.y1 + pad;
            r
        } else {
            Rect::EMPTY
        };
        let status_scale = if width >= 560 { 2 } else { 1 };
        let status_y = y;
        y += caption.status_lines as i64 * line_height(status_scale);
        if caption.status_lines > 0 {
            y += pad;
        }
        let room = width - 2 * pad;
        let title = wrap(caption.title, 2, room, CAPTION_LINES);
        let title_y = y;
        y += title.len() as i64 * line_height(2);
        let subtitle = wrap(caption.subtitle, 1, room, CAPTION_LINES);
        let subtitle_y = y;
        y += subtitle.len() as i64 * line_height(1) + pad;
        Layout {
            style,
            width: width as u32,
            height: y as u32,
            cols: i64::from(cols),
            rows: i64::from(rows),
            num,
            den,
            ox,
            oy,
            board: Rect::new(ox, oy, ox + bw, oy + bh),
            labels: Some(labels),
            strip,
            status_scale,
            status_y,
            status_lines: caption.status_lines,
            title,
            title_y,
            subtitle,
            subtitle_y,
        }
    }

    /// How many characters of status text fit on a line (roughly: the
    /// widest glyphs).
    pub(super) fn status_room(&self) -> i64 {
        i64::from(self.width) - 12
    }

    /// The pixel at the centre of `cell`.
    pub fn centre(&self, cell: Cell) -> (u32, u32) {
        let (x, y) = self.centre_px(i64::from(cell.x), i64::from(cell.y));
        (x as u32, y as u32)
    }

    /// Pixels per square (fractional for very large boards).
    pub fn pixels_per_square(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn px(&self, i: i64) -> i64 {
        (i * self.num).div_euclid(self.den)
    }

    /// Centre of a cell, which may lie off the board (for wrapping moves).
    pub(super) fn centre_px(&self, x: i64, y: i64) -> (i64, i64) {
        let r = self.rows - 1 - y;
        (
            self.ox + ((2 * x + 1) * self.num).div_euclid(2 * self.den),
            self.oy + ((2 * r + 1) * self.num).div_euclid(2 * self.den),
        )
    }

    pub(super) fn cell_rect(&self, x: i64, y: i64) -> Rect {
        let r = self.rows - 1 - y;
        Rect::new(
            self.ox + self.px(x),
            self.oy + self.px(r),
            self.ox + self.px(x + 1),
            self.oy + self.px(r + 1),
        )
    }

    /// The cells whose drawing may touch `r`: columns and ranks, inclusive.
    pub(super) fn cells_in(&self, r: Rect) -> Option<(i64, i64, i64, i64)> {
        if r.is_empty() {
            return None;
        }
        let col = |p: i64| ((p - self.ox) * self.den).div_euclid(self.num);
        let row = |p: i64| ((p - self.oy) * self.den).div_euclid(self.num);
        let (c0, c1) = ((col(r.x0) - 1).max(0), (col(r.x1) + 1).min(self.cols - 1));
        let (r0, r1) = ((row(r.y0) - 1).max(0), (row(r.y1) + 1).min(self.rows - 1));
        if c0 > c1 || r0 > r1 {
            return None;
        }
        Some((c0, c1, self.rows - 1 - r1, self.rows - 1 - r0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caption() -> Caption<'static> {
        Caption {
            title: "A title",
            subtitle: "a subtitle",
            status_lines: 0,
            strip: false,
        }
    }

    #[test]
    fn layouts_size_the_board_and_the_caption() {
        let small = Layout::new(&Board::rectangle(8, 8), 48, Style::Numbers, &caption());
        assert_eq!(small.board.x1 - small.board.x0, 384);
        assert!(small.width > 384, "room for the rank numbers");
        let (x, y) = small.centre(Cell::new(0, 0));
        assert_eq!(
            (i64::from(x), i64::from(y)),
            (small.ox + 24, small.oy + 7 * 48 + 24)
        );
        let narrow = Layout::new(&Board::rectangle(3, 3), 48, Style::Numbers, &caption());
        assert_eq!(narrow.width, MIN_WIDTH);
        let big = Layout::new(
            &Board::rectangle(1000, 1000),
            48,
            Style::Gradient,
            &caption(),
        );
        assert_eq!(big.board.x1 - big.board.x0, 1000);
        let huge = Layout::new(
            &Board::rectangle(4096, 100),
            48,
            Style::Gradient,
            &caption(),
        );
        assert_eq!(huge.board.x1 - huge.board.x0, i64::from(PATH_ONLY_PX));
        // A long title wraps instead of being cut.
        let long = Caption {
            title: "A puzzle with a rather long name that cannot fit on one line",
            ..caption()
        };
        let wrapped = Layout::new(&Board::rectangle(8, 8), 48, Style::Numbers, &long);
        assert!(wrapped.title.len() >= 2 && wrapped.height > small.height);
        assert!(!wrapped.title.concat().contains("..."));
    }

    #[test]
    fn the_readable_style_follows_the_cell() {
        let b = Board::rectangle(8, 8);
        assert_eq!(Style::readable(&b, 48), Style::Numbers);
        assert_eq!(Style::readable(&b, 16), Style::Path);
        assert_eq!(Style::readable(&b, 8), Style::Gradient);
        let b = Board::rectangle(30, 30);
        assert_eq!(Style::readable(&b, 28), Style::Numbers);
        assert_eq!(Style::readable(&b, 24), Style::Path);
        assert_eq!(
            Style::readable(&Board::rectangle(65, 65), 48),
            Style::Gradient
        );
    }
}
