//! Drawing primitives on a buffer of palette indices: the clipped pen
//! (pixels, rectangles, lines, dots, rings, text) and step-number sprites.

use super::font::{advance, glyph, ink, text_width};
use super::layout::Rect;
use super::palette::{CROSS, REMOVED, WRAP};

/// Drawing into one buffer, clipped to a rectangle; pixels whose background
/// is a removed square or a wrap hint are never painted over when
/// `protect` is set, so those always show.
pub(super) struct Pen<'a> {
    pub(super) px: &'a mut [u8],
    pub(super) bg: &'a [u8],
    pub(super) w: i64,
    pub(super) clip: Rect,
    pub(super) protect: bool,
}

impl Pen<'_> {
    #[inline]
    pub(super) fn put(&mut self, x: i64, y: i64, c: u8) {
        if x < self.clip.x0 || x >= self.clip.x1 || y < self.clip.y0 || y >= self.clip.y1 {
            return;
        }
        let i = (y * self.w + x) as usize;
        if self.protect && matches!(self.bg[i], REMOVED | CROSS | WRAP) {
            return;
        }
        self.px[i] = c;
    }

    pub(super) fn fill(&mut self, r: Rect, c: u8) {
        let r = r.meet(self.clip);
        if r.is_empty() {
            return;
        }
        for y in r.y0..r.y1 {
            let row = (y * self.w) as usize;
            let (a, b) = (row + r.x0 as usize, row + r.x1 as usize);
            if self.protect {
                for (p, &g) in self.px[a..b].iter_mut().zip(&self.bg[a..b]) {
                    if !matches!(g, REMOVED | CROSS | WRAP) {
                        *p = c;
                    }
                }
            } else {
                self.px[a..b].fill(c);
            }
        }
    }

    /// A run of pixels on row `y` from `x0` to `x1` (exclusive).
    #[inline]
    pub(super) fn span(&mut self, y: i64, x0: i64, x1: i64, c: u8) {
        if y < self.clip.y0 || y >= self.clip.y1 {
            return;
        }
        let (x0, x1) = (x0.max(self.clip.x0), x1.min(self.clip.x1));
        if x0 >= x1 {
            return;
        }
        let (a, b) = ((y * self.w + x0) as usize, (y * self.w + x1) as usize);
        if self.protect {
            for (p, &g) in self.px[a..b].iter_mut().zip(&self.bg[a..b]) {
                if !matches!(g, REMOVED | CROSS | WRAP) {
                    *p = c;
                }
            }
        } else {
            self.px[a..b].fill(c);
        }
    }

    /// A line `t` pixels thick from `a` to `b`: Bresenham, with a run of
    /// `t` pixels across the line's main direction at every step.
    pub(super) fn line(&mut self, a: (i64, i64), b: (i64, i64), t: i64, c: u8) {
        let bbox = Rect::around(a, b, t);
        if bbox.meet(self.clip).is_empty() {
            return;
        }
        let (mut x, mut y) = a;
        let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
        let (sx, sy) = (
            if a.0 < b.0 { 1 } else { -1 },
            if a.1 < b.1 { 1 } else { -1 },
        );
        let steep = -dy > dx;
        let mut err = dx + dy;
        let lo = -(t - 1) / 2;
        loop {
            if steep {
                self.span(y, x + lo, x + lo + t, c);
            } else {
                for oy in lo..lo + t {
                    self.put(x, y + oy, c);
                }
            }
            if x == b.0 && y == b.1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// A filled disc of radius `r` (a single pixel for 0).
    pub(super) fn dot(&mut self, (cx, cy): (i64, i64), r: i64, c: u8) {
        for dy in -r..=r {
            let mut w = 0;
            while (w + 1) * (w + 1) + dy * dy <= r * r + r / 2 {
                w += 1;
            }
            self.span(cy + dy, cx - w, cx + w + 1, c);
        }
    }

    /// A ring `t` pixels thick just inside `r`.
    pub(super) fn ring(&mut self, r: Rect, t: i64, c: u8) {
        self.fill(Rect::new(r.x0, r.y0, r.x1, r.y0 + t), c);
        self.fill(Rect::new(r.x0, r.y1 - t, r.x1, r.y1), c);
        self.fill(Rect::new(r.x0, r.y0, r.x0 + t, r.y1), c);
        self.fill(Rect::new(r.x1 - t, r.y0, r.x1, r.y1), c);
    }

    /// Text with its top-left corner at (x, y); with a halo of one pixel
    /// in `halo` around every inked pixel when given.
    pub(super) fn text(&mut self, x: i64, y: i64, s: &str, scale: i64, c: u8, halo: Option<u8>) {
        let passes: &[(u8, i64)] = match halo {
            Some(h) => &[(h, 1), (c, 0)],
            None => &[(c, 0)],
        };
        for &(colour, spread) in passes {
            let mut at = x;
            for ch in s.chars() {
                let g = glyph(ch);
                let lo = ink(&g).map_or(0, |(lo, _)| i64::from(lo));
                for (row, bits) in g.iter().enumerate() {
                    for col in 0..8 {
                        if bits & (1 << col) != 0 {
                            let px = at + (col - lo) * scale;
                            let py = y + row as i64 * scale;
                            self.fill(
                                Rect::new(
                                    px - spread,
                                    py - spread,
                                    px + scale + spread,
                                    py + scale + spread,
                                ),
                                colour,
                            );
                        }
                    }
                }
                at += advance(ch) * scale;
            }
        }
    }
}

/// A step number drawn once and stamped many times: per pixel 0 (none),
/// 1 (halo) or 2 (ink).
pub(super) struct Sprite {
    /// Runs of one value: (row, first column, end column, 1 halo / 2 ink).
    runs: Vec<(i64, i64, i64, u8)>,
}

impl Sprite {
    pub(super) fn new(text: &str, scale: i64) -> Sprite {
        let (w, h) = (text_width(text, scale) + 2, 8 * scale + 2);
        let size = (w * h) as usize;
        let mut layers = [vec![0u8; size], vec![0u8; size]];
        for (layer, colour) in layers.iter_mut().zip([1u8, 2]) {
            let mut pen = Pen {
                px: layer,
                bg: &[],
                w,
                clip: Rect::new(0, 0, w, h),
                protect: false,
            };
            pen.text(1, 1, text, scale, colour, (colour == 1).then_some(1));
        }
        let px: Vec<u8> = layers[0]
            .iter()
            .zip(&layers[1])
            .map(|(&h, &i)| if i == 2 { 2 } else { h.min(1) })
            .collect();
        let mut runs = Vec::new();
        for r in 0..h {
            let row = &px[(r * w) as usize..((r + 1) * w) as usize];
            let mut x = 0;
            while x < row.len() {
                let v = row[x];
                let start = x;
                while x < row.len() && row[x] == v {
                    x += 1;
                }
                if v != 0 {
                    runs.push((r, start as i64, x as i64, v));
                }
            }
        }
        Sprite { runs }
    }

    /// Stamps the sprite with its top-left inked corner at (x, y).
    pub(super) fn stamp(&self, pen: &mut Pen, x: i64, y: i64, ink: u8, halo: u8) {
        for &(r, x0, x1, v) in &self.runs {
            let c = if v == 2 { ink } else { halo };
            pen.span(y - 1 + r, x - 1 + x0, x - 1 + x1, c);
        }
    }
}
