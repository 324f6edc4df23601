//! Symmetric tours: the symmetric solver against a brute force on small
//! boards (a symmetric tour is found exactly when plain enumeration finds
//! one), on large boards, through the runner and the command line. Every
//! tour is checked by the verifier (with its constraints) and, apart from
//! it, by applying the symmetry here with its own coordinate arithmetic.

use engine::model::{Board, Cell, Constraints, Move, Piece, Topology, TourSymmetry};
use engine::solve::symmetric::SymmetricOptions;
use engine::solve::{Goal, Outcome, Solver, Task};
use engine::verify::{verify, verify_constraints};
use proptest::prelude::*;

use crate::util;

pub(crate) const ALL: [TourSymmetry; 5] = [
    TourSymmetry::Rotate180,
    TourSymmetry::Rotate90,
    TourSymmetry::MirrorFiles,
    TourSymmetry::MirrorRanks,
    TourSymmetry::MirrorDiagonal,
];

/// The image of `c` on a `w` x `h` rectangle, written out for each
/// symmetry (None off the rectangle).
pub(crate) fn image(sym: TourSymmetry, w: u32, h: u32, c: Cell) -> Option<Cell> {
    let (x, y) = (i64::from(c.x), i64::from(c.y));
    let (w, h) = (i64::from(w), i64::from(h));
    let (x2, y2) = match sym {
        TourSymmetry::Rotate180 => (w - 1 - x, h - 1 - y),
        TourSymmetry::Rotate90 => (h - 1 - y, x),
        TourSymmetry::MirrorFiles => (w - 1 - x, y),
        TourSymmetry::MirrorRanks => (x, h - 1 - y),
        TourSymmetry::MirrorDiagonal => (y, x),
    };
    (0 <= x2 && x2 < w && 0 <= y2 && y2 < h).then(|| Cell::new(x2 as u32, y2 as u32))
}

/// Whether `sym` maps `tour` onto itself: for a closed tour its set of
/// moves (as unordered pairs), for an open one its i-th square onto its
/// (n+1-i)-th.
pub(crate) fn maps_onto_itself(
    board: &Board,
    sym: TourSymmetry,
    closed: bool,
    tour: &[u32],
) -> bool {
    let img = |s: u32| {
        image(sym, board.width(), board.height(), board.cell(s)).and_then(|c| board.square_at(c))
    };
    let n = tour.len();
    if !closed {
        return (0..n).all(|i| img(tour[i]) == Some(tour[n - 1 - i]));
    }
    let pair = |a: u32, b: u32| (a.min(b), a.max(b));
    let moves: std::collections::BTreeSet<(u32, u32)> =
        (0..n).map(|i| pair(tour[i], tour[(i + 1) % n])).collect();
    (0..n).all(|i| match (img(tour[i]), img(tour[(i + 1) % n])) {
        (Some(a), Some(b)) => moves.contains(&pair(a, b)),
        _ => false,
    })
}

/// Every check a symmetric tour must pass.
fn check_tour(board: &Board, piece: &Piece, goal: &Goal, sym: TourSymmetry, tour: &[u32]) {
    assert_eq!(verify(board, piece, goal, tour), Ok(()), "{tour:?}");
    let c = Constraints {
        clues: vec![],
        symmetry: Some(sym),
        ..Constraints::default()
    };
    assert_eq!(verify_constraints(board, goal.closed, &c, tour), Ok(()));
    assert!(
        maps_onto_itself(board, sym, goal.closed, tour),
        "{sym:?} does not map {tour:?} onto itself"
    );
}

/// The first tour of `goal` (every start when it is free) that `sym` maps
/// onto itself, by plain enumeration with moves decided by `verify::legal`;
/// Err when that takes more than `budget` steps.
fn brute_force(
    board: &Board,
    piece: &Piece,
    goal: &Goal,
    sym: TourSymmetry,
    budget: u64,
) -> Result<Option<Vec<u32>>, ()> {
    let n = board.len();
    let adj = crate::util::legal_moves(board, piece);
    let starts = crate::util::start_squares(goal, n);
    let mut steps = 0u64;
    #[allow(clippy::too_many_arguments)]
    fn walk(
        adj: &[Vec<bool>],
        goal: &Goal,
        path: &mut Vec<u32>,
        seen: &mut [bool],
        steps: &mut u64,
        budget: u64,
        accept: &dyn Fn(&[u32]) -> bool,
    ) -> Result<Option<Vec<u32>>, ()> {
        *steps += 1;
        if *steps > budget {
            return Err(());
        }
        let n = adj.len();
        let head = path[path.len() - 1] as usize;
        if path.len() == n {
            let ok = if goal.closed {
                adj[head][path[0] as usize]
            } else {
                goal.end.is_none_or(|e| e as usize == head)
            };
            return Ok((ok && accept(path)).then(|| path.clone()));
        }
        for t in 0..n {
            if adj[head][t] && !seen[t] {
                seen[t] = true;
                path.push(t as u32);
                let r = walk(adj, goal, path, seen, steps, budget, accept);
                path.pop();
                seen[t] = false;
                if let Ok(None) = r {
                    continue;
                }
                return r;
            }
        }
        Ok(None)
    }
    let accept = |t: &[u32]| maps_onto_itself(board, sym, goal.closed, t);
    for s in starts {
        let mut path = vec![s];
        let mut seen = vec![false; n];
        seen[s as usize] = true;
        if let Some(t) = walk(
            &adj, goal, &mut path, &mut seen, &mut steps, budget, &accept,
        )? {
            return Ok(Some(t));
        }
    }
    Ok(None)
}

/// Runs the symmetric solver on `piece` over `board` for `goal` and `sym`.
fn solve(board: &Board, piece: &Piece, goal: &Goal, sym: TourSymmetry) -> Outcome {
    let g = util::graph(board, piece);
    let c = Constraints {
        clues: vec![],
        symmetry: Some(sym),
        ..Constraints::default()
    };
    let task = Task::new(&g, board, piece, *goal).with_constraints(&c);
    SymmetricOptions::default().solve_quietly(&task).outcome
}

/// A random small puzzle with a symmetry: the board's holes closed under
/// it, any topology, any piece (one-way ones too, and ones the symmetry
/// does not map onto themselves), any goal.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub board: Board,
    pub piece: Piece,
    pub goal: Goal,
    pub sym: TourSymmetry,
}

fn piece_strategy() -> impl Strategy<Value = Piece> {
    let leaper = (0i32..=2, 1i32..=3).prop_map(|(a, b)| Piece::leaper(a, b, 1));
    let union = ((0i32..=1, 1i32..=1), (0i32..=2, 1i32..=3))
        .prop_map(|((a, b), (c, d))| Piece::leaper(a, b, 1).union(&Piece::leaper(c, d, 1)));
    let rider = (0i32..=1, 1i32..=1).prop_map(|(a, b)| Piece::leaper(a, b, 2));
    let jumps = prop::collection::vec((-2i32..=2, -2i32..=2), 3..=10).prop_map(|v| {
        Piece::new(
            v.into_iter()
                .filter(|&(dx, dy)| (dx, dy) != (0, 0))
                .map(|(dx, dy)| Move::leap(dx, dy)),
        )
    });
    prop_oneof![3 => leaper, 4 => union, 1 => rider, 2 => jumps]
}

pub(crate) fn case_strategy() -> impl Strategy<Value = Case> {
    // Square boards half the time: the quarter-turn and the diagonal need them.
    prop_oneof![(1u32..=4).prop_map(|n| (n, n)), (1u32..=5, 1u32..=5)]
        .prop_filter("2 to 16 cells", |(w, h)| (2..=16).contains(&(w * h)))
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(prop::bool::weighted(0.08), (w * h) as usize),
                prop_oneof![
                    6 => Just(Topology::Plain),
                    1 => Just(Topology::Cylinder),
                    1 => Just(Topology::Torus),
                    1 => Just(Topology::Mobius),
                ],
                piece_strategy(),
                any::<bool>(),
                0usize..5,
                any::<prop::sample::Index>(),
                0u8..3,
            )
        })
        .prop_filter_map(
            "a symmetry of the rectangle, a board with squares",
            |((w, h), holes, topology, piece, closed, which, s, ends)| {
                let sym = ALL[which];
                if w != h && matches!(sym, TourSymmetry::Rotate90 | TourSymmetry::MirrorDiagonal) {
                    return None;
                }
                // A cell is removed when any cell of its orbit drew a hole.
                let removed = |c: Cell| {
                    let mut x = c;
                    (0..4).any(|_| {
                        let hole = holes[(x.y * w + x.x) as usize];
                        x = image(sym, w, h, x).unwrap_or(x);
                        hole
                    })
                };
                let board = Board::new(w, h, topology, |c| !removed(c));
                if board.is_empty() {
                    return None;
                }
                let n = board.len();
                let start = (ends == 1).then(|| s.index(n) as u32);
                let end = (ends == 2 && !closed).then(|| s.index(n) as u32);
                Some(Case {
                    board,
                    piece,
                    goal: Goal { closed, start, end },
                    sym,
                })
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// A symmetric tour is found exactly when the brute force finds one,
    /// and every tour found passes every check.
    #[test]
    fn agrees_with_brute_force(case in case_strategy()) {
        let Case { board, piece, goal, sym } = &case;
        let truth = brute_force(board, piece, goal, *sym, 400_000);
        prop_assume!(truth.is_ok());
        let truth = truth.unwrap_or_default();
        match solve(board, piece, goal, *sym) {
            Outcome::Found(t) => {
                check_tour(board, piece, goal, *sym, &t);
                prop_assert!(truth.is_some(), "the solver found {t:?}, the brute force nothing");
            }
            Outcome::Impossible(why) => {
                prop_assert!(truth.is_none(), "the solver proved none ({why}), the brute force found {truth:?}");
            }
            other => prop_assert!(false, "{other:?}"),
        }
    }
}

/// Knight's tours of n×n boards, closed, for each symmetry: which the
/// solver finds, checked by applying the symmetry.
#[test]
fn knight_tours_of_square_boards() {
    let knight = util::knight();
    let closed = util::closed();
    let found = |size: u32, sym| {
        let board = Board::rectangle(size, size);
        match solve(&board, &knight, &closed, sym) {
            Outcome::Found(t) => {
                check_tour(&board, &knight, &closed, sym, &t);
                true
            }
            Outcome::Impossible(_) => false,
            other => panic!("{size}x{size} {sym:?}: {other:?}"),
        }
    };
    for size in [6, 8, 10, 12, 30] {
        assert!(found(size, TourSymmetry::Rotate180), "{size}x{size}");
    }
    // Quarter-turns need n ≡ 2 (mod 4) on a full board: each square is n²/4
    // moves from its image, in the other colour.
    for size in [6, 10, 14, 30] {
        assert!(found(size, TourSymmetry::Rotate90), "{size}x{size}");
    }
    for size in [5, 7, 8, 12] {
        assert!(!found(size, TourSymmetry::Rotate90), "{size}x{size}");
    }
    // No closed knight's tour of an n×n board has a mirror symmetry.
    for size in [6, 8] {
        for sym in [
            TourSymmetry::MirrorFiles,
            TourSymmetry::MirrorRanks,
            TourSymmetry::MirrorDiagonal,
        ] {
            assert!(!found(size, sym), "{size}x{size} {sym:?}");
        }
    }
}

/// The smallest boards with a quarter-turn-symmetric closed knight's tour:
/// 3x3 without its centre (the knight's eight squares form one cycle), and
/// among full boards 6x6; 5x5 without its centre has none.
#[test]
fn smallest_quarter_turn_knight_tours() {
    let knight = util::knight();
    let closed = util::closed();
    let holed = |size: u32| {
        Board::new(size, size, Topology::Plain, |c| {
            c != Cell::new(size / 2, size / 2)
        })
    };
    let board = holed(3);
    let Outcome::Found(t) = solve(&board, &knight, &closed, TourSymmetry::Rotate90) else {
        panic!("3x3 without its centre");
    };
    check_tour(&board, &knight, &closed, TourSymmetry::Rotate90, &t);
    for size in 1..6 {
        let outcome = solve(
            &Board::rectangle(size, size),
            &knight,
            &closed,
            TourSymmetry::Rotate90,
        );
        assert!(matches!(outcome, Outcome::Impossible(_)), "{size}x{size}");
    }
    assert!(matches!(
        solve(&holed(5), &knight, &closed, TourSymmetry::Rotate90),
        Outcome::Impossible(_)
    ));
}

/// Large boards go through the walks: holes, a torus, other pieces, open
/// tours and fixed starts, every answer checked.
#[test]
fn walks_on_larger_boards() {
    let cases: [(&str, &str, &str, TourSymmetry); 9] = [
        ("20x20", "knight", "tour: Closed", TourSymmetry::Rotate180),
        (
            "22x22",
            "knight",
            "tour: Closed, start: \"k9\"",
            TourSymmetry::Rotate90,
        ),
        (
            "17x17 - i9",
            "knight",
            "tour: Closed",
            TourSymmetry::Rotate90,
        ),
        (
            "18x18 torus",
            "knight",
            "tour: Closed",
            TourSymmetry::Rotate90,
        ),
        (
            "16x16 torus",
            "king",
            "tour: Closed",
            TourSymmetry::MirrorFiles,
        ),
        ("21x20", "knight", "tour: Open", TourSymmetry::Rotate180),
        (
            "20x21",
            "king",
            "tour: Open, start: \"a1\"",
            TourSymmetry::MirrorFiles,
        ),
        (
            "15x12 - a1 o12 a12 o1",
            "zebra | wazir",
            "tour: Closed",
            TourSymmetry::MirrorRanks,
        ),
        (
            "24x24 - k11..n14",
            "camel | wazir",
            "tour: Closed",
            TourSymmetry::Rotate90,
        ),
    ];
    for (board, piece, goal, sym) in cases {
        let p = util::puzzle(&format!(
            "Puzzle(board: \"{board}\", piece: \"{piece}\", {goal}, symmetry: {sym:?})"
        ));
        let r = util::solve(&p);
        let Outcome::Found(t) = &r.outcome else {
            panic!("{board} {piece} {goal} {sym:?}: {:?}", r.outcome);
        };
        check_tour(&p.board, &p.piece, &p.goal, sym, t);
        assert_eq!(r.solver.kind(), "symmetric");
    }
}

/// Every puzzle file with a symmetry: its tour, as `engine run` prints it,
/// is mapped onto itself by the symmetry applied here.
#[test]
fn symmetric_puzzle_files_give_symmetric_tours() {
    let mut seen = 0;
    for entry in std::fs::read_dir("puzzles").unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let p = util::load(&path);
        let Some(sym) = p.constraints.symmetry else {
            continue;
        };
        seen += 1;
        let out = util::engine()
            .args(["run", "--quiet", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v["solver_kind"], "symmetric", "{}", path.display());
        if v["status"] == "found" {
            let t = util::tour_from_json(&p, &v);
            check_tour(&p.board, &p.piece, &p.goal, sym, &t);
        } else {
            assert_eq!(v["status"], "impossible", "{}", path.display());
        }
    }
    assert!(seen >= 4, "{seen} symmetric puzzles");
}

/// What the command line refuses, with exit 2 and a position: a solver
/// that does not search for symmetric tours, the symmetric solver without
/// a symmetry, clues with a solver that does not honour them or with a
/// symmetry, and counting either.
#[test]
fn refusals_name_their_place() {
    let cases: [(&str, &[&str], &str); 8] = [
        (
            r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, symmetry: Rotate180,
    solver: Backtrack())"#,
            &["run"],
            "p.ron:2:13: the backtrack solver searches for any tour, not one that the half-turn maps onto itself",
        ),
        (
            r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, symmetry: Rotate180)"#,
            &["run", "--solver", "warnsdorff"],
            "--solver warnsdorff",
        ),
        (
            r#"Puzzle(board: "8x8", piece: "knight", solver: Symmetric())"#,
            &["run"],
            "p.ron:1:47: the symmetric solver searches for tours that a symmetry maps onto themselves, and this puzzle gives no `symmetry`",
        ),
        (
            r#"Puzzle(board: "8x8", piece: "knight")"#,
            &["run", "--solver", "symmetric"],
            "--solver symmetric",
        ),
        (
            r#"Puzzle(board: "4x4", piece: "knight", clues: { "a1": 1 })"#,
            &["run", "--solver", "warnsdorff"],
            "error: --solver: the warnsdorff solver does not honour the puzzle's clues (p.ron:1:46): only the complete search does",
        ),
        (
            r#"Puzzle(board: "4x4", piece: "knight", clues: { "a1": 1 }, solver: Genetic())"#,
            &["run"],
            "p.ron:1:46: the genetic solver does not honour clues",
        ),
        (
            r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180, clues: { "a1": 1 })"#,
            &["run"],
            "p.ron:1:81: clues and a symmetry cannot be asked together",
        ),
        (
            r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180, clues: { "a1": 1 })"#,
            &["count"],
            "p.ron:1:81: clues and a symmetry cannot be asked together",
        ),
    ];
    for (text, args, want) in cases {
        let (dir, path) = util::setup(text);
        let out = util::engine()
            .current_dir(dir.path())
            .args(args)
            .arg(path.file_name().unwrap_or_default())
            .arg("--quiet")
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {text}\n{err}");
        assert!(
            err.contains(want),
            "{args:?} {text}\nwants `{want}` in\n{err}"
        );
        assert!(err.contains('^'), "a caret in\n{err}");
    }
}

/// The outcomes through the command line: a proof (exit 1) whose reason
/// says why, a flag that makes a puzzle impossible, a node limit (exit 3).
#[test]
fn outcomes_and_exit_codes() {
    let run = |text: &str, args: &[&str]| {
        let (dir, path) = util::setup(text);
        let out = util::engine()
            .current_dir(dir.path())
            .arg("run")
            .arg(path.file_name().unwrap_or_default())
            .args(["--quiet", "--format", "json"])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), v)
    };
    let (code, v) = run(
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, symmetry: MirrorFiles)"#,
        &[],
    );
    assert_eq!(code, Some(1));
    assert_eq!(v["status"], "impossible");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("it cannot turn one") && reason.contains("it cannot fold one"),
        "{reason}"
    );
    // --open makes a quarter-turn puzzle impossible: an open tour's ends
    // change places.
    let (code, v) = run(
        r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate90)"#,
        &["--open"],
    );
    assert_eq!(code, Some(1), "{v}");
    assert!(
        v["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("its own inverse")
    );
    // A closed tour from a given start starts there.
    let (code, v) = run(
        r#"Puzzle(board: "10x10", piece: "knight", tour: Closed, symmetry: Rotate90, start: "e5")"#,
        &[],
    );
    assert_eq!(code, Some(0));
    assert_eq!(v["squares"][0], "e5");
    // The node limit of the symmetric solver: exit 3, nothing proven.
    let (code, v) = run(
        r#"Puzzle(board: "9x9 - e5", piece: "knight", tour: Closed, symmetry: Rotate180,
            solver: Symmetric(node_limit: 3))"#,
        &[],
    );
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["status"], "gave_up");
}
