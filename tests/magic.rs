//! Magic tours: the arithmetic that refuses a board, the verifier's sums,
//! and the magic search's finds and counts against a brute force that
//! walks every tour with the verifier's own geometry and adds the sums.

use engine::count::{CountRequest, Job, Shard, count_job};
use engine::halt::Limits;
use engine::model::{Board, Constraints, Magic, Piece};
use engine::progress::Progress;
use engine::solve::{Goal, Outcome};
use engine::verify::{verify, verify_constraints, verify_magic};

use crate::util::{engine, legal_moves, puzzle, setup, solve};

/// Beverley's semi-magic knight's tour of 1848: the square of each step.
fn beverley() -> (Board, Vec<u32>) {
    // Ranks from the top, as printed.
    let rows = [
        [1, 30, 47, 52, 5, 28, 43, 54],
        [48, 51, 2, 29, 44, 53, 6, 27],
        [31, 46, 49, 4, 25, 8, 55, 42],
        [50, 3, 32, 45, 56, 41, 26, 7],
        [33, 62, 15, 20, 9, 24, 39, 58],
        [16, 19, 34, 61, 40, 57, 10, 23],
        [63, 14, 17, 36, 21, 12, 59, 38],
        [18, 35, 64, 13, 60, 37, 22, 11],
    ];
    let board = Board::rectangle(8, 8);
    let mut tour = vec![0; 64];
    for (r, row) in rows.iter().enumerate() {
        for (x, &k) in row.iter().enumerate() {
            let cell = engine::model::Cell::new(x as u32, 7 - r as u32);
            tour[k - 1] = board.square_at(cell).unwrap_or(u32::MAX);
        }
    }
    (board, tour)
}

#[test]
fn the_verifier_adds_the_sums_of_a_published_tour() {
    let (board, tour) = beverley();
    let knight = Piece::leaper(1, 2, 1);
    assert_eq!(verify(&board, &knight, &Goal::default(), &tour), Ok(()));
    assert_eq!(verify_magic(&board, Magic::Semi, &tour), Ok(()));
    // Its diagonals sum to 256 and 264.
    let e = verify_magic(&board, Magic::Diagonal, &tour);
    assert!(e.as_ref().is_err_and(|e| e.contains("diagonal")), "{e:?}");
    // Two steps swapped: a tour no longer, and its ranks off.
    let mut swapped = tour.clone();
    swapped.swap(0, 2);
    assert!(verify_magic(&board, Magic::Semi, &swapped).is_err());
    let c = Constraints {
        magic: Some(Magic::Semi),
        ..Constraints::default()
    };
    assert_eq!(verify_constraints(&board, false, &c, &tour), Ok(()));
}

/// Every directed tour of `piece` on `board` for `goal`, walked with the
/// verifier's geometry (not the move graph), that passes `keep`.
fn brute_force(
    board: &Board,
    piece: &Piece,
    goal: Goal,
    keep: &dyn Fn(&[u32]) -> bool,
) -> Vec<Vec<u32>> {
    let legal = legal_moves(board, piece);
    let n = board.len();
    let mut out = Vec::new();
    let mut path = Vec::with_capacity(n);
    let mut used = vec![false; n];
    fn walk(
        legal: &[Vec<bool>],
        goal: Goal,
        path: &mut Vec<u32>,
        used: &mut [bool],
        keep: &dyn Fn(&[u32]) -> bool,
        out: &mut Vec<Vec<u32>>,
    ) {
        let n = used.len();
        if path.len() == n {
            let closes = !goal.closed || legal[path[n - 1] as usize][path[0] as usize];
            let ends = goal.end.is_none_or(|e| path[n - 1] == e);
            if closes && ends && keep(path) {
                out.push(path.clone());
            }
            return;
        }
        let last = path[path.len() - 1] as usize;
        for t in 0..n {
            if !used[t] && legal[last][t] {
                used[t] = true;
                path.push(t as u32);
                walk(legal, goal, path, used, keep, out);
                path.pop();
                used[t] = false;
            }
        }
    }
    for s in 0..n as u32 {
        if goal.start.is_some_and(|f| f != s) {
            continue;
        }
        used[s as usize] = true;
        path.push(s);
        walk(&legal, goal, &mut path, &mut used, keep, &mut out);
        path.pop();
        used[s as usize] = false;
    }
    out
}

/// The count of `text`'s puzzle by `engine count`'s entry point, and every
/// tour its `run` finds checked, against the brute force.
fn agrees(text: &str) -> u128 {
    let p = puzzle(text);
    let c = &p.constraints;
    let magic = c.magic.unwrap_or(Magic::Semi);
    let truth = brute_force(&p.board, &p.piece, p.goal, &|t| {
        verify_magic(&p.board, magic, t).is_ok()
            && verify_constraints(&p.board, p.goal.closed, c, t).is_ok()
    });
    let job = Job {
        board: &p.board,
        piece: &p.piece,
        goal: p.goal,
        constraints: c,
    };
    let count = count_job(
        &job,
        &CountRequest::default(),
        &Limits::none(),
        &Progress::new(),
    )
    .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(count.tours, truth.len() as u128, "{text}");
    let report = solve(&p);
    match report.outcome {
        Outcome::Found(t) => {
            assert!(
                truth.contains(&t),
                "{text}: {t:?} is not among the brute force's"
            );
        }
        Outcome::Impossible(_) => assert!(truth.is_empty(), "{text}"),
        other => panic!("{text}: {other:?}"),
    }
    count.tours
}

#[test]
fn counts_and_finds_agree_with_brute_force_on_small_boards() {
    let cases = [
        // King tours of two ranks: as many as an outside brute force counts.
        (
            r#"Puzzle(board: "4x2", piece: "king", magic: Semi)"#,
            Some(4),
        ),
        (
            r#"Puzzle(board: "2x4", piece: "king", magic: Semi)"#,
            Some(4),
        ),
        (
            r#"Puzzle(board: "6x2", piece: "king", magic: Semi, tour: Closed)"#,
            Some(4),
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi)"#,
            Some(16),
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, tour: Closed)"#,
            Some(16),
        ),
        // None on 4x4 for the king or the wazir, nor on 3x3 or 3x5.
        (
            r#"Puzzle(board: "4x4", piece: "king", magic: Semi)"#,
            Some(0),
        ),
        (
            r#"Puzzle(board: "4x4", piece: "king", magic: Diagonal)"#,
            Some(0),
        ),
        (
            r#"Puzzle(board: "4x4", piece: "wazir", magic: Semi)"#,
            Some(0),
        ),
        (
            r#"Puzzle(board: "3x3", piece: "king", magic: Semi)"#,
            Some(0),
        ),
        (
            r#"Puzzle(board: "3x5", piece: "king", magic: Semi)"#,
            Some(0),
        ),
        // The emperor (knight and wazir) on 4x4, with and without the
        // diagonals, closed, and with a clue.
        (
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi)"#,
            None,
        ),
        (
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Diagonal)"#,
            None,
        ),
        (
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi, tour: Closed)"#,
            None,
        ),
        (
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi, clues: {"b2": 7})"#,
            None,
        ),
        // A start, an end and clues.
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, start: "a1")"#,
            None,
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, end: "h2")"#,
            None,
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, clues: {"c2": 3})"#,
            None,
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, clues: {"c2": 4})"#,
            None,
        ),
        // A symmetry: the half-turn, open and closed; a mirror.
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, symmetry: Rotate180)"#,
            None,
        ),
        (
            r#"Puzzle(board: "8x2", piece: "king", magic: Semi, tour: Closed, symmetry: Rotate180)"#,
            None,
        ),
        (
            r#"Puzzle(board: "6x2", piece: "king", magic: Semi, tour: Closed, symmetry: MirrorFiles)"#,
            None,
        ),
        (
            r#"Puzzle(board: "4x4", piece: "emperor", pieces: {"emperor": "knight | wazir"}, magic: Semi, symmetry: Rotate180)"#,
            None,
        ),
        // A one-way piece.
        (
            r#"Puzzle(board: "4x2", piece: "jumps (1,0), (-1,1), (1,1), (-1,0), (0,1), (0,-1), (1,-1)", magic: Semi)"#,
            None,
        ),
    ];
    let mut found = 0;
    for (text, want) in cases {
        let got = agrees(text);
        if let Some(want) = want {
            assert_eq!(got, want, "{text}");
        }
        found += u128::from(got > 0);
    }
    // The brute force agrees on cases with tours, not only on none.
    assert!(found >= 10, "{found}");
}

#[test]
fn shards_add_up_to_the_whole_count() {
    let p = puzzle(r#"Puzzle(board: "8x2", piece: "king", magic: Semi)"#);
    let job = Job {
        board: &p.board,
        piece: &p.piece,
        goal: p.goal,
        constraints: &p.constraints,
    };
    let count = |shard| {
        let request = CountRequest {
            shard,
            ..CountRequest::default()
        };
        count_job(&job, &request, &Limits::none(), &Progress::new())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let whole = count(None).tours;
    let parts: u128 = (1..=3).map(|k| count(Shard::new(k, 3)).tours).sum();
    assert_eq!((whole, parts), (16, 16));
}

#[test]
fn boards_whose_sums_cannot_be_whole_are_refused_with_the_arithmetic() {
    let (_dir, file) = setup("Puzzle(board: \"3x4\", piece: \"king\", magic: Semi)\n");
    let out = engine().args(["run"]).arg(&file).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("a 3x4 board's 4 ranks would each sum to 78/4 = 39/2"),
        "{err}"
    );
    assert!(err.contains("p.ron:1:44"), "{err}");
    assert!(err.contains("^^^^"), "{err}");
    for (text, says) in [
        (
            "Puzzle(board: \"6x4\", piece: \"king\", magic: Diagonal)\n",
            "needs a square board",
        ),
        (
            "Puzzle(board: \"4x4 - a1\", piece: \"king\", magic: Semi)\n",
            "1 square removed",
        ),
    ] {
        let (_dir, file) = setup(text);
        let out = engine().args(["check"]).arg(&file).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains(says), "{text}: {err}");
    }
    // A board given outside the file is held to the file's sums.
    let (_dir, file) = setup("Puzzle(board: \"4x2\", piece: \"king\", magic: Semi)\n");
    let out = engine()
        .args(["run", "--board", "5x4"])
        .arg(&file)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("210/4"), "{err}");
}

#[test]
fn solvers_that_cannot_honour_the_sums_are_refused_at_the_field() {
    for solver in ["Warnsdorff()", "Genetic()", "Symmetric()"] {
        let text =
            format!("Puzzle(board: \"4x2\", piece: \"king\",\n  magic: Semi, solver: {solver})\n");
        let (_dir, file) = setup(&text);
        let out = engine().args(["run"]).arg(&file).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            err.contains("does not honour magic sums"),
            "{solver}: {err}"
        );
        assert!(err.contains("p.ron:2:10"), "{solver}: {err}");
    }
    let (_dir, file) = setup("Puzzle(board: \"4x2\", piece: \"king\", magic: Semi)\n");
    let out = engine()
        .args(["run", "--solver", "warnsdorff"])
        .arg(&file)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("does not honour the puzzle's `magic`"),
        "{err}"
    );
    let out = engine()
        .args(["count", "--method", "frontier"])
        .arg(&file)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("frontier count does not take magic sums"),
        "{err}"
    );
}

#[test]
fn a_second_solution_is_found_or_ruled_out() {
    let (_dir, file) = setup(
        "Puzzle(board: \"8x2\", piece: \"king\", magic: Semi, tour: Closed, start: \"a1\")\n",
    );
    // Two closed numberings from a1 are magic: both are printed, checked.
    let out = engine()
        .args(["run", "--unique", "--format", "json"])
        .arg(&file)
        .assert()
        .code(4);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["status"], "multiple", "{v}");
    let p = crate::util::load(&file);
    crate::util::assert_verified(&p, &v);
    let second = crate::util::tour_from_json(&p, &v["second"]);
    assert_eq!(verify_magic(&p.board, Magic::Semi, &second), Ok(()));
    assert_ne!(second, crate::util::tour_from_json(&p, &v));
}

#[test]
fn the_magic_puzzle_of_the_collection_has_one_solution_the_verifier_adds_up() {
    let p = crate::util::load(std::path::Path::new("puzzles/magic-knight8x8.ron"));
    assert_eq!(p.constraints.magic, Some(Magic::Semi));
    let out = engine()
        .args(["run", "--unique", "--format", "json", "--quiet"])
        .arg("puzzles/magic-knight8x8.ron")
        .assert()
        .code(0);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["status"], "unique", "{v}");
    crate::util::assert_verified(&p, &v);
    // It is Beverley's tour, which the collection gives whole.
    let (_, beverley) = beverley();
    assert_eq!(crate::util::tour_from_json(&p, &v), beverley);
}

/// Tours the clue search finds for clues taken from Beverley's tour, kept
/// when the verifier's sums are magic: the magic search's count of the
/// same clues with `magic: Semi` is as many.
#[test]
fn the_clue_search_filtered_by_the_sums_agrees_with_the_magic_count() {
    let (board, tour) = beverley();
    let knight = Piece::leaper(1, 2, 1);
    let g = crate::util::graph(&board, &knight);
    for keep in [
        &(|k: usize| !(16..48).contains(&k)) as &dyn Fn(usize) -> bool,
        &|k: usize| k.is_multiple_of(2) && k < 40,
        &|k: usize| k.is_multiple_of(3),
    ] {
        let clues: Vec<(u32, u32)> = (0..64)
            .filter(|&k| keep(k))
            .map(|k| (k as u32 + 1, tour[k]))
            .collect();
        let plain = Constraints {
            clues: clues.clone(),
            ..Constraints::default()
        };
        let task =
            engine::solve::Task::new(&g, &board, &knight, Goal::default()).with_constraints(&plain);
        let (all, stop) = engine::solve::clued::first_solutions(
            &task,
            usize::MAX,
            &Limits::none(),
            &Progress::new(),
        );
        assert_eq!(stop, None);
        let magic: Vec<&Vec<u32>> = all
            .iter()
            .filter(|t| verify_magic(&board, Magic::Semi, t).is_ok())
            .collect();
        assert!(magic.contains(&&tour));
        let with = Constraints {
            clues,
            magic: Some(Magic::Semi),
            ..Constraints::default()
        };
        let job = Job {
            board: &board,
            piece: &knight,
            goal: Goal::default(),
            constraints: &with,
        };
        let count = count_job(
            &job,
            &CountRequest::default(),
            &Limits::none(),
            &Progress::new(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count.tours, magic.len() as u128, "{} clue tours", all.len());
    }
}
