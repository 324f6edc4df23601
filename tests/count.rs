//! `engine count` against published counts. Each test names its source.

use engine::count::{self, CountOptions, Counted, Shard};
use engine::model::Symmetries;
use engine::model::{Board, Piece};
use engine::solve::{Goal, Limits};

use crate::util::{closed, knight, open_from};

fn count_on(board: &Board, piece: &Piece, goal: Goal, opts: CountOptions) -> Counted {
    let g = crate::util::graph(board, piece);
    let sym = Symmetries::of_board(board, &g);
    let c = count::count(
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

fn king() -> Piece {
    Piece::leaper(0, 1, 1).union(&Piece::leaper(1, 1, 1))
}

/// OEIS A165134 (directed Hamiltonian paths in the n X n knight graph):
/// a(5) = 1728; and its example table (by Gheorghe Coserea) of the paths
/// from each square of 5x5: 304 from a corner, 56 from c1 and from b2, 64
/// from the centre, none from the other colour.
#[test]
fn knight_5x5_open_tours_a165134() {
    assert_eq!(tours(5, 5, &knight(), open()).tours, 1728);
    let table = [
        [304, 0, 56, 0, 304],
        [0, 56, 0, 56, 0],
        [56, 0, 64, 0, 56],
        [0, 56, 0, 56, 0],
        [304, 0, 56, 0, 304],
    ];
    let mut sum = 0;
    for (y, row) in table.iter().enumerate() {
        for (x, &expected) in row.iter().enumerate() {
            let c = tours(5, 5, &knight(), open_from((y * 5 + x) as u32));
            assert_eq!(c.tours, expected, "from ({x},{y})");
            sum += c.tours;
        }
    }
    assert_eq!(sum, 1728);
}

/// OEIS A165134: no open knight's tour on 2x2, 3x3 or 4x4; one on 1x1.
#[test]
fn knight_small_squares_a165134() {
    assert_eq!(tours(1, 1, &knight(), open()).tours, 1);
    for n in 2..=4 {
        assert_eq!(tours(n, n, &knight(), open()).tours, 0, "{n}x{n}");
    }
}

/// OEIS A118067 (directed Hamiltonian paths in the 3 X n knight graph):
/// 16 on 3x4, 0 on 3x5 and 3x6, 104 on 3x7, 792 on 3x8, 1120 on 3x9.
#[test]
fn knight_three_rank_boards_a118067() {
    for (n, expected) in [(4, 16), (5, 0), (6, 0), (7, 104), (8, 792), (9, 1120)] {
        assert_eq!(tours(n, 3, &knight(), open()).tours, expected, "3x{n}");
        // Transposed, the same board.
        assert_eq!(tours(3, n, &knight(), open()).tours, expected, "{n}x3");
    }
}

/// OEIS A001230 (undirected closed knight's tours on a 2n X 2n board):
/// 9862 on 6x6. From a fixed square every cycle is a directed tour in each
/// direction: 19724. Summed over all 36 starts, 36 times that.
#[test]
fn knight_6x6_closed_tours_a001230() {
    let c = tours(
        6,
        6,
        &knight(),
        Goal {
            start: Some(0),
            ..closed()
        },
    );
    assert_eq!((c.tours, c.cycles()), (19724, Some(9862)));
    let any = tours(6, 6, &knight(), closed());
    assert_eq!((any.tours, any.cycles()), (36 * 19724, Some(9862)));
    assert_eq!(tours(4, 4, &knight(), closed()).cycles(), Some(0));
}

/// OEIS A120443 (undirected Hamiltonian paths in the n X n grid graph):
/// 20, 276, 4324 for n = 3, 4, 5; directed, twice that (A096969).
#[test]
fn wazir_open_tours_a120443() {
    for (n, undirected) in [(2, 4), (3, 20), (4, 276), (5, 4324)] {
        assert_eq!(
            tours(n, n, &wazir(), open()).tours,
            2 * undirected,
            "{n}x{n}"
        );
    }
}

/// OEIS A003763 (Hamiltonian cycles on a 2n X 2n grid): 1, 6, 1072 on
/// 2x2, 4x4, 6x6; and none on an odd board.
#[test]
fn wazir_closed_tours_a003763() {
    for (n, cycles) in [(2, 1), (4, 6), (6, 1072)] {
        let c = tours(n, n, &wazir(), closed());
        assert_eq!(c.cycles(), Some(cycles), "{n}x{n}");
        assert_eq!(c.tours, 2 * cycles * u128::from(n * n), "{n}x{n}");
    }
    assert_eq!(tours(5, 5, &wazir(), closed()).cycles(), Some(0));
}

/// OEIS A140519 ("king tours", Hamiltonian cycles of the n X n king graph):
/// 3 on 2x2, 16 on 3x3, 2830 on 4x4.
#[test]
fn king_closed_tours_a140519() {
    for (n, cycles) in [(2, 3), (3, 16), (4, 2830)] {
        assert_eq!(
            tours(n, n, &king(), closed()).cycles(),
            Some(cycles),
            "{n}x{n}"
        );
    }
}

/// OEIS A339761 (undirected Hamiltonian paths in the 3 X n king graph):
/// 1, 48, 392, 4678 for n = 1..4; directed, twice that.
#[test]
fn king_three_rank_paths_a339761() {
    for (n, undirected) in [(1, 1), (2, 48), (3, 392), (4, 4678)] {
        assert_eq!(tours(n, 3, &king(), open()).tours, 2 * undirected, "3x{n}");
    }
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
    let c = count::count(
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
