//! Output: text and JSON for the terminal, animated GIFs.

pub mod gif;
pub mod sample;
pub mod text;
