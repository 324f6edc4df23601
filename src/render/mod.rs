//! Output: text and JSON for the terminal.

pub mod text;
