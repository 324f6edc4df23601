//! `engine count` on symmetric puzzles: the count of the tours a symmetry
//! maps onto themselves against a brute force that enumerates every tour of
//! small random boards (each through the verifier with its constraints)
//! and keeps those the symmetry, applied here, maps onto themselves; the
//! text, the JSON, the limits and the refusals of the command line.

use std::collections::BTreeSet;
use std::time::Duration;

use engine::count::{self, Count, CountRequest};
use engine::halt::Limits;
use engine::model::{Board, Constraints, Piece, TourSymmetry};
use engine::progress::Progress;
use engine::solve::{Goal, Task};
use engine::verify::{verify, verify_constraints};
use proptest::prelude::*;

use crate::symmetric::{Case, case_strategy, image, maps_onto_itself};
use crate::util;

/// What the brute force counts: directed tours (closed ones summed over
/// their starts as the goal says), split by how the symmetry acts, and the
/// distinct cycles.
#[derive(Debug, Default, PartialEq, Eq)]
struct Truth {
    tours: u128,
    turned: u128,
    folded: u128,
    cycles: Option<u128>,
}

/// A closed tour as a cycle: the least of its rotations and of theirs
/// reversed, so that a cycle and its reverse (when both are tours) are one.
fn cycle_key(tour: &[u32]) -> Vec<u32> {
    let n = tour.len();
    let mut best: Option<Vec<u32>> = None;
    let reversed: Vec<u32> = tour.iter().rev().copied().collect();
    for t in [tour, &reversed[..]] {
        for r in 0..n {
            let v: Vec<u32> = (0..n).map(|i| t[(i + r) % n]).collect();
            if best.as_ref().is_none_or(|b| v < *b) {
                best = Some(v);
            }
        }
    }
    best.unwrap_or_default()
}

/// Whether `sym` maps closed `tour` onto itself by a rotation of the cycle
/// (each square followed, some number of moves on, by its image), applying
/// it with this file's own coordinates.
fn turns(board: &Board, sym: TourSymmetry, tour: &[u32]) -> bool {
    let img = |s: u32| {
        image(sym, board.width(), board.height(), board.cell(s)).and_then(|c| board.square_at(c))
    };
    let n = tour.len();
    (1..n).any(|r| (0..n).all(|i| img(tour[i]) == Some(tour[(i + r) % n])))
}

/// Every tour of `goal` by plain enumeration with moves decided by
/// `verify::legal`, each passed to the verifier with the symmetry as a
/// constraint; the symmetric ones counted. Err when that takes more than
/// `budget` steps.
fn brute_force(
    board: &Board,
    piece: &Piece,
    goal: &Goal,
    sym: TourSymmetry,
    budget: u64,
) -> Result<Truth, ()> {
    let n = board.len();
    let adj = util::legal_moves(board, piece);
    let constraints = Constraints {
        clues: vec![],
        symmetry: Some(sym),
        ..Constraints::default()
    };
    let mut truth = Truth::default();
    let mut cycles = BTreeSet::new();
    let mut steps = 0u64;
    let mut keep = |t: &[u32]| {
        assert_eq!(verify(board, piece, goal, t), Ok(()), "{t:?}");
        let symmetric = maps_onto_itself(board, sym, goal.closed, t);
        assert_eq!(
            verify_constraints(board, goal.closed, &constraints, t).is_ok(),
            symmetric,
            "the verifier and the test disagree on {t:?} under {sym:?}"
        );
        if symmetric {
            truth.tours += 1;
            if goal.closed && turns(board, sym, t) {
                truth.turned += 1;
            } else {
                truth.folded += 1;
            }
            if goal.closed {
                cycles.insert(cycle_key(t));
            }
        }
    };
    let mut stack: Vec<(Vec<u32>, Vec<bool>)> = util::start_squares(goal, n)
        .into_iter()
        .map(|s| {
            let mut seen = vec![false; n];
            seen[s as usize] = true;
            (vec![s], seen)
        })
        .collect();
    while let Some((path, seen)) = stack.pop() {
        steps += 1;
        if steps > budget {
            return Err(());
        }
        let head = path[path.len() - 1] as usize;
        if path.len() == n {
            let ends_well = if goal.closed {
                adj[head][path[0] as usize]
            } else {
                goal.end.is_none_or(|e| e as usize == head)
            };
            if ends_well {
                keep(&path);
            }
            continue;
        }
        for t in 0..n {
            if adj[head][t] && !seen[t] {
                let (mut p, mut s) = (path.clone(), seen.clone());
                p.push(t as u32);
                s[t] = true;
                stack.push((p, s));
            }
        }
    }
    truth.cycles = goal.closed.then_some(cycles.len() as u128);
    Ok(truth)
}

/// The library's count of `case`.
fn count(case: &Case) -> Count {
    let g = util::graph(&case.board, &case.piece);
    let c = Constraints {
        clues: vec![],
        symmetry: Some(case.sym),
        ..Constraints::default()
    };
    let task = Task::new(&g, &case.board, &case.piece, case.goal).with_constraints(&c);
    count::count_task(
        &task,
        &CountRequest::default(),
        &Limits::none(),
        &Progress::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The count equals the brute force's, tours, cycles and the split
    /// between turned and folded tours alike.
    #[test]
    fn agrees_with_brute_force(case in case_strategy()) {
        let truth = brute_force(&case.board, &case.piece, &case.goal, case.sym, 300_000);
        prop_assume!(truth.is_ok());
        let truth = truth.unwrap_or_default();
        let c = count(&case);
        prop_assert_eq!(c.stopped, None);
        prop_assert_eq!(c.tours, truth.tours, "{:?}", c);
        prop_assert_eq!(c.cycles(), truth.cycles, "{:?}", c);
        if c.proof.is_some() {
            prop_assert_eq!(truth.tours, 0);
        }
        // A symmetry that moves no square leaves the split unsaid.
        if let (Some(t), Some(f)) = (c.turned(), c.folded()) {
            prop_assert_eq!((t, f), (truth.turned, truth.folded), "{:?}", c);
        }
    }
}

/// A fold whose reverse is not a tour: on one-way moves that the half-turn
/// does not map onto moves, a cycle it folds and its reverse are two
/// distinct cycles (found by the random cases: the count once took every
/// folded cycle as one of a pair).
#[test]
fn folds_on_one_way_moves() {
    use engine::model::{Move, Topology};
    let case = Case {
        board: Board::new(3, 3, Topology::Cylinder, |_| true),
        piece: Piece::new([Move::leap(0, 2), Move::leap(2, -1), Move::leap(1, 2)]),
        goal: util::closed(),
        sym: TourSymmetry::Rotate180,
    };
    let truth =
        brute_force(&case.board, &case.piece, &case.goal, case.sym, u64::MAX).unwrap_or_default();
    assert!(truth.folded > 0, "{truth:?}");
    let c = count(&case);
    assert_eq!(
        (c.tours, c.folded(), c.cycles()),
        (truth.tours, Some(truth.folded), truth.cycles),
        "{c:?}"
    );
}

/// A puzzle file with a symmetry, in a temporary directory.
fn file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    util::setup(text)
}

/// Runs `engine count --quiet` on `text` with `args`: exit code, stdout,
/// stderr.
fn engine_count(text: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let (dir, path) = file(text);
    let out = util::engine()
        .current_dir(dir.path())
        .arg("count")
        .arg(path.file_name().unwrap_or_default())
        .arg("--quiet")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The brute force's count of the puzzle `text`.
fn truth_of(text: &str) -> Truth {
    let p = util::puzzle(text);
    let sym = p.constraints.symmetry.unwrap_or(TourSymmetry::Rotate180);
    brute_force(&p.board, &p.piece, &p.goal, sym, u64::MAX).unwrap_or_default()
}

/// Half-turn-symmetric closed king's tours of 4x4 and the open ones of a
/// knight from a1 on 5x5, through the command line: the text names the
/// symmetry and gives the brute force's counts, the JSON has them too.
#[test]
fn known_counts_in_text_and_json() {
    let king = r#"Puzzle(board: "4x4", piece: "king", tour: Closed, symmetry: Rotate180)"#;
    let truth = truth_of(king);
    assert!(
        truth.tours > 0 && truth.turned > 0 && truth.folded > 0,
        "{truth:?}"
    );
    let (code, text, err) = engine_count(king, &[]);
    assert_eq!(code, Some(0), "{err}");
    for line in [
        format!(
            "{} directed closed tours that the half-turn maps onto themselves, summed over all 16 start squares",
            truth.tours
        ),
        format!(
            "{} distinct cycles (each counted once, whatever its start and direction)",
            truth.cycles.unwrap_or_default()
        ),
        format!(
            "count: the symmetric search · {} tours it turns, {} it folds",
            truth.turned, truth.folded
        ),
    ] {
        assert!(text.contains(&line), "wants `{line}` in\n{text}");
    }
    let (code, json, err) = engine_count(king, &["--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["status"], "complete", "{v}");
    assert_eq!(v["exact"], true, "{v}");
    assert_eq!(v["method"], "symmetric", "{v}");
    assert_eq!(v["tours"].as_u64(), Some(truth.tours as u64), "{v}");
    assert_eq!(v["cycles"].as_u64(), truth.cycles.map(|c| c as u64), "{v}");
    assert_eq!(v["symmetry"]["name"], "Rotate180", "{v}");
    assert_eq!(v["symmetry"]["turned"].as_u64(), Some(truth.turned as u64));
    assert_eq!(v["symmetry"]["folded"].as_u64(), Some(truth.folded as u64));
    assert!(
        v["subject"]
            .as_str()
            .is_some_and(|s| s.contains("that the half-turn maps onto themselves")),
        "{v}"
    );

    // Open, from a fixed start: each tour ends on the image of a1.
    let knight =
        r#"Puzzle(board: "5x5", piece: "knight", tour: Open, start: "a1", symmetry: Rotate180)"#;
    let truth = truth_of(knight);
    assert!(truth.tours > 0, "{truth:?}");
    let (code, json, err) = engine_count(knight, &["--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["tours"].as_u64(), Some(truth.tours as u64), "{v}");
    assert_eq!(v["cycles"], serde_json::Value::Null, "{v}");
    let (_, text, _) = engine_count(knight, &[]);
    let line = format!(
        "{} directed open tours that the half-turn maps onto themselves from a1",
        truth.tours
    );
    assert!(text.contains(&line), "wants `{line}` in\n{text}");
}

/// A closed tour from a given start: the directed symmetric cycles, each
/// read from there, agree with the brute force from that square.
#[test]
fn closed_from_a_start() {
    let text =
        r#"Puzzle(board: "4x4", piece: "king", tour: Closed, start: "b2", symmetry: Rotate180)"#;
    let truth = truth_of(text);
    let (code, json, err) = engine_count(text, &["--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["tours"].as_u64(), Some(truth.tours as u64), "{v}");
    assert_eq!(v["start"], "b2", "{v}");
    // Every cycle of the king's two-way moves is two directed tours from b2.
    assert_eq!(truth.tours, 2 * truth.cycles.unwrap_or_default());
}

/// A puzzle the proofs settle: 0 with the reason, exit 0, status `proven`.
#[test]
fn none_exists_is_proven() {
    let text = r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, symmetry: MirrorFiles)"#;
    let (code, out, err) = engine_count(text, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("0 directed closed tours that the mirror of the files maps onto themselves, summed over all 64 start squares (none exists: the mirror of the files maps none onto itself:"),
        "{out}"
    );
    let (_, json, _) = engine_count(text, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (v["status"].as_str(), v["tours"].as_u64()),
        (Some("proven"), Some(0))
    );
    assert!(
        v["proof"]
            .as_str()
            .is_some_and(|p| p.contains("cannot fold one"))
    );
}

/// Shards, the frontier method, and clues with a symmetry are refused with
/// exit 2; the clues at their place in the file.
#[test]
fn refusals() {
    let text = r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180)"#;
    for (args, fragment) in [
        (&["--shard", "1/2"][..], "--shard 1/2"),
        (&["--shard", "1/2"][..], "cannot be split into shards"),
        (&["--method", "frontier"][..], "--method frontier"),
        (
            &["--method", "frontier"][..],
            "the frontier count does not take a symmetry",
        ),
    ] {
        let (code, _, err) = engine_count(text, args);
        assert_eq!(code, Some(2), "{args:?}\n{err}");
        assert!(err.contains(fragment), "wants `{fragment}` in\n{err}");
    }
    let clued = r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180, clues: { "a1": 1 })"#;
    let (code, _, err) = engine_count(clued, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("p.ron:1:81: clues and a symmetry cannot be asked together"),
        "{err}"
    );
    assert!(err.contains('^'), "{err}");
}

/// A count too long for its time limit prints a lower bound and exits 3;
/// Ctrl-C prints one and exits 130.
#[test]
fn limits_give_a_lower_bound() {
    // Billions of half-turn-symmetric closed knight's tours of 8x8.
    let text = r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, symmetry: Rotate180)"#;
    let (code, json, err) = engine_count(text, &["--time-limit", "0.2", "--format", "json"]);
    assert_eq!(code, Some(3), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (v["status"].as_str(), v["exact"].as_bool()),
        (Some("stopped"), Some(false)),
        "{v}"
    );
    assert_eq!(v["method"], "symmetric", "{v}");
    let (code, out, _) = engine_count(text, &["--time-limit", "0.2"]);
    assert_eq!(code, Some(3));
    assert!(
        out.contains("directed closed tours that the half-turn maps onto themselves")
            && out.contains("at least")
            && out.contains("(a lower bound: "),
        "{out}"
    );
    let (dir, path) = file(text);
    let out = util::interrupt_after(
        util::engine_process()
            .current_dir(dir.path())
            .args(["count", "--quiet"])
            .arg(path.file_name().unwrap_or_default()),
        Duration::from_millis(500),
    );
    assert_eq!(out.status.code(), Some(130));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("at least") && text.contains("interrupted"),
        "{text}"
    );
}
