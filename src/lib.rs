//! `engine`: a declarative puzzle-spec engine for tours of a piece over a board.
//!
//! A puzzle file (RON) names a board and a piece in two small languages
//! ([`puzzle`]); both become a [`MoveGraph`] — squares `0..n` with ordered
//! target lists — and a [`Goal`], which is all any solver sees ([`model`]).
//! Proofs that need no search live in [`analysis`]; the solvers, their one
//! interface ([`Solver`]: a [`Task`] and a [`Run`] in, a [`Report`] out) and
//! the runner that chooses among them in [`solve`]; exact counting in
//! [`count`]. Where the layers meet, each protocol is one type: [`Halt`]
//! for stopping, [`Progress`] for progress, [`search::event::Event`] for the
//! search as it happens, [`SolverId`] for who answered, and
//! [`output`]'s file for writing whole or not at all. Every tour is checked
//! by [`verify::verify`], which works from the board and piece directly.
//!
//! ```
//! use engine::halt::Never;
//! use engine::progress::Progress;
//! use engine::puzzle::Puzzle;
//! use engine::search::event::NoObserver;
//! use engine::solve::{Limits, Outcome, Run};
//!
//! let p = Puzzle::parse("k.ron", r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#).unwrap();
//! let Ok(g) = p.graph(&Never);
//! let progress = Progress::new();
//! let run = Run::new(Limits::none(), &progress, NoObserver);
//! let report = engine::solve::runner::solve(&p.task(&g), p.solver, run).unwrap();
//! let Outcome::Found(tour) = report.outcome else { panic!() };
//! assert!(engine::verify::verify(&p.board, &p.piece, &p.goal, &tour).is_ok());
//! ```

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod analysis;
pub mod archive;
pub mod budget;
pub mod count;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod halt;
pub mod make;
pub mod model;
pub mod output;
pub mod progress;
pub mod puzzle;
pub mod render;
pub mod search;
pub mod solve;
pub mod spelling;
pub mod verify;
pub mod words;

pub use halt::{Halt, Limit, Limits, Never, Stop};
pub use model::{Board, Cell, Goal, MoveGraph, Piece, Topology};
pub use progress::{Progress, Unit};
pub use puzzle::Puzzle;
pub use solve::{Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Task};
