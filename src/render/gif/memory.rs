//! The memory a run's GIFs need, estimated before the search starts, and
//! the budget it must fit.

use crate::model::Board;
use crate::render::record::Recorder;

use super::encoder::{BATCH_FRAMES, BATCH_PIXELS};
use super::layout::{Caption, Layout};
use super::{GifOptions, Style};

/// The most memory a run's GIFs may take (estimated before the search; see
/// [`memory`]).
pub const GIF_BUDGET: u64 = crate::budget::GIF;

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
    let sprites = if lay.style == Style::Numbers {
        8 << 10
    } else {
        0
    };
    let per_square = (24 + sprites) * squares as u64;
    4 * px + 4 * batch + 2 * px + per_square
}

/// An estimate, made before the search starts, of the memory the GIFs a
/// run asks for need on `board` with `opts`: `tour` for `--gif`, `search`
/// for `--search-gif` (whose samples are recorded by
/// [`GifOptions::recorder`]). Long titles wrap onto more lines; a few
/// lines of text are not counted. The image size follows
/// [`Layout::new`], which shrinks the cell on large boards, so an image is
/// never more than 4096 pixels of board a side.
pub fn memory(board: &Board, opts: &GifOptions, tour: bool, search: bool) -> GifMemory {
    let n = board.len();
    let cell = opts.cell_for(board);
    let style = opts.style_for(board);
    // A search GIF's caption: three status lines (a long proof may wrap
    // onto a few more) and the strip.
    let layouts = [(tour, 0, false), (search, 3, true)]
        .into_iter()
        .filter(|&(asked, _, _)| asked)
        .map(|(_, status_lines, strip)| {
            Layout::new(
                board,
                cell,
                style,
                &Caption {
                    title: "",
                    subtitle: "",
                    status_lines,
                    strip,
                },
            )
        });
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
            Recorder::max_bytes(opts.search_frames().saturating_sub(1), n)
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
        // samples can make a run's GIFs too large.
        let opts = GifOptions {
            cell: Some(256),
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
            assert!(
                m.width <= 4096 + 64 && m.height <= 4096 + 200,
                "{w}x{h}: {m:?}"
            );
            assert!(m.drawing < GIF_BUDGET / 4, "{w}x{h}: {m:?}");
            assert_eq!(m.recording, 0);
        }
    }

    #[test]
    fn samples_are_counted_by_frames_and_squares() {
        let board = Board::rectangle(5, 5);
        let at = |max_frames| {
            let opts = GifOptions {
                max_frames: Some(max_frames),
                ..GifOptions::default()
            };
            memory(&board, &opts, true, true)
        };
        // The run records with max_frames - 1 samples.
        let m = at(600);
        assert_eq!(m.recording, Recorder::max_bytes(599, 25));
        assert!(m.recording > 599 * 25 * 4);
        assert!(m.total() < GIF_BUDGET);
        // A hundred million frames of 25 squares need more than 4 GiB.
        assert!(at(100_000_000).total() > GIF_BUDGET);
        assert_eq!(at(100_000_000).drawing, m.drawing);
    }
}
