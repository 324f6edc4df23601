//! The integration tests, in one crate: the library through its public API,
//! and the `engine` binary as a user runs it.

mod util;

mod archive;
mod bad_corpus;
mod cdp;
mod cli;
mod clued;
mod complete;
mod count;
mod count_cli;
mod count_entry;
mod count_frontier;
mod count_list;
mod count_rules;
mod count_shards;
mod count_spill;
mod count_subset;
mod docs;
mod events;
mod faults;
mod fuzz_corpus;
mod genetic_solver;
mod genres;
mod gif;
mod gif_cli;
mod gif_gallery;
mod gif_trace;
mod hostile;
mod interrupt;
mod layers;
mod magic;
mod make;
mod memory_limits;
mod messages;
mod player;
mod positions;
mod props;
mod published;
mod scripting;
mod serve;
mod studio;
mod symmetric;
mod symmetric_count;
mod warnsdorff;
mod words;
