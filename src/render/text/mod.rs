//! Terminal text, one file per report: [`run`] (also `archive show`),
//! [`check`], [`count`] and [`archive`]'s tables, over the board's grid and
//! move list ([`board`]) and the formatting they share ([`mod@format`]). The
//! text names no command-line flag: where a report leaves out what a flag
//! would show, the caller says how to have it ([`GridChoice`]).

pub mod archive;
pub mod board;
pub mod check;
pub mod count;
pub mod format;
pub mod run;

pub use archive::{archive_list, archive_stats};
pub use board::{GRID_MAX_SIDE, GridChoice, grid, grid_fits, grid_with, move_list, push_move_list};
pub use check::{check_report, move_diagram, part_letter};
pub use count::{count_subject, count_text, listed_text, merged_text, shard_line};
pub use format::duration;
pub use run::{report_text, starts_line, stats_line, status_line, stuck_line, write_report_text};
