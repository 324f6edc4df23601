//! The puzzle's world: boards, pieces and the move graph built from them.

mod automorphisms;
mod board;
mod cell;
pub mod constraints;
mod goal;
pub mod graph;
pub mod letters;
pub mod magic;
mod piece;
pub mod symmetry;

pub use automorphisms::Symmetries;
pub use board::{Board, MAX_SIDE, Ray, Topology};
pub use cell::{Cell, file_index, file_name};
pub use constraints::{Constraints, TourSymmetry};
pub use goal::Goal;
pub use graph::{Adjacency, Adjacent, LeaperAdj, ListsAdj, MoveGraph, Targets};
pub use letters::Letters;
pub use magic::Magic;
pub use piece::{Move, Piece, UNLIMITED};
