//! Output: text and JSON for the terminal, animated GIFs, SVG stills,
//! search traces, the HTML player.

pub mod gif;
pub mod html;
pub mod json;
pub mod lineage;
pub mod record;
pub mod svg;
pub mod text;
pub mod trace;
pub mod why;
