//! Where everything goes in the image: the style and size picked for a
//! board, square and centre positions, and the pixel rectangles drawing
//! works in.

use crate::model::{Board, Cell};

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
    pub(super) board: Rect,
    pub(super) text_scale: i64,
    pub(super) title_y: i64,
    pub(super) subtitle_y: i64,
    pub(super) status_y: i64,
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

    /// The layout of `board` at `cell` pixels per square, with a status
    /// line in the caption if `status` is set.
    pub fn new(board: &Board, cell: u32, status: bool) -> Layout {
        let (cols, rows) = (board.width(), board.height());
        let side = cols.max(rows).max(1);
        let cell = cell.max(1);
        let (style, num, den) = if side <= SQUARES_MAX_SIDE {
            (Style::Squares, cell.min(SQUARES_MAX_PX / side).max(1), 1)
        } else if side <= PATH_ONLY_PX {
            (Style::PathOnly, cell.min(PATH_ONLY_PX / side).max(1), 1)
        } else {
            (Style::PathOnly, PATH_ONLY_PX, side)
        };
        let (num, den) = (i64::from(num), i64::from(den));
        // At least a pixel each way, however long and thin the board.
        let bw = (i64::from(cols) * num / den).max(1);
        let bh = (i64::from(rows) * num / den).max(1);
        let width = bw.max(i64::from(MIN_WIDTH));
        let ox = (width - bw) / 2;
        let ts: i64 = if width >= 256 { 2 } else { 1 };
        let pad = 3 * ts;
        // The status line, which changes every frame, comes first: right
        // under the board, so that a frame's changed rectangle stays small.
        let status_y = bh + pad;
        let title_y = if status {
            status_y + 8 * ts + 2 * ts
        } else {
            bh + pad
        };
        let subtitle_y = title_y + 8 * ts + 2 * ts;
        let bottom = subtitle_y + 8 + pad;
        Layout {
            style,
            width: width as u32,
            height: bottom as u32,
            cols: i64::from(cols),
            rows: i64::from(rows),
            num,
            den,
            ox,
            board: Rect::new(ox, 0, ox + bw, bh),
            text_scale: ts,
            title_y,
            subtitle_y,
            status_y,
        }
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
            ((2 * r + 1) * self.num).div_euclid(2 * self.den),
        )
    }

    pub(super) fn cell_rect(&self, x: i64, y: i64) -> Rect {
        let r = self.rows - 1 - y;
        Rect::new(
            self.ox + self.px(x),
            self.px(r),
            self.ox + self.px(x + 1),
            self.px(r + 1),
        )
    }

    /// The cells whose drawing may touch `r`: columns and ranks, inclusive.
    pub(super) fn cells_in(&self, r: Rect) -> Option<(i64, i64, i64, i64)> {
        if r.is_empty() {
            return None;
        }
        let col = |p: i64| ((p - self.ox) * self.den).div_euclid(self.num);
        let row = |p: i64| (p * self.den).div_euclid(self.num);
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

    #[test]
    fn layouts_pick_a_style_by_size() {
        let small = Layout::new(&Board::rectangle(8, 8), 48, false);
        assert_eq!((small.style, small.width), (Style::Squares, 384));
        assert_eq!(small.centre(Cell::new(0, 0)), (24, 7 * 48 + 24));
        let narrow = Layout::new(&Board::rectangle(3, 3), 48, true);
        assert_eq!(narrow.width, MIN_WIDTH);
        let big = Layout::new(&Board::rectangle(1000, 1000), 48, false);
        assert_eq!((big.style, big.width), (Style::PathOnly, 1000));
        let huge = Layout::new(&Board::rectangle(4096, 100), 48, false);
        assert_eq!(huge.width, PATH_ONLY_PX);
    }
}
