//! The depth-first count: shards, limits, boards of more than 64 squares
//! and the threads' shared cache. The published counts are in
//! `tests/published.rs`.

use engine::count::{self, CountOptions, Counted, Shard};
use engine::model::Symmetries;
use engine::model::{Board, Piece};
use engine::solve::{Goal, Limits};

use crate::util::{closed, knight, open_from};

fn count_on(board: &Board, piece: &Piece, goal: Goal, opts: CountOptions) -> Counted {
    let g = crate::util::graph(board, piece);
    let sym = Symmetries::of_board(board, &g);
    let c = count::dfs::count(
        &g,
        &goal,
        &sym,
        &opts,
        &Limits::none(),
        &engine::progress::Progress::new(),
    );
    assert!(c.complete());
    c
}

fn tours(w: u32, h: u32, piece: &Piece, goal: Goal) -> Counted {
    count_on(
        &Board::rectangle(w, h),
        piece,
        goal,
        CountOptions::default(),
    )
}

fn open() -> Goal {
    Goal::default()
}

fn wazir() -> Piece {
    Piece::leaper(0, 1, 1)
}

/// The shards of a count add up to the whole count, tours and cycles.
#[test]
fn shards_add_up() {
    let board = Board::rectangle(6, 6);
    let goal = Goal {
        start: Some(0),
        ..closed()
    };
    for n in [1u32, 2, 5, 64] {
        let (mut tours, mut cycles_x2) = (0, 0);
        for k in 1..=n {
            let c = count_on(
                &board,
                &knight(),
                goal,
                CountOptions {
                    shard: Shard::new(k, n),
                    ..CountOptions::default()
                },
            );
            tours += c.tours;
            cycles_x2 += c.cycles_x2.unwrap_or(0);
        }
        assert_eq!((tours, cycles_x2 / 2), (19724, 9862), "{n} shards");
    }
    // More shards than tasks: some are empty, the sum still holds.
    let board = Board::rectangle(5, 5);
    let total: u128 = (1..=400)
        .map(|k| {
            count_on(
                &board,
                &knight(),
                open(),
                CountOptions {
                    shard: Shard::new(k, 400),
                    threads: Some(1),
                    ..CountOptions::default()
                },
            )
            .tours
        })
        .sum();
    assert_eq!(total, 1728);
}

/// Shard K of N exists for 1 ≤ K ≤ N only; shard 0 is refused, not turned
/// into a shard index by a subtraction that wraps.
#[test]
fn shards_are_numbered_from_one() {
    for (k, n) in [(0, 0), (0, 1), (0, 3), (4, 3), (1, 0)] {
        assert!(Shard::new(k, n).is_none(), "shard {k} of {n}");
    }
    for (k, n) in [(1, 1), (1, 3), (3, 3), (u32::MAX, u32::MAX)] {
        let s = Shard::new(k, n).unwrap_or_else(|| panic!("shard {k} of {n}"));
        assert_eq!((s.k(), s.n()), (k, n));
    }
}

/// A time limit stops a long count with a lower bound, and says so.
#[test]
fn a_limit_gives_a_lower_bound() {
    let board = Board::rectangle(7, 7);
    let g = crate::util::graph(&board, &knight());
    let sym = Symmetries::of_board(&board, &g);
    let limits = Limits::none().with_time(Some(0.3));
    let started = std::time::Instant::now();
    let c = count::dfs::count(
        &g,
        &open(),
        &sym,
        &CountOptions::default(),
        &limits,
        &engine::progress::Progress::new(),
    );
    assert!(!c.complete());
    assert!(c.tours < 165_575_218_320);
    // Honoured: the whole count would take many hours.
    assert!(started.elapsed().as_secs_f64() < 10.0);
}

/// Boards of more than 64 squares take the general search. On a 1 x 100
/// line the wazir has exactly one tour from each end; on a 2 x n ladder
/// the only cycle is the rim, and the open tours follow the pattern
/// 2(n² − n + 2) that the 64-square search gives for every 2 ≤ n ≤ 32
/// (checked here for a few).
#[test]
fn boards_over_64_squares() {
    let line = Board::rectangle(100, 1);
    assert_eq!(tours(100, 1, &wazir(), open()).tours, 2);
    assert_eq!(
        count_on(&line, &wazir(), open_from(0), CountOptions::default()).tours,
        1
    );
    assert_eq!(
        count_on(&line, &wazir(), open_from(1), CountOptions::default()).tours,
        0
    );
    assert_eq!(tours(100, 1, &wazir(), closed()).tours, 0);
    for n in [2u128, 3, 7, 32] {
        let c = tours(n as u32, 2, &wazir(), open());
        assert_eq!(c.tours, 2 * (n * n - n + 2), "2x{n}");
    }
    for n in [33u128, 40] {
        let c = tours(n as u32, 2, &wazir(), open());
        assert_eq!(c.tours, 2 * (n * n - n + 2), "2x{n}");
        let c = tours(n as u32, 2, &wazir(), closed());
        assert_eq!((c.tours, c.cycles()), (2 * 2 * n, Some(1)), "2x{n}");
    }
}

/// Many threads share one cache of endings; with a cache that takes even
/// small endings, they hit the same slots all the time. The counts stay
/// exact.
#[test]
fn threads_share_the_cache_exactly() {
    for threads in [2, 4, 8, 2, 4, 8, 2, 4, 8] {
        let opts = CountOptions {
            threads: Some(threads),
            memo_min: Some(3),
            tasks: Some(20_000),
            ..CountOptions::default()
        };
        let c = count_on(
            &Board::rectangle(6, 6),
            &knight(),
            Goal {
                start: Some(0),
                ..closed()
            },
            opts,
        );
        assert_eq!(
            (c.tours, c.cycles()),
            (19724, Some(9862)),
            "{threads} threads"
        );
        let c = count_on(&Board::rectangle(5, 5), &knight(), open(), opts);
        assert_eq!(c.tours, 1728, "{threads} threads");
        let c = count_on(&Board::rectangle(5, 5), &wazir(), open(), opts);
        assert_eq!(c.tours, 2 * 4324, "{threads} threads");
    }
}
