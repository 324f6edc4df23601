//! Output: text and JSON for the terminal, animated GIFs, search traces.

pub mod gif;
pub mod text;
pub mod trace;
