//! Animated GIFs: the tour being walked (`--gif`) and the search itself
//! (`--search-gif`).
//!
//! The board is a checkerboard of two calm colours; removed squares are dark
//! with a cross; on a cylinder or torus the wrapping edges are dashed and a
//! move across an edge leaves the board and comes back on the other side.
//! Visited squares are tinted, numbered with their step and joined by the
//! path, drawn through the square centres, each centre marked by a dot; the
//! piece's current square has an orange ring. Boards over
//! [`SQUARES_MAX_SIDE`] squares a side are drawn path-only: the path
//! coloured from blue (first move) to orange (last), on a board of at most
//! about a thousand pixels a side.
//!
//! Encoding uses one fixed palette (no colour quantisation). Each frame is
//! the rectangle of what changed since the previous one, with unchanged
//! pixels inside it transparent, compressed by the `gif` crate's LZW. Files
//! are written through [`PendingFile`] (see [`crate::output`]): to a
//! temporary file beside the output, renamed into place only when complete.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use font8x8::legacy::{BASIC_LEGACY, LATIN_LEGACY};

use crate::model::{Board, Cell, Topology};
use crate::puzzle::Puzzle;
use crate::solve::record::{Moment, Recorder};
use crate::solve::{Outcome, Report};

pub use crate::output::{PendingFile, discard_pending};

/// Boards with more squares than this on a side are drawn path-only.
pub const SQUARES_MAX_SIDE: u32 = 64;
/// The largest side, in pixels, of the board in the squares style.
const SQUARES_MAX_PX: u32 = 4096;
/// The side, in pixels, path-only boards are scaled to (at most).
const PATH_ONLY_PX: u32 = 1024;
/// Narrower boards are centred on an image this wide, for the caption.
const MIN_WIDTH: u32 = 256;
/// How long the last frame stays, in hundredths of a second.
const FINAL_DELAY: u16 = 200;

/// Palette index never drawn: marks pixels unchanged since the last frame.
pub const TRANSPARENT: u8 = 0;
/// A light square.
pub const LIGHT: u8 = 1;
/// A dark square.
pub const DARK: u8 = 2;
/// A visited light square (squares style).
pub const TINT_LIGHT: u8 = 3;
/// A visited dark square (squares style).
pub const TINT_DARK: u8 = 4;
/// The fill of a removed square.
pub const REMOVED: u8 = 5;
/// The cross on a removed square.
pub const CROSS: u8 = 6;
/// The path (squares style).
pub const PATH: u8 = 7;
/// The dot at the centre of every visited square (squares style).
pub const VISITED: u8 = 8;
/// The ring around the piece's current square.
pub const MARKER: u8 = 9;
/// Step numbers.
pub const INK: u8 = 10;
/// The caption's background.
pub const CAPTION_BG: u8 = 11;
/// The caption's title.
pub const CAPTION_FG: u8 = 12;
/// The caption's second line.
pub const CAPTION_DIM: u8 = 13;
/// Illegal moves of a genetic individual; the ring of an abandoned square.
pub const RED: u8 = 14;
/// Legal moves of a genetic individual.
pub const GREEN: u8 = 15;
/// Dashes along an edge that wraps.
pub const WRAP: u8 = 16;
/// The closing move of a closed tour.
pub const CLOSING: u8 = 17;
/// The fill of a square the search just abandoned.
pub const FLASH: u8 = 18;
/// The caption's status line.
pub const STATUS: u8 = 19;
/// The first colour of the path-only style's ramp; the ramp runs to 255.
pub const RAMP_START: u8 = 32;

const BASE_COLOURS: [[u8; 3]; 20] = [
    [0, 0, 0],       // transparent
    [238, 233, 218], // light square
    [197, 209, 184], // dark square
    [207, 224, 243], // visited light square
    [169, 196, 228], // visited dark square
    [58, 58, 68],    // removed
    [138, 138, 150], // cross on a removed square
    [47, 109, 181],  // path
    [23, 63, 115],   // visited dot
    [240, 140, 0],   // current square
    [30, 36, 48],    // step numbers
    [35, 38, 46],    // caption background
    [242, 242, 242], // caption title
    [168, 176, 191], // caption details
    [224, 49, 49],   // red: abandoned square, illegal moves
    [47, 158, 68],   // green: legal moves of a genetic individual
    [84, 104, 140],  // wrap hint
    [214, 51, 132],  // closing move
    [247, 198, 198], // abandoned square fill
    [255, 180, 84],  // caption status
];
/// Anchors of the path-only ramp, first move to last.
const RAMP_ANCHORS: [[u8; 3]; 4] = [[33, 102, 172], [94, 60, 153], [214, 54, 97], [240, 140, 0]];

/// The palette as RGB triples: 32 entries for the squares style, 256 for
/// path-only (which adds the ramp).
pub fn palette(style: Style) -> Vec<u8> {
    let len = match style {
        Style::Squares => usize::from(RAMP_START),
        Style::PathOnly => 256,
    };
    let mut p = vec![0u8; len * 3];
    for (i, c) in BASE_COLOURS.iter().enumerate() {
        p[i * 3..i * 3 + 3].copy_from_slice(c);
    }
    if style == Style::PathOnly {
        let steps = 256 - usize::from(RAMP_START);
        for i in 0..steps {
            let t = i as f64 / (steps - 1) as f64 * (RAMP_ANCHORS.len() - 1) as f64;
            let a = (t.floor() as usize).min(RAMP_ANCHORS.len() - 2);
            let f = t - a as f64;
            let at = (usize::from(RAMP_START) + i) * 3;
            for ch in 0..3 {
                let (x, y) = (
                    f64::from(RAMP_ANCHORS[a][ch]),
                    f64::from(RAMP_ANCHORS[a + 1][ch]),
                );
                p[at + ch] = (x + (y - x) * f).round() as u8;
            }
        }
    }
    p
}

/// Options shared by both GIFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifOptions {
    /// Pixels per board square (squares style; also the most a path-only
    /// square gets).
    pub cell: u32,
    /// Frames per second (the last frame is held about two seconds).
    pub fps: u32,
    /// The most frames a GIF has; longer tours draw several moves per frame.
    pub max_frames: usize,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            cell: 48,
            fps: 8,
            max_frames: 600,
        }
    }
}

/// What a GIF shows besides the path: the board and the caption.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The board.
    pub board: &'a Board,
    /// The caption's first line (the puzzle's name).
    pub title: String,
    /// The caption's second line (piece, board, kind of tour).
    pub subtitle: String,
    /// Whether tours close: the last frame then draws the closing move.
    pub closed: bool,
}

impl<'a> Scene<'a> {
    /// The scene of a puzzle: its name, piece and board in the caption.
    pub fn new(puzzle: &'a Puzzle) -> Scene<'a> {
        Scene {
            board: &puzzle.board,
            title: puzzle.name.clone(),
            subtitle: format!(
                "{} on {} \u{b7} {} tour",
                puzzle.piece_text,
                puzzle.board.describe(),
                if puzzle.goal.closed { "closed" } else { "open" }
            ),
            closed: puzzle.goal.closed,
        }
    }
}

/// What went wrong writing a GIF.
#[derive(Debug)]
pub enum GifError {
    /// Writing failed.
    Io(io::Error),
    /// The cancel flag was raised (Ctrl-C).
    Cancelled,
}

impl std::fmt::Display for GifError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GifError::Io(e) => write!(f, "{e}"),
            GifError::Cancelled => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for GifError {}

impl From<io::Error> for GifError {
    fn from(e: io::Error) -> GifError {
        GifError::Io(e)
    }
}

impl From<gif::EncodingError> for GifError {
    fn from(e: gif::EncodingError) -> GifError {
        match e {
            gif::EncodingError::Io(e) => GifError::Io(e),
            other => GifError::Io(io::Error::other(other)),
        }
    }
}

/// What was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifInfo {
    /// Frames in the GIF.
    pub frames: usize,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// How the board was drawn.
    pub style: Style,
}

/// How a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Squares with tints, step numbers, the path and dots.
    Squares,
    /// The path alone, coloured by step (large boards).
    PathOnly,
}

/// A line between two pixels.
type Segment = ((i64, i64), (i64, i64));

/// A rectangle of pixels, half-open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Rect {
    const EMPTY: Rect = Rect {
        x0: i64::MAX,
        y0: i64::MAX,
        x1: i64::MIN,
        y1: i64::MIN,
    };
    fn new(x0: i64, y0: i64, x1: i64, y1: i64) -> Rect {
        Rect { x0, y0, x1, y1 }
    }
    fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
    fn union(self, o: Rect) -> Rect {
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
    fn meet(self, o: Rect) -> Rect {
        let r = Rect::new(
            self.x0.max(o.x0),
            self.y0.max(o.y0),
            self.x1.min(o.x1),
            self.y1.min(o.y1),
        );
        if r.is_empty() { Rect::EMPTY } else { r }
    }
    fn around(a: (i64, i64), b: (i64, i64), by: i64) -> Rect {
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
    cols: i64,
    rows: i64,
    /// Pixels per square: `num / den`.
    num: i64,
    den: i64,
    ox: i64,
    board: Rect,
    text_scale: i64,
    title_y: i64,
    subtitle_y: i64,
    status_y: i64,
}

impl Layout {
    /// What a GIF of `frames` frames in this layout is.
    fn info(&self, frames: usize) -> GifInfo {
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
    fn centre_px(&self, x: i64, y: i64) -> (i64, i64) {
        let r = self.rows - 1 - y;
        (
            self.ox + ((2 * x + 1) * self.num).div_euclid(2 * self.den),
            ((2 * r + 1) * self.num).div_euclid(2 * self.den),
        )
    }

    fn cell_rect(&self, x: i64, y: i64) -> Rect {
        let r = self.rows - 1 - y;
        Rect::new(
            self.ox + self.px(x),
            self.px(r),
            self.ox + self.px(x + 1),
            self.px(r + 1),
        )
    }

    /// The cells whose drawing may touch `r`: columns and ranks, inclusive.
    fn cells_in(&self, r: Rect) -> Option<(i64, i64, i64, i64)> {
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

/// The glyph of `c` (font8x8; `?` for characters it lacks). Bit 0 of each
/// row byte is the leftmost pixel.
fn glyph(c: char) -> [u8; 8] {
    let c = match c {
        '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201c}' | '\u{201d}' => '"',
        c => c,
    };
    let u = c as usize;
    match u {
        0x20..=0x7e => BASIC_LEGACY[u],
        0xa0..=0xff => LATIN_LEGACY[u - 0xa0],
        _ => BASIC_LEGACY[usize::from(b'?')],
    }
}

/// The inked columns of a glyph (`lo..=hi`), or None for a blank one.
fn ink(g: &[u8; 8]) -> Option<(u32, u32)> {
    let all = g.iter().fold(0u8, |a, &b| a | b);
    (all != 0).then(|| (all.trailing_zeros(), 7 - all.leading_zeros()))
}

/// Advance of a character at scale 1: its inked width plus one column.
fn advance(c: char) -> i64 {
    match ink(&glyph(c)) {
        Some((lo, hi)) => i64::from(hi - lo) + 2,
        None => 4,
    }
}

/// Width of `s` at `scale`, without the trailing gap.
fn text_width(s: &str, scale: i64) -> i64 {
    let w: i64 = s.chars().map(advance).sum();
    (w - 1).max(0) * scale
}

/// `s` cut to fit `max` pixels at `scale`, with `...` when cut.
fn fit(s: &str, scale: i64, max: i64) -> String {
    if text_width(s, scale) <= max {
        return s.to_string();
    }
    let mut out: String = s.to_string();
    while !out.is_empty() && text_width(&format!("{out}..."), scale) > max {
        out.pop();
    }
    let trimmed = out.trim_end();
    format!("{trimmed}...")
}

/// `n` with thousands separators.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Drawing into one buffer, clipped to a rectangle; pixels whose background
/// is a removed square or a wrap hint are never painted over when
/// `protect` is set, so those always show.
struct Pen<'a> {
    px: &'a mut [u8],
    bg: &'a [u8],
    w: i64,
    clip: Rect,
    protect: bool,
}

impl Pen<'_> {
    #[inline]
    fn put(&mut self, x: i64, y: i64, c: u8) {
        if x < self.clip.x0 || x >= self.clip.x1 || y < self.clip.y0 || y >= self.clip.y1 {
            return;
        }
        let i = (y * self.w + x) as usize;
        if self.protect && matches!(self.bg[i], REMOVED | CROSS | WRAP) {
            return;
        }
        self.px[i] = c;
    }

    fn fill(&mut self, r: Rect, c: u8) {
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
    fn span(&mut self, y: i64, x0: i64, x1: i64, c: u8) {
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
    fn line(&mut self, a: (i64, i64), b: (i64, i64), t: i64, c: u8) {
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
    fn dot(&mut self, (cx, cy): (i64, i64), r: i64, c: u8) {
        for dy in -r..=r {
            let mut w = 0;
            while (w + 1) * (w + 1) + dy * dy <= r * r + r / 2 {
                w += 1;
            }
            self.span(cy + dy, cx - w, cx + w + 1, c);
        }
    }

    /// A ring `t` pixels thick just inside `r`.
    fn ring(&mut self, r: Rect, t: i64, c: u8) {
        self.fill(Rect::new(r.x0, r.y0, r.x1, r.y0 + t), c);
        self.fill(Rect::new(r.x0, r.y1 - t, r.x1, r.y1), c);
        self.fill(Rect::new(r.x0, r.y0, r.x0 + t, r.y1), c);
        self.fill(Rect::new(r.x1 - t, r.y0, r.x1, r.y1), c);
    }

    /// Text with its top-left corner at (x, y); with a halo of one pixel
    /// in `halo` around every inked pixel when given.
    fn text(&mut self, x: i64, y: i64, s: &str, scale: i64, c: u8, halo: Option<u8>) {
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
struct Sprite {
    /// Runs of one value: (row, first column, end column, 1 halo / 2 ink).
    runs: Vec<(i64, i64, i64, u8)>,
}

impl Sprite {
    fn new(text: &str, scale: i64) -> Sprite {
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
    fn stamp(&self, pen: &mut Pen, x: i64, y: i64, ink: u8, halo: u8) {
        for &(r, x0, x1, v) in &self.runs {
            let c = if v == 2 { ink } else { halo };
            pen.span(y - 1 + r, x - 1 + x0, x - 1 + x1, c);
        }
    }
}

/// One frame's content.
struct Target<'p> {
    /// The path (or a genetic individual's walk).
    path: &'p [u32],
    /// `path[..keep]` is known to equal the previous frame's path.
    keep: usize,
    /// Squares of `path` that form a legal path; the rest is drawn red.
    legal: usize,
    /// A genetic individual: legal moves green.
    genetic: bool,
    /// Draw the closing move (last square back to the first).
    closing: bool,
    /// Mark the piece's current square (the last legal one).
    head: bool,
    /// A square just abandoned by the search, shown in red.
    flash: Option<u32>,
    /// The caption's status line.
    status: Option<String>,
}

/// Draws frames and hands out the rectangle that changed. Three buffers:
/// `bg` (the board with nothing on it), `base` (the board with the path)
/// and `out` (base plus the current-square ring and the flash: what the
/// viewer sees). `old` keeps the changed rectangle's previous pixels.
struct Painter<'a> {
    board: &'a Board,
    lay: Layout,
    bg: Vec<u8>,
    base: Vec<u8>,
    out: Vec<u8>,
    old: Vec<u8>,
    /// Per square: its 1-based step on the legal path, or 0.
    step: Vec<u32>,
    cur: Vec<u32>,
    legal: usize,
    genetic: bool,
    closing: bool,
    overlays: Vec<Rect>,
    status: Option<String>,
    line_w: i64,
    dot_r: i64,
    ring_w: i64,
    num_scale: i64,
    num_margin: i64,
    /// Step numbers drawn so far, by step.
    sprites: std::collections::HashMap<u32, Sprite>,
    /// Whether any pixel needs protecting (removed squares, wrap hints).
    protect: bool,
}

impl<'a> Painter<'a> {
    fn new(scene: &Scene<'a>, lay: Layout) -> Painter<'a> {
        let board = scene.board;
        let n = board.len();
        let cell = lay.num / lay.den;
        let (line_w, dot_r, ring_w) = match lay.style {
            Style::Squares => ((cell / 16).max(1), (cell / 12).max(1), (cell / 16).max(2)),
            Style::PathOnly => (if cell < 8 { 1 } else { cell / 8 }, cell / 6, 2),
        };
        let num_margin = (cell / 24).max(1);
        // The widest step number: as many digits as the last, each as
        // wide as the widest digit.
        let digit = ('0'..='9').map(advance).max().unwrap_or(8);
        let widest = n.to_string().len() as i64 * digit - 1;
        let num_scale = if lay.style != Style::Squares {
            0
        } else if num_margin + 2 * widest <= cell - num_margin && num_margin + 14 + 1 < cell / 2 {
            2
        } else if num_margin + widest <= cell - num_margin && num_margin + 7 + 1 < cell / 2 {
            1
        } else {
            0
        };
        let size = lay.width as usize * lay.height as usize;
        let mut p = Painter {
            board,
            bg: vec![LIGHT; size],
            base: Vec::new(),
            out: Vec::new(),
            old: Vec::new(),
            step: vec![0; n],
            cur: Vec::new(),
            legal: 0,
            genetic: false,
            closing: false,
            overlays: Vec::new(),
            status: None,
            line_w,
            dot_r,
            ring_w,
            num_scale,
            num_margin,
            sprites: std::collections::HashMap::new(),
            protect: board.removed_count() > 0 || board.topology() != Topology::Plain,
            lay,
        };
        p.draw_background(scene);
        p.base = p.bg.clone();
        p.out = p.bg.clone();
        p
    }

    fn pen<'b>(px: &'b mut [u8], bg: &'b [u8], lay: &Layout, clip: Rect, protect: bool) -> Pen<'b> {
        Pen {
            px,
            bg,
            w: i64::from(lay.width),
            clip: clip.meet(Rect::new(0, 0, i64::from(lay.width), i64::from(lay.height))),
            protect,
        }
    }

    fn draw_background(&mut self, scene: &Scene) {
        let lay = self.lay.clone();
        let board = self.board;
        let cell = lay.num / lay.den;
        let whole = Rect::new(0, 0, i64::from(lay.width), i64::from(lay.height));
        let mut bg = std::mem::take(&mut self.bg);
        {
            let mut pen = Painter::pen(&mut bg, &[], &lay, whole, false);
            pen.fill(whole, CAPTION_BG);
            let checker = lay.style == Style::Squares || cell >= 4;
            if checker {
                for y in 0..lay.rows {
                    for x in 0..lay.cols {
                        let c = if (x + y) % 2 == 0 { DARK } else { LIGHT };
                        pen.fill(lay.cell_rect(x, y), c);
                    }
                }
            } else {
                pen.fill(lay.board, LIGHT);
            }
            for y in 0..lay.rows {
                for x in 0..lay.cols {
                    if board.is_square(Cell::new(x as u32, y as u32)) {
                        continue;
                    }
                    let r = lay.cell_rect(x, y);
                    if r.is_empty() {
                        // Smaller than a pixel: still mark its centre.
                        pen.put(lay.centre_px(x, y).0, lay.centre_px(x, y).1, REMOVED);
                        continue;
                    }
                    pen.fill(r, REMOVED);
                    let side = r.x1 - r.x0;
                    if side >= 8 {
                        // A cross whose arms stop short of the centre.
                        let (cx, cy) = lay.centre_px(x, y);
                        let inset = side / 5;
                        let gap = (side / 8).max(2);
                        let t = (side / 24).max(1);
                        for (sx, sy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                            let far = (cx + sx * (side / 2 - inset), cy + sy * (side / 2 - inset));
                            let near = (cx + sx * gap, cy + sy * gap);
                            pen.line(far, near, t, CROSS);
                        }
                    }
                }
            }
            // Dashes along the edges that wrap.
            let (wrap_x, wrap_y) = match board.topology() {
                Topology::Plain => (false, false),
                Topology::Cylinder => (true, false),
                Topology::Torus => (true, true),
            };
            // A dash across the middle of each edge square's outer side, or
            // every 16 pixels when squares are small.
            let b = lay.board;
            let t = (cell / 12).max(2);
            let dashes = |from: i64, to: i64| -> Vec<(i64, i64)> {
                if cell >= 8 {
                    (0..(to - from) / cell)
                        .map(|i| {
                            (
                                from + i * cell + cell / 4,
                                from + i * cell + cell - cell / 4,
                            )
                        })
                        .collect()
                } else {
                    (0..(to - from) / 16)
                        .map(|i| (from + i * 16 + 4, from + i * 16 + 12))
                        .collect()
                }
            };
            if wrap_x {
                for (y0, y1) in dashes(b.y0, b.y1) {
                    pen.fill(Rect::new(b.x0, y0, b.x0 + t, y1), WRAP);
                    pen.fill(Rect::new(b.x1 - t, y0, b.x1, y1), WRAP);
                }
            }
            if wrap_y {
                for (x0, x1) in dashes(b.x0, b.x1) {
                    pen.fill(Rect::new(x0, b.y0, x1, b.y0 + t), WRAP);
                    pen.fill(Rect::new(x0, b.y1 - t, x1, b.y1), WRAP);
                }
            }
            // The caption's fixed lines.
            let ts = lay.text_scale;
            let pad = 3 * ts;
            let room = i64::from(lay.width) - 2 * pad;
            let title = fit(&scene.title, ts, room);
            pen.text(pad, lay.title_y, &title, ts, CAPTION_FG, None);
            let sub = fit(&scene.subtitle, 1, room);
            pen.text(pad, lay.subtitle_y, &sub, 1, CAPTION_DIM, None);
        }
        self.bg = bg;
    }

    /// The pieces of the move `a -> b` as drawn: one line, or two when it
    /// crosses a wrapping edge (out of one side, in from the other).
    fn pieces(&self, a: u32, b: u32) -> [Option<Segment>; 2] {
        let lay = &self.lay;
        let (ca, cb) = (self.board.cell(a), self.board.cell(b));
        let (ax, ay, bx, by) = (
            i64::from(ca.x),
            i64::from(ca.y),
            i64::from(cb.x),
            i64::from(cb.y),
        );
        let (mut dx, mut dy) = (bx - ax, by - ay);
        let topo = self.board.topology();
        if topo != Topology::Plain {
            if 2 * dx > lay.cols {
                dx -= lay.cols;
            } else if 2 * dx < -lay.cols {
                dx += lay.cols;
            }
        }
        if topo == Topology::Torus {
            if 2 * dy > lay.rows {
                dy -= lay.rows;
            } else if 2 * dy < -lay.rows {
                dy += lay.rows;
            }
        }
        let pa = lay.centre_px(ax, ay);
        let pb = lay.centre_px(bx, by);
        if (ax + dx, ay + dy) == (bx, by) {
            [Some((pa, pb)), None]
        } else {
            [
                Some((pa, lay.centre_px(ax + dx, ay + dy))),
                Some((lay.centre_px(bx - dx, by - dy), pb)),
            ]
        }
    }

    fn move_box(&self, a: u32, b: u32) -> Rect {
        let mut r = Rect::EMPTY;
        for (p, q) in self.pieces(a, b).into_iter().flatten() {
            r = r.union(Rect::around(p, q, self.line_w + 1));
        }
        r.meet(self.lay.board)
    }

    /// The pixels a square's own drawing may touch.
    fn square_box(&self, s: u32) -> Rect {
        let c = self.board.cell(s);
        let (x, y) = (i64::from(c.x), i64::from(c.y));
        let reach = self.dot_r.max(self.line_w) + 1;
        let centre = self.lay.centre_px(x, y);
        self.lay
            .cell_rect(x, y)
            .union(Rect::around(centre, centre, reach))
            .meet(self.lay.board)
    }

    fn move_colour(&self, i: usize) -> u8 {
        if i >= self.legal {
            RED
        } else if self.genetic {
            GREEN
        } else if self.lay.style == Style::Squares {
            PATH
        } else {
            self.ramp(i)
        }
    }

    fn ramp(&self, i: usize) -> u8 {
        let n = self.board.len().max(2) - 1;
        let span = usize::from(255 - RAMP_START);
        RAMP_START + (i.min(n) * span / n) as u8
    }

    fn centre_colour(&self, step: u32) -> u8 {
        if self.lay.style == Style::Squares {
            VISITED
        } else if self.genetic {
            GREEN
        } else {
            self.ramp(step as usize - 1)
        }
    }

    /// Draws move `i` (from `cur[i - 1]` to `cur[i]`) onto `base`.
    fn draw_move(&mut self, i: usize, clip: Rect) {
        let c = self.move_colour(i);
        let pieces = self.pieces(self.cur[i - 1], self.cur[i]);
        let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, clip, self.protect);
        for (p, q) in pieces.into_iter().flatten() {
            pen.line(p, q, self.line_w, c);
        }
    }

    fn draw_closing(&mut self, clip: Rect) {
        let (Some(&first), Some(&last)) = (self.cur.first(), self.cur.last()) else {
            return;
        };
        if self.cur.len() < 2 {
            return;
        }
        let pieces = self.pieces(last, first);
        let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, clip, self.protect);
        for (p, q) in pieces.into_iter().flatten() {
            pen.line(p, q, self.line_w, CLOSING);
        }
    }

    /// The centre mark of square `s` (dot, or a pixel path-only).
    fn draw_centre(&mut self, s: u32, colour: u8, clip: Rect) {
        let c = self.board.cell(s);
        let centre = self.lay.centre_px(i64::from(c.x), i64::from(c.y));
        let r = self.dot_r;
        let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, clip, self.protect);
        pen.dot(centre, r, colour);
    }

    /// Redraws `base` inside `r` from the background and the current state.
    fn redraw(&mut self, r: Rect) {
        let r = r.meet(self.lay.board);
        if r.is_empty() {
            return;
        }
        let w = self.lay.width as usize;
        for y in r.y0..r.y1 {
            let a = y as usize * w + r.x0 as usize;
            let b = y as usize * w + r.x1 as usize;
            self.base[a..b].copy_from_slice(&self.bg[a..b]);
        }
        let cells = self.lay.cells_in(r);
        let squares = self.lay.style == Style::Squares;
        // Visited squares (squares style: tinted).
        let mut visited: Vec<(u32, u32)> = Vec::new();
        if let Some((c0, c1, y0, y1)) = cells {
            for y in y0..=y1 {
                for x in c0..=c1 {
                    if let Some(s) = self.board.square_at(Cell::new(x as u32, y as u32)) {
                        let st = self.step[s as usize];
                        if st > 0 {
                            visited.push((s, st));
                            if squares {
                                let tint = if (x + y) % 2 == 0 {
                                    TINT_DARK
                                } else {
                                    TINT_LIGHT
                                };
                                let mut pen = Painter::pen(
                                    &mut self.base,
                                    &self.bg,
                                    &self.lay,
                                    r,
                                    self.protect,
                                );
                                pen.fill(self.lay.cell_rect(x, y), tint);
                            }
                        }
                    }
                }
            }
        }
        for i in 1..self.cur.len() {
            if !self
                .move_box(self.cur[i - 1], self.cur[i])
                .meet(r)
                .is_empty()
            {
                self.draw_move(i, r);
            }
        }
        if self.closing {
            self.draw_closing(r);
        }
        for &(s, st) in &visited {
            let c = self.centre_colour(st);
            self.draw_centre(s, c, r);
        }
        for i in self.legal..self.cur.len() {
            let s = self.cur[i];
            if !self.square_box(s).meet(r).is_empty() {
                self.draw_centre(s, RED, r);
            }
        }
        if self.num_scale > 0 {
            let m = self.num_margin;
            for &(s, st) in &visited {
                let c = self.board.cell(s);
                let (x, y) = (i64::from(c.x), i64::from(c.y));
                let cr = self.lay.cell_rect(x, y);
                let halo = if (x + y) % 2 == 0 {
                    TINT_DARK
                } else {
                    TINT_LIGHT
                };
                let scale = self.num_scale;
                let sprite = self
                    .sprites
                    .entry(st)
                    .or_insert_with(|| Sprite::new(&st.to_string(), scale));
                let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, r, self.protect);
                sprite.stamp(&mut pen, cr.x0 + m, cr.y0 + m, INK, halo);
            }
        }
    }

    fn status_rect(&self) -> Rect {
        let ts = self.lay.text_scale;
        Rect::new(
            0,
            self.lay.status_y - ts,
            i64::from(self.lay.width),
            self.lay.status_y + 9 * ts,
        )
    }

    /// Moves to the state of `t`; returns the rectangle of `out` that may
    /// have changed, with its previous pixels saved in `old`.
    fn show(&mut self, t: &Target) -> Rect {
        let new = t.path;
        let old_len = self.cur.len();
        let mut k = t.keep.min(old_len).min(new.len());
        while k < old_len.min(new.len()) && self.cur[k] == new[k] {
            k += 1;
        }
        let mut kc = k.min(self.legal).min(t.legal);
        if self.genetic != t.genetic {
            kc = 0;
        }
        // What changes on `base`: squares and moves from kc - 1 on.
        let mut dirty = Rect::EMPTY;
        let from = kc.saturating_sub(1);
        for i in from..old_len {
            dirty = dirty.union(self.square_box(self.cur[i]));
            if i >= 1 && i >= kc {
                dirty = dirty.union(self.move_box(self.cur[i - 1], self.cur[i]));
            }
        }
        for i in from..new.len() {
            dirty = dirty.union(self.square_box(new[i]));
            if i >= 1 && i >= kc {
                dirty = dirty.union(self.move_box(new[i - 1], new[i]));
            }
        }
        let old_closing = self.closing && old_len >= 2;
        let new_closing = t.closing && new.len() >= 2;
        if old_closing && (!new_closing || kc < old_len) {
            dirty = dirty.union(self.move_box(self.cur[old_len - 1], self.cur[0]));
        }
        if new_closing && (!old_closing || kc < new.len()) {
            dirty = dirty.union(self.move_box(new[new.len() - 1], new[0]));
        }
        // Append-only growth of a path-only drawing needs no redraw.
        let append = self.lay.style == Style::PathOnly
            && !self.genetic
            && !t.genetic
            && !old_closing
            && kc == old_len
            && self.legal == old_len;
        // Update the state.
        for i in kc..self.legal.min(old_len) {
            self.step[self.cur[i] as usize] = 0;
        }
        for (i, &s) in new.iter().enumerate().take(t.legal.min(new.len())).skip(kc) {
            self.step[s as usize] = i as u32 + 1;
        }
        self.cur.truncate(k);
        self.cur.extend_from_slice(&new[k..]);
        self.legal = t.legal.min(new.len());
        self.genetic = t.genetic;
        self.closing = t.closing;
        if append {
            let board = self.lay.board;
            for i in old_len.max(1)..self.cur.len() {
                self.draw_move(i, board);
                for s in [self.cur[i - 1], self.cur[i]] {
                    let c = self.centre_colour(self.step[s as usize]);
                    self.draw_centre(s, c, board);
                }
            }
            if old_len == 0
                && let Some(&s) = self.cur.first()
            {
                let c = self.centre_colour(1);
                self.draw_centre(s, c, board);
            }
            if new_closing {
                self.draw_closing(board);
                let (first, last) = (self.cur[0], self.cur[self.cur.len() - 1]);
                for s in [first, last] {
                    let c = self.centre_colour(self.step[s as usize]);
                    self.draw_centre(s, c, board);
                }
            }
        } else {
            self.redraw(dirty);
        }
        // The caption's status line.
        if t.status != self.status {
            let r = self.status_rect();
            let ts = self.lay.text_scale;
            let pad = 3 * ts;
            let room = i64::from(self.lay.width) - 2 * pad;
            let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, r, false);
            pen.fill(r, CAPTION_BG);
            if let Some(text) = t.status.as_deref() {
                // Smaller rather than cut, when it can be read whole.
                let scale = if text_width(text, ts) <= room { ts } else { 1 };
                let y = self.lay.status_y + (ts - scale) * 4;
                pen.text(pad, y, &fit(text, scale, room), scale, STATUS, None);
            }
            self.status = t.status.clone();
            dirty = dirty.union(r);
        }
        // Overlays on `out`: the current square and the abandoned one.
        let mut overlays: Vec<(Rect, u8)> = Vec::new();
        let cell = self.lay.num / self.lay.den;
        let overlay_box = |s: u32, side: i64| -> Rect {
            let c = self.board.cell(s);
            let (x, y) = (i64::from(c.x), i64::from(c.y));
            if self.lay.style == Style::Squares {
                self.lay.cell_rect(x, y)
            } else {
                let (cx, cy) = self.lay.centre_px(x, y);
                let h = side / 2;
                Rect::new(cx - h, cy - h, cx - h + side, cy - h + side)
            }
        };
        if let Some(s) = t.flash {
            overlays.push((overlay_box(s, (cell / 2).max(5)), FLASH));
        }
        if t.head && self.legal > 0 {
            overlays.push((
                overlay_box(self.cur[self.legal - 1], (cell + 4).max(9)),
                MARKER,
            ));
        }
        let mut out_dirty = dirty;
        for r in self.overlays.drain(..) {
            out_dirty = out_dirty.union(r);
        }
        for &(r, _) in &overlays {
            out_dirty = out_dirty.union(r);
        }
        let full = Rect::new(0, 0, i64::from(self.lay.width), i64::from(self.lay.height));
        let out_dirty = out_dirty.meet(full);
        // Save the old pixels, then copy base and draw the overlays.
        self.old.clear();
        if !out_dirty.is_empty() {
            let w = self.lay.width as usize;
            for y in out_dirty.y0..out_dirty.y1 {
                let a = y as usize * w + out_dirty.x0 as usize;
                let b = y as usize * w + out_dirty.x1 as usize;
                self.old.extend_from_slice(&self.out[a..b]);
                self.out[a..b].copy_from_slice(&self.base[a..b]);
            }
        }
        let ring = self.ring_w;
        let squares = self.lay.style == Style::Squares;
        for &(r, c) in &overlays {
            let mut pen = Painter::pen(&mut self.out, &self.bg, &self.lay, self.lay.board, false);
            if c == FLASH {
                if squares {
                    pen.fill(r, FLASH);
                    pen.ring(r, ring, RED);
                } else {
                    pen.fill(r, RED);
                }
            } else {
                pen.ring(r, ring, MARKER);
            }
            self.overlays.push(r.meet(self.lay.board));
        }
        out_dirty
    }
}

/// Frames go to the compressing thread in batches of at most this many
/// pixels or [`BATCH_FRAMES`] frames.
const BATCH_PIXELS: usize = 1 << 22;
const BATCH_FRAMES: usize = 8;

type Batch = Vec<gif::Frame<'static>>;

/// Cuts frames: the first whole, the rest as the changed rectangle with
/// unchanged pixels transparent. Batches of frames go to a second thread
/// that compresses and writes them, in order, while the next frames are
/// drawn. (One compressing thread: on a busy machine more threads only
/// compete for the same cores.)
struct Frames<'c> {
    tx: Option<std::sync::mpsc::SyncSender<Batch>>,
    batch: Batch,
    batch_pixels: usize,
    count: usize,
    cancel: Option<&'c AtomicBool>,
}

/// Runs `body` with a [`Frames`] whose frames are encoded into `w`;
/// returns the frame count.
fn encode<W: Write + Send>(
    w: W,
    lay: &Layout,
    cancel: Option<&AtomicBool>,
    body: impl FnOnce(&mut Frames) -> Result<(), GifError>,
) -> Result<usize, GifError> {
    let mut enc = gif::Encoder::new(w, lay.width as u16, lay.height as u16, &palette(lay.style))?;
    enc.set_repeat(gif::Repeat::Infinite)?;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(2);
        let writer = scope.spawn(move || -> Result<W, GifError> {
            for batch in rx {
                for f in &batch {
                    enc.write_frame(f)?;
                }
            }
            let mut w = enc.into_inner()?;
            w.flush()?;
            Ok(w)
        });
        let mut frames = Frames {
            tx: Some(tx),
            batch: Vec::new(),
            batch_pixels: 0,
            count: 0,
            cancel,
        };
        let drawn = body(&mut frames).and_then(|()| frames.flush());
        // Closing the channel lets the writer finish.
        frames.tx = None;
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(GifError::Io(io::Error::other("the GIF writer failed"))));
        match (drawn, written) {
            // A failed write closes the channel, so drawing fails too: the
            // writer's error is the real one.
            (_, Err(e)) => Err(e),
            (Err(e), Ok(_)) => Err(e),
            (Ok(()), Ok(_)) => Ok(frames.count),
        }
    })
}

impl Frames<'_> {
    fn emit(&mut self, p: &Painter, changed: Rect, delay: u16) -> Result<(), GifError> {
        if let Some(flag) = self.cancel
            && flag.load(Ordering::Relaxed)
        {
            return Err(GifError::Cancelled);
        }
        let w = p.lay.width as usize;
        let mut buf: Vec<u8> = Vec::new();
        let (tight, transparent) = if self.count == 0 {
            buf.extend_from_slice(&p.out);
            let whole = Rect::new(0, 0, i64::from(p.lay.width), i64::from(p.lay.height));
            (whole, None)
        } else {
            // Shrink to the pixels that really changed.
            let rw = (changed.x1 - changed.x0).max(0) as usize;
            let mut tight = Rect::EMPTY;
            if rw > 0 {
                for (j, y) in (changed.y0..changed.y1).enumerate() {
                    let old = &p.old[j * rw..(j + 1) * rw];
                    let a = y as usize * w + changed.x0 as usize;
                    let new = &p.out[a..a + rw];
                    if old == new {
                        continue;
                    }
                    let first = first_difference(old, new);
                    let last = last_difference(old, new);
                    let x0 = changed.x0 + first as i64;
                    tight = tight.union(Rect::new(x0, y, changed.x0 + last as i64 + 1, y + 1));
                }
            }
            if tight.is_empty() {
                // Nothing changed: a one-pixel transparent frame keeps the timing.
                buf.push(TRANSPARENT);
                (Rect::new(0, 0, 1, 1), Some(TRANSPARENT))
            } else {
                let tw = (tight.x1 - tight.x0) as usize;
                buf.reserve(tw * (tight.y1 - tight.y0) as usize);
                for y in tight.y0..tight.y1 {
                    let j = (y - changed.y0) as usize;
                    let o = j * rw + (tight.x0 - changed.x0) as usize;
                    let n = y as usize * w + tight.x0 as usize;
                    masked_row(&p.old[o..o + tw], &p.out[n..n + tw], &mut buf);
                }
                (tight, Some(TRANSPARENT))
            }
        };
        self.batch_pixels += buf.len();
        self.batch.push(gif::Frame {
            left: tight.x0 as u16,
            top: tight.y0 as u16,
            width: (tight.x1 - tight.x0) as u16,
            height: (tight.y1 - tight.y0) as u16,
            buffer: Cow::Owned(buf),
            delay,
            dispose: gif::DisposalMethod::Keep,
            transparent,
            ..gif::Frame::default()
        });
        self.count += 1;
        if self.batch.len() >= BATCH_FRAMES || self.batch_pixels >= BATCH_PIXELS {
            self.flush()?;
        }
        Ok(())
    }

    /// Hands the waiting frames to the writer.
    fn flush(&mut self) -> Result<(), GifError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        self.batch_pixels = 0;
        match &self.tx {
            Some(tx) if tx.send(batch).is_ok() => Ok(()),
            _ => Err(GifError::Io(io::Error::other("the GIF writer stopped"))),
        }
    }
}

/// The index of the first byte where `a` and `b` differ (their length if
/// none), comparing eight at a time.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The index of the last byte where `a` and `b` differ (0 if none).
fn last_difference(a: &[u8], b: &[u8]) -> usize {
    let mut i = a.len().min(b.len());
    while i >= 8 && a[i - 8..i] == b[i - 8..i] {
        i -= 8;
    }
    while i > 0 && a[i - 1] == b[i - 1] {
        i -= 1;
    }
    i.saturating_sub(1)
}

/// Appends `new`, with the pixels equal to `old` made transparent (index 0),
/// eight at a time.
fn masked_row(old: &[u8], new: &[u8], out: &mut Vec<u8>) {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut o = old.chunks_exact(8);
    let mut n = new.chunks_exact(8);
    for (a, b) in o.by_ref().zip(n.by_ref()) {
        let (a, b) = (
            u64::from_ne_bytes(a.try_into().unwrap_or([0; 8])),
            u64::from_ne_bytes(b.try_into().unwrap_or([0; 8])),
        );
        // The high bit of each byte of `d`: whether that byte differs.
        let x = a ^ b;
        let d = (((x & LOW) + LOW) | x) & !LOW;
        let mask = (d >> 7) * 0xff;
        out.extend_from_slice(&(b & mask).to_ne_bytes());
    }
    for (&a, &b) in o.remainder().iter().zip(n.remainder()) {
        out.push(if a == b { TRANSPARENT } else { b });
    }
}

fn frame_delay(fps: u32) -> u16 {
    let fps = fps.clamp(1, 50);
    ((100 + fps / 2) / fps).max(2) as u16
}

/// Writes the GIF of `tour` being walked: one frame per move (several per
/// frame when the tour has more moves than `opts.max_frames`), the last
/// frame (with the closing move of a closed tour) held two seconds,
/// looping forever. `cancel` is polled between frames.
pub fn tour_gif<W: Write + Send>(
    out: W,
    scene: &Scene,
    tour: &[u32],
    opts: &GifOptions,
    cancel: Option<&AtomicBool>,
) -> Result<GifInfo, GifError> {
    let lay = Layout::new(scene.board, opts.cell, false);
    let mut painter = Painter::new(scene, lay.clone());
    let n = tour.len();
    let frames_max = opts.max_frames.max(1);
    let ends = frame_ends(scene.board, tour, frames_max, lay.style == Style::PathOnly);
    // Frames are timed by their moves, so the path is drawn at an even
    // pace: as long in all as `min(n, max)` frames at `fps`.
    let total_cs = n.min(frames_max) as f64 * f64::from(frame_delay(opts.fps));
    let mut shown = 0usize;
    let count = encode(out, &lay, cancel, |frames| {
        for (i, &len) in ends.iter().enumerate() {
            let last = i + 1 == ends.len();
            let changed = painter.show(&Target {
                path: &tour[..len],
                keep: shown,
                legal: len,
                genetic: false,
                closing: last && scene.closed,
                // Path-only, the last frame is the whole tour, unmarked.
                head: !last || lay.style == Style::Squares,
                flash: None,
                status: None,
            });
            let moves = len - shown;
            shown = len;
            let delay = if last {
                FINAL_DELAY
            } else {
                (total_cs * moves as f64 / n as f64)
                    .round()
                    .clamp(2.0, 65535.0) as u16
            };
            frames.emit(&painter, changed, delay)?;
        }
        Ok(())
    })?;
    Ok(lay.info(count))
}

/// Where the tour GIF's frames end (path lengths, the last being the whole
/// tour): one move per frame when the tour has at most `max` squares, else
/// `max` frames of about equal moves; or, when `compact`, at most `max`
/// frames cut so that each frame's moves stay within a small box of the
/// board (the smallest box area that needs no more frames), which keeps
/// the changed rectangles, and so the work and the file, small for tours
/// that sweep the board in long lines.
fn frame_ends(board: &Board, tour: &[u32], max: usize, compact: bool) -> Vec<usize> {
    let n = tour.len();
    if n <= max {
        return (1..=n.max(1)).map(|i| i.min(n)).collect();
    }
    if !compact {
        return (1..=max).map(|i| (i * n).div_ceil(max)).collect();
    }
    let cells: Vec<(u32, u32)> = tour
        .iter()
        .map(|&s| {
            let c = board.cell(s);
            (c.x, c.y)
        })
        .collect();
    // Greedy runs under an area limit; None once more than `max` are needed.
    let runs = |limit: u64| -> Option<Vec<usize>> {
        let mut ends = Vec::new();
        let (mut x0, mut y0, mut x1, mut y1) = (cells[0].0, cells[0].1, cells[0].0, cells[0].1);
        for (j, &(x, y)) in cells.iter().enumerate().skip(1) {
            let (nx0, ny0, nx1, ny1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            let area = u64::from(nx1 - nx0 + 1) * u64::from(ny1 - ny0 + 1);
            if area > limit {
                // The next frame starts with the move from the last square.
                ends.push(j);
                if ends.len() >= max {
                    return None;
                }
                let (px, py) = cells[j - 1];
                (x0, y0, x1, y1) = (px.min(x), py.min(y), px.max(x), py.max(y));
            } else {
                (x0, y0, x1, y1) = (nx0, ny0, nx1, ny1);
            }
        }
        ends.push(n);
        Some(ends)
    };
    let (mut lo, mut hi) = (1u64, u64::from(board.width()) * u64::from(board.height()));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if runs(mid).is_some() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    runs(hi).unwrap_or_else(|| vec![n])
}

/// Writes the GIF of a search: one frame per snapshot `rec` kept, then a
/// final frame with the outcome of `report` (the tour; or the longest path,
/// or the last state when there is none), held two seconds. At most
/// `opts.max_frames` frames when `rec` was made with
/// `Recorder::new(opts.max_frames - 1)`.
pub fn search_gif<W: Write + Send>(
    out: W,
    scene: &Scene,
    rec: &Recorder,
    report: &Report,
    opts: &GifOptions,
    cancel: Option<&AtomicBool>,
) -> Result<GifInfo, GifError> {
    let lay = Layout::new(scene.board, opts.cell, true);
    let mut painter = Painter::new(scene, lay.clone());
    let delay = frame_delay(opts.fps);
    let count = encode(out, &lay, cancel, |frames| {
        let restarts = |r: u64| {
            if r > 0 {
                format!(" \u{b7} restart {}", thousands(r))
            } else {
                String::new()
            }
        };
        rec.replay(|s| {
            let (legal, genetic, status) = match s.moment {
                Moment::Generation {
                    generation,
                    fitness,
                    legal,
                } => (
                    legal,
                    true,
                    format!(
                        "generation {} \u{b7} fitness {}",
                        thousands(generation),
                        thousands(fitness as u64)
                    ),
                ),
                Moment::Advance | Moment::Retreat(_) => (
                    s.path.len(),
                    false,
                    format!("{} nodes{}", thousands(s.nodes), restarts(s.restarts)),
                ),
            };
            let changed = painter.show(&Target {
                path: s.path,
                keep: s.keep,
                legal,
                genetic,
                closing: false,
                head: !genetic,
                flash: match s.moment {
                    Moment::Retreat(sq) => Some(sq),
                    _ => None,
                },
                status: Some(status),
            });
            frames.emit(&painter, changed, delay)
        })?;
        // The outcome.
        let stats = &report.stats;
        let effort = if stats.generations > 0 {
            format!("generation {}", thousands(stats.generations))
        } else {
            format!("{} nodes", thousands(stats.nodes.max(rec.nodes())))
        };
        // The longest path, or else the last state recorded.
        fn or_last<'r>(best: &'r [u32], last: &'r [u32]) -> &'r [u32] {
            if best.is_empty() { last } else { best }
        }
        let last = rec.last_path();
        let (path, status): (&[u32], String) = match &report.outcome {
            Outcome::Found(t) => (t, format!("found: {effort}")),
            Outcome::Impossible(_) => (last, format!("no tour: {effort}")),
            Outcome::GaveUp { best, .. } => (or_last(best, last), format!("gave up: {effort}")),
            Outcome::Interrupted { best } => {
                (or_last(best, last), format!("interrupted: {effort}"))
            }
        };
        let found = matches!(report.outcome, Outcome::Found(_));
        let changed = painter.show(&Target {
            path,
            keep: 0,
            legal: path.len(),
            genetic: false,
            closing: found && scene.closed,
            head: found && lay.style == Style::Squares,
            flash: None,
            status: Some(status),
        });
        frames.emit(&painter, changed, FINAL_DELAY)
    })?;
    Ok(lay.info(count))
}

/// The most memory a run's GIFs may take (estimated before the search; see
/// [`memory`]).
pub const GIF_BUDGET: u64 = 4 << 30;

/// What a run's GIFs need, estimated before the search starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifMemory {
    /// Image width in pixels (of the larger GIF asked for).
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Drawing and encoding a GIF (the larger one: they are written one
    /// after the other): the image buffers, the frames on their way to the
    /// encoder, and a few arrays per square.
    pub drawing: u64,
    /// The search's snapshots, kept from the start of the search until its
    /// GIF is written ([`Recorder::max_bytes`]; 0 without a search GIF).
    pub recording: u64,
}

impl GifMemory {
    /// Both parts together.
    pub fn total(&self) -> u64 {
        self.drawing.saturating_add(self.recording)
    }
}

/// Bytes to draw and encode one GIF laid out as `lay` for a board of
/// `squares` squares: the painter's four image buffers (`bg`, `base`, `out`
/// and the changed rectangle's old pixels); up to four batches of frames at
/// once (one being cut, two queued, one being written), each closed at
/// [`BATCH_PIXELS`] or [`BATCH_FRAMES`] frames of at most the whole image;
/// the encoder's compressed frame (LZW: at most 12 bits a pixel); the
/// per-square arrays (steps, the current path, the tour's cells and frame
/// ends); and, in the squares style, the step-number sprites.
fn drawing_bytes(lay: &Layout, squares: usize) -> u64 {
    let px = u64::from(lay.width) * u64::from(lay.height);
    let batch = (BATCH_PIXELS as u64 + px).min(BATCH_FRAMES as u64 * px);
    let sprites = if lay.style == Style::Squares {
        8 << 10
    } else {
        0
    };
    let per_square = (24 + sprites) * squares as u64;
    4 * px + 4 * batch + 2 * px + per_square
}

/// An estimate, made before the search starts, of the memory the GIFs a
/// run asks for need on `board` with `opts`: `tour` for `--gif`, `search`
/// for `--search-gif` (whose snapshots are recorded with
/// `Recorder::new(opts.max_frames - 1)`). The image size follows
/// [`Layout::new`], which shrinks the cell on large boards, so an image is
/// never more than 4096 pixels of board a side.
pub fn memory(board: &Board, opts: &GifOptions, tour: bool, search: bool) -> GifMemory {
    let n = board.len();
    let layouts = [(tour, false), (search, true)]
        .into_iter()
        .filter(|&(asked, _)| asked)
        .map(|(_, status)| Layout::new(board, opts.cell, status));
    let biggest = layouts.max_by_key(|l| u64::from(l.width) * u64::from(l.height));
    let (width, height, drawing) = biggest.map_or((0, 0, 0), |l| {
        let d = drawing_bytes(&l, n);
        (l.width, l.height, d)
    });
    GifMemory {
        width,
        height,
        drawing,
        recording: if search {
            Recorder::max_bytes(opts.max_frames.saturating_sub(1), n)
        } else {
            0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_stay_small_whatever_the_board_and_cell() {
        // The layout shrinks the cell, so however large the board and the
        // cell, an image fits the GIF format's 65,535 pixels a side and
        // drawing it fits the budget with room to spare: only a search's
        // snapshots can make a run's GIFs too large.
        let opts = GifOptions {
            cell: 256,
            ..GifOptions::default()
        };
        for (w, h) in [
            (1, 1),
            (64, 64),
            (1, 64),
            (65, 65),
            (1024, 3),
            (4096, 1),
            (4096, 4096),
        ] {
            let board = Board::rectangle(w, h);
            let m = memory(&board, &opts, true, false);
            assert!(m.width <= 4096 && m.height <= 4096 + 64, "{w}x{h}: {m:?}");
            assert!(m.drawing < GIF_BUDGET / 4, "{w}x{h}: {m:?}");
            assert_eq!(m.recording, 0);
            let lay = Layout::new(&board, opts.cell, true);
            let s = memory(&board, &opts, false, true);
            assert_eq!((s.width, s.height), (lay.width, lay.height));
        }
    }

    #[test]
    fn snapshots_are_counted_by_frames_and_squares() {
        let board = Board::rectangle(5, 5);
        let at = |max_frames| {
            let opts = GifOptions {
                max_frames,
                ..GifOptions::default()
            };
            memory(&board, &opts, true, true)
        };
        // The run records with Recorder::new(max_frames - 1).
        let m = at(600);
        assert_eq!(m.recording, Recorder::max_bytes(599, 25));
        assert!(m.recording > 599 * 25 * 4);
        // The larger image (the search GIF's, with its status line) counts.
        assert_eq!(m.height, Layout::new(&board, 48, true).height);
        assert!(m.total() < GIF_BUDGET);
        // A hundred million frames of 25 squares need more than 4 GiB.
        assert!(at(100_000_000).total() > GIF_BUDGET);
        assert_eq!(at(100_000_000).drawing, m.drawing);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(24105743), "24,105,743");
    }

    #[test]
    fn text_fits_or_is_cut() {
        assert_eq!(fit("abc", 1, 100), "abc");
        let cut = fit("a long caption that does not fit", 2, 120);
        assert!(cut.ends_with("...") && text_width(&cut, 2) <= 120, "{cut}");
    }

    #[test]
    fn digits_come_from_the_font() {
        // '1' in font8x8 has its ink in columns 0..=5 (its foot is wide).
        assert_eq!(ink(&glyph('1')), Some((0, 5)));
        assert_eq!(advance('1'), 7);
        assert_eq!(advance(' '), 4);
        assert_eq!(glyph('\u{4e00}'), glyph('?'));
    }

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

    #[test]
    fn unchanged_pixels_become_transparent() {
        let old: Vec<u8> = (0..21).map(|i| (i * 7 % 13) as u8 + 1).collect();
        let mut new = old.clone();
        for i in [0, 3, 8, 9, 15, 20] {
            new[i] = 200 + i as u8;
        }
        let mut out = Vec::new();
        masked_row(&old, &new, &mut out);
        let want: Vec<u8> = old
            .iter()
            .zip(&new)
            .map(|(a, b)| if a == b { TRANSPARENT } else { *b })
            .collect();
        assert_eq!(out, want);
        assert_eq!(first_difference(&old, &new), 0);
        assert_eq!(first_difference(&old[1..], &new[1..]), 2);
        assert_eq!(last_difference(&old, &new), 20);
        assert_eq!(last_difference(&old[..20], &new[..20]), 15);
        assert_eq!(first_difference(&old, &old), 21);
    }

    /// Sum of the frames' bounding boxes, in squares.
    fn boxed(board: &Board, tour: &[u32], ends: &[usize]) -> u64 {
        let mut start = 0;
        let mut total = 0;
        for &e in ends {
            let cells: Vec<Cell> = tour[start.max(1) - 1..e]
                .iter()
                .map(|&s| board.cell(s))
                .collect();
            let w = cells.iter().map(|c| c.x).max().unwrap_or(0)
                - cells.iter().map(|c| c.x).min().unwrap_or(0)
                + 1;
            let h = cells.iter().map(|c| c.y).max().unwrap_or(0)
                - cells.iter().map(|c| c.y).min().unwrap_or(0)
                + 1;
            total += u64::from(w) * u64::from(h);
            start = e;
        }
        total
    }

    #[test]
    fn frames_cut_where_the_drawing_stays_compact() {
        // A spiral from the outside in, on 60x60.
        let n = 60u32;
        let board = Board::rectangle(n, n);
        let (mut x0, mut y0, mut x1, mut y1) = (0u32, 0u32, n - 1, n - 1);
        let mut tour = Vec::new();
        let at = |x: u32, y: u32| y * n + x;
        while x0 <= x1 && y0 <= y1 {
            tour.extend((x0..=x1).map(|x| at(x, y0)));
            tour.extend((y0 + 1..=y1).map(|y| at(x1, y)));
            if y0 < y1 {
                tour.extend((x0..x1).rev().map(|x| at(x, y1)));
            }
            if x0 < x1 {
                tour.extend((y0 + 1..y1).rev().map(|y| at(x0, y)));
            }
            (x0, y0) = (x0 + 1, y0 + 1);
            if x1 == 0 || y1 == 0 {
                break;
            }
            (x1, y1) = (x1 - 1, y1 - 1);
        }
        assert_eq!(tour.len(), 3600);
        let even = frame_ends(&board, &tour, 100, false);
        let compact = frame_ends(&board, &tour, 100, true);
        for ends in [&even, &compact] {
            assert!(ends.len() <= 100 && ends.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(ends.last(), Some(&3600));
        }
        assert_eq!(even.len(), 100);
        assert!(boxed(&board, &tour, &compact) < boxed(&board, &tour, &even) * 3 / 4);
        // Few squares: one frame per move.
        assert_eq!(frame_ends(&board, &tour[..5], 100, true), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn palette_is_fixed() {
        assert_eq!(palette(Style::Squares).len(), 32 * 3);
        assert_eq!(palette(Style::PathOnly).len(), 256 * 3);
    }
}
