//! Drawing a board state: the background, the path, its step numbers and
//! the caption, redrawn only where a frame changes.

use crate::model::{Board, Cell, Topology};

use super::font::{advance, fit, text_width};
use super::layout::{Layout, Rect};
use super::palette::{
    CAPTION_BG, CAPTION_DIM, CAPTION_FG, CLOSING, CROSS, DARK, FLASH, GREEN, INK, LIGHT, MARKER,
    PATH, RAMP_START, RED, REMOVED, STATUS, TINT_DARK, TINT_LIGHT, VISITED, WRAP,
};
use super::raster::{Pen, Sprite};
use super::{Scene, Style};

/// A line between two pixels.
type Segment = ((i64, i64), (i64, i64));

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
    /// The caption's status line.
    pub(super) status: Option<String>,
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
    pub(super) fn new(scene: &Scene<'a>, lay: Layout) -> Painter<'a> {
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
        // The short way, across a wrapping edge if need be: out of one
        // side towards b's place beyond it, and in from a's place beyond
        // the other side (mirrored across a twisted edge).
        let (dx, dy) = self.board.shortest_vector(ca, cb);
        let pa = lay.centre_px(ax, ay);
        let pb = lay.centre_px(bx, by);
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
    pub(super) fn show(&mut self, t: &Target) -> Rect {
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
