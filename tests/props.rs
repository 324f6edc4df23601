//! Property tests on random small boards, holes and pieces: every tour the
//! backtracker finds passes the verifier, and its "impossible" agrees with an
//! independent exhaustive check (dynamic programming over subsets of squares,
//! with moves taken from the verifier's own geometry, not the move graph)
//! and with `count` (zero or not).

use engine::model::{Board, Cell, Piece, Topology, UNLIMITED};
use engine::solve::backtrack::{BacktrackOptions, Order};
use engine::solve::{Goal, Outcome, Solver, Task};
use engine::verify::{legal, verify};
use proptest::prelude::*;

/// Whether a tour exists, by Held–Karp style reachability over subsets.
fn brute_force(board: &Board, piece: &Piece, goal: &Goal) -> bool {
    let n = board.len();
    assert!(n <= 16);
    let mut adj = vec![0u32; n];
    for (a, row) in adj.iter_mut().enumerate() {
        for b in 0..n {
            if legal(board, piece, board.cell(a as u32), board.cell(b as u32)) {
                *row |= 1 << b;
            }
        }
    }
    if n == 1 {
        return !goal.closed;
    }
    // Closed tours: every cycle passes square 0, so start there.
    let start = if goal.closed {
        Some(goal.start.unwrap_or(0))
    } else {
        goal.start
    };
    let full = (1usize << n) - 1;
    // ends[mask] = bitset of squares a path covering exactly `mask` can end on.
    let mut ends = vec![0u32; 1 << n];
    for s in 0..n {
        if start.is_none_or(|st| st as usize == s) {
            ends[1 << s] |= 1 << s;
        }
    }
    for mask in 1..=full {
        let e = ends[mask];
        if e == 0 {
            continue;
        }
        for (v, &moves) in adj.iter().enumerate() {
            if e & (1 << v) == 0 {
                continue;
            }
            let mut next = moves & !(mask as u32);
            while next != 0 {
                let t = next.trailing_zeros() as usize;
                next &= next - 1;
                ends[mask | (1 << t)] |= 1 << t;
            }
        }
    }
    let last = ends[full];
    match (goal.closed, goal.end) {
        (true, _) => {
            let s = start.unwrap_or(0) as usize;
            (0..n).any(|v| last & (1 << v) != 0 && adj[v] & (1 << s) != 0)
        }
        (false, Some(e)) => last & (1 << e) != 0,
        (false, None) => last != 0,
    }
}

fn piece_strategy() -> impl Strategy<Value = Piece> {
    prop_oneof![
        (0i32..3, 1i32..4).prop_map(|(m, n)| Piece::leaper(m, n, 1)),
        (0i32..2, 1i32..3, prop_oneof![Just(2u32), Just(UNLIMITED)])
            .prop_map(|(m, n, r)| Piece::leaper(m, n, r)),
        prop::collection::vec((-3i32..4, -3i32..4), 1..6).prop_map(|v| Piece::new(
            v.into_iter()
                .filter(|&(x, y)| (x, y) != (0, 0))
                .map(|(x, y)| engine::model::Move::leap(x, y))
        )),
        (0i32..3, 1i32..4, 0i32..3, 1i32..4)
            .prop_map(|(a, b, c, d)| Piece::leaper(a, b, 1).union(&Piece::leaper(c, d, 1))),
    ]
}

fn board_strategy() -> impl Strategy<Value = Board> {
    (
        2u32..6,
        1u32..5,
        prop::collection::vec(any::<bool>(), 20),
        0u8..5,
    )
        .prop_filter_map("at most 16 squares, at least 1", |(w, h, holes, topo)| {
            let topology = match topo {
                0 => Topology::Plain,
                1 => Topology::Cylinder,
                2 => Topology::Torus,
                3 => Topology::Mobius,
                _ => Topology::Klein,
            };
            // Remove roughly one square in five.
            let b = Board::new(w, h, topology, |c: Cell| {
                !(holes[(c.y * w + c.x) as usize % holes.len()]
                    && (c.x + 2 * c.y).is_multiple_of(5))
            });
            (!b.is_empty() && b.len() <= 16).then_some(b)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn backtrack_agrees_with_brute_force(
        board in board_strategy(),
        piece in piece_strategy(),
        closed in any::<bool>(),
        start_pick in prop::option::of(0usize..16),
        end_pick in prop::option::of(0usize..16),
        given in any::<bool>(),
    ) {
        prop_assume!(!piece.moves().is_empty());
        let n = board.len();
        let goal = Goal {
            closed,
            start: start_pick.map(|s| (s % n) as u32),
            end: if closed { None } else { end_pick.map(|e| (e % n) as u32) },
        };
        let g = crate::util::graph(&board, &piece);
        let exists = brute_force(&board, &piece, &goal);
        // `count`, the same engine counting every tour, agrees.
        let sym = engine::model::Symmetries::of_board(&board, &g);
        let c = engine::count::dfs::count(
            &g,
            &goal,
            &sym,
            &engine::count::CountOptions { threads: Some(1), ..Default::default() },
            &engine::halt::Limits { nodes: Some(2_000_000), ..engine::halt::Limits::none() },
            &engine::progress::Progress::new(),
        );
        if c.complete() || c.tours > 0 {
            prop_assert_eq!(c.tours > 0, exists, "count says {}", c.tours);
        }
        // As `engine run` does: the quick proofs first. They never contradict
        // brute force.
        let Ok(a) = engine::analysis::analyse(&g, &goal, &board, &engine::halt::Never);
        if a.impossible.is_some() {
            prop_assert!(!exists, "check proved impossible but a tour exists: {:?}", a.impossible);
            return Ok(());
        }
        let order = if given { Order::Given } else { Order::Warnsdorff };
        // Dense pieces on boards with no tour can have billions of paths; a
        // node limit keeps each case short (a search that gives up proves nothing
        // and is skipped).
        let opts = BacktrackOptions { order, node_limit: Some(2_000_000) };
        let report = opts.solve_quietly(&Task::new(&g, &board, &piece, goal));
        match &report.outcome {
            Outcome::Found(t) => {
                prop_assert_eq!(verify(&board, &piece, &goal, t), Ok(()));
                prop_assert!(exists);
            }
            Outcome::Impossible(_) => prop_assert!(!exists, "backtrack says impossible, brute force found a tour"),
            Outcome::GaveUp { .. } => {}
            other => prop_assert!(false, "unexpected {:?}", other),
        }
    }
}

/// Weakly connected parts and, if every move changes colour, the two colour
/// class sizes (the larger first), by a breadth-first search over the
/// verifier's moves taken both ways.
fn parts_and_colours(board: &Board, piece: &Piece) -> (usize, Option<(usize, usize)>) {
    let n = board.len();
    let joined = |a: usize, b: usize| {
        let (ca, cb) = (board.cell(a as u32), board.cell(b as u32));
        legal(board, piece, ca, cb) || legal(board, piece, cb, ca)
    };
    let mut colour = vec![u8::MAX; n];
    let (mut parts, mut two_coloured) = (0, true);
    for s in 0..n {
        if colour[s] != u8::MAX {
            continue;
        }
        parts += 1;
        colour[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            for t in (0..n).filter(|&t| t != v && joined(v, t)) {
                if colour[t] == u8::MAX {
                    colour[t] = 1 - colour[v];
                    queue.push_back(t);
                } else if colour[t] == colour[v] {
                    two_coloured = false;
                }
            }
        }
    }
    // Each part's colours are arbitrary, so only one part's sizes mean anything.
    let zeros = colour.iter().filter(|&&c| c == 0).count();
    let sizes = (zeros.max(n - zeros), zeros.min(n - zeros));
    (parts, two_coloured.then_some(sizes))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `check`'s parts and colour classes agree with a plain search.
    #[test]
    fn check_parts_agree_with_search(board in board_strategy(), piece in piece_strategy()) {
        prop_assume!(!piece.moves().is_empty());
        let g = crate::util::graph(&board, &piece);
        let Ok(a) = engine::analysis::analyse(&g, &Goal::default(), &board, &engine::halt::Never);
        let (parts, colours) = parts_and_colours(&board, &piece);
        prop_assert_eq!(a.components, parts);
        prop_assert_eq!(a.bipartite.is_some(), colours.is_some());
        if parts == 1 {
            let sorted = a.bipartite.map(|(x, y)| (x.max(y), x.min(y)));
            prop_assert_eq!(sorted, colours);
        }
    }
}
