//! Which counter counts a puzzle: the depth-first search or the frontier
//! method, by an estimate of what each would cost.

use crate::model::{Board, Goal, MoveGraph};

use super::frontier::{self, Plan, Unfit};

/// A counting method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Depth-first search over the tours (`count::count`).
    Dfs,
    /// Dynamic programming over the frontier (`count::frontier`).
    Frontier,
}

impl Method {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dfs => "dfs",
            Method::Frontier => "frontier",
        }
    }
}

/// The method chosen, and why.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The method.
    pub method: Method,
    /// The frontier plan, when the method is the frontier.
    pub plan: Option<Plan>,
    /// Why, in words for the report.
    pub why: String,
}

/// Boards of fewer squares are counted by search whatever is asked: a tour
/// of one or two squares has no frontier to speak of.
pub const FRONTIER_MIN_SQUARES: usize = 3;

/// The estimated work of a frontier count: the sum over its steps of the
/// states a frontier of that width holds, at most, weighted by how many
/// grow into each other (see [`frontier_work`]).
pub fn frontier_work(plan: &Plan, closed: bool) -> f64 {
    plan.profile()
        .iter()
        .map(|&w| frontier::state_bound(w, closed).min(STATE_GROWTH.powi(w as i32)))
        .sum()
}

/// States of a frontier grow about this much per square in practice (far
/// less than the bound: most pairings are never reached).
const STATE_GROWTH: f64 = 2.4;

/// The estimated work of a depth-first count: the nodes of its search,
/// about `DFS_GROWTH` to the power of the squares for a piece of average
/// degree `d`, scaled by `d / 4`.
pub fn dfs_work(g: &MoveGraph) -> f64 {
    let n = g.len();
    let d = if n == 0 {
        0.0
    } else {
        g.edge_count() as f64 / n as f64
    };
    let growth = 1.0 + (d - 1.0).max(0.0) * DFS_GROWTH;
    growth.powi(n as i32)
}

/// Per unit of average degree above one, the factor by which a depth-first
/// count's nodes grow per square.
const DFS_GROWTH: f64 = 0.14;

/// Chooses the method for counting `goal` on `g`: `forced` when given
/// (an error if the frontier cannot count it), else the cheaper by the
/// estimates. A count split into shards is always a depth-first one.
pub fn choose(
    board: &Board,
    g: &MoveGraph,
    goal: &Goal,
    forced: Option<Method>,
    sharded: bool,
) -> Result<Choice, Unfit> {
    let dfs = |why: String| Choice {
        method: Method::Dfs,
        plan: None,
        why,
    };
    if forced == Some(Method::Dfs) {
        return Ok(dfs("as asked".into()));
    }
    if sharded {
        return Ok(dfs("shards split a depth-first search".into()));
    }
    if g.len() < FRONTIER_MIN_SQUARES {
        return Ok(dfs(format!("fewer than {FRONTIER_MIN_SQUARES} squares")));
    }
    let plan = match frontier::fit(board, g) {
        Ok(p) => p,
        Err(e) if forced.is_some() => return Err(e),
        Err(e) => return Ok(dfs(e.to_string())),
    };
    let f = frontier_work(&plan, goal.closed);
    let d = dfs_work(g);
    let words = format!(
        "frontier of {} squares {}; estimated work {:.1e} against {:.1e} for depth-first search",
        plan.width,
        plan.sweep.describe(),
        f,
        d
    );
    if forced == Some(Method::Frontier) || f < d {
        Ok(Choice {
            method: Method::Frontier,
            plan: Some(plan),
            why: if forced.is_some() {
                format!("as asked; {words}")
            } else {
                words
            },
        })
    } else {
        Ok(dfs(words))
    }
}
