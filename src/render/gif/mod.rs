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
//! - `search`: the search GIF ([`search_gif`]);
//! - `memory`: the memory a run's GIFs need ([`memory`], [`GIF_BUDGET`]).

use crate::halt::Stop;
use std::io;

use crate::model::Board;
use crate::puzzle::Puzzle;

mod encoder;
mod font;
mod layout;
mod memory;
mod painter;
mod palette;
mod raster;
mod search;
mod tour;

pub use self::layout::{Layout, SQUARES_MAX_SIDE};
pub use self::memory::{GIF_BUDGET, GifMemory, memory};
pub use self::palette::{
    CAPTION_BG, CAPTION_DIM, CAPTION_FG, CLOSING, CROSS, DARK, FLASH, GREEN, INK, LIGHT, MARKER,
    PATH, RAMP_START, RED, REMOVED, STATUS, TINT_DARK, TINT_LIGHT, TRANSPARENT, VISITED, WRAP,
    palette,
};
pub use self::search::search_gif;
pub use self::tour::tour_gif;
pub use crate::output::{PendingFile, discard_pending};

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
    /// Squares with tints, step numbers, the path and dots.
    Squares,
    /// The path alone, coloured by step (large boards).
    PathOnly,
}
