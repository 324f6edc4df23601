//! `engine count --list`: the tours a count counts, listed — as many as
//! asked, distinct, each a tour the verifier passes; a list of every tour
//! exactly as long as the count, whatever method counted; the refusals.

use std::collections::HashSet;

use engine::count::list::{ALL_MOST, ListError, ListWant, list};
use engine::count::{self, CountRequest};
use engine::halt::Limits;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::verify::{verify, verify_constraints};

use crate::util::{engine, graph_of, load, puzzle};

/// Square numbers of `p`'s board from their names.
fn squares(p: &Puzzle, names: &[&str]) -> Vec<u32> {
    names
        .iter()
        .map(|name| {
            (0..p.board.len() as u32)
                .find(|&s| p.board.name(s) == *name)
                .unwrap_or_else(|| panic!("{name} is no square of {}", p.name))
        })
        .collect()
}

/// Checks that `tours` are distinct tours of `p` the verifier passes, clues
/// and all.
fn assert_distinct_and_verified(p: &Puzzle, tours: &[Vec<u32>]) {
    let mut seen = HashSet::new();
    for t in tours {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()), "{t:?}");
        assert_eq!(
            verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
        assert!(seen.insert(t.clone()), "listed twice: {t:?}");
    }
}

/// Runs `engine count ARGS --format json` and returns its report.
fn count_json(args: &[&str]) -> serde_json::Value {
    let out = engine()
        .arg("count")
        .args(args)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// The tours of a JSON report's `listed`, as square numbers of `p`.
fn listed(p: &Puzzle, report: &serde_json::Value) -> Vec<Vec<u32>> {
    report["listed"]
        .as_array()
        .unwrap_or_else(|| panic!("no list in {report}"))
        .iter()
        .map(|t| {
            let names: Vec<&str> = t
                .as_array()
                .unwrap_or_else(|| panic!("a tour is a list: {t}"))
                .iter()
                .map(|s| s.as_str().unwrap_or_default())
                .collect();
            squares(p, &names)
        })
        .collect()
}

#[test]
fn the_first_n_are_n_distinct_verified_tours_one_a_line() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#);
    let out = engine()
        .args(["count", "--board", "5x5", "--start", "a1", "--list", "7"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("The first 7 of 304 tours"));
    assert!(lines.next().is_some(), "no heading in\n{text}");
    let tours: Vec<Vec<u32>> = lines
        .map(|l| squares(&p, &l.split(' ').collect::<Vec<_>>()))
        .collect();
    assert_eq!(tours.len(), 7, "{text}");
    assert_distinct_and_verified(&p, &tours);
}

#[test]
fn a_list_of_every_tour_is_as_long_as_the_count_by_every_method() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#);
    for method in ["dfs", "frontier", "subset"] {
        let report = count_json(&[
            "--board", "5x5", "--start", "a1", "--method", method, "--list", "all",
        ]);
        assert_eq!(report["tours"], 304, "{method}");
        let tours = listed(&p, &report);
        assert_eq!(tours.len(), 304, "{method}");
        assert_distinct_and_verified(&p, &tours);
    }
}

#[test]
fn a_list_longer_than_the_count_holds_every_tour() {
    // Closed tours of 3x10 from a1, summed: the count is small.
    let p = puzzle(r#"Puzzle(board: "3x10", piece: "knight", tour: Closed, start: "a1")"#);
    let report = count_json(&[
        "--board", "3x10", "--closed", "--start", "a1", "--list", "100000",
    ]);
    let count = report["tours"]
        .as_u64()
        .unwrap_or_else(|| panic!("{report}"));
    assert!(count > 0, "{report}");
    let tours = listed(&p, &report);
    assert_eq!(tours.len() as u64, count);
    assert_distinct_and_verified(&p, &tours);
}

#[test]
fn a_clue_puzzle_lists_the_numberings_that_fit_its_clues() {
    let p = load(std::path::Path::new("puzzles/knight-hidato8x8-two.ron"));
    let report = count_json(&["puzzles/knight-hidato8x8-two.ron", "--list", "all"]);
    let tours = listed(&p, &report);
    assert_eq!((report["tours"].as_u64(), tours.len()), (Some(3), 3));
    assert_distinct_and_verified(&p, &tours);
}

#[test]
fn the_library_lists_exactly_what_it_counts() {
    // Open and closed, with and without a start or an end, a piece whose
    // moves cannot be made back, a board with holes.
    for text in [
        r#"Puzzle(board: "4x5", piece: "knight")"#,
        r#"Puzzle(board: "5x5 - c3", piece: "knight", end: "a1")"#,
        r#"Puzzle(board: "3x8", piece: "knight", tour: Closed)"#,
        r#"Puzzle(board: "4x4", piece: "wazir", tour: Closed, start: "b2")"#,
        r#"Puzzle(board: "4x4", piece: "w", pieces: {"w": "jumps (0,1), (1,0), (0,-1), (-1,-1)"})"#,
        r#"Puzzle(board: "3x4", piece: "king", start: "a1")"#,
    ] {
        let p = puzzle(text);
        let g = graph_of(&p);
        let task = p.task(&g);
        let progress = Progress::new();
        let limits = Limits::none();
        let counted = count::count_task(&task, &CountRequest::default(), &limits, &progress)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        match list(
            &task,
            ListWant::All,
            Some(counted.tours),
            &limits,
            &progress,
        ) {
            Ok(l) => {
                assert_eq!(l.tours.len() as u128, counted.tours, "{text}");
                assert_eq!(l.stopped, None);
                assert_distinct_and_verified(&p, &l.tours);
                // The first few are the first of the whole list.
                let first = list(&task, ListWant::First(3), None, &limits, &progress)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                let n = l.tours.len().min(3);
                assert_eq!(first.tours, l.tours[..n], "{text}");
            }
            Err(ListError::TooMany(c)) => {
                assert!(c > ALL_MOST && c == counted.tours, "{text}");
            }
            Err(e) => panic!("{text}: {e}"),
        }
    }
}

#[test]
fn every_tour_past_the_most_is_refused_with_the_count() {
    engine()
        .args(["count", "--board", "6x6", "--list", "all"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("6,637,920 tours"))
        .stderr(predicates::str::contains("more than the 10,000"));
}

#[test]
fn a_symmetric_count_lists_nothing_and_says_why() {
    engine()
        .args(["count", "puzzles/knight6x6-quarterturn.ron", "--list", "3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("--list"))
        .stderr(predicates::str::contains("counted by half paths"));
}

#[test]
fn a_bad_length_or_a_shard_is_refused() {
    for (args, said) in [
        (vec!["--list", "0"], "at least 1 tour"),
        (vec!["--list", "some"], "a whole number, like 10, or `all`"),
        (vec!["--list", "3", "--shard", "1/2"], "--shard"),
    ] {
        engine()
            .args(["count", "--board", "5x5"])
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(said));
    }
}

#[test]
fn a_puzzle_proved_impossible_lists_no_tour() {
    let report = count_json(&["--board", "5x5", "--closed", "--list", "all"]);
    assert_eq!(report["tours"], 0);
    assert_eq!(report["listed"], serde_json::json!([]));
}
