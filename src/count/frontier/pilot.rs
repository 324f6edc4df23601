//! Choosing between the narrowest order and one a square wider by a cheap
//! count of the closed tours on each.
//!
//! How many states an order holds is not told by the sizes of its
//! frontiers: the look-ahead cuts far more where the order passes squares
//! of few moves (corners) early. On the knight's boards four squares across
//! the cheapest order one square wider holds a quarter of the narrowest's
//! states (10x4 open: 15,529 against 67,761). Counting the closed tours
//! with an order costs a thirtieth to a fortieth of counting the open ones
//! and ranks the orders alike (a rank correlation of 0.8 to 0.97 over the
//! greedy orders of 10x4, 9x4, 8x5, 5x8 and 6x6 open: BENCHMARKS.md), so an
//! open count takes the order whose closed count held fewer states.

use super::{FrontierOptions, Plan, count};
use crate::halt::{Limit, Limits, Stop};
use crate::model::{Board, Goal, MoveGraph};
use crate::progress::Progress;

/// What the closed counts found: the states each order held in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piloted {
    /// The narrowest order's.
    pub narrowest: u64,
    /// The order a square wider's; None when its count was stopped by the
    /// cap the narrowest's count finished under.
    pub wider: Option<u64>,
}

impl Piloted {
    /// Whether the wider order is taken.
    pub fn wider_taken(&self) -> bool {
        self.wider.is_some_and(|w| w < self.narrowest)
    }
}

/// The order to count the open tours of `g` (on `board`) with: `plan`, or
/// the cheapest greedy order a square wider ([`Plan::wider`]) when the
/// closed tours' count held fewer states with it. The two closed counts run
/// side by side (most of their steps hold too few states to share out),
/// each stopped once its steps have held `cap` states in all, or half of
/// `bytes` at once: the narrowest order's stopped keeps `plan` (with None),
/// the wider's stopped by the cap means it held more. Either stopped by
/// anything else (`limits`, the memory) keeps `plan`.
pub fn pilot(
    board: &Board,
    g: &MoveGraph,
    plan: Plan,
    cap: u64,
    bytes: u64,
    limits: &Limits,
) -> (Plan, Option<Piloted>) {
    let Some(wider) = plan.wider(board) else {
        return (plan, None);
    };
    let closed = Goal {
        closed: true,
        ..Goal::default()
    };
    let opts = FrontierOptions {
        budget: bytes / 2,
        ..FrontierOptions::default()
    };
    let capped = limits.with_nodes(Some(cap));
    // The states held in all (None when the cap stopped the count), or
    // Err when anything else stopped it.
    let states = |p: &Plan| -> Result<Option<u64>, ()> {
        let c = count(g, &closed, p, &opts, &capped, &Progress::new()).map_err(|_| ())?;
        match c.stopped {
            None => Ok(Some(c.states.iter().sum())),
            Some(Stop::Limit(Limit::Nodes)) if limits.nodes.is_none_or(|n| n > cap) => Ok(None),
            Some(_) => Err(()),
        }
    };
    let (narrowest, wider_states) = rayon::join(|| states(&plan), || states(&wider));
    let (Ok(Some(narrowest)), Ok(wider_states)) = (narrowest, wider_states) else {
        return (plan, None);
    };
    if narrowest < g.len() as u64 {
        // The closed count died almost at once (no closed tour by the
        // colours, say): it ranks nothing.
        return (plan, None);
    }
    let found = Piloted {
        narrowest,
        wider: wider_states,
    };
    if found.wider_taken() {
        (wider, Some(found))
    } else {
        (plan, Some(found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::Piece;

    fn knight(w: u32, h: u32) -> (Board, MoveGraph) {
        let board = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
        (board, g)
    }

    fn open_tours(g: &MoveGraph, plan: &Plan) -> (u128, u64) {
        let Ok(c) = count(
            g,
            &Goal::default(),
            plan,
            &FrontierOptions::default(),
            &Limits::none(),
            &Progress::new(),
        ) else {
            panic!("the frontier refused");
        };
        (c.tours, c.states.iter().sum())
    }

    #[test]
    fn the_wider_order_counts_the_same_tours_with_fewer_states() {
        let (board, g) = knight(9, 4);
        let Ok(plan) = super::super::fit(&board, &g) else {
            panic!("no plan");
        };
        let (narrow_tours, narrow_states) = open_tours(&g, &plan);
        let (taken, found) = pilot(
            &board,
            &g,
            plan.clone(),
            u64::MAX,
            u64::MAX,
            &Limits::none(),
        );
        let Some(found) = found else {
            panic!("no pilot");
        };
        assert!(found.wider_taken(), "{found:?}");
        assert_eq!(taken.width, plan.width + 1);
        let (tours, states) = open_tours(&g, &taken);
        assert_eq!(tours, narrow_tours);
        assert!(states < narrow_states, "{states} against {narrow_states}");
    }

    #[test]
    fn a_wider_order_stopped_by_the_cap_held_more() {
        // 6x6: the narrowest order's closed count holds fewer states than
        // the wider's; a cap between the two stops only the wider's.
        let (board, g) = knight(6, 6);
        let Ok(plan) = super::super::fit(&board, &g) else {
            panic!("no plan");
        };
        let Some(wider) = plan.wider(&board) else {
            panic!("no wider order");
        };
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        // States a count takes into its steps: one for the empty start,
        // then every step's result but the last's.
        let taken_in = |p: &Plan| {
            let Ok(c) = count(
                &g,
                &closed,
                p,
                &FrontierOptions::default(),
                &Limits::none(),
                &Progress::new(),
            ) else {
                panic!("the frontier refused");
            };
            let n = c.states.len();
            1 + c.states[..n - 1].iter().sum::<u64>()
        };
        let (narrow, wide) = (taken_in(&plan), taken_in(&wider));
        assert!(narrow < wide, "{narrow} against {wide}");
        let width = plan.width;
        let (kept, found) = pilot(&board, &g, plan, narrow + 1, u64::MAX, &Limits::none());
        let Some(found) = found else {
            panic!("no pilot");
        };
        assert_eq!(found.wider, None);
        assert!(!found.wider_taken());
        assert_eq!(kept.width, width);
    }

    #[test]
    fn a_closed_count_that_dies_at_once_ranks_nothing() {
        // 7x7 has no closed tour (25 squares of one colour, 24 of the other).
        let (board, g) = knight(7, 7);
        let Ok(plan) = super::super::fit(&board, &g) else {
            panic!("no plan");
        };
        let width = plan.width;
        let (kept, found) = pilot(&board, &g, plan, u64::MAX, u64::MAX, &Limits::none());
        assert_eq!(found, None);
        assert_eq!(kept.width, width);
    }

    #[test]
    fn a_node_budget_stops_a_count_after_that_many_states() {
        let (board, g) = knight(9, 4);
        let Ok(plan) = super::super::fit(&board, &g) else {
            panic!("no plan");
        };
        let closed = Goal {
            closed: true,
            ..Goal::default()
        };
        let run = |nodes: u64| {
            let limits = Limits::none().with_nodes(Some(nodes));
            let opts = FrontierOptions::default();
            let Ok(c) = count(&g, &closed, &plan, &opts, &limits, &Progress::new()) else {
                panic!("the frontier refused");
            };
            c
        };
        let whole = run(u64::MAX);
        assert!(whole.complete());
        let n = whole.states.len();
        // One for the empty start, then every step's result but the last's.
        let taken_in = 1 + whole.states[..n - 1].iter().sum::<u64>();
        assert!(run(taken_in + 1).complete());
        let stopped = run(taken_in);
        assert!(!stopped.complete());
        assert!(stopped.states.len() < n);
        assert!(!run(taken_in / 2).complete());
    }
}
