//! Drawing a board state: the background, the path, its step numbers and
//! the caption, redrawn only where a frame changes.

use crate::model::{Board, Cell, Topology};

use super::font::{advance, fit, text_width};
use super::layout::{Layout, Rect, line_height};
use super::palette::{
    CANDIDATE, CAPTION_BG, CAPTION_DIM, CAPTION_FG, CHURN, CLOSING, CROSS, DARK, FLASH, GREEN, INK,
    LABEL, LIGHT, MARKER, PATH, RAMP_START, RED, REMOVED, REPAIRED, STATUS, STRIP_BG, STRIP_HIGH,
    STRIP_LOW, TINT_DARK, TINT_LIGHT, VISITED, WRAP,
};
use super::raster::{Pen, Sprite};
use super::{Scene, Style};

/// A line between two pixels.
type Segment = ((i64, i64), (i64, i64));

/// Something drawn over a square for one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mark {
    /// A square Warnsdorff's rule may move to next, with its onward count;
    /// `best` when the count is the least.
    Candidate {
        /// The square.
        square: u32,
        /// Its unvisited squares one move on.
        count: u32,
        /// Whether the count is the least of all candidates.
        best: bool,
    },
    /// A square just abandoned that had no way on: a dead end.
    DeadEnd(u32),
    /// Where a walk got stuck.
    Stuck(u32),
}

/// One column of the depth strip: events `x0..x1` in pixels, the settled
/// and the deepest path length as fractions of the board's squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Column {
    pub(super) x0: i64,
    pub(super) x1: i64,
    pub(super) low: f64,
    pub(super) high: f64,
}

/// One frame's content.
pub(super) struct Target<'p> {
    /// The path (or a genetic individual's walk).
    pub(super) path: &'p [u32],
    /// `path[..keep]` is known to equal the previous frame's path.
    pub(super) keep: usize,
    /// Squares of `path` that form a legal path; the rest is drawn red.
    pub(super) legal: usize,
    /// A genetic individual: legal moves green.
    pub(super) genetic: bool,
    /// Draw the closing move (last square back to the first).
    pub(super) closing: bool,
    /// Mark the piece's current square (the last legal one).
    pub(super) head: bool,
    /// A square just abandoned by the search, shown in red.
    pub(super) flash: Option<u32>,
    /// `path[..settled]` is drawn as settled, the rest as churning.
    pub(super) settled: usize,
    /// Marks over squares.
    pub(super) marks: &'p [Mark],
    /// Moves drawn as repaired (genetic walks), by the index of the square
    /// they end on.
    pub(super) repaired: &'p [usize],
    /// A colour per square filling it (the proofs), or none.
    pub(super) fills: Option<&'p [u8]>,
    /// New columns of the strip under the board.
    pub(super) columns: &'p [Column],
    /// The caption's status lines.
    pub(super) status: &'p [String],
    /// How many of the first status lines are in the accent colour.
    pub(super) accent: usize,
    /// The colours of the status lines after the accented ones, when not
    /// the caption's (a legend: each line in the colour it names).
    pub(super) colours: &'p [u8],
}

impl<'p> Target<'p> {
    /// A frame of `path` with nothing else: no marks, no status, all
    /// settled.
    pub(super) fn plain(path: &'p [u32]) -> Target<'p> {
        Target {
            path,
            keep: 0,
            legal: path.len(),
            genetic: false,
            closing: false,
            head: false,
            flash: None,
            settled: usize::MAX,
            marks: &[],
            repaired: &[],
            fills: None,
            columns: &[],
            status: &[],
            accent: 1,
            colours: &[],
        }
    }
}

/// What an overlay on `out` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Overlay {
    Flash,
    DeadEnd,
    Head,
    Stuck,
    Candidate(u32, bool),
}

/// Draws frames and hands out the rectangle that changed. Three buffers:
/// `bg` (the board with nothing on it), `base` (the board with the path)
/// and `out` (base plus the current-square ring and the flash: what the
/// viewer sees). `old` keeps the changed rectangle's previous pixels.
pub(super) struct Painter<'a> {
    board: &'a Board,
    pub(super) lay: Layout,
    bg: Vec<u8>,
    base: Vec<u8>,
    pub(super) out: Vec<u8>,
    pub(super) old: Vec<u8>,
    /// Per square: its 1-based step on the legal path, or 0.
    step: Vec<u32>,
    cur: Vec<u32>,
    legal: usize,
    genetic: bool,
    closing: bool,
    settled: usize,
    /// Per square: whether the move ending on it was repaired.
    repaired: Vec<bool>,
    fill: Vec<u8>,
    /// Whether any square of `fill` is coloured.
    filled: bool,
    overlays: Vec<Rect>,
    status: Vec<String>,
    accent: usize,
    colours: Vec<u8>,
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
    pub(super) fn new(scene: &Scene<'a>, lay: Layout) -> Painter<'a> {
        let board = scene.board;
        let n = board.len();
        let cell = lay.num / lay.den;
        let (line_w, dot_r, ring_w) = match lay.style {
            Style::Numbers => ((cell / 16).max(1), (cell / 12).max(1), (cell / 16).max(2)),
            Style::Path => ((cell / 10).max(1), (cell / 8).max(1), (cell / 14).max(2)),
            Style::Gradient => (if cell < 8 { 1 } else { cell / 8 }, cell / 6, 2),
        };
        let num_margin = (cell / 24).max(1);
        // The widest step number: as many digits as the last, each as
        // wide as the widest digit.
        let digit = ('0'..='9').map(advance).max().unwrap_or(8);
        let widest = n.to_string().len() as i64 * digit - 1;
        let num_scale = if lay.style != Style::Numbers {
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
            settled: usize::MAX,
            repaired: vec![false; n],
            fill: vec![0; n],
            filled: false,
            overlays: Vec::new(),
            status: Vec::new(),
            accent: 1,
            colours: Vec::new(),
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
            let checker = cell >= 4;
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
            let (wrap_x, wrap_y) = (
                board.topology().wraps_files(),
                board.topology().wraps_ranks(),
            );
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
            // The caption's fixed lines, wrapped by the layout.
            let pad = 6;
            for (i, line) in lay.title.iter().enumerate() {
                let y = lay.title_y + i as i64 * line_height(2);
                pen.text(pad, y, line, 2, CAPTION_FG, None);
            }
            for (i, line) in lay.subtitle.iter().enumerate() {
                let y = lay.subtitle_y + i as i64 * line_height(1);
                pen.text(pad, y, line, 1, CAPTION_DIM, None);
            }
            // File letters under the board, rank numbers left of it.
            if let Some(l) = lay.labels {
                let mut x = 0;
                while x < lay.cols {
                    let name = crate::model::file_name(x as u32);
                    let w = text_width(&name, l.scale);
                    let (cx, _) = lay.centre_px(x, 0);
                    pen.text(cx - w / 2, l.file_y, &name, l.scale, LABEL, None);
                    x += l.files;
                }
                let mut y = 0;
                while y < lay.rows {
                    let name = (y + 1).to_string();
                    let w = text_width(&name, l.scale);
                    let (_, cy) = lay.centre_px(0, y);
                    pen.text(l.rank_x - w, cy - 4 * l.scale, &name, l.scale, LABEL, None);
                    y += l.ranks;
                }
            }
            if !lay.strip.is_empty() {
                pen.fill(lay.strip, STRIP_BG);
            }
        }
        let _ = scene;
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
        // The short way, across a wrapping edge if need be: out of one
        // side towards b's place beyond it, and in from a's place beyond
        // the other side (mirrored across a twisted edge).
        let pa = lay.centre_px(ax, ay);
        let pb = lay.centre_px(bx, by);
        if self.board.topology() == Topology::Plain {
            return [Some((pa, pb)), None];
        }
        let (dx, dy) = self.board.shortest_vector(ca, cb);
        if (ax + dx, ay + dy) == (bx, by) {
            [Some((pa, pb)), None]
        } else {
            let (ex, ey) = self.board.shortest_vector(cb, ca);
            [
                Some((pa, lay.centre_px(ax + dx, ay + dy))),
                Some((lay.centre_px(bx + ex, by + ey), pb)),
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
            if self.repaired[self.cur[i] as usize] {
                REPAIRED
            } else {
                GREEN
            }
        } else if self.lay.style == Style::Gradient {
            self.ramp(i)
        } else if i < self.settled {
            PATH
        } else {
            CHURN
        }
    }

    fn ramp(&self, i: usize) -> u8 {
        let n = self.board.len().max(2) - 1;
        let span = usize::from(255 - RAMP_START);
        RAMP_START + (i.min(n) * span / n) as u8
    }

    fn centre_colour(&self, step: u32) -> u8 {
        if self.lay.style != Style::Gradient {
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
        let squares = self.lay.style != Style::Gradient;
        // Visited squares (squares style: tinted).
        let mut visited: Vec<(u32, u32)> = Vec::new();
        if let Some((c0, c1, y0, y1)) = cells {
            for y in y0..=y1 {
                for x in c0..=c1 {
                    if let Some(s) = self.board.square_at(Cell::new(x as u32, y as u32)) {
                        let st = self.step[s as usize];
                        let fill = self.fill[s as usize];
                        if fill != 0 {
                            let mut pen =
                                Painter::pen(&mut self.base, &self.bg, &self.lay, r, self.protect);
                            pen.fill(self.lay.cell_rect(x, y), fill);
                        }
                        if st > 0 {
                            visited.push((s, st));
                            if squares && fill == 0 {
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
                let halo = match self.fill[s as usize] {
                    0 if (x + y) % 2 == 0 => TINT_DARK,
                    0 => TINT_LIGHT,
                    f => f,
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
        let lh = line_height(self.lay.status_scale);
        Rect::new(
            0,
            self.lay.status_y - 1,
            i64::from(self.lay.width),
            self.lay.status_y + self.lay.status_lines as i64 * lh,
        )
    }

    /// Moves to the state of `t`; returns the rectangle of `out` that may
    /// have changed, with its previous pixels saved in `old`.
    pub(super) fn show(&mut self, t: &Target) -> Rect {
        let new = t.path;
        let old_len = self.cur.len();
        let mut k = t.keep.min(old_len).min(new.len());
        while k < old_len.min(new.len()) && self.cur[k] == new[k] {
            k += 1;
        }
        let mut kc = k.min(self.legal).min(t.legal);
        if self.genetic || t.genetic {
            // Each generation's walk is drawn afresh (its repaired moves too).
            kc = 0;
        }
        if self.lay.style != Style::Gradient && t.settled != self.settled {
            kc = kc.min(self.settled.min(t.settled));
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
        let fills_change = match t.fills {
            Some(f) => f != &self.fill[..],
            None => self.filled,
        };
        if fills_change {
            dirty = dirty.union(self.lay.board);
        }
        // Append-only growth of a gradient drawing needs no redraw.
        let append = self.lay.style == Style::Gradient
            && !fills_change
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
        self.settled = t.settled;
        if fills_change {
            match t.fills {
                Some(f) => self.fill.copy_from_slice(f),
                None => self.fill.fill(0),
            }
            self.filled = t.fills.is_some_and(|f| f.iter().any(|&c| c != 0));
        }
        if self.genetic || t.genetic {
            self.repaired.fill(false);
        }
        for &i in t.repaired {
            if let Some(&s) = self.cur.get(i) {
                self.repaired[s as usize] = true;
            }
        }
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
        // The strip's new columns.
        let s = self.lay.strip;
        for c in t.columns.iter().filter(|_| !s.is_empty()) {
            let h = (s.y1 - s.y0) as f64;
            let col = Rect::new(c.x0.max(s.x0), s.y0, c.x1.max(c.x0 + 1).min(s.x1), s.y1);
            let top = s.y1 - (c.high.clamp(0.0, 1.0) * h).round() as i64;
            let mid = s.y1 - (c.low.clamp(0.0, 1.0) * h).round() as i64;
            let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, col, false);
            pen.fill(col, STRIP_BG);
            pen.fill(Rect::new(col.x0, top, col.x1, mid), STRIP_HIGH);
            pen.fill(Rect::new(col.x0, mid, col.x1, s.y1), STRIP_LOW);
            dirty = dirty.union(col);
        }
        // The caption's status lines.
        if t.status != &self.status[..] || t.accent != self.accent || t.colours != &self.colours[..]
        {
            let r = self.status_rect();
            let scale = self.lay.status_scale;
            let pad = 6;
            let room = self.lay.status_room();
            let mut pen = Painter::pen(&mut self.base, &self.bg, &self.lay, r, false);
            pen.fill(r, CAPTION_BG);
            for (i, text) in t.status.iter().take(self.lay.status_lines).enumerate() {
                let y = self.lay.status_y + i as i64 * line_height(scale);
                let c = if i < t.accent {
                    STATUS
                } else {
                    t.colours.get(i - t.accent).copied().unwrap_or(CAPTION_FG)
                };
                pen.text(pad, y, &fit(text, scale, room), scale, c, None);
            }
            self.status = t.status.to_vec();
            self.accent = t.accent;
            self.colours = t.colours.to_vec();
            dirty = dirty.union(r);
        }
        // Overlays on `out`: the current square, the abandoned one, marks.
        let mut overlays: Vec<(Rect, Overlay)> = Vec::new();
        let cell = self.lay.num / self.lay.den;
        let small = cell < 12;
        let overlay_box = |s: u32, side: i64| -> Rect {
            let c = self.board.cell(s);
            let (x, y) = (i64::from(c.x), i64::from(c.y));
            if !small {
                self.lay.cell_rect(x, y)
            } else {
                let (cx, cy) = self.lay.centre_px(x, y);
                let h = side / 2;
                Rect::new(cx - h, cy - h, cx - h + side, cy - h + side)
            }
        };
        for m in t.marks {
            match *m {
                Mark::Candidate {
                    square,
                    count,
                    best,
                } => overlays.push((
                    overlay_box(square, (cell + 4).max(9)),
                    Overlay::Candidate(count, best),
                )),
                Mark::DeadEnd(s) => {
                    overlays.push((overlay_box(s, (cell / 2).max(5)), Overlay::DeadEnd))
                }
                Mark::Stuck(s) => {
                    overlays.push((overlay_box(s, (cell + 4).max(9)), Overlay::Stuck))
                }
            }
        }
        if let Some(s) = t.flash {
            overlays.push((overlay_box(s, (cell / 2).max(5)), Overlay::Flash));
        }
        if t.head && self.legal > 0 {
            overlays.push((
                overlay_box(self.cur[self.legal - 1], (cell + 4).max(9)),
                Overlay::Head,
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
        for &(r, what) in &overlays {
            let mut pen = Painter::pen(&mut self.out, &self.bg, &self.lay, self.lay.board, false);
            match what {
                Overlay::Flash | Overlay::DeadEnd if small => pen.fill(r, RED),
                Overlay::Flash => {
                    pen.fill(r, FLASH);
                    pen.ring(r, ring, RED);
                }
                Overlay::DeadEnd => {
                    pen.fill(r, FLASH);
                    pen.ring(r, ring, RED);
                    let inset = (r.x1 - r.x0) / 4;
                    let t = (ring / 2).max(1) + 1;
                    let (a, b) = (
                        (r.x0 + inset, r.y0 + inset),
                        (r.x1 - inset - 1, r.y1 - inset - 1),
                    );
                    pen.line(a, b, t, RED);
                    pen.line((a.0, b.1), (b.0, a.1), t, RED);
                }
                Overlay::Head => pen.ring(r, ring, MARKER),
                Overlay::Stuck => pen.ring(r, ring + 1, RED),
                Overlay::Candidate(count, best) => {
                    let inner = Rect::new(r.x0 + ring, r.y0 + ring, r.x1 - ring, r.y1 - ring);
                    pen.ring(
                        inner,
                        if best { ring } else { (ring / 2).max(1) },
                        CANDIDATE,
                    );
                    if !small {
                        let text = count.to_string();
                        let scale = if cell >= 40 { 2 } else { 1 };
                        let w = text_width(&text, scale);
                        let x = inner.x1 - ring - w - 1;
                        let y = inner.y1 - ring - 8 * scale - 1;
                        pen.text(x, y, &text, scale, CANDIDATE, Some(LIGHT));
                    }
                }
            }
            self.overlays.push(r.meet(self.lay.board));
        }
        out_dirty
    }
}
