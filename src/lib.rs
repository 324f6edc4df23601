//! `engine`: a declarative puzzle-spec engine for tours of a piece over a board.
//!
//! A puzzle file (RON) names a board and a piece in two small languages; both
//! become a [`model::MoveGraph`] — squares `0..n` with ordered target lists —
//! which is all any solver sees. Every tour is checked by [`verify::verify`],
//! which works from the board and piece directly.
//!
//! ```
//! use engine::puzzle::Puzzle;
//! use engine::solve::{Limits, Outcome};
//! use engine::solve::event::NoObserver;
//!
//! let p = Puzzle::parse("k.ron", r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#).unwrap();
//! let g = p.graph();
//! let report = engine::solve::runner::solve(&p, &g, &Limits::none(), &mut NoObserver).unwrap();
//! let Outcome::Found(tour) = report.outcome else { panic!() };
//! assert!(engine::verify::verify(&p.board, &p.piece, &p.goal, &tour).is_ok());
//! ```

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod analysis;
pub mod archive;
pub mod count;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod model;
pub mod output;
pub mod puzzle;
pub mod render;
pub mod solve;
pub mod verify;
