//! The complete search with clues: every solution it enumerates agrees
//! with a brute force over all tours of small random boards, every answer
//! passes the verifier with its clues, and the clue puzzles in `puzzles/`
//! have the answers they claim.

use std::path::Path;

use engine::halt::Never;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::NoObserver;
use engine::solve::backtrack::BacktrackOptions;
use engine::solve::clued::{deduce as difficulty, sat};
use engine::solve::{Limits, Outcome, Run, clued, runner};
use engine::verify::{verify, verify_constraints};
use proptest::prelude::*;

use crate::util;

/// Every tour of `p`'s graph that fits its goal and clues, by plain
/// enumeration of all paths (boards of a dozen squares at most).
fn brute_force(p: &Puzzle) -> Vec<Vec<u32>> {
    let g = util::graph_of(p);
    let n = g.len();
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut seen = vec![false; n];
    fn go(
        g: &engine::model::MoveGraph,
        p: &Puzzle,
        path: &mut Vec<u32>,
        seen: &mut [bool],
        out: &mut Vec<Vec<u32>>,
    ) {
        let n = g.len();
        if path.len() == n {
            if verify(&p.board, &p.piece, &p.goal, path).is_ok()
                && verify_constraints(&p.board, p.goal.closed, &p.constraints, path).is_ok()
            {
                out.push(path.clone());
            }
            return;
        }
        let next: Vec<u32> = match path.last() {
            None => (0..n as u32).collect(),
            Some(&c) => g.neighbours(c).collect(),
        };
        for v in next {
            if !seen[v as usize] {
                seen[v as usize] = true;
                path.push(v);
                go(g, p, path, seen, out);
                path.pop();
                seen[v as usize] = false;
            }
        }
    }
    go(&g, p, &mut path, &mut seen, &mut out);
    out
}

/// Every solution the clue search finds for `p`, each verified.
fn enumerate(p: &Puzzle) -> Vec<Vec<u32>> {
    let g = util::graph_of(p);
    let task = p.task(&g);
    let progress = Progress::new();
    let run = Run::new(Limits::none(), &progress, NoObserver);
    let (report, tours) = clued::solve(BacktrackOptions::default(), &task, run, usize::MAX);
    for t in &tours {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
        assert_eq!(
            verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
    }
    match report.outcome {
        Outcome::Found(t) => assert_eq!(Some(&t), tours.first()),
        Outcome::Impossible(_) => assert!(tours.is_empty()),
        other => panic!("{other:?}"),
    }
    tours
}

/// What `--unique` finds for `p` (the report and the second solution),
/// every tour verified with its clues.
fn unique(p: &Puzzle) -> (Outcome, Option<Vec<u32>>) {
    let g = util::graph_of(p);
    let progress = Progress::new();
    let run = Run::new(Limits::none(), &progress, NoObserver);
    let (report, second) =
        runner::solve_unique(&p.task(&g), p.solver, run).unwrap_or_else(|e| panic!("{e}"));
    let first = match &report.outcome {
        Outcome::Found(t) => Some(t),
        _ => None,
    };
    for t in first.into_iter().chain(second.as_ref()) {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
        assert_eq!(
            verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
    }
    (report.outcome, second)
}

/// A small random clued puzzle: board, piece, goal, and clues either taken
/// from a random tour or placed at random.
fn case_strategy() -> impl Strategy<Value = String> {
    (
        2u32..=4,
        2u32..=3,
        prop::collection::vec(any::<bool>(), 12),
        prop::sample::select(vec![
            "king",
            "knight | wazir",
            "wazir",
            "ferz | wazir",
            "knight | ferz",
            // One-way moves: a step's square needs a move into it from
            // the step before, not out of it.
            "jumps (1,0), (0,1), (-1,-1)",
            "jumps (1,0), (-1,1), (0,-1), (1,1)",
        ]),
        any::<bool>(),
        prop::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            0..4,
        ),
        any::<bool>(),
    )
        .prop_map(|(w, h, holes, piece, closed, picks, from_tour)| {
            let files = ['a', 'b', 'c', 'd'];
            let mut removed = Vec::new();
            for (i, &hole) in holes.iter().enumerate().take((w * h) as usize) {
                // At most a quarter of the squares, never the corner a1.
                if hole && i > 0 && i % 4 == 1 {
                    removed.push(format!("{}{}", files[i % w as usize], i / w as usize + 1));
                }
            }
            let board = if removed.is_empty() {
                format!("{w}x{h}")
            } else {
                format!("{w}x{h} - {}", removed.join(" "))
            };
            let tour = if closed { "Closed" } else { "Open" };
            let base = format!(r#"Puzzle(board: "{board}", piece: "{piece}", tour: {tour}"#);
            let p = util::puzzle(&format!("{base})"));
            let n = p.board.len();
            // Clues from one tour (when there is one) or anywhere.
            let tours = if from_tour {
                brute_force(&p)
            } else {
                Vec::new()
            };
            let mut clues: Vec<(usize, u32)> = Vec::new();
            for (a, b) in picks {
                let step = a.index(n);
                let square = match tours.first() {
                    Some(t) => t[step],
                    None => b.index(n) as u32,
                };
                if clues.iter().all(|&(k, s)| k != step && s != square) {
                    clues.push((step, square));
                }
            }
            let map: Vec<String> = clues
                .iter()
                .map(|&(k, s)| format!("\"{}\": {}", p.board.name(s), k + 1))
                .collect();
            format!("{base}, clues: {{ {} }})", map.join(", "))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The clue search enumerates exactly the brute force's solutions, and
    /// `engine run`'s path finds one exactly when there is one.
    #[test]
    fn agrees_with_brute_force(text in case_strategy()) {
        let p = util::puzzle(&text);
        let mut truth = brute_force(&p);
        let mut found = enumerate(&p);
        truth.sort();
        found.sort();
        prop_assert_eq!(&found, &truth, "{}", text);
        let r = util::solve(&p);
        prop_assert_eq!(matches!(r.outcome, Outcome::Found(_)), !truth.is_empty(), "{}", text);
        if !p.constraints.clues.is_empty() {
            prop_assert!(matches!(r.solver.kind(), "backtrack" | "proofs"), "{}", r.solver.kind());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `--unique` says `unique` exactly when the brute force finds one
    /// solution, `multiple` (with two distinct solutions) when it finds
    /// more, and impossible when it finds none; `engine count`'s clue
    /// count is the brute force's number of solutions, so uniqueness
    /// agrees with the count.
    #[test]
    fn unique_agrees_with_brute_force_and_count(text in case_strategy()) {
        let p = util::puzzle(&text);
        let truth = brute_force(&p);
        if !p.constraints.clues.is_empty() {
            let g = util::graph_of(&p);
            let c = clued::count(&p.task(&g), &Limits::none(), &Progress::new());
            prop_assert_eq!(c.stopped, None);
            prop_assert_eq!(c.solutions, truth.len() as u64, "{}", text);
        }
        let (outcome, second) = unique(&p);
        match (truth.len(), &outcome, &second) {
            (0, Outcome::Impossible(_), None) => {}
            (1, Outcome::Found(t), None) => prop_assert_eq!(t, &truth[0], "{}", text),
            (2.., Outcome::Found(a), Some(b)) => {
                prop_assert_ne!(a, b, "{}", text);
                prop_assert!(truth.contains(a) && truth.contains(b), "{}", text);
            }
            (n, o, s) => prop_assert!(false, "{text}: {n} solutions, but {o:?} and {s:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The clause-learning search finds exactly the brute force's
    /// solutions, stops at the cap asked for, and with a step kept off a
    /// square finds exactly the others; the deductions alone are sound.
    #[test]
    fn the_clause_learning_search_agrees_with_brute_force(text in case_strategy()) {
        let p = util::puzzle(&text);
        let g = util::graph_of(&p);
        let mut truth = brute_force(&p);
        let clues = &p.constraints.clues;
        let Ok((found, _)) =
            sat::solutions(&g, p.goal.closed, clues, None, (usize::MAX, u64::MAX), &Never);
        let sat::Answer::Tours(mut got) = found else {
            panic!("out of nodes")
        };
        truth.sort();
        got.sort();
        prop_assert_eq!(&got, &truth, "{}", text);
        let Ok((found, _)) =
            sat::solutions(&g, p.goal.closed, clues, None, (1, u64::MAX), &Never);
        let sat::Answer::Tours(one) = found else {
            panic!("out of nodes")
        };
        prop_assert_eq!(one.len(), truth.len().min(1), "{}", text);
        prop_assert!(one.iter().all(|t| truth.contains(t)), "{}", text);
        // Without one solution's square for its middle step: exactly the
        // solutions that put that step elsewhere.
        if let Some(first) = truth.first() {
            let step = first.len() / 2;
            let not = (step as u32 + 1, first[step]);
            let Ok((found, _)) = sat::solutions(
                &g,
                p.goal.closed,
                clues,
                Some(not),
                (usize::MAX, u64::MAX),
                &Never,
            );
            let sat::Answer::Tours(mut other) = found else {
                panic!("out of nodes")
            };
            other.sort();
            let rest: Vec<Vec<u32>> =
                truth.iter().filter(|t| t[step] != first[step]).cloned().collect();
            prop_assert_eq!(&other, &rest, "{}", text);
        }
        // The deductions alone place only what every solution has, and
        // find no contradiction where there is a solution.
        let d = difficulty::deduce(&g, p.goal.closed, clues);
        prop_assert_eq!(d.contradiction && !truth.is_empty(), false, "{}", text);
        for t in &truth {
            for (k, placed) in d.placed.iter().enumerate() {
                prop_assert!(placed.is_none_or(|s| s == t[k]), "{}", text);
            }
        }
    }
}

/// `engine run --unique --format json` on `args`: the exit code, the
/// JSON, and the tours it prints (`tour`, and `second` if given), each
/// verified with the puzzle's clues.
fn run_unique(p: &Puzzle, args: &[&str]) -> (i32, serde_json::Value, Vec<Vec<u32>>) {
    let out = util::engine()
        .args(["run", "--unique", "--quiet", "--format", "json"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.code().is_some(),
        "killed: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let tours = printed(p, &v);
    for t in &tours {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
        assert_eq!(
            verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
    }
    (out.status.code().unwrap_or(-1), v, tours)
}

/// The paths `--unique --format json` printed in `v` (`tour`, and
/// `second` if given), unverified.
fn printed(p: &Puzzle, v: &serde_json::Value) -> Vec<Vec<u32>> {
    let tour_of = |t: &serde_json::Value| -> Vec<u32> {
        t.as_array()
            .unwrap_or_else(|| panic!("{t}"))
            .iter()
            .map(|xy| {
                let cell = engine::model::Cell {
                    x: xy[0].as_u64().unwrap_or(u64::MAX) as u32,
                    y: xy[1].as_u64().unwrap_or(u64::MAX) as u32,
                };
                p.board
                    .square_at(cell)
                    .unwrap_or_else(|| panic!("{xy} is not a square"))
            })
            .collect()
    };
    let mut tours = Vec::new();
    if !v["tour"].as_array().is_none_or(|a| a.is_empty()) {
        tours.push(tour_of(&v["tour"]));
    }
    if !v["second"].is_null() {
        tours.push(tour_of(&v["second"]["tour"]));
    }
    tours
}

/// The knight Hidato of `puzzles/` is `unique` (exit 0), its solution the
/// one the enumeration finds.
#[test]
fn unique_hidato_is_unique() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/knight-hidato8x8.ron");
    let p = util::load(&path);
    let (code, v, tours) = run_unique(&p, &[&path.to_string_lossy()]);
    assert_eq!((code, v["status"].as_str()), (0, Some("unique")), "{v}");
    assert_eq!(tours, enumerate(&p));
    assert!(v["second"].is_null() && v["differ"].is_null(), "{v}");
}

/// A puzzle with many solutions is `multiple` (exit 4): two distinct
/// solutions and the first step where they differ, named as in each.
#[test]
fn unique_finds_two_and_where_they_differ() {
    let text = r#"Puzzle(board: "3x4", piece: "knight", clues: { "a1": 1 })"#;
    let (_dir, file) = util::setup(text);
    let p = util::puzzle(text);
    assert!(enumerate(&p).len() >= 2);
    let (code, v, tours) = run_unique(&p, &[&file.to_string_lossy()]);
    assert_eq!((code, v["status"].as_str()), (4, Some("multiple")), "{v}");
    let [a, b] = &tours[..] else {
        panic!("two tours expected: {v}")
    };
    assert_ne!(a, b);
    let k = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len());
    assert!(k < a.len());
    assert_eq!(v["differ"]["step"], k + 1, "{v}");
    assert_eq!(v["differ"]["first"], p.board.name(a[k]), "{v}");
    assert_eq!(v["differ"]["second"], p.board.name(b[k]), "{v}");
    // The text says the same.
    let out = util::engine()
        .args(["run", "--unique", "--quiet"])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(4));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = format!(
        "They first differ at step {}: {} in the first, {} in the second.",
        k + 1,
        p.board.name(a[k]),
        p.board.name(b[k])
    );
    assert!(text.contains(&line), "{text}");
}

/// The report names the searches that settled `--unique`: the search over
/// the steps alone on the knight Hidato; the clause-learning search after
/// it, past the steps' 65,536 nodes, on the Holy Knight's tour (unique)
/// and on the same without clue 10 (two solutions).
#[test]
fn unique_names_the_search_that_settled_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let holy =
        std::fs::read_to_string(dir.join("holy-knight8x8.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(holy.matches(" 10 ").count(), 1);
    let (_tmp, loose) = util::setup(&holy.replace(" 10 ", "  . "));
    let steps = "backtrack (order: warnsdorff)";
    let handed = "backtrack (order: warnsdorff), then clause-learning search";
    for (file, status, code, label) in [
        (dir.join("knight-hidato8x8.ron"), "unique", 0, steps),
        (dir.join("holy-knight8x8.ron"), "unique", 0, handed),
        (loose, "multiple", 4, handed),
    ] {
        let p = util::load(&file);
        let file = file.to_string_lossy();
        let (c, v, tours) = run_unique(&p, &[&file]);
        assert_eq!(
            (c, v["status"].as_str()),
            (code, Some(status)),
            "{file}: {v}"
        );
        assert_eq!(tours.len(), if code == 4 { 2 } else { 1 }, "{file}: {v}");
        assert_eq!(v["solver"], label, "{file}: {v}");
        assert_eq!(v["solver_kind"], "backtrack", "{file}: {v}");
        let nodes = v["stats"]["nodes"].as_u64().unwrap_or_default();
        assert_eq!(
            nodes > clued::UNIQUE_STEPS_FIRST,
            label == handed,
            "{file}: {v}"
        );
        let out = util::engine()
            .args(["run", "--unique", "--quiet", &file])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(code));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("\nsolver: {label} · nodes: {nodes} ·")),
            "{file}: {text}"
        );
    }
}

/// A clue puzzle without a solution exits 1 under `--unique`; so does
/// the file's `solutions: Unique`, and a puzzle without clues gets the
/// same answers.
#[test]
fn unique_impossible_and_without_clues() {
    let text =
        r#"Puzzle(board: "3x4", piece: "knight", solutions: Unique, clues: { "a1": 1, "b1": 2 })"#;
    let (_dir, file) = util::setup(text);
    let p = util::puzzle(text);
    assert!(brute_force(&p).is_empty());
    let (code, v, tours) = run_unique(&p, &[&file.to_string_lossy()]);
    assert_eq!((code, v["status"].as_str()), (1, Some("impossible")), "{v}");
    assert!(tours.is_empty());
    let out = util::engine()
        .arg("run")
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    // No clues: a 3x4 knight's tour from a1 is not unique.
    let p = util::puzzle(r#"Puzzle(board: "3x4", piece: "knight", start: "a1")"#);
    assert!(brute_force(&p).len() >= 2);
    let (code, v, tours) = run_unique(
        &p,
        &["--board", "3x4", "--piece", "knight", "--start", "a1"],
    );
    assert_eq!(
        (code, v["status"].as_str(), tours.len()),
        (4, Some("multiple"), 2),
        "{v}"
    );
}

/// `--unique` refuses what it cannot honour: a symmetry, a solver other
/// than the complete search, and drawing or saving.
#[test]
fn unique_refusals() {
    for (args, fragment) in [
        (
            &["--solver", "warnsdorff"][..],
            "cannot prove a solution unique",
        ),
        (&["--gif", "x.gif"][..], "does not save or draw"),
    ] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let out = util::engine()
            .current_dir(dir.path())
            .args([
                "run", "--board", "3x4", "--piece", "knight", "--unique", "-q",
            ])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(fragment));
        assert!(util::files(dir.path()).is_empty());
    }
    // Each refusal points at the flag that asked for it (a caret under the
    // flag, or under its value), and names the field in the file it meets.
    let (dir, _) = util::setup(
        r#"Puzzle(board: "3x4", piece: "knight",
    save: true)"#,
    );
    std::fs::write(
        dir.path().join("g.ron"),
        r#"Puzzle(board: "3x4", piece: "knight", solver: Warnsdorff())"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for (args, shown) in [
        (
            &["p.ron", "--unique"][..],
            "error: --unique: a search for two solutions prints them only: it does not save or draw, and the puzzle asks to save its tour (`save: true` at p.ron:2:11)\n |\n | --unique\n | ^^^^^^^^",
        ),
        (
            &["g.ron", "--unique", "--solver", "auto", "--save"],
            "error: --save: a search for two solutions prints them only: it does not save or draw\n |\n | --save\n | ^^^^^^",
        ),
        (
            &["g.ron", "--unique", "--solver", "auto", "--gif", "x.gif"],
            "error: --gif: a search for two solutions prints them only: it does not save or draw\n |\n | --gif x.gif\n |       ^^^^^",
        ),
        (
            &["g.ron", "--unique"],
            "error: --unique: the warnsdorff solver cannot prove a solution unique: only the complete search does\n |\n | --unique\n | ^^^^^^^^",
        ),
    ] {
        let out = util::engine()
            .current_dir(dir.path())
            .arg("run")
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(shown), "{args:?}:\n{err}");
        assert_eq!(util::files(dir.path()), ["g.ron", "p.ron"]);
    }
}

/// The clue puzzles of `puzzles/`: each solved, its clues honoured, and
/// (these are published-style puzzles) its solution the only one.
#[test]
fn clue_puzzles_have_one_solution() {
    let names: &[&str] = &[
        "knight-hidato8x8.ron",
        "knight-hidato8x8-15.ron",
        "holy-knight8x8.ron",
        "hopido.ron",
        "zebra-clues10x10.ron",
    ];
    for name in names {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let p = util::load(&path);
        assert!(!p.constraints.clues.is_empty(), "{name}");
        let r = util::solve(&p);
        assert!(
            matches!(r.outcome, Outcome::Found(_)),
            "{name}: {:?}",
            r.outcome
        );
        assert_eq!(enumerate(&p).len(), 1, "{name}");
    }
}

/// `engine count` on a clue puzzle counts the solutions the enumeration
/// finds, in text and JSON, and refuses shards and the frontier method.
#[test]
fn count_counts_the_solutions() {
    for (name, want_code) in [("knight-hidato8x8.ron", 0), ("knight-hidato8x8-two.ron", 0)] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let p = util::load(&path);
        let solutions = enumerate(&p).len();
        let out = util::engine()
            .args(["count", "--quiet", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(want_code), "{name}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(v["status"], "complete", "{v}");
        assert_eq!(v["method"], "clues", "{v}");
        assert_eq!(v["clues"], p.constraints.clues.len(), "{v}");
        assert_eq!(v["tours"], solutions, "{v}");
        let out = util::engine()
            .args(["count", "--quiet"])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&out.stdout);
        let fit = if solutions == 1 {
            "tour that fits"
        } else {
            "tours that fit"
        };
        let line = format!(
            "{solutions} directed open {fit} the {} clues",
            p.constraints.clues.len()
        );
        assert!(text.contains(&line), "{text}");
    }
    let hidato =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/knight-hidato8x8.ron");
    for (args, fragment) in [
        (&["--shard", "1/2"][..], "cannot be split into shards"),
        (
            &["--method", "frontier"][..],
            "the frontier count does not take clues",
        ),
    ] {
        let out = util::engine()
            .args(["count", "--quiet"])
            .arg(&hidato)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(fragment));
    }
}

/// A clue count stopped by its time limit prints a lower bound and exits 3.
#[test]
fn count_with_clues_stops_at_its_time_limit() {
    // One clue on 7x7: millions of solutions, far more than a tenth of a
    // second can count.
    let out = util::engine()
        .args([
            "count",
            "--quiet",
            "--time-limit",
            "0.1",
            "--format",
            "json",
            "-",
        ])
        .write_stdin(r#"Puzzle(board: "7x7", piece: "knight", clues: { "a1": 1 })"#)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(
        (v["status"].as_str(), v["exact"].as_bool()),
        (Some("stopped"), Some(false)),
        "{v}"
    );
    assert_eq!(v["method"], "clues", "{v}");
}

/// `--unique`'s hand-over to the clause-learning search gives the
/// verdict of the search over the steps alone, on puzzles that need more
/// than its first nodes: the Holy Knight's tour (one solution) and the
/// same without its clue 10 (several); the hand-over settles the first in
/// fewer nodes. Every solution is verified with its clues.
#[test]
fn the_hand_over_agrees_with_the_search_over_the_steps() {
    let holy = util::load(Path::new("puzzles/holy-knight8x8.ron"));
    let mut loose = holy.clone();
    loose.constraints.clues.retain(|&(k, _)| k != 10);
    assert_eq!(
        loose.constraints.clues.len() + 1,
        holy.constraints.clues.len()
    );
    for (p, unique) in [(&holy, true), (&loose, false)] {
        let g = util::graph_of(p);
        let task = p.task(&g);
        let progress = Progress::new();
        let opts = BacktrackOptions::default();
        let run = || Run::new(Limits::none(), &progress, NoObserver);
        let (by_steps, second_by_steps) = clued::unique_by_steps(opts, &task, run());
        let (handed, second) = clued::unique(opts, &task, run());
        let (Outcome::Found(a), Outcome::Found(b)) = (&by_steps.outcome, &handed.outcome) else {
            panic!("{:?} / {:?}", by_steps.outcome, handed.outcome)
        };
        for t in [Some(a), Some(b), second.as_ref(), second_by_steps.as_ref()]
            .into_iter()
            .flatten()
        {
            assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
            assert_eq!(
                verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
                Ok(())
            );
        }
        assert_eq!(second.is_none(), unique);
        assert_eq!(second_by_steps.is_none(), unique);
        assert!(by_steps.stats.nodes > clued::UNIQUE_STEPS_FIRST);
        if unique {
            assert_eq!(a, b);
            assert!(handed.stats.nodes < by_steps.stats.nodes);
        } else if let Some(s) = &second {
            assert_ne!(b, s);
        }
    }
}

/// `--unique` on a board of 62,500 squares without clues: the search over
/// the steps goes 62,500 squares deep, past what the main thread's stack
/// of 8 MiB held (about 40,000). It answers as on smaller boards (an open
/// tour from a1 with no fixed end has two solutions, both verified)
/// instead of aborting.
#[test]
fn unique_on_a_huge_board_does_not_overflow_the_stack() {
    let p = util::puzzle(r#"Puzzle(board: "250x250", piece: "knight", start: "a1")"#);
    let (code, v, tours) = run_unique(
        &p,
        &[
            "--board",
            "250x250",
            "--piece",
            "knight",
            "--start",
            "a1",
            "--time-limit",
            "60",
        ],
    );
    assert_eq!((code, v["status"].as_str()), (4, Some("multiple")), "{v}");
    assert_eq!(tours.len(), 2);
    assert_ne!(tours[0], tours[1]);
}

/// "A solution was found" under a limit only when one was: a closed goal
/// whose longest path covers the board without closing (the one-way
/// jumper has no move from c2 back to a1, so no closed tour exists) gives
/// up as `run` does, and says nothing of a solution; one whose search
/// found a closed tour before the limit says so, with that tour.
#[test]
fn unique_stopped_says_a_solution_was_found_only_when_one_was() {
    let jumper = "jumps (1,2), (2,-1), (-1,-2), (-2,1), (0,1)";
    for (board, last, limit, found) in [("4x5", "c2", 1_000, false), ("5x6", "b3", 20_000, true)] {
        let n = board
            .split('x')
            .map(|s| s.parse::<usize>().unwrap_or_else(|e| panic!("{e}")))
            .product::<usize>();
        let text = format!(
            r#"Puzzle(board: "{board}", piece: "{jumper}", tour: Closed,
               clues: {{ "a1": 1, "{last}": {n} }}, solver: Backtrack(node_limit: {limit}))"#
        );
        let (_dir, file) = util::setup(&text);
        let p = util::puzzle(&text);
        assert_eq!(enumerate(&p).is_empty(), !found, "{board}");
        let out = util::engine()
            .args(["run", "--unique", "--quiet"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(3), "{said}");
        assert!(
            said.contains(&format!("Longest path: {n} of {n} squares.")),
            "{said}"
        );
        assert_eq!(
            said.contains("A solution was found; that it is the only one is not proven."),
            found,
            "{board}: {said}"
        );
        let out = util::engine()
            .args(["run", "--unique", "--quiet", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(3));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(v["status"], "gave_up", "{v}");
        let tours = printed(&p, &v);
        // The path printed is a verified solution exactly when one was found.
        assert_eq!(tours.len(), 1, "{v}");
        let t = &tours[0];
        assert_eq!(t.len(), n);
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t).is_ok(), found, "{v}");
    }
}

/// `--start` and `--end` must agree with clue 1 and the last clue, as the
/// file's `start` and `end` must: an error at the flag naming the clue,
/// never a search for tours the clues rule out.
#[test]
fn start_and_end_flags_must_agree_with_the_clues() {
    let (dir, _) =
        util::setup("Puzzle(board: \"5x5\", piece: \"knight\",\n  clues: {\"a1\": 1, \"e5\": 25})");
    for (flag, square, shown) in [
        (
            "--start",
            "c1",
            "error: --start: step 1 is on a1 (p.ron:2:12), but --start is c1\n |\n | --start c1\n |         ^^",
        ),
        (
            "--end",
            "c5",
            "error: --end: step 25 is on e5 (p.ron:2:21), but --end is c5\n |\n | --end c5\n |       ^^",
        ),
    ] {
        let out = util::engine()
            .current_dir(dir.path())
            .args(["run", "p.ron", flag, square])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {square}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.starts_with(shown), "{flag} {square}:\n{err}");
    }
    // Agreeing flags are fine.
    util::engine()
        .current_dir(dir.path())
        .args(["check", "p.ron", "--start", "a1", "--end", "e5"])
        .assert()
        .code(0);
}
