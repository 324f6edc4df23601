//! Output: text and JSON for the terminal, animated GIFs.

pub mod gif;
pub mod text;
