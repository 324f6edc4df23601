//! The tour GIF: the tour found, walked move by move.

use crate::halt::{Halt, Stop};
use std::io::Write;

use crate::model::Board;

use super::encoder::{FINAL_DELAY, encode, frame_delay};
use super::layout::{Caption, Layout};
use super::painter::{Painter, Target};
use super::{GifError, GifInfo, GifOptions, Scene, Style};

/// Writes the GIF of `tour` being walked: one frame per move (several per
/// frame when the tour has more moves than the frame budget), the last
/// frame (with the closing move of a closed tour) held two seconds,
/// looping forever. Without `opts.fps` the walk lasts 10 to 16 seconds
/// (a quarter of a second a move, within those bounds). `halt` is looked at
/// before each frame.
pub fn tour_gif<W: Write + Send>(
    out: W,
    scene: &Scene,
    tour: &[u32],
    opts: &GifOptions,
    halt: &impl Halt<Stop = Stop>,
) -> Result<GifInfo, GifError> {
    let lay = tour_layout(scene, opts);
    let mut painter = Painter::new(scene, lay.clone());
    let n = tour.len();
    let frames_max = opts.tour_frames();
    let ends = frame_ends(scene.board, tour, frames_max, lay.style == Style::Gradient);
    // Frames are timed by their moves, so the path is drawn at an even
    // pace.
    let total_cs = match opts.fps {
        Some(fps) => n.min(frames_max) as f64 * f64::from(frame_delay(fps)),
        None => (n as f64 * 25.0).clamp(1000.0, 1600.0),
    };
    let mut shown = 0usize;
    let count = encode(out, &lay, halt, |frames| {
        let mut spent = 0.0f64;
        for (i, &len) in ends.iter().enumerate() {
            let last = i + 1 == ends.len();
            let changed = painter.show(&Target {
                keep: shown,
                closing: last && scene.closed,
                // Coloured by step, the last frame is the whole tour, unmarked.
                head: !last || lay.style != Style::Gradient,
                ..Target::plain(&tour[..len])
            });
            shown = len;
            // Rounded so that the delays add up to the total.
            let delay = if last {
                FINAL_DELAY
            } else {
                let until = (total_cs * len as f64 / n as f64).round();
                let d = (until - spent).max(2.0);
                spent += d;
                d.min(65535.0) as u16
            };
            frames.emit(&painter, changed, delay)?;
        }
        Ok(())
    })?;
    Ok(lay.info(count))
}

/// The tour GIF's layout for `scene` with `opts`.
pub fn tour_layout(scene: &Scene, opts: &GifOptions) -> Layout {
    Layout::new(
        scene.board,
        opts.cell_for(scene.board),
        opts.style_for(scene.board),
        &Caption {
            title: &scene.title,
            subtitle: &scene.subtitle,
            status_lines: 0,
            strip: false,
        },
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cell;

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
}
