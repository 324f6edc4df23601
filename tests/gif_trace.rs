//! `engine run --trace`: the search's events as JSON lines, replayed here
//! by the documented rules. Every intermediate path must be a legal
//! partial path, and the replay must end on the tour printed.

use engine::model::Cell;
use engine::puzzle::Puzzle;
use engine::verify::verify;

use crate::util::{engine, graph_of, load, setup, tour_from_json};

/// A square `[x, y]` of the trace, as a square number of `p`'s board.
fn square(p: &Puzzle, v: &serde_json::Value) -> u32 {
    let xy = v.as_array().unwrap_or_else(|| panic!("not a square: {v}"));
    let at = |i: usize| xy[i].as_u64().unwrap_or_else(|| panic!("{v}")) as u32;
    p.board
        .square_at(Cell::new(at(0), at(1)))
        .unwrap_or_else(|| panic!("{v} is no square"))
}

fn squares(p: &Puzzle, v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|s| square(p, s))
        .collect()
}

/// Runs `puzzle` with `--trace` (and `extra` flags); replays the trace;
/// returns the events replayed, the kinds of rewrite seen and the tour.
fn replay(puzzle: &str, extra: &[&str]) -> (usize, Vec<String>, Vec<u32>) {
    let (dir, file) = setup(puzzle);
    let trace = dir.path().join("t.jsonl");
    let out = engine()
        .arg("run")
        .arg(&file)
        .args(["--format", "json", "--trace"])
        .arg(&trace)
        .args(extra)
        .assert()
        .success();
    let p = load(&file);
    let g = graph_of(&p);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    let tour = tour_from_json(&p, &v);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    let text = std::fs::read_to_string(&trace).expect("the trace");
    let mut lines = text.lines().map(|l| {
        serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"))
    });
    let head = lines.next().expect("a header");
    assert_eq!(head["trace"], "engine search events");
    assert_eq!(head["squares"], p.board.len());
    let mut path: Vec<u32> = Vec::new();
    let mut events = 0;
    let mut hows = Vec::new();
    let mut ended = None;
    for l in lines {
        assert!(ended.is_none(), "nothing after the end");
        match l["event"].as_str().unwrap_or_else(|| panic!("{l}")) {
            "advance" => path.push(square(&p, &l["square"])),
            "retreat" => assert_eq!(path.pop(), Some(square(&p, &l["square"]))),
            "rewrite" => {
                let from = l["from"].as_u64().expect("from") as usize;
                path.truncate(from);
                path.extend(squares(&p, &l["tail"]));
                hows.push(l["how"].as_str().expect("how").to_string());
            }
            "restart" => path.clear(),
            "generation" => {
                path = squares(&p, &l["walk"]);
                // The population's mean fitness is at most its best; the
                // repaired moves are moves of the walk, in order.
                let mean = l["mean"].as_f64().expect("mean");
                assert!(1.0 <= mean && mean <= l["fitness"].as_f64().expect("fitness"));
                let repaired: Vec<u64> = l["repaired"]
                    .as_array()
                    .expect("repaired")
                    .iter()
                    .map(|i| i.as_u64().expect("an index"))
                    .collect();
                assert!(repaired.windows(2).all(|w| w[0] < w[1]));
                assert!(repaired.iter().all(|&i| 0 < i && (i as usize) < path.len()));
                hows.extend(repaired.iter().map(|_| "repaired".to_string()));
            }
            "end" => {
                assert_eq!(l["status"], "found");
                ended = Some(squares(&p, &l["path"]));
                continue;
            }
            other => panic!("unknown event {other}"),
        }
        if l["event"] != "restart" {
            assert_eq!(l["i"], events, "events are numbered in order");
            events += 1;
        }
        // A legal partial path: moves of the piece, no square twice.
        let mut seen = vec![false; p.board.len()];
        for (i, &s) in path.iter().enumerate() {
            assert!(!seen[s as usize], "event {events}: a square twice");
            seen[s as usize] = true;
            if i > 0 {
                assert!(g.has_edge(path[i - 1], s), "event {events}: not a move");
            }
        }
    }
    assert_eq!(ended.as_ref(), Some(&tour));
    assert_eq!(path, tour, "the replay ends on the tour");
    (events, hows, tour)
}

#[test]
fn a_backtracking_trace_replays_to_the_tour() {
    let (events, _, tour) = replay(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
        &[],
    );
    assert_eq!(tour.len(), 25);
    assert!(events > 1000, "{events}");
}

#[test]
fn a_warnsdorff_trace_names_its_repairs() {
    let (_, hows, _) = replay(
        r#"Puzzle(board: "20x20", piece: "knight", tour: Closed, solver: Warnsdorff(tie_break: First))"#,
        &[],
    );
    assert!(hows.iter().any(|h| h == "rotation"), "{hows:?}");
    assert!(
        hows.iter()
            .all(|h| ["rotation", "splice", "reversal"].contains(&h.as_str()))
    );
}

#[test]
fn a_genetic_trace_replays_generations() {
    let (events, repaired, _) = replay(
        r#"Puzzle(board: "6x6", piece: "knight", start: "a1", solver: Genetic(preset: Classic), seed: 3)"#,
        &[],
    );
    assert!(events >= 1);
    // Random genes name illegal moves; repaired, they are listed.
    assert!(!repaired.is_empty());
}

#[test]
fn a_sampled_trace_holds_the_search_gifs_samples() {
    let (dir, file) = setup(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
    );
    let trace = dir.path().join("t.jsonl");
    engine()
        .arg("run")
        .arg(&file)
        .args(["--quiet", "--trace"])
        .arg(&trace)
        .args(["--trace-sampled", "--max-frames", "40", "--steps", "1..10"])
        .assert()
        .success();
    let p = load(&file);
    let g = graph_of(&p);
    let text = std::fs::read_to_string(&trace).expect("the trace");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let samples = &lines[1..lines.len() - 1];
    assert!(
        samples.len() <= 39 && samples.len() >= 20,
        "{}",
        samples.len()
    );
    let steps = samples.iter().filter(|s| s["step"] == true).count();
    assert_eq!(steps, 10);
    let mut next = 0;
    for s in samples {
        // The samples tile the search, and each path is a legal one.
        assert_eq!(s["first"], next);
        next = s["last"].as_u64().expect("last") + 1;
        let path = squares(&p, &s["path"]);
        assert!(path.windows(2).all(|w| g.has_edge(w[0], w[1])));
    }
    assert_eq!(lines[lines.len() - 1]["status"], "found");
}

/// Every event of a trace, counted by kind: advances, retreats, restarts,
/// generations, and rewrites by how.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    advances: u64,
    retreats: u64,
    restarts: u64,
    generations: u64,
    rotations: u64,
    splices: u64,
    reversals: u64,
}

/// Runs `puzzle` with `--trace` and returns the counts of its trace's
/// events and the run's stats (from its JSON), its tour verified.
fn counted(puzzle: &str) -> (Counted, serde_json::Value) {
    let (dir, file) = setup(puzzle);
    let trace = dir.path().join("t.jsonl");
    let out = engine()
        .arg("run")
        .arg(&file)
        .args(["--quiet", "--format", "json", "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let p = load(&file);
    if v["status"] == "found" {
        let tour = tour_from_json(&p, &v);
        verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    }
    let text = std::fs::read_to_string(&trace).expect("the trace");
    let mut c = Counted::default();
    for l in text.lines().skip(1) {
        let l: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
        match (l["event"].as_str(), l["how"].as_str()) {
            (Some("advance"), _) => c.advances += 1,
            (Some("retreat"), _) => c.retreats += 1,
            (Some("restart"), _) => c.restarts += 1,
            (Some("generation"), _) => c.generations += 1,
            (Some("rewrite"), Some("rotation")) => c.rotations += 1,
            (Some("rewrite"), Some("splice")) => c.splices += 1,
            (Some("rewrite"), Some("reversal")) => c.reversals += 1,
            (Some("end"), _) => {}
            other => panic!("unknown event {other:?}"),
        }
    }
    (c, v["stats"].clone())
}

/// Every number of a run's stats line agrees with its trace, for each
/// solver: the squares entered are the advances and splices, the steps
/// back the retreats, the generations and rotations their events. The
/// (2,5)-leaper on a holed 16x16 is stuck often, and its rotations
/// include those of attempts that failed.
#[test]
fn every_stat_agrees_with_the_trace() {
    let puzzles = [
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
        r#"Puzzle(board: "6x6 - a1", piece: "knight", solver: Backtrack())"#,
        r#"Puzzle(board: "20x20", piece: "knight", tour: Closed, solver: Warnsdorff(tie_break: First))"#,
        r#"Puzzle(board: "16x16 - a1", piece: "leaper 2 5", solver: Warnsdorff())"#,
        r#"Puzzle(board: "6x6", piece: "knight", start: "a1", solver: Genetic(preset: Classic), seed: 3)"#,
        r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate180, solver: Symmetric())"#,
    ];
    let mut rotated = 0;
    for puzzle in puzzles {
        let (c, stats) = counted(puzzle);
        let stat = |k: &str| stats[k].as_u64().unwrap_or_else(|| panic!("{k}: {stats}"));
        // The genetic solver's nodes are the squares of every walk it
        // evaluates; its trace holds each generation's best walk alone.
        if c.generations == 0 {
            assert_eq!(stat("nodes"), c.advances + c.splices, "{puzzle}: {c:?}");
        }
        assert_eq!(stat("backtracks"), c.retreats, "{puzzle}: {c:?}");
        assert_eq!(stat("generations"), c.generations, "{puzzle}: {c:?}");
        assert_eq!(stat("rotations"), c.rotations, "{puzzle}: {c:?}");
        rotated += c.rotations;
    }
    assert!(rotated > 0, "some puzzle is repaired by rotations");
}
