//! Which counter counts a puzzle: the depth-first search or the frontier
//! method, by an estimate of what each would cost.
//!
//! The rule (both estimates are in microseconds):
//! - **frontier**: the states the sweep expands
//!   ([`frontier::estimate_expanded`]: for a sweep, the largest step's
//!   states, fitted to the widest frontier and the number of lines swept,
//!   times a fifth of the squares; for a greedy order, fitted to the sizes
//!   of all its frontiers) at 0.7 µs a state, plus 50 µs (measured on
//!   knight boards of 12 to 48 squares: 0.2 to 1.1 µs an estimated state
//!   for counts over 5 ms);
//! - **depth-first**: `e^(a·(n − b))` nodes at 0.08 µs a node, for `n`
//!   squares of average degree `d`, with `a = 0.74 · ln(d − 1) / ln 3.57`
//!   and `b = 13.5` for open tours, `a = 0.5 · ln(d − 1) / ln 3.57` and
//!   `b = 10.4` for closed ones — fitted to the knight's counts from 5x5 to
//!   7x7 (BENCHMARKS.md) — plus 1 ms for open tours and 0.2 ms for closed
//!   ones (what small boards take over the nodes: 0.5 to 1.5 ms open, 0.15
//!   to 0.3 ms closed).
//!
//! The frontier is chosen when its estimate is the smaller and its states
//! are estimated to fit the memory budget. A count split into shards, a
//! piece with one-way moves, a board of fewer than three squares, a sweep
//! wider than the frontier can hold and one whose widest frontier is more
//! than two lines and a square (a piece that reaches further than the
//! knight, outside the fit: no estimate) are counted depth-first unless
//! the frontier is asked for.

use crate::model::{Board, Goal, MoveGraph};

use super::frontier::{self, Plan, Sweep, Unfit};

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

/// The estimated time of a frontier count with `plan` over `lines` files
/// or ranks, in microseconds.
pub fn frontier_micros(plan: &Plan, lines: u32, closed: bool) -> f64 {
    50.0 + frontier::estimate_expanded(plan, lines, closed) * 0.7
}

/// The files or ranks `plan` sweeps on `board`, and the squares across
/// each.
pub fn lines(board: &Board, plan: &Plan) -> (u32, u32) {
    match plan.sweep {
        Sweep::Files => (board.width(), board.height()),
        Sweep::Ranks => (board.height(), board.width()),
        // Along the longer side, as a sweep would go.
        Sweep::Greedy => (
            board.width().max(board.height()),
            board.width().min(board.height()),
        ),
    }
}

/// The estimated time of a depth-first count on `g`, in microseconds.
pub fn dfs_micros(g: &MoveGraph, closed: bool) -> f64 {
    let n = g.len() as f64;
    let d = if g.is_empty() {
        0.0
    } else {
        g.edge_count() as f64 / n
    };
    let per = (d - 1.0).max(1.0).ln() / 3.57f64.ln();
    let (a, b, fixed) = if closed {
        (0.5, 10.4, 200.0)
    } else {
        (0.74, 13.5, 1000.0)
    };
    fixed + (a * per * (n - b)).exp() * 0.08
}

/// Chooses the method for counting `goal` on `g`: `forced` when given
/// (an error if the frontier cannot count it), else the cheaper by the
/// estimates. A count split into shards is always a depth-first one.
pub fn choose(
    board: &Board,
    g: &MoveGraph,
    goal: &Goal,
    forced: Option<Method>,
    sharded: bool,
    budget: u64,
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
    let plan = match frontier::fit(board, g) {
        Ok(p) => p,
        Err(e) if forced.is_some() => return Err(e),
        Err(e) => return Ok(dfs(e.to_string())),
    };
    let (lines, across) = lines(board, &plan);
    if !frontier::within_fit(&plan, across) {
        let words = format!(
            "frontier of {} squares {}, wider than two lines: no estimate of its states",
            plan.width,
            plan.sweep.describe()
        );
        return Ok(match forced {
            Some(_) => Choice {
                method: Method::Frontier,
                plan: Some(plan),
                why: format!("as asked; {words}"),
            },
            None => dfs(words),
        });
    }
    let bytes = frontier::estimate_bytes(&plan, lines, goal.closed);
    let over = bytes > budget;
    if over && forced.is_some() {
        return Err(Unfit::TooBig {
            need: bytes,
            budget,
            at: 0,
        });
    }
    let f = frontier_micros(&plan, lines, goal.closed);
    let d = dfs_micros(g, goal.closed);
    let words = format!(
        "frontier of {} squares {}, about {} states ({}) at its widest, estimated {} against {} depth-first",
        plan.width,
        plan.sweep.describe(),
        rounded(frontier::estimate_peak(&plan, lines, goal.closed)),
        crate::budget::bytes(bytes),
        time(f),
        time(d)
    );
    if forced == Some(Method::Frontier) {
        return Ok(Choice {
            method: Method::Frontier,
            plan: Some(plan),
            why: format!("as asked; {words}"),
        });
    }
    if over {
        return Ok(dfs(format!(
            "the frontier's states would need about {}",
            crate::budget::bytes(bytes)
        )));
    }
    if f < d {
        Ok(Choice {
            method: Method::Frontier,
            plan: Some(plan),
            why: words,
        })
    } else {
        Ok(dfs(words))
    }
}

/// A large estimate for people: two significant digits, grouped by
/// thousands (`8,600`, `30,000,000`).
fn rounded(x: f64) -> String {
    let x = x.max(1.0);
    let scale = 10f64.powi((x.log10().floor() as i32 - 1).max(0));
    let v = (x / scale).round() * scale;
    let digits = format!("{v:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An estimated time for people, rounded: `0.3 s`, `2 h`, `4e9 years`.
fn time(micros: f64) -> String {
    let s = micros / 1e6;
    if s < 0.01 {
        "under 0.01 s".to_string()
    } else if s < 60.0 {
        format!("{s:.2} s")
    } else if s < 3600.0 * 48.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 3.2e8 {
        format!("{:.0} days", s / 86400.0)
    } else {
        format!("{:.0e} years", s / 3.15e7)
    }
}

#[cfg(test)]
mod tests {
    use super::rounded;

    #[test]
    fn estimates_are_rounded_to_two_digits() {
        assert_eq!(rounded(3.2), "3");
        assert_eq!(rounded(8625.0), "8,600");
        assert_eq!(rounded(1449.0), "1,400");
        assert_eq!(rounded(29_760_000.0), "30,000,000");
    }
}
