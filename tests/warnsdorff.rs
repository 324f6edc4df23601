//! The Warnsdorff solver on many boards. Every tour it produces goes through
//! `engine::verify::verify`, which checks moves with its own coordinate
//! arithmetic rather than the move graph.

use std::sync::atomic::AtomicBool;

use engine::model::{Board, Cell, Piece, Topology};
use engine::puzzle::Puzzle;
use engine::search::event::{CountingObserver, NoObserver, Observer};
use engine::solve::backtrack::BacktrackOptions;
use engine::solve::warnsdorff::{TieBreak, WarnsdorffOptions};
use engine::solve::{Goal, Limit, Limits, Outcome, Report, Run};
use engine::verify::verify;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

use crate::util::{closed, knight, open_from, puzzle, solve};

/// Runs the solver; any tour must pass `verify`.
fn run_with<O: Observer>(
    board: &Board,
    piece: &Piece,
    goal: &Goal,
    opts: &WarnsdorffOptions,
    seed: u64,
    limits: &Limits,
    obs: &mut O,
) -> Report {
    let g = crate::util::graph(board, piece);
    let r = crate::util::run_solver(opts, &g, board, piece, goal, seed, *limits, obs);
    if let Outcome::Found(t) = &r.outcome
        && let Err(e) = verify(board, piece, goal, t)
    {
        panic!("{}: the solver's tour is wrong: {e}", board.describe());
    }
    assert!(
        !matches!(r.outcome, Outcome::Impossible(_)),
        "Warnsdorff never claims impossibility"
    );
    r
}

fn run(board: &Board, piece: &Piece, goal: &Goal) -> Report {
    run_with(
        board,
        piece,
        goal,
        &WarnsdorffOptions::default(),
        0,
        &Limits::none(),
        &mut NoObserver,
    )
}

/// The tour found with default options (verified), or a panic naming the board.
fn tour(board: &Board, piece: &Piece, goal: &Goal) -> Vec<u32> {
    match run(board, piece, goal).outcome {
        Outcome::Found(t) => t,
        other => panic!("{} ({goal:?}): no tour: {other:?}", board.describe()),
    }
}

#[test]
fn open_tours_from_a_corner_on_every_square_board_5_to_60() {
    for n in 5..=60 {
        let t = tour(&Board::rectangle(n, n), &knight(), &open_from(0));
        assert_eq!(t[0], 0);
    }
}

#[test]
fn open_tours_from_a_corner_on_every_rectangle_5_to_60() {
    for w in 5..=60 {
        for h in 5..=60 {
            tour(&Board::rectangle(w, h), &knight(), &open_from(0));
        }
    }
}

/// Above `RIM_LIMIT` squares the solver keeps one byte per square and
/// compares far distances modulo 4; this board takes that path.
#[test]
fn a_board_above_the_rim_limit() {
    let n = 2050;
    assert!((n * n) as usize > engine::solve::warnsdorff::RIM_LIMIT);
    let t = tour(&Board::rectangle(n, n), &knight(), &open_from(0));
    assert_eq!(t.len(), (n * n) as usize);
}

#[test]
fn closed_tours_wherever_schwenk_allows_them_up_to_30() {
    let piece = knight();
    for w in 5..=30 {
        for h in 5..=30 {
            let board = Board::rectangle(w, h);
            let s = engine::analysis::schwenk(&board, &piece).expect("a knight on a rectangle");
            if s.closed_tour_exists() {
                tour(&board, &piece, &closed());
            }
        }
    }
    for (w, h) in [(100, 100), (64, 80), (3, 30), (3, 100), (200, 6), (5, 200)] {
        tour(&Board::rectangle(w, h), &piece, &closed());
    }
}

#[test]
fn a_closed_tour_starts_on_the_given_square() {
    let board = Board::rectangle(40, 40);
    for start in [0, 1, 777, 1599] {
        let goal = Goal {
            closed: true,
            start: Some(start),
            end: None,
        };
        assert_eq!(tour(&board, &knight(), &goal)[0], start);
    }
}

/// Start and end squares chosen at random among those `check` allows.
#[test]
fn fixed_start_and_end_are_honoured() {
    let piece = knight();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for (w, h) in [(8, 8), (9, 9), (12, 17), (50, 50), (101, 99), (300, 300)] {
        let board = Board::rectangle(w, h);
        let g = crate::util::graph(&board, &piece);
        let mut tried = 0;
        while tried < 4 {
            let n = board.len() as u32;
            let (s, e) = (rng.random_range(0..n), rng.random_range(0..n));
            let goal = Goal {
                closed: false,
                start: Some(s),
                end: Some(e),
            };
            if s == e
                || crate::util::analysis(&g, &goal, &board)
                    .impossible
                    .is_some()
            {
                continue;
            }
            tried += 1;
            let t = tour(&board, &piece, &goal);
            assert_eq!((t[0], t[t.len() - 1]), (s, e));
        }
    }
}

#[test]
fn a_fixed_end_alone_is_honoured() {
    let board = Board::rectangle(60, 45);
    for end in [0, 59, 1234, 2699] {
        let goal = Goal {
            end: Some(end),
            ..Goal::default()
        };
        assert_eq!(
            *tour(&board, &knight(), &goal).last().unwrap_or(&u32::MAX),
            end
        );
    }
}

#[test]
fn boards_with_holes() {
    let piece = knight();
    let holed = |w: u32, h: u32, holes: &[(u32, u32, u32, u32)]| {
        Board::new(w, h, Topology::Plain, |c: Cell| {
            !holes
                .iter()
                .any(|&(x0, y0, x1, y1)| (x0..=x1).contains(&c.x) && (y0..=y1).contains(&c.y))
        })
    };
    // A 2x2 hole keeps the colours balanced, so closed tours are possible.
    let b = holed(20, 20, &[(8, 8, 9, 9)]);
    tour(&b, &piece, &closed());
    tour(&b, &piece, &Goal::default());
    let b = holed(50, 40, &[(3, 3, 10, 6), (20, 20, 21, 35), (40, 0, 49, 1)]);
    tour(&b, &piece, &closed());
    tour(&b, &piece, &Goal::default());
    let b = holed(300, 300, &[(100, 100, 199, 199)]);
    tour(&b, &piece, &closed());
}

#[test]
fn other_leapers_and_the_torus() {
    for n in 12..=40 {
        tour(
            &Board::rectangle(n, n),
            &Piece::leaper(1, 4, 1),
            &Goal::default(),
        );
    }
    for n in 14..=40 {
        tour(
            &Board::rectangle(n, n),
            &Piece::leaper(2, 3, 1),
            &Goal::default(),
        );
    }
    for n in 5..=40 {
        let torus = Board::new(n, n, Topology::Torus, |_| true);
        tour(&torus, &knight(), &Goal::default());
        tour(&torus, &knight(), &closed());
    }
    tour(
        &Board::rectangle(40, 40),
        &Piece::leaper(1, 4, 1),
        &closed(),
    );
    let cylinder = Board::new(30, 20, Topology::Cylinder, |_| true);
    tour(&cylinder, &Piece::leaper(2, 3, 1), &Goal::default());
}

#[test]
fn riders_use_wide_words() {
    // A queen on 40x40 has squares with more than 127 moves.
    let queen = Piece::leaper(0, 1, engine::model::UNLIMITED).union(&Piece::leaper(
        1,
        1,
        engine::model::UNLIMITED,
    ));
    let board = Board::rectangle(40, 40);
    assert!(crate::util::graph(&board, &queen).max_degree() > 127);
    tour(&board, &queen, &Goal::default());
    tour(&board, &queen, &closed());
}

#[test]
fn first_and_random_tie_breaks() {
    let board = Board::rectangle(8, 8);
    let first = WarnsdorffOptions {
        tie_break: TieBreak::First,
        restarts: Some(0),
        repair: None,
    };
    let r = run_with(
        &board,
        &knight(),
        &open_from(0),
        &first,
        0,
        &Limits::none(),
        &mut NoObserver,
    );
    assert!(
        matches!(r.outcome, Outcome::Found(_)),
        "the textbook rule tours 8x8 from a1"
    );
    assert_eq!(r.stats.nodes, 64, "one walk, no repair");
    let random = WarnsdorffOptions {
        tie_break: TieBreak::Random,
        restarts: None,
        repair: None,
    };
    let big = Board::rectangle(30, 30);
    let go = |seed| {
        run_with(
            &big,
            &knight(),
            &Goal::default(),
            &random,
            seed,
            &Limits::none(),
            &mut NoObserver,
        )
        .outcome
    };
    let (a, b, c) = (go(1), go(1), go(2));
    assert!(matches!(a, Outcome::Found(_)));
    assert_eq!(a, b, "the same seed gives the same tour");
    assert_ne!(a, c, "another seed gives another tour");
}

/// The textbook rule, written out on coordinates: from the current square
/// go to the unvisited knight target with the fewest unvisited targets of
/// its own, the first in move order on ties; stop when there is none.
fn textbook_walk(n: i32, start: (i32, i32)) -> Vec<(i32, i32)> {
    const MOVES: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut seen = vec![false; (n * n) as usize];
    let idx = |(x, y): (i32, i32)| (y * n + x) as usize;
    let targets = |(x, y): (i32, i32), seen: &[bool]| -> Vec<(i32, i32)> {
        MOVES
            .iter()
            .map(|&(dx, dy)| (x + dx, y + dy))
            .filter(|&(a, b)| a >= 0 && b >= 0 && a < n && b < n && !seen[idx((a, b))])
            .collect()
    };
    let mut walk = vec![start];
    seen[idx(start)] = true;
    let mut here = start;
    loop {
        let mut best: Option<((i32, i32), usize)> = None;
        for t in targets(here, &seen) {
            let onward = targets(t, &seen).len();
            if best.is_none_or(|(_, b)| onward < b) {
                best = Some((t, onward));
            }
        }
        let Some((next, _)) = best else { break };
        seen[idx(next)] = true;
        walk.push(next);
        here = next;
    }
    walk
}

#[test]
fn without_repair_or_restarts_it_is_the_textbook_rule() {
    let textbook = WarnsdorffOptions {
        tie_break: TieBreak::First,
        restarts: Some(0),
        repair: Some(false),
    };
    let (mut stuck, mut toured) = (0, 0);
    for n in 5..=12 {
        let board = Board::rectangle(n as u32, n as u32);
        for y in 0..n.min(4) {
            for x in 0..n.min(4) {
                let start = (y * n + x) as u32;
                let r = run_with(
                    &board,
                    &knight(),
                    &open_from(start),
                    &textbook,
                    0,
                    &Limits::none(),
                    &mut NoObserver,
                );
                let want: Vec<u32> = textbook_walk(n, (x, y))
                    .iter()
                    .map(|&(a, b)| (b * n + a) as u32)
                    .collect();
                let what = format!("{n}x{n} from ({x},{y})");
                assert_eq!(r.stats.nodes, want.len() as u64, "{what}: one walk");
                assert_eq!((r.stats.repairs, r.stats.rotations), (0, 0), "{what}");
                match r.outcome {
                    Outcome::Found(t) => {
                        assert_eq!(t, want, "{what}");
                        toured += 1;
                    }
                    Outcome::GaveUp {
                        limit: Limit::Restarts,
                        best,
                    } => {
                        assert!(want.len() < board.len(), "{what}: the walk was a tour");
                        assert_eq!(best, want, "{what}");
                        stuck += 1;
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
    }
    // Both kinds occur, so the comparison covers walks that get stuck.
    assert!(
        stuck >= 20 && toured >= 50,
        "{stuck} stuck, {toured} toured"
    );
    // Where the rule gets stuck, the default solver repairs the walk.
    let board = Board::rectangle(6, 6);
    let d4 = 3 * 6 + 3;
    assert_eq!(textbook_walk(6, (3, 3)).len(), 34);
    let repaired = WarnsdorffOptions {
        repair: None,
        ..textbook
    };
    let r = run_with(
        &board,
        &knight(),
        &open_from(d4),
        &repaired,
        0,
        &Limits::none(),
        &mut NoObserver,
    );
    assert!(matches!(r.outcome, Outcome::Found(_)) && r.stats.repairs > 0);
}

#[test]
fn the_textbook_rule_shows_where_it_got_stuck() {
    let (dir, file) = crate::util::setup(
        r#"Puzzle(board: "6x6", piece: "knight", start: "d4",
                  solver: Warnsdorff(tie_break: First, restarts: 0, repair: false))"#,
    );
    let out = crate::util::engine()
        .arg("run")
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    let path: Vec<String> = textbook_walk(6, (3, 3))
        .iter()
        .map(|&(x, y)| format!("{}{}", (b'a' + x as u8) as char, y + 1))
        .collect();
    let stuck = path.last().cloned().unwrap_or_default();
    assert!(
        text.contains(&format!("Path: {}", path.join(" "))),
        "{text}"
    );
    assert!(
        text.contains(&format!("Stuck on {stuck} after 34 of 36 squares")),
        "{text}"
    );
    assert!(
        text.contains("warnsdorff (tie-break: first, repair: off)"),
        "{text}"
    );
}

#[test]
fn gives_up_honestly_when_restarts_run_out() {
    // No open knight's tour of 4x5 without b2 exists, and no quick proof
    // shows it.
    let board = Board::new(4, 5, Topology::Plain, |c: Cell| c != Cell { x: 1, y: 1 });
    let g = crate::util::graph(&board, &knight());
    assert!(
        crate::util::analysis(&g, &Goal::default(), &board)
            .impossible
            .is_none()
    );
    let opts = WarnsdorffOptions {
        restarts: Some(3),
        ..WarnsdorffOptions::default()
    };
    let mut obs = CountingObserver::default();
    let r = run_with(
        &board,
        &knight(),
        &Goal::default(),
        &opts,
        0,
        &Limits::none(),
        &mut obs,
    );
    let Outcome::GaveUp {
        limit: Limit::Restarts,
        best,
    } = r.outcome
    else {
        panic!("expected to give up: {:?}", r.outcome);
    };
    assert_eq!(r.stats.restarts, 3);
    assert_eq!(obs.restarts, 3);
    assert!(best.len() > 1 && best.len() < 19);
    assert!(
        best.windows(2).all(|w| g.has_edge(w[0], w[1])),
        "the best path is a path"
    );
}

#[test]
fn the_observer_sees_every_step() {
    let board = Board::rectangle(30, 30);
    let mut obs = CountingObserver::default();
    let r = run_with(
        &board,
        &knight(),
        &closed(),
        &WarnsdorffOptions::default(),
        0,
        &Limits::none(),
        &mut obs,
    );
    assert!(matches!(r.outcome, Outcome::Found(_)));
    // Every node is an advance, or a square spliced into the path (a rewrite).
    assert!(obs.advances >= 900 && obs.advances + obs.rewrites >= r.stats.nodes);
    assert_eq!(obs.restarts, r.stats.restarts);
}

#[test]
fn limits_stop_the_search() {
    let board = Board::rectangle(500, 500);
    let limits = Limits::none().with_time(Some(0.0));
    let r = run_with(
        &board,
        &knight(),
        &Goal::default(),
        &Default::default(),
        0,
        &limits,
        &mut NoObserver,
    );
    assert!(matches!(
        r.outcome,
        Outcome::GaveUp {
            limit: Limit::Time,
            ..
        }
    ));
    let stop = AtomicBool::new(true);
    let limits = Limits {
        interrupt: Some(&stop),
        ..Limits::none()
    };
    let r = run_with(
        &board,
        &knight(),
        &Goal::default(),
        &Default::default(),
        0,
        &limits,
        &mut NoObserver,
    );
    assert!(matches!(r.outcome, Outcome::Interrupted { .. }));
}

#[test]
fn auto_picks_by_size_and_falls_back_to_backtracking() {
    let r = solve(&puzzle(r#"Puzzle(board: "8x8", piece: "knight")"#));
    assert_eq!(r.solver.kind(), "backtrack", "{}", r.solver);
    let r = solve(&puzzle(
        r#"Puzzle(board: "60x60", piece: "knight", tour: Closed)"#,
    ));
    assert_eq!(r.solver.kind(), "warnsdorff", "{}", r.solver);
    assert!(matches!(r.outcome, Outcome::Found(_)));
    // Only right, up and left: the tours are snakes, which the rule misses
    // and backtracking finds.
    let r = solve(&puzzle(
        r#"Puzzle(board: "13x5", piece: "jumps (1,0), (0,1), (-1,0)", start: "a1")"#,
    ));
    assert!(matches!(r.outcome, Outcome::Found(_)));
    assert!(
        r.solver.to_string().contains("then backtrack"),
        "{}",
        r.solver
    );
    assert_eq!(r.solver.ran.len(), 2, "{}", r.solver);
    // Schwenk's theorem settles it before any search.
    let r = solve(&puzzle(
        r#"Puzzle(board: "4x60", piece: "knight", tour: Closed)"#,
    ));
    assert!(matches!(&r.outcome, Outcome::Impossible(why) if why.contains("Schwenk")));
}

#[test]
fn the_puzzle_files_solve() {
    for name in [
        "knight100-closed.ron",
        "knight1000.ron",
        "giraffe.ron",
        "knight-torus.ron",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let p = Puzzle::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let g = crate::util::graph_of(&p);
        let progress = engine::progress::Progress::new();
        let r = engine::solve::runner::solve(
            &p.task(&g),
            p.solver,
            Run::new(Limits::none(), &progress, NoObserver),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let Outcome::Found(t) = &r.outcome else {
            panic!("{name}: {:?}", r.outcome);
        };
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random small boards, holes and leapers: any tour is valid, the rule
    /// never claims impossibility, and when it finds a tour the complete
    /// search does not call the puzzle impossible.
    #[test]
    fn never_wrong_and_never_claims_impossible(
        w in 1u32..8,
        h in 1u32..8,
        holes in proptest::collection::vec((0u32..8, 0u32..8), 0..6),
        (a, b) in prop_oneof![Just((1, 2)), Just((1, 3)), Just((0, 1)), Just((1, 1)), Just((2, 3))],
        closed in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let board = Board::new(w, h, Topology::Plain, |c: Cell| !holes.contains(&(c.x, c.y)));
        prop_assume!(!board.is_empty());
        let piece = Piece::leaper(a, b, 1);
        let goal = Goal { closed, ..Goal::default() };
        let r = run_with(&board, &piece, &goal, &Default::default(), seed, &Limits::none(), &mut NoObserver);
        if matches!(r.outcome, Outcome::Found(_)) {
            let g = crate::util::graph(&board, &piece);
            let limits = Limits { nodes: Some(200_000), ..Limits::none() };
            let bt = crate::util::run_solver(&BacktrackOptions::default(), &g, &board, &piece, &goal, 0, limits, NoObserver);
            prop_assert!(!matches!(bt.outcome, Outcome::Impossible(_)));
            if let Outcome::Found(t) = &bt.outcome {
                prop_assert_eq!(verify(&board, &piece, &goal, t), Ok(()));
            }
        }
    }
}
