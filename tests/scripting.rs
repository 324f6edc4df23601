//! The scriptable surface: puzzles from flags alone (`--board`, `--piece`,
//! `--start`, `--end`, `--open`, `--closed`) or from standard input, JSON
//! from `check` and `count`, the run id in `run --save --format json`, and
//! `check`'s explanations as a user reads them.

use std::io::Write;
use std::process::Stdio;

use predicates::prelude::*;

use crate::util::{assert_verified, engine, engine_process, puzzle};

fn json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = engine()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let v = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: {e}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), v)
}

#[test]
fn a_puzzle_from_flags_alone() {
    let (code, v) = json(&[
        "run", "--board", "5x5", "--piece", "knight", "--start", "a1", "--end", "e5", "--format",
        "json", "--quiet",
    ]);
    assert_eq!(code, Some(0), "{v}");
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", start: "a1", end: "e5")"#);
    assert_verified(&p, &v);
    let squares = v["squares"].as_array().cloned().unwrap_or_default();
    assert_eq!(squares.first().and_then(|s| s.as_str()), Some("a1"));
    assert_eq!(squares.last().and_then(|s| s.as_str()), Some("e5"));
    // The default piece is the knight, the default board 8x8.
    engine()
        .args(["check", "--piece", "zebra"])
        .assert()
        .stdout(predicate::str::starts_with(
            "Command-line puzzle — zebra on 8x8 — open tour",
        ));
    engine()
        .args(["check", "--board", "6x6"])
        .assert()
        .stdout(predicate::str::contains("knight on 6x6"));
}

#[test]
fn flags_change_a_file() {
    // A closed file asked for an open tour, on another board.
    let (code, v) = json(&[
        "run",
        "puzzles/knight8x8-closed.ron",
        "--open",
        "--board",
        "6x6",
        "--piece",
        "knight",
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["closed"], false);
    assert_eq!(v["board"]["squares"], 36);
    let p = puzzle(r#"Puzzle(board: "6x6", piece: "knight")"#);
    assert_verified(&p, &v);
    // The file's start square is placed again on the new board, or refused
    // at the file's text when it is not on it.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("far.ron");
    std::fs::write(
        &file,
        "Puzzle(board: \"8x8\", piece: \"knight\",\n  start: \"e5\")",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    engine()
        .arg("run")
        .arg(&file)
        .args(["--board", "4x4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("far.ron:2:11: "))
        .stderr(predicate::str::contains("off the 4x4 board"))
        .stderr(predicate::str::contains("the board is 4x4 (--board)"));
}

#[test]
fn flag_errors_point_at_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (&["--board", "8y8"], "error: --board: "),
        (&["--piece", "knigth"], "did you mean `knight`?"),
        (
            &["--piece", "leaper 1 2", "--closed", "--end", "h8"],
            "`end` applies to open tours only",
        ),
        (
            &["--board", "4x4", "--start", "a1", "--end", "a1"],
            "error: --end: ",
        ),
        (
            &["--board", "4096x4096", "--piece", "rider 0 1"],
            "its move graph would need about",
        ),
        (&["--open", "--closed"], "cannot be used with"),
    ];
    for (args, fragment) in cases {
        let out = engine()
            .arg("run")
            .args(*args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(fragment), "{args:?}: `{fragment}` in\n{err}");
        assert!(!err.contains("<flags>"), "{args:?}: no fake file in\n{err}");
    }
    engine()
        .arg("run")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no puzzle: give a puzzle file"));
}

#[test]
fn standard_input_with_flags() {
    let mut child = engine_process()
        .args(["run", "-", "--start", "a1", "--format", "json", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(br#"Puzzle(board: "6x6", piece: "knight")"#);
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["squares"][0], "a1");
    assert_verified(&puzzle(r#"Puzzle(board: "6x6", piece: "knight")"#), &v);
}

#[test]
fn solver_flag_takes_default_options() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("w.ron");
    std::fs::write(
        &file,
        r#"Puzzle(board: "8x8", piece: "knight", solver: Warnsdorff(tie_break: First))"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_string_lossy().into_owned();
    let (_, own) = json(&["run", &path, "--format", "json", "--quiet"]);
    assert!(
        own["solver"].as_str().unwrap_or("").contains("first"),
        "{own}"
    );
    let (_, flag) = json(&[
        "run",
        &path,
        "--solver",
        "warnsdorff",
        "--format",
        "json",
        "--quiet",
    ]);
    let solver = flag["solver"].as_str().unwrap_or("");
    assert!(
        solver.contains("lookahead") && !solver.contains("first"),
        "{flag}"
    );
}

#[test]
fn check_json_names_parts_classes_and_theorems() {
    let (code, camel) = json(&["check", "puzzles/camel8x8.ron", "--format", "json"]);
    assert_eq!(code, Some(1));
    assert_eq!(camel["parts"]["count"], 2);
    assert_eq!(camel["parts"]["listed"][0]["first"], "a1");
    assert_eq!(camel["parts"]["listed"][1]["size"], 32);
    assert_eq!(camel["colour_bound"], true);
    assert_eq!(camel["impossible"], true);
    assert!(
        camel["proof"]
            .as_str()
            .unwrap_or("")
            .contains("colour-bound")
    );
    let (code, knight) = json(&["check", "--board", "8x8", "--format", "json"]);
    assert_eq!(code, Some(0));
    assert_eq!(knight["classes"]["kind"], "board_colours");
    assert_eq!(knight["classes"]["sizes"], serde_json::json!([32, 32]));
    assert_eq!(knight["parts"]["count"], 1);
    let theorems = knight["theorems"].as_array().cloned().unwrap_or_default();
    assert!(
        theorems
            .iter()
            .any(|t| t.as_str().unwrap_or("").contains("open-tour theorem"))
    );
    assert!(
        theorems
            .iter()
            .any(|t| t.as_str().unwrap_or("").contains("Knuth"))
    );
    assert_eq!(knight["proof"], serde_json::Value::Null);
    let (_, three) = json(&["check", "--board", "3x3", "--format", "json"]);
    assert_eq!(three["no_moves"]["squares"], serde_json::json!(["b2"]));
}

#[test]
fn check_text_letters_the_parts() {
    engine()
        .args(["check", "--board", "3x3"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 | A B A\n"))
        .stdout(predicate::str::contains("Squares with no moves: b2\n"))
        .stdout(predicate::str::contains("  B  1 square, from b2\n"))
        .stdout(predicate::str::contains("b2 alone, with no moves"));
    engine()
        .args(["check", "--board", "8x8", "--piece", "dabbaba"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "Connected parts: 4, lettered in the grid",
        ))
        .stdout(predicate::str::contains("1 | A B A B A B A B\n"))
        .stdout(predicate::str::contains("2 | C D C D C D C D\n"))
        .stdout(predicate::str::contains("is colour-bound"));
}

#[test]
fn count_json_agrees_with_the_text() {
    let text = engine()
        .args(["count", "--board", "5x5", "--start", "a1", "--quiet"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&text.stdout);
    let tours: u64 = text
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {text}"));
    let (code, v) = json(&[
        "count", "--board", "5x5", "--start", "a1", "--format", "json", "--quiet",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(v["status"], "complete");
    assert_eq!(v["exact"], true);
    assert_eq!(v["tours"], tours);
    assert_eq!(v["start"], "a1");
    assert_eq!(v["method"], "frontier");
    assert!(v["frontier"]["peak_states"].as_u64().unwrap_or(0) > 0);
    // The same count depth-first, with its search's figures.
    let (code, v) = json(&[
        "count", "--board", "5x5", "--start", "a1", "--method", "dfs", "--format", "json",
        "--quiet",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(v["tours"], tours);
    assert!(v["stats"]["nodes"].as_u64().unwrap_or(0) > 0);
    let (_, proven) = json(&["count", "--board", "5x5", "--closed", "--format", "json"]);
    assert_eq!(proven["status"], "proven");
    assert_eq!(proven["tours"], 0);
    assert_eq!(proven["cycles"], 0);
    assert!(proven["proof"].as_str().unwrap_or("").contains("13 and 12"));
}

#[test]
fn saved_runs_give_their_id_in_json() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("a.sqlite");
    let db = db.to_string_lossy().into_owned();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (code, v) = json(&[
            "run",
            "--board",
            "6x6",
            "--save",
            "--archive",
            &db,
            "--format",
            "json",
            "--quiet",
        ]);
        assert_eq!(code, Some(0));
        assert_verified(&puzzle(r#"Puzzle(board: "6x6", piece: "knight")"#), &v);
        ids.push(
            v["run_id"]
                .as_i64()
                .unwrap_or_else(|| panic!("no run_id in {v}")),
        );
    }
    assert_eq!(ids[1], ids[0] + 1);
    // The saved run reads back from the archive as the puzzle the flags gave.
    engine()
        .args(["archive", "show", &ids[1].to_string(), "--archive", &db])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "Command-line puzzle — knight on 6x6 — open tour",
        ));
    let (_, unsaved) = json(&["run", "--board", "6x6", "--format", "json", "--quiet"]);
    assert_eq!(unsaved["run_id"], serde_json::Value::Null);
}
