//! Animated GIFs: the tour being walked (`--gif`) and the search itself
//! (`--search-gif`).
//!
//! The board is a checkerboard of two calm colours; removed squares are dark
//! with a cross; on a cylinder or torus the wrapping edges are dashed and a
//! move across an edge leaves the board and comes back on the other side.
//! Visited squares are tinted, numbered with their step and joined by the
//! path, drawn through the square centres, each centre marked by a dot; the
//! piece's current square has an orange ring. File letters and rank
//! numbers run along the edges. Three styles ([`Style`]): step numbers, the
//! path alone, or the path coloured by step; boards over
//! [`SQUARES_MAX_SIDE`] squares a side are always coloured by step, on a
//! board of at most about a thousand pixels a side.
//!
//! Encoding uses one fixed palette (no colour quantisation). Each frame is
//! the rectangle of what changed since the previous one, with unchanged
//! pixels inside it transparent, compressed by the `gif` crate's LZW. Files
//! are written through [`PendingFile`] (see [`crate::output`]): to a
//! temporary file beside the output, renamed into place only when complete.
//!
//! This file holds what both GIFs share (options, the scene, errors, the
//! style) and the public paths; the work is split by job:
//!
//! - `palette`: the colour index of everything drawn, and the palette;
//! - `font`: glyphs, text widths, fitting text, thousands separators;
//! - `raster`: drawing primitives (the pen) and step-number sprites;
//! - `layout`: where everything goes in the image ([`Layout`]);
//! - `painter`: drawing a board state and finding what changed;
//! - `encoder`: cutting, compressing and writing frames, frame delays;
//! - `tour`: the tour GIF ([`tour_gif`]);
//! - `still`: the tour as a PNG ([`tour_png`]);
//! - `search`: the search GIF ([`search_gif`]);
//! - `memory`: the memory a run's GIFs need ([`memory()`], [`GIF_BUDGET`]).

use crate::halt::Stop;
use std::io;

use crate::model::{Board, MoveGraph};
use crate::puzzle::Puzzle;

mod encoder;
mod font;
mod layout;
mod memory;
mod painter;
mod palette;
mod raster;
mod search;
mod still;
mod tour;

pub use self::layout::{Caption, Layout, SQUARES_MAX_SIDE};
pub use self::memory::{GIF_BUDGET, GifMemory, memory};
pub use self::palette::{
    CANDIDATE, CAPTION_BG, CAPTION_DIM, CAPTION_FG, CHURN, CLOSING, CROSS, DARK, FLASH, GREEN, INK,
    LABEL, LIGHT, MARKER, PART, PARTS, PATH, RAMP_START, RED, REMOVED, REPAIRED, STATUS, STRIP_BG,
    STRIP_HIGH, STRIP_LOW, TINT_DARK, TINT_LIGHT, TRANSPARENT, VISITED, WRAP, palette,
};
pub(crate) use self::search::{Told, tell};
pub use self::search::{search_gif, search_layout};
pub use self::still::tour_png;
pub use self::tour::{tour_gif, tour_layout};
pub use crate::output::{PendingFile, discard_pending};

/// Options shared by both GIFs. `None` picks the default, which depends on
/// the board and the GIF (see each field).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GifOptions {
    /// Pixels per board square. Default: 48, smaller on boards that would
    /// be more than [`DEFAULT_BOARD_PX`] pixels a side (and always at most
    /// what fits 4,096 pixels; boards over [`SQUARES_MAX_SIDE`] squares a
    /// side get about a thousand pixels in all).
    pub cell: Option<u32>,
    /// Frames per second. Default: a tour GIF lasts 10 to 16 seconds
    /// whatever the board; a search GIF shows its steps at 4 a second and
    /// its time-lapse at 12.5.
    pub fps: Option<u32>,
    /// The most frames a GIF has. Default: [`TOUR_FRAMES`] for a tour (longer
    /// tours draw several moves per frame), [`SEARCH_FRAMES`] for a search.
    pub max_frames: Option<usize>,
    /// How the path is drawn. Default: [`Style::readable`] at the cell size.
    pub style: Option<Style>,
    /// The search's events drawn one by one, first and last, counted
    /// from 1. Default: the first [`DEFAULT_STEPS`] where one square's
    /// change can be seen ([`GifOptions::default_steps`]).
    pub steps: Option<(u64, u64)>,
}

/// The largest board, in pixels a side, the default cell gives.
pub const DEFAULT_BOARD_PX: u32 = 640;
/// The default cell, in pixels.
pub const DEFAULT_CELL: u32 = 48;
/// A tour GIF's default frame budget.
pub const TOUR_FRAMES: usize = 300;
/// A search GIF's default frame budget: a hundred steps and a hundred
/// frames of time-lapse, which keeps the GIF of the benchmark search
/// (BENCHMARKS.md) within twice the search's own cost.
pub const SEARCH_FRAMES: usize = 200;
/// How many of the search's first events a search GIF shows one by one by
/// default.
pub const DEFAULT_STEPS: u64 = 100;
/// The smallest cell, in pixels, on which a search GIF shows
/// [`DEFAULT_STEPS`] steps by default: one square's change is plain to see.
pub const STEP_CELL: u32 = 12;
/// The smallest cell on which a search GIF shows any steps by default
/// ([`FEW_STEPS`] of them): below it, a step changes a speck.
pub const SPECK_CELL: u32 = 6;
/// The steps a search GIF shows by default on cells from [`SPECK_CELL`] to
/// [`STEP_CELL`] pixels.
pub const FEW_STEPS: u64 = 10;

impl GifOptions {
    /// The cell asked for, or the default for `board`.
    pub fn cell_for(&self, board: &Board) -> u32 {
        self.cell.unwrap_or_else(|| {
            let side = board.width().max(board.height()).max(1);
            DEFAULT_CELL.min(DEFAULT_BOARD_PX / side).max(1)
        })
    }

    /// The style asked for, or the readable one for `board`.
    pub fn style_for(&self, board: &Board) -> Style {
        let side = board.width().max(board.height());
        match self.style {
            // Boards too large for squares are drawn coloured by step.
            Some(_) if side > SQUARES_MAX_SIDE => Style::Gradient,
            Some(s) => s,
            None => Style::readable(board, self.cell_for(board)),
        }
    }

    /// The search GIF's frame budget.
    pub fn search_frames(&self) -> usize {
        self.max_frames.unwrap_or(SEARCH_FRAMES).max(2)
    }

    /// The tour GIF's frame budget.
    pub fn tour_frames(&self) -> usize {
        self.max_frames.unwrap_or(TOUR_FRAMES).max(1)
    }

    /// How many of its first events a search GIF of `board` shows one by
    /// one when `--steps` does not say: [`DEFAULT_STEPS`] on cells of
    /// [`STEP_CELL`] pixels or more, [`FEW_STEPS`] on cells of
    /// [`SPECK_CELL`] or more, and none on smaller ones, where a step
    /// changes a speck and the time-lapse shows the search better.
    pub fn default_steps(&self, board: &Board) -> u64 {
        match self.cell_for(board) {
            c if c >= STEP_CELL => DEFAULT_STEPS,
            c if c >= SPECK_CELL => FEW_STEPS,
            _ => 0,
        }
    }

    /// The recorder a search GIF of `board` with these options needs: as
    /// [`GifOptions::recorder`], the default window of steps fitted to the
    /// board's cells ([`GifOptions::default_steps`]).
    pub fn search_recorder(&self, board: &Board) -> crate::render::record::Recorder {
        let samples = self.search_frames().saturating_sub(1) as u64;
        let steps = self.default_steps(board).min(samples.div_ceil(2));
        GifOptions {
            steps: Some(self.steps.unwrap_or((1, steps))),
            ..*self
        }
        .recorder()
    }

    /// The recorder a search GIF with these options needs: its events
    /// `steps` one by one, the rest as a time-lapse, within the frame
    /// budget less the final frames.
    pub fn recorder(&self) -> crate::render::record::Recorder {
        let samples = self.search_frames().saturating_sub(1);
        // By default at most half the budget goes to the steps.
        let (first, last) = self
            .steps
            .unwrap_or((1, DEFAULT_STEPS.min((samples as u64).div_ceil(2))));
        crate::render::record::Recorder::with_steps(samples, first.saturating_sub(1)..last)
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
    /// The move graph, when known: search GIFs use it to show Warnsdorff's
    /// candidates, dead ends and the proofs.
    pub graph: Option<&'a MoveGraph>,
}

impl<'a> Scene<'a> {
    /// The scene of a puzzle: its name, piece and board in the caption.
    pub fn new(puzzle: &'a Puzzle) -> Scene<'a> {
        Scene {
            board: &puzzle.board,
            title: puzzle.name.clone(),
            subtitle: format!(
                "{} on {} \u{b7} {} tour",
                puzzle.piece_spelled(),
                puzzle.board.describe(),
                if puzzle.goal.closed { "closed" } else { "open" }
            ),
            closed: puzzle.goal.closed,
            graph: None,
        }
    }

    /// This scene with the puzzle's move graph.
    pub fn with_graph(self, graph: &'a MoveGraph) -> Scene<'a> {
        Scene {
            graph: Some(graph),
            ..self
        }
    }
}

/// What went wrong writing a GIF.
#[derive(Debug)]
pub enum GifError {
    /// Writing failed.
    Io(io::Error),
    /// The halt said stop (Ctrl-C).
    Stopped(Stop),
}

impl std::fmt::Display for GifError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GifError::Io(e) => write!(f, "{e}"),
            GifError::Stopped(stop) => write!(f, "{stop}"),
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
    /// Visited squares tinted and numbered with their step, the path and
    /// dots.
    Numbers,
    /// Visited squares tinted, the path and dots, no numbers.
    Path,
    /// The path coloured from blue (first move) to orange (last), over the
    /// squares (large boards: the path alone, scaled).
    Gradient,
}
