//! Exact tour counts, by two methods side by side: [`dfs`], a depth-first
//! search over the tours on all cores (and in shards for a cluster), and
//! [`frontier`], dynamic programming over the squares' frontier; [`method`]
//! chooses between them by what each would cost.

pub mod dfs;
pub mod frontier;
pub mod method;

pub use dfs::{CountOptions, Counted, DEFAULT_TASKS, Shard, TASKS_PER_SHARD, count};
