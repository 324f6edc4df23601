//! The puzzle's world: boards, pieces and the move graph built from them.

mod board;
mod graph;
mod piece;
pub mod symmetry;

pub use board::{Board, Cell, MAX_SIDE, Topology, file_index, file_name};
pub use graph::{Adjacency, Adjacent, LeaperAdj, ListsAdj, MoveGraph, Targets};
pub use piece::{Move, Piece, UNLIMITED};
