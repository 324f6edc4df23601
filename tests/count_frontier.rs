//! The frontier counter against the depth-first one, on random small boards
//! (where plain enumeration, which checks every tour it finds with the
//! verifier, gives the truth), and as a user runs it. The published counts
//! are in `tests/published.rs`.

use std::time::Duration;

use engine::count::frontier::{self, FrontierCounted, FrontierOptions, Unfit};
use engine::count::{self, CountOptions};
use engine::model::Symmetries;
use engine::model::{Board, Cell, Piece, Topology};
use engine::progress::Progress;
use engine::solve::{Goal, Limits};
use predicates::prelude::*;
use proptest::prelude::*;

use crate::count_rules::{Case, case_strategy, enumerate};
use crate::util::{closed, engine, engine_process, interrupt_after, knight, open_from, setup};

/// The frontier count of `goal` on `board`, with `opts`.
fn frontier_count(
    board: &Board,
    piece: &Piece,
    goal: Goal,
    opts: FrontierOptions,
) -> Result<FrontierCounted, Unfit> {
    let g = crate::util::graph(board, piece);
    let plan = frontier::fit(board, &g)?;
    frontier::count(&g, &goal, &plan, &opts, &Limits::none(), &Progress::new())
}

/// The depth-first count: (directed tours, distinct cycles).
pub(crate) fn dfs(board: &Board, piece: &Piece, goal: Goal) -> (u128, Option<u128>) {
    let g = crate::util::graph(board, piece);
    let sym = Symmetries::of_board(board, &g);
    let c = count::dfs::count(
        &g,
        &goal,
        &sym,
        &CountOptions::default(),
        &Limits::none(),
        &Progress::new(),
    );
    assert!(c.complete());
    (c.tours, c.cycles())
}

/// The plan of the cheaper sweep (file by file or rank by rank) of
/// `board`, if the counter can hold its frontiers, with the board's
/// symmetries: the order `fit` passes over when a greedy order keeps a
/// smaller frontier.
fn sweep_plan(board: &Board, g: &engine::model::MoveGraph) -> Option<frontier::Plan> {
    [frontier::Sweep::Files, frontier::Sweep::Ranks]
        .into_iter()
        .filter_map(|sweep| {
            let order = frontier::plan::sweep_order(board, sweep);
            let profile =
                frontier::plan::widths_within(g, &order, frontier::plan::MAX_WIDTH).ok()?;
            Some((frontier::plan::cost(&profile), sweep, order))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, sweep, order)| {
            let mut plan = frontier::Plan::new(sweep, order, frontier::plan::simple_neighbours(g));
            plan.symmetries = Symmetries::of_board(board, g)
                .elements()
                .iter()
                .filter(|p| p.iter().enumerate().any(|(s, &t)| s as u32 != t))
                .cloned()
                .collect();
            plan
        })
}

/// The frontier count of one puzzle every way the tests take it: in its
/// own order, shared out or on one thread, each way of taking a square
/// looked at or not, and by the cheaper sweep; they must agree. Returns
/// their answer: (directed tours, distinct cycles).
pub(crate) fn frontier_ways(board: &Board, piece: &Piece, goal: Goal) -> (u128, Option<u128>) {
    let mut answer = None;
    // Shared out or on one thread; each way of taking a square looked at
    // or not.
    for (serial_below, children_above) in
        [(0, frontier::CHILDREN_ABOVE), (frontier::SERIAL_BELOW, 0)]
    {
        let opts = FrontierOptions {
            serial_below,
            children_above,
            ..FrontierOptions::default()
        };
        let f = frontier_count(board, piece, goal, opts).expect("the frontier fits");
        assert!(f.complete());
        let got = (f.tours, f.cycles());
        assert_eq!(
            *answer.get_or_insert(got),
            got,
            "frontier: {} {goal:?} (serial below {serial_below}, children above {children_above})",
            board.describe()
        );
    }
    let answer = answer.expect("two counts were made");
    let g = crate::util::graph(board, piece);
    if let Some(plan) = sweep_plan(board, &g) {
        let f = frontier::count(
            &g,
            &goal,
            &plan,
            &FrontierOptions::default(),
            &Limits::none(),
            &Progress::new(),
        )
        .expect("the sweep fits");
        assert_eq!(
            (f.tours, f.cycles()),
            answer,
            "frontier ({:?}) against its own order: {} {goal:?}",
            plan.sweep,
            board.describe()
        );
    }
    answer
}

/// Both methods on one puzzle: they must agree (the frontier every way of
/// [`frontier_ways`]); returns their answer.
fn both(board: &Board, piece: &Piece, goal: Goal) -> (u128, Option<u128>) {
    let d = dfs(board, piece, goal);
    assert_eq!(
        frontier_ways(board, piece, goal),
        d,
        "frontier against depth-first: {} {goal:?}",
        board.describe()
    );
    d
}

fn open() -> Goal {
    Goal::default()
}

fn wazir() -> Piece {
    Piece::leaper(0, 1, 1)
}

fn king() -> Piece {
    wazir().union(&Piece::leaper(1, 1, 1))
}

fn square(n: u32) -> Board {
    Board::rectangle(n, n)
}

/// Boards of more than 64 squares: a 1 x 100 line and 2 x n ladders (the
/// knight's 5x8 counts are in `tests/data/published-counts.csv`).
#[test]
fn long_boards_by_both_methods() {
    let line = Board::rectangle(100, 1);
    assert_eq!(both(&line, &wazir(), open()).0, 2);
    assert_eq!(both(&line, &wazir(), open_from(0)).0, 1);
    assert_eq!(both(&line, &wazir(), open_from(1)).0, 0);
    assert_eq!(both(&line, &wazir(), closed()).0, 0);
    for n in [33u128, 40] {
        let ladder = Board::rectangle(n as u32, 2);
        assert_eq!(both(&ladder, &wazir(), open()).0, 2 * (n * n - n + 2));
        assert_eq!(both(&ladder, &wazir(), closed()), (4 * n, Some(1)));
    }
}

/// Fixed ends, removed squares, a cylinder and a torus, unions.
#[test]
fn ends_holes_and_topologies_by_both_methods() {
    let holed = Board::new(5, 4, Topology::Plain, |c: Cell| {
        !matches!((c.x, c.y), (1, 1) | (3, 2))
    });
    let ends = [
        open(),
        open_from(0),
        Goal {
            end: Some(5),
            ..open()
        },
        Goal {
            start: Some(0),
            end: Some(17),
            closed: false,
        },
        closed(),
    ];
    for goal in ends {
        both(&holed, &king(), goal);
        both(&holed, &wazir().union(&knight()), goal);
    }
    let cylinder = Board::new(4, 4, Topology::Cylinder, |_| true);
    let torus = Board::new(4, 3, Topology::Torus, |_| true);
    for b in [&cylinder, &torus] {
        for goal in [open(), open_from(2), closed()] {
            both(b, &knight(), goal);
            both(b, &wazir(), goal);
        }
    }
    // A rider with a range of two (a frontier of a few files).
    both(&Board::rectangle(6, 3), &Piece::leaper(0, 1, 2), open());
    both(&Board::rectangle(6, 3), &Piece::leaper(0, 1, 2), closed());
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        max_global_rejects: 8192,
        ..ProptestConfig::default()
    })]

    /// On random small boards, pieces, topologies and goals with two-way
    /// moves, the frontier count is the number of tours plain enumeration
    /// finds (and verifies), and the depth-first count.
    #[test]
    fn agrees_with_enumeration(case in case_strategy(), serial in any::<bool>(), children in any::<bool>()) {
        agrees(&case, serial, children)?;
    }
}

fn agrees(case: &Case, serial: bool, children: bool) -> Result<(), TestCaseError> {
    let g = crate::util::graph(&case.board, &case.piece);
    if !g.is_symmetric() || g.len() < 3 {
        return Err(TestCaseError::reject("not for the frontier"));
    }
    let Some(truth) = enumerate(&case.board, &case.piece, &case.goal, 400_000) else {
        return Err(TestCaseError::reject("too many tours to enumerate"));
    };
    let opts = FrontierOptions {
        serial_below: if serial { frontier::SERIAL_BELOW } else { 0 },
        threads: Some(if serial { 1 } else { 2 }),
        children_above: if children {
            0
        } else {
            frontier::CHILDREN_ABOVE
        },
        ..FrontierOptions::default()
    };
    let count = |plan: &frontier::Plan| {
        frontier::count(
            &g,
            &case.goal,
            plan,
            &opts,
            &Limits::none(),
            &Progress::new(),
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))
    };
    let plan = frontier::fit(&case.board, &g).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let f = count(&plan)?;
    prop_assert_eq!(f.tours, truth.tours);
    prop_assert_eq!(f.cycles(), truth.cycles);
    let d = dfs(&case.board, &case.piece, case.goal);
    prop_assert_eq!((f.tours, f.cycles()), d);
    // The sweep the chosen order may have passed over counts the same.
    if let Some(plan) = sweep_plan(&case.board, &g) {
        let s = count(&plan)?;
        prop_assert_eq!((s.tours, s.cycles()), d);
    }
    Ok(())
}

/// Counts that outgrow 64 bits are redone in 128: king's open tours of
/// 10x6 number more than 2^64; the board turned a quarter (6x10, swept
/// along its ranks instead of its files) gives the same count.
#[test]
fn counts_past_64_bits() {
    let c = frontier_count(
        &Board::rectangle(10, 6),
        &king(),
        open(),
        FrontierOptions::default(),
    )
    .unwrap();
    assert_eq!(c.count_bits, 128);
    assert!(c.tours > u128::from(u64::MAX));
    let turned = frontier_count(
        &Board::rectangle(6, 10),
        &king(),
        open(),
        FrontierOptions::default(),
    )
    .unwrap();
    assert_eq!(turned.tours, c.tours);
    // And by the sweep along its ranks.
    let g = crate::util::graph(&Board::rectangle(6, 10), &king());
    let ranks = sweep_plan(&Board::rectangle(6, 10), &g).expect("a sweep");
    assert_eq!(ranks.sweep, frontier::Sweep::Ranks);
    let swept = frontier::count(
        &g,
        &open(),
        &ranks,
        &FrontierOptions::default(),
        &Limits::none(),
        &Progress::new(),
    )
    .unwrap();
    assert_eq!(swept.tours, c.tours);
}

/// A time limit stops a frontier count with no count at all, and says so;
/// a budget too small refuses it.
#[test]
fn limits_and_budget() {
    let b = square(7);
    let g = crate::util::graph(&b, &knight());
    let plan = frontier::fit(&b, &g).unwrap();
    let started = std::time::Instant::now();
    let limits = Limits::none().with_time(Some(0.3));
    let c = frontier::count(
        &g,
        &open(),
        &plan,
        &FrontierOptions::default(),
        &limits,
        &Progress::new(),
    )
    .unwrap();
    assert!(!c.complete());
    assert_eq!(c.tours, 0);
    assert!(c.squares_done < 49);
    assert!(started.elapsed() < Duration::from_secs(10));
    let tiny = FrontierOptions {
        budget: 1 << 20,
        ..FrontierOptions::default()
    };
    let r = frontier::count(&g, &open(), &plan, &tiny, &Limits::none(), &Progress::new());
    assert!(
        matches!(r, Err(Unfit::TooBig { at, .. }) if at > 0),
        "{r:?}"
    );
}

/// Pieces the frontier cannot take: one-way moves, and sweeps too wide.
#[test]
fn what_the_frontier_refuses() {
    let oneway = Piece::new([
        engine::model::Move::leap(1, 2),
        engine::model::Move::leap(-2, 1),
    ]);
    let b = square(5);
    let g = crate::util::graph(&b, &oneway);
    assert_eq!(frontier::fit(&b, &g).err(), Some(Unfit::OneWay));
    let rook = Piece::leaper(0, 1, engine::model::UNLIMITED);
    let b = square(12);
    let g = crate::util::graph(&b, &rook);
    assert!(matches!(frontier::fit(&b, &g), Err(Unfit::TooWide { .. })));
    let b = Board::rectangle(2, 1);
    let g = crate::util::graph(&b, &wazir());
    assert_eq!(frontier::fit(&b, &g).err(), Some(Unfit::Small));
}

/// Every sweep of the giraffe's 9x9 board is wider than the frontier holds
/// (38 squares); a greedy order is not (the counts of greedy orders are
/// checked against depth-first search and enumeration above).
#[test]
fn a_greedy_order_counts_where_every_sweep_is_too_wide() {
    let board = Board::rectangle(9, 9);
    let piece = Piece::leaper(1, 4, 1);
    let g = crate::util::graph(&board, &piece);
    assert!(sweep_plan(&board, &g).is_none());
    let plan = frontier::fit(&board, &g).expect("a greedy order fits");
    assert_eq!(plan.sweep, frontier::Sweep::Greedy);
    assert!(plan.width <= frontier::plan::MAX_WIDTH);
    let c = frontier::count(
        &g,
        &open(),
        &plan,
        &FrontierOptions::default(),
        &Limits::none(),
        &Progress::new(),
    )
    .expect("the greedy order counts");
    assert!(c.complete());
    assert!(c.tours > 0);
}

const KNIGHT_8X5: &str = r#"Puzzle(board: "8x5", piece: "knight", tour: Closed)"#;

#[test]
fn cli_method_flag() {
    let (_dir, file) = setup(KNIGHT_8X5);
    for method in ["frontier", "dfs"] {
        engine()
            .args(["count", file.to_str().unwrap(), "--method", method])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("44202 distinct cycles"));
    }
    engine()
        .args(["count", file.to_str().unwrap(), "--method", "frontier"])
        .assert()
        .stdout(predicate::str::contains("count: frontier, in greedy order"))
        .stdout(predicate::str::contains("method: frontier (as asked"));
    // Without the flag, the choice and its reason are shown (the heart's
    // open tours: 23 ms depth-first against 42 ms by the frontier).
    engine()
        .args(["count", "puzzles/picture-heart.ron"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("method: depth-first (frontier of"));
    // Shards count by the frontier when it is asked for.
    engine()
        .args([
            "count",
            file.to_str().unwrap(),
            "--method",
            "frontier",
            "--shard",
            "1/2",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("shard=1/2 method=frontier"));
}

/// Without `--method` the choice is shown with the frontier's estimated
/// states and memory and both estimated times.
#[test]
fn cli_shows_the_choice_and_its_estimates() {
    let (_dir, file) = setup(KNIGHT_8X5);
    engine()
        .args(["count", file.to_str().unwrap(), "--quiet"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("44202 distinct cycles"))
        .stdout(predicate::str::contains("count: frontier"))
        .stdout(predicate::str::is_match(
            r"method: frontier \(frontier of 11 squares in greedy order, about [0-9,]+ states \([0-9.]+ [KMG]?i?B\) at its widest, estimated (under )?[0-9.]+ s against [0-9.]+ s depth-first\)",
        ).unwrap());
    engine()
        .args(["count", "puzzles/picture-heart.ron", "--quiet"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("count: 2 symmetries"))
        .stdout(predicate::str::contains(
            "method: depth-first (frontier of 10 squares in greedy order, about",
        ));
}

#[test]
fn cli_refusals() {
    let (_dir, file) =
        setup(r#"Puzzle(board: "5x5", piece: "jumps (1,2), (-2,1), (1,-2), (-1,-1)")"#);
    engine()
        .args(["count", file.to_str().unwrap(), "--method", "frontier"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("can be made back"));
    // A knight on 11x12: a frontier of 24 squares, estimated far over the
    // memory budget and the disk's free space before the start.
    let (_dir, file) = setup(r#"Puzzle(board: "11x12", piece: "knight", tour: Closed)"#);
    engine()
        .args(["count", file.to_str().unwrap(), "--method", "frontier"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: --method: the frontier count would need about",
        ))
        .stderr(predicate::str::contains("of disk for its states in"))
        .stderr(predicate::str::contains("free"));
}

#[test]
fn cli_interrupts_without_a_lower_bound() {
    let (_dir, file) = setup(r#"Puzzle(board: "7x7", piece: "knight")"#);
    engine()
        .args([
            "count",
            file.to_str().unwrap(),
            "--method",
            "frontier",
            "--time-limit",
            "0.5",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("no count: the time limit ran out"))
        .stdout(predicate::str::contains("no partial lower bound"));
    let out = interrupt_after(
        engine_process().args(["count", file.to_str().unwrap(), "--method", "frontier"]),
        Duration::from_millis(700),
    );
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no count: interrupted"));
}

/// The frontier's estimates are fitted to the knight: a piece whose moves
/// span more lines gets none, and is counted by the frontier first (the
/// giraffe's 10x10 was refused by an estimate of 2041 GiB).
#[test]
fn cli_pieces_reaching_further_than_the_knight_have_no_estimate() {
    let board = ["--board", "7x8", "--piece", "giraffe", "--quiet"];
    engine()
        .args(["count"])
        .args(board)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("400 directed open tours"))
        .stdout(predicate::str::contains("count: frontier"))
        .stdout(predicate::str::contains(
            "moves across 4 lines: no estimate of its states, tried first)",
        ));
    engine()
        .args(["count", "--method", "dfs"])
        .args(board)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("400 directed open tours"));
    engine()
        .args([
            "count",
            "--board",
            "10x10",
            "--piece",
            "giraffe",
            "--method",
            "frontier",
            "--time-limit",
            "1",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("no count: the time limit ran out"))
        .stdout(predicate::str::contains(
            "as asked; frontier of 19 squares in greedy order, moves across 4 lines: no estimate of its states)",
        ));
}

/// The output of `engine count` with `args`, which must exit 0.
fn count_stdout(args: &[&str]) -> String {
    let out = engine().arg("count").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `--memory` sets the states' budget of the frontier: a count tried first
/// for want of an estimate passes a small one mid-run, and the depth-first
/// search counts instead, to the same number; asked for, the frontier
/// spills its states to disk and counts the same.
#[test]
fn cli_memory_budget_passed_mid_run_falls_back_to_the_search() {
    // The knight on a 3x5 Klein bottle, open from a1: no estimate (the
    // board wraps); its states reach 4.8 MiB at their widest, the subsets
    // need 375 KiB, the search takes a quarter of a second.
    let board = [
        "--board",
        "3x5 klein",
        "--start",
        "a1",
        "--quiet",
        "--memory",
        "256KiB",
    ];
    let tours = "35733504 directed open tours from a1";
    let auto = count_stdout(&board);
    assert!(auto.contains(tours), "{auto}");
    assert!(auto.contains("count: 2 symmetries"), "{auto}");
    let method = "method: depth-first (frontier of 10 squares in greedy order, the board wraps: no estimate of its states or of the search, tried first; its states passed 256 KiB at square ";
    let line = auto.lines().last().unwrap();
    let at = line
        .strip_prefix(method)
        .and_then(|rest| rest.strip_suffix(" of 15)"))
        .expect(&auto);
    let at: usize = at.parse().expect(&auto);
    assert!((1..15).contains(&at), "{auto}");
    let dfs = count_stdout(&[&board[..], &["--method", "dfs"]].concat());
    assert!(dfs.contains(tours), "{dfs}");
    // The default budget holds the subsets, which cost least here.
    let subset = count_stdout(&board[..5]);
    assert!(subset.contains(tours), "{subset}");
    assert!(subset.contains("count: subset"), "{subset}");
    // Asked for, the frontier spills what passes the budget to disk.
    let dir = tempfile::tempdir().unwrap();
    let spilled = count_stdout(
        &[
            &board[..],
            &[
                "--method",
                "frontier",
                "--spill",
                dir.path().to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert!(spilled.contains(tours), "{spilled}");
    assert!(spilled.contains("count: frontier"), "{spilled}");
    assert!(spilled.contains("written to disk"), "{spilled}");
    // Its runs are removed when the count ends.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `--memory` applies to the estimate before the start: a knight's count
/// estimated over it spills to disk when the frontier is asked for and is
/// counted depth-first when not; a budget it fits in lets the frontier count.
#[test]
fn cli_memory_budget_before_the_start() {
    // The knight's open tours of 7x6 from a1 to g6: estimated at 20 MiB
    // (27,660 states at most, 1 MiB, in fact); the search takes 2.5 s.
    let board = ["--board", "7x6", "--start", "a1", "--end", "g6", "--quiet"];
    let tours = "8107945 directed open tours from a1 to g6";
    let dir = tempfile::tempdir().unwrap();
    let spilled = count_stdout(
        &[
            &board[..],
            &["--method", "frontier", "--memory", "2000000", "--spill"],
            &[dir.path().to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(spilled.contains(tours), "{spilled}");
    assert!(spilled.contains("written to disk"), "{spilled}");
    let fits = count_stdout(&[&board[..], &["--method", "frontier", "--memory", "64MiB"]].concat());
    assert!(fits.contains(tours), "{fits}");
    assert!(fits.contains("count: frontier"), "{fits}");
    let auto = count_stdout(&[&board[..], &["--memory", "2MiB"]].concat());
    assert!(auto.contains(tours), "{auto}");
    assert!(
        auto.ends_with("method: depth-first (the frontier's states would need about 20 MiB)\n"),
        "{auto}"
    );
    // Under the default budget the frontier is chosen.
    let default = count_stdout(&board);
    assert!(default.contains(tours), "{default}");
    assert!(default.contains("count: frontier"), "{default}");
}

/// A `--memory` that is no size is refused at the flag; any whole number
/// of bytes is a budget.
#[test]
fn cli_memory_flag_refusals() {
    for (value, message) in [
        (
            "lots",
            "a size is a whole number of bytes, or of KiB, MiB, GiB or TiB",
        ),
        ("1.5GiB", "a size is a whole number of bytes"),
        ("2GB", "a size is a whole number of bytes"),
        (
            "99999999999TiB",
            "a size is at most 18446744073709551615 bytes",
        ),
    ] {
        let caret = "^".repeat(value.len());
        engine()
            .args(["count", "--board", "5x5", "--memory", value])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "error: --memory: {message}"
            )))
            .stderr(predicate::str::contains(format!(" | --memory {value}\n")))
            .stderr(predicate::str::contains(format!(" |          {caret}")));
    }
    // Any whole number of bytes is a budget, and one under a MiB is named
    // in KiB or bytes, never as 0 MiB.
    for (value, method) in [
        ("1000000", "count: frontier"),
        (
            "0",
            "method: depth-first (the frontier's states would need about 3 KiB)",
        ),
    ] {
        let out = count_stdout(&["--board", "5x5", "--quiet", "--memory", value]);
        assert!(out.contains("1728 directed open tours"), "{out}");
        assert!(out.contains(method), "{out}");
        assert!(!out.contains("(0 MiB)"), "{out}");
    }
}

/// A count the method was chosen for that passes the budget mid-run,
/// though estimated under it, is counted depth-first: the flag is not
/// blamed when the user gave none; when asked for, the frontier spills its
/// states to disk.
#[test]
fn cli_estimated_count_passing_the_budget_falls_back_to_the_search() {
    // The knight's open tours of 7x5: estimated at 2,000 states (71 KiB)
    // at the widest, 3,854 (188 KiB) in fact.
    let board = ["--board", "7x5", "--quiet", "--memory", "128KiB"];
    let tours = "1245736 directed open tours, summed over all 35 start squares";
    let auto = count_stdout(&board);
    assert!(auto.contains(tours), "{auto}");
    assert!(auto.contains("count: 4 symmetries"), "{auto}");
    let line = auto.lines().last().unwrap();
    let at = line
        .strip_prefix("method: depth-first (frontier of 9 squares in greedy order, about 2,000 states (71 KiB) at its widest, estimated 0.01 s against 0.29 s depth-first; its states passed 128 KiB at square ")
        .and_then(|rest| rest.strip_suffix(" of 35)"))
        .expect(&auto);
    let at: usize = at.parse().expect(&auto);
    let dfs = count_stdout(&[&board[..], &["--method", "dfs"]].concat());
    assert!(dfs.contains(tours), "{dfs}");
    assert!((1..35).contains(&at), "{auto}");
    // Asked for, the frontier writes what passes the budget to disk.
    let dir = tempfile::tempdir().unwrap();
    let spilled = count_stdout(
        &[
            &board[..],
            &[
                "--method",
                "frontier",
                "--spill",
                dir.path().to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert!(spilled.contains(tours), "{spilled}");
    assert!(spilled.contains("written to disk"), "{spilled}");
}

/// A count past 128 bits (the king's closed tours of 200x2; of 120x2 they are
/// 3.2 × 10^38) is a limit of the counter, not of a flag: a plain error and
/// exit 3, whether the frontier was chosen or asked for.
#[test]
fn cli_a_count_past_128_bits_is_a_plain_error() {
    for method in [&[][..], &["--method", "frontier"]] {
        engine()
            .args(["count", "--board", "200x2", "--piece", "king", "--closed"])
            .args(method)
            .assert()
            .code(3)
            .stdout("")
            .stderr(
                "error: count: a count of the frontier method outgrew 128 bits\n  help: the frontier keeps counts of at most 128 bits (about 3.4 × 10^38); no count is printed\n",
            );
    }
}

/// The estimate reads as people say it: one state, not "1 states".
#[test]
fn cli_an_estimate_of_one_state_is_singular() {
    let out = count_stdout(&["puzzles/holed4x4.ron", "--quiet"]);
    assert!(out.contains("12 directed open tours"), "{out}");
    assert!(out.contains("about 1 state ("), "{out}");
    assert!(!out.contains(" 1 states"), "{out}");
}
