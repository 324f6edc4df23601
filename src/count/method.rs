//! Which counter counts a puzzle: the depth-first search, the frontier
//! method or the subsets of squares, by an estimate of what each would
//! cost.
//!
//! The subset method's estimate (`subset::estimate_micros`) holds for every
//! piece and board; it is taken when it fits the memory and is the
//! cheapest, or, where the other two are not estimated (see below), under
//! [`SUBSET_UNFITTED_BELOW`].
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
//! piece with one-way moves, a board of fewer than three squares and a
//! sweep wider than the frontier can hold are counted depth-first unless
//! the frontier is asked for. A piece that reaches further than two lines,
//! or a widest frontier of more than two lines and a square, is outside the
//! fit: with no estimate of its states the frontier is tried first, and the
//! search counts if they pass the memory budget. Both estimates are the
//! knight's on a board that does not wrap ([`estimates_unfitted`]): on a board
//! that wraps, or with a piece of other moves, neither is made and the
//! frontier is tried first in the same way.

use crate::halt::Limits;
use crate::model::{Board, Goal, MoveGraph};
use crate::words::{many, thousands};

use super::frontier::{self, Plan, Sweep, Unfit};
use super::subset;

/// A counting method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Depth-first search over the tours (`count::dfs::count`).
    Dfs,
    /// Dynamic programming over the frontier (`count::frontier`).
    Frontier,
    /// Dynamic programming over the subsets of squares (`count::subset`).
    Subset,
}

impl Method {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dfs => "dfs",
            Method::Frontier => "frontier",
            Method::Subset => "subset",
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

/// The most files or ranks one move of `g` spans (the short way across a
/// wrapping edge).
pub fn reach(board: &Board, g: &MoveGraph) -> u32 {
    let mut most = 0;
    for s in 0..g.len() as u32 {
        let a = board.cell(s);
        for t in g.neighbours(s) {
            let (dx, dy) = board.shortest_vector(a, board.cell(t));
            most = most.max(dx.unsigned_abs().max(dy.unsigned_abs()));
        }
    }
    u32::try_from(most).unwrap_or(u32::MAX)
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

/// Why the estimates do not hold for `g` on `board`, if they do not: they
/// are fitted to the knight on boards that do not wrap, and where the
/// board wraps, or the piece has other moves, tours and states are far
/// more plentiful than they say (the knight's closed tours of a 5x4 Klein
/// bottle: under 0.01 s estimated, 6.9 s by search, 13 ms by the frontier,
/// 190 states estimated at the widest and 4,167 held; the knight and the
/// wazir together on 4x5, open: more than 8 s by search, 0.13 s by the
/// frontier; the king's open tours of 6x6: 16 states estimated, 7,205
/// held).
pub fn estimates_unfitted(board: &Board, g: &MoveGraph) -> Option<&'static str> {
    if board.topology().wraps_files() || board.topology().wraps_ranks() {
        return Some("the board wraps");
    }
    let knight = (0..g.len() as u32).all(|s| {
        let a = board.cell(s);
        g.neighbours(s).all(|t| {
            let b = board.cell(t);
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            (dx, dy) == (1, 2) || (dx, dy) == (2, 1)
        })
    });
    (!knight).then_some("moves other than the knight's")
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
/// estimates. A count split into shards is always a depth-first one. The
/// closed counts that may pick a wider order for an open count obey
/// `limits` (stopped, they leave the order as it is) and share `pilot`
/// bytes of memory, half each; with None they are not run, and the order
/// is the narrowest (a frontier shard's: its unit is a fraction of the
/// count, and the closed counts are the whole board's, the same in every
/// shard — the knight's 8x8 closed tours, 14 GB, in each of 136).
#[allow(clippy::too_many_arguments)]
pub fn choose(
    board: &Board,
    g: &MoveGraph,
    goal: &Goal,
    forced: Option<Method>,
    sharded: bool,
    budget: u64,
    pilot: Option<u64>,
    limits: &Limits,
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
    // The subset method's cost is known exactly from the squares alone.
    let subset_micros = (forced.is_none() && subset::fit(g, goal, budget).is_ok())
        .then(|| subset::estimate_micros(g, goal));
    let subset_choice = |against: String| Choice {
        method: Method::Subset,
        plan: None,
        why: format!(
            "at most {} counts in a layer of sets, estimated {} against {against}",
            crate::words::thousands(subset::peak_counts(subset::set_squares(g.len(), goal))),
            time(subset_micros.unwrap_or(0.0))
        ),
    };
    let plan = match frontier::fit(board, g) {
        Ok(p) => p,
        Err(e) if forced.is_some() => return Err(e),
        Err(e) => {
            // The search's estimate is the knight's: for other pieces the
            // subset method's own estimate decides alone. (Weighed only
            // when the subset method fits: on a huge board the test of the
            // moves is a pass over every square.)
            let d = || match estimates_unfitted(board, g) {
                Some(_) => SUBSET_UNFITTED_BELOW,
                None => dfs_micros(g, goal.closed),
            };
            return Ok(match subset_micros {
                Some(s) if s < d() => subset_choice(format!("the search ({e})")),
                _ => dfs(e.to_string()),
            });
        }
    };
    let (lines, across) = lines(board, &plan);
    let reach = reach(board, g);
    // Both estimates are the knight's on a board that does not wrap.
    let unfitted = estimates_unfitted(board, g);
    if !frontier::within_fit(&plan, across, reach) || unfitted.is_some() {
        let beyond = match unfitted {
            _ if reach > 2 => format!("moves across {reach} lines"),
            Some(why) => why.to_string(),
            None => "wider than two lines".to_string(),
        };
        let search = if reach <= 2 && unfitted.is_some() {
            " or of the search"
        } else {
            ""
        };
        let words = format!(
            "frontier of {} squares {}, {beyond}: no estimate of its states{search}",
            plan.width,
            plan.sweep.describe()
        );
        // Within two lines the knight's fit is low for other moves and for
        // the Klein bottle and the torus (the king's open tours of 6x6: 16
        // states at the widest, 7,205 held): a count it puts over the
        // budget is left to the search rather than filling the memory
        // first.
        let bytes = frontier::estimate_bytes(&plan, lines, goal.closed);
        if let Some(s) = subset_micros
            && s < SUBSET_UNFITTED_BELOW
        {
            return Ok(subset_choice(format!(
                "no estimate of the frontier's states ({beyond})"
            )));
        }
        if forced.is_none() && frontier::within_fit(&plan, across, reach) && bytes > budget {
            return Ok(dfs(format!(
                "the frontier's states would need about {} by the knight's fit; {beyond}",
                crate::budget::bytes(bytes)
            )));
        }
        return Ok(match forced {
            Some(_) => Choice {
                method: Method::Frontier,
                plan: Some(plan),
                why: format!("as asked; {words}"),
            },
            None => Choice {
                method: Method::Frontier,
                plan: Some(plan),
                why: format!("{words}, tried first"),
            },
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
    let peak = rounded(frontier::estimate_peak(&plan, lines, goal.closed));
    let frontier_words = format!(
        "frontier of {} squares {}, about {peak} {} ({}) at its widest, estimated {}",
        plan.width,
        plan.sweep.describe(),
        if peak == "1" { "state" } else { "states" },
        crate::budget::bytes(bytes),
        time(f),
    );
    let words = format!("{frontier_words} against {} depth-first", time(d));
    // Open tours on a board worth it: the narrowest order or one a square
    // wider, by a count of the closed tours with each (`frontier::pilot`).
    let settle = |plan: Plan, words: String| -> (Plan, String) {
        let Some(memory) = pilot else {
            return (plan, words);
        };
        if goal.closed || frontier::estimate_expanded(&plan, lines, false) < PILOT_ABOVE {
            return (plan, words);
        }
        let cap = (frontier::estimate_expanded(&plan, lines, false) * PILOT_SHARE) as u64;
        let bytes = bytes.clamp(PILOT_BYTES_MIN, memory.max(PILOT_BYTES_MIN));
        match frontier::pilot::pilot(board, g, plan, cap, bytes, limits) {
            (plan, Some(p)) => {
                let n = thousands(p.narrowest);
                let more = match p.wider {
                    Some(w) if p.wider_taken() => format!(
                        "taken one square wider, where a count of the closed tours held {} against {n}",
                        many(w, "state")
                    ),
                    Some(w) => format!(
                        "an order one square wider held as many or more in a count of the closed tours ({} against {n})",
                        many(w, "state")
                    ),
                    None => format!(
                        "an order one square wider held more in a count of the closed tours (over {})",
                        many(p.narrowest, "state")
                    ),
                };
                (plan, format!("{words}; {more}"))
            }
            (plan, None) => (plan, words),
        }
    };
    if forced == Some(Method::Frontier) {
        let (plan, words) = settle(plan, words);
        return Ok(Choice {
            method: Method::Frontier,
            plan: Some(plan),
            why: format!("as asked; {words}"),
        });
    }
    if let Some(s) = subset_micros
        && s < d
        && (over || s < f)
    {
        return Ok(subset_choice(format!(
            "{} by the frontier and {} depth-first",
            time(f),
            time(d)
        )));
    }
    if over {
        return Ok(dfs(format!(
            "the frontier's states would need about {}",
            crate::budget::bytes(bytes)
        )));
    }
    if f < d {
        let (plan, why) = settle(plan, words);
        Ok(Choice {
            method: Method::Frontier,
            plan: Some(plan),
            why,
        })
    } else {
        Ok(dfs(words))
    }
}

/// Where neither the frontier's states nor the search are estimated (a
/// board that wraps, a piece other than the knight), the subset method is
/// taken when its own estimate, which holds for every piece, is under this
/// many microseconds (a tenth of a second: the knight's open tours of a 3x6
/// Klein bottle, estimated 0.08 s, take it 0.6 s and the frontier 37 s;
/// its closed tours of a 5x4 Klein bottle, estimated 0.14 s, take the
/// frontier 13 ms).
pub const SUBSET_UNFITTED_BELOW: f64 = 1e5;

/// Open counts whose narrowest order is estimated to expand at least this
/// many states try an order a square wider first (`frontier::pilot`): the
/// two closed counts cost about a fifteenth as much (10x4 open: 2,883
/// states against 67,761; 8x5: 33,185 against 651,482).
pub const PILOT_ABOVE: f64 = 10_000.0;

/// The pilot's closed count of the narrowest order stops after holding
/// this share of the open count's estimated states in all (a closed count
/// holds a thirtieth to a fortieth of them on the knight's boards)...
const PILOT_SHARE: f64 = 0.125;

/// ... or this much memory at once, if the open count's estimate is less.
const PILOT_BYTES_MIN: u64 = 1 << 20;

/// A large estimate for people: two significant digits, grouped by
/// thousands (`8,600`, `30,000,000`).
fn rounded(x: f64) -> String {
    let x = x.max(1.0);
    let scale = 10f64.powi((x.log10().floor() as i32 - 1).max(0));
    let v = (x / scale).round() * scale;
    thousands(v as u64)
}

/// An estimated time for people, rounded: `0.3 s`, `2 h`, `4e9 years`.
pub fn time(micros: f64) -> String {
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
    use super::{Method, choose, reach, rounded};
    use crate::halt::{Limits, Never};
    use crate::model::{Board, Goal, MoveGraph, Piece, Topology};

    /// `choose` for a count not split into shards, with the frontier's
    /// budget for the count and for its closed pilot counts.
    fn unsharded(
        board: &Board,
        g: &MoveGraph,
        goal: &Goal,
        forced: Option<Method>,
        limits: &Limits,
    ) -> Result<super::Choice, super::Unfit> {
        let budget = crate::budget::FRONTIER;
        choose(board, g, goal, forced, false, budget, Some(budget), limits)
    }

    /// The graph of the (m, n) leaper, `range` moves a ride (1: a leap).
    fn graph(board: &Board, (m, n, range): (i32, i32, u32)) -> MoveGraph {
        let Ok(g) = MoveGraph::build(board, &Piece::leaper(m, n, range), &Never);
        g
    }

    #[test]
    fn reach_is_the_most_lines_a_move_spans() {
        let board = Board::rectangle(6, 6);
        assert_eq!(reach(&board, &graph(&board, (1, 2, 1))), 2);
        assert_eq!(reach(&board, &graph(&board, (2, 3, 1))), 3);
        assert_eq!(reach(&board, &graph(&board, (1, 4, 1))), 4);
        // The nightrider's longest ride on 6x6: two knight moves.
        assert_eq!(
            reach(&board, &graph(&board, (1, 2, crate::model::UNLIMITED))),
            4
        );
    }

    #[test]
    fn pieces_beyond_the_fit_are_tried_by_the_frontier() {
        let goal = Goal::default();
        let board = Board::rectangle(10, 10);
        let g = graph(&board, (1, 4, 1));
        let Ok(asked) = unsharded(&board, &g, &goal, Some(Method::Frontier), &Limits::none())
        else {
            panic!("the frontier was refused");
        };
        assert_eq!(asked.method, Method::Frontier);
        let Ok(auto) = unsharded(&board, &g, &goal, None, &Limits::none()) else {
            panic!("no choice");
        };
        assert_eq!(auto.method, Method::Frontier);
        assert!(auto.why.contains("no estimate"), "{}", auto.why);
        // The knight keeps its estimates.
        let board = Board::rectangle(8, 5);
        let g = graph(&board, (1, 2, 1));
        let Ok(knight) = unsharded(&board, &g, &goal, None, &Limits::none()) else {
            panic!("no choice");
        };
        assert!(knight.why.contains("states"), "{}", knight.why);
        assert!(!knight.why.contains("no estimate"), "{}", knight.why);
    }

    /// Both estimates are fitted to the knight on boards that do not wrap;
    /// elsewhere tours and states are far more plentiful than they say.
    #[test]
    fn estimates_are_made_only_for_the_knight_on_a_board_that_does_not_wrap() {
        let auto = |board: &Board, piece: &Piece, closed: bool| {
            let Ok(g) = MoveGraph::build(board, piece, &Never);
            let goal = Goal {
                closed,
                ..Goal::default()
            };
            let Ok(c) = unsharded(board, &g, &goal, None, &Limits::none()) else {
                panic!("no choice");
            };
            c
        };
        let knight = Piece::leaper(1, 2, 1);
        // The knight's closed tours of a 5x4 Klein bottle: estimated under
        // 0.01 s by search, which took 6.9 s; the frontier 13 ms.
        let klein = Board::new(5, 4, Topology::Klein, |_| true);
        let c = auto(&klein, &knight, true);
        assert_eq!(c.method, Method::Frontier, "{}", c.why);
        assert!(c.why.contains("the board wraps"), "{}", c.why);
        // The frontier's states are not estimated either (the knight's fit
        // said 190 at the widest, 4,167 were held).
        assert!(
            c.why.ends_with(
                "the board wraps: no estimate of its states or of the search, tried first"
            ),
            "{}",
            c.why
        );
        assert!(!c.why.contains("about"), "{}", c.why);
        // Asked for, it is not "tried first".
        let Ok(g) = MoveGraph::build(&klein, &knight, &Never);
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let limits = Limits::none();
        let Ok(asked) = unsharded(&klein, &g, &closed, Some(Method::Frontier), &limits) else {
            panic!("the frontier was refused");
        };
        assert!(asked.why.starts_with("as asked; "), "{}", asked.why);
        assert!(
            asked
                .why
                .ends_with("the board wraps: no estimate of its states or of the search"),
            "{}",
            asked.why
        );
        // 5x5 cylinder, closed: 387 ms by search against 20 ms.
        let cylinder = Board::new(5, 5, Topology::Cylinder, |_| true);
        let c = auto(&cylinder, &knight, true);
        assert_eq!(c.method, Method::Frontier, "{}", c.why);
        // The knight and the wazir together on 4x5, open: more than 8 s
        // by search against 0.13 s.
        let both = knight.clone().union(&Piece::leaper(0, 1, 1));
        let c = auto(&Board::rectangle(4, 5), &both, false);
        assert_eq!(c.method, Method::Frontier, "{}", c.why);
        assert!(c.why.contains("moves other than the knight's"), "{}", c.why);
        // The king on 6x6: the knight's fit said 16 states at the widest,
        // 7,205 were held.
        let king = Piece::leaper(0, 1, 1).union(&Piece::leaper(1, 1, 1));
        let c = auto(&Board::rectangle(6, 6), &king, false);
        assert_eq!(c.method, Method::Frontier, "{}", c.why);
        assert!(
            c.why.ends_with(
                "moves other than the knight's: no estimate of its states or of the search, tried first"
            ),
            "{}",
            c.why
        );
        // Where the knight's fit, low for the king, puts the states over
        // the budget, the search counts rather than the frontier filling
        // the memory first.
        let c = auto(&Board::rectangle(30, 30), &king, false);
        assert_eq!(c.method, Method::Dfs, "{}", c.why);
        assert!(
            c.why
                .ends_with("by the knight's fit; moves other than the knight's"),
            "{}",
            c.why
        );
        // The knight on a rectangle keeps both estimates.
        let c = auto(&Board::rectangle(4, 5), &knight, false);
        assert!(c.why.contains("depth-first"), "{}", c.why);
        assert!(!c.why.contains("wraps"), "{}", c.why);
    }

    #[test]
    fn open_counts_take_an_order_a_square_wider_when_its_closed_count_holds_fewer() {
        let choice = |w: u32, h: u32, closed: bool| {
            let board = Board::rectangle(w, h);
            let g = graph(&board, (1, 2, 1));
            let goal = Goal {
                closed,
                ..Goal::default()
            };
            let Ok(c) = unsharded(&board, &g, &goal, None, &Limits::none()) else {
                panic!("no choice on {w}x{h}");
            };
            assert_eq!(c.method, Method::Frontier, "{w}x{h}: {}", c.why);
            let Some(plan) = c.plan else {
                panic!("no plan on {w}x{h}");
            };
            (plan.width, c.why)
        };
        // 10x4: the narrowest greedy order keeps 9 squares; one of 10 holds
        // a quarter of its states.
        let (width, why) = choice(10, 4, false);
        assert_eq!(width, 10, "{why}");
        assert!(why.contains("frontier of 9 squares"), "{why}");
        assert!(why.contains("taken one square wider"), "{why}");
        // 6x6: the wider order holds more, and the narrowest is kept.
        let (width, why) = choice(6, 6, false);
        assert_eq!(width, 10, "{why}");
        assert!(why.contains("frontier of 10 squares"), "{why}");
        assert!(why.contains("one square wider held"), "{why}");
        // Closed counts are not piloted.
        let (width, why) = choice(10, 4, true);
        assert!(!why.contains("wider"), "{why}");
        assert!(width <= 10, "{why}");
    }

    #[test]
    fn a_stopped_limit_leaves_the_order_as_it_is() {
        let board = Board::rectangle(10, 4);
        let g = graph(&board, (1, 2, 1));
        let spent = Limits::none().with_time(Some(0.0));
        let Ok(c) = unsharded(&board, &g, &Goal::default(), None, &spent) else {
            panic!("no choice");
        };
        assert!(!c.why.contains("wider"), "{}", c.why);
        assert_eq!(c.plan.map(|p| p.width), Some(9), "{}", c.why);
    }

    #[test]
    fn estimates_are_rounded_to_two_digits() {
        assert_eq!(rounded(3.2), "3");
        assert_eq!(rounded(8625.0), "8,600");
        assert_eq!(rounded(1449.0), "1,400");
        assert_eq!(rounded(29_760_000.0), "30,000,000");
    }
}
