//! The command line as a user runs it: every example puzzle, every exit code,
//! every bad-input message.

use std::path::{Path, PathBuf};
use std::time::Duration;

use predicates::prelude::*;

use crate::util::{assert_verified, engine, engine_process, interrupt_after, load};

fn puzzles() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("puzzles")
        .unwrap_or_else(|e| panic!("puzzles/: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// The `// expect: exit N` line of a puzzle file (holed4x4.ron is kept exactly
/// as the spec shows it, and is solvable).
fn expected_exit(path: &Path) -> i32 {
    if path.ends_with("holed4x4.ron") {
        return 0;
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// expect: exit "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{} has no `// expect: exit N` line", path.display()))
}

#[test]
fn every_puzzle_runs_with_its_documented_outcome() {
    let all = puzzles();
    assert!(all.len() >= 11, "puzzles/ should show the language");
    for path in all {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            text.starts_with("//"),
            "{} must start with a comment",
            path.display()
        );
        let want = expected_exit(&path);
        let out = engine()
            .args(["run", "--format", "json", "--quiet"])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let code = out.status.code().unwrap_or(-1);
        assert_eq!(
            code,
            want,
            "{}: exit {code}, stderr: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: bad JSON: {e}", path.display()));
        let p = load(&path);
        match want {
            0 => {
                // `solutions: Unique` proves the one tour unique.
                assert!(
                    v["status"] == "found" || v["status"] == "unique",
                    "{}: {}",
                    path.display(),
                    v["status"]
                );
                assert_verified(&p, &v);
            }
            1 => {
                assert_eq!(v["status"], "impossible");
                assert!(v["reason"].as_str().is_some_and(|r| !r.is_empty()));
            }
            _ => {}
        }
    }
}

#[test]
fn holed_example_prints_grid_tour_and_stats() {
    engine()
        .args(["run", "puzzles/holed4x4.ron"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Found an open tour of 11 squares"))
        .stdout(predicate::str::contains("4 | ##"))
        .stdout(predicate::str::contains("Tour: "))
        .stdout(predicate::str::contains("solver: backtrack"))
        .stdout(predicate::str::contains("nodes: "));
}

#[test]
fn impossible_prints_the_reason_and_exits_1() {
    engine()
        .args(["run", "puzzles/camel8x8.ron"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("separate parts"));
    engine()
        .args(["run", "puzzles/knight4x4.ron"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "by the open-tour theorem of Conrad et al. no 4x4 board has an open knight's tour",
        ));
    engine()
        .args(["run", "--board", "3x7 - b4", "--piece", "knight"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("exhaustive search"));
}

fn write(dir: &tempfile::TempDir, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
    p
}

#[test]
fn limits_give_up_with_exit_3() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let p = write(
        &dir,
        "limited.ron",
        br#"Puzzle(board: "8x8", piece: "knight", start: "b1", solver: Backtrack(order: Given, node_limit: 1000))"#,
    );
    let out = engine()
        .args(["run", "--format", "json"])
        .arg(&p)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(v["status"], "gave_up");
    assert_eq!(v["reason"], "node limit");
    let path = v["tour"].as_array().map_or(0, Vec::len);
    assert!(path > 1 && path < 64, "a partial path is shown");
    engine()
        .args(["run", "puzzles/js-order8x8.ron", "--time-limit", "0.05"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("time limit"));
}

#[test]
fn flags_override_the_file() {
    let out = engine()
        .args([
            "run",
            "puzzles/knight5x5-corner.ron",
            "--start",
            "c3",
            "--format",
            "json",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(v["squares"][0], "c3");
    let mut p = load(Path::new("puzzles/knight5x5-corner.ron"));
    p.goal.start = p.board.square_at(engine::model::Cell::new(2, 2));
    assert_verified(&p, &v);
    // 5x5 has no closed knight's tour: the colour count proves it.
    engine()
        .args(["run", "puzzles/knight5x5-corner.ron", "--closed"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("changes the colour of its square"));
    engine()
        .args([
            "run",
            "puzzles/knight8x8-closed.ron",
            "--solver",
            "backtrack",
            "--format",
            "json",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"closed\":true"));
}

#[test]
fn check_reports_and_proves() {
    engine()
        .args(["check", "puzzles/holed4x4.ron"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Squares: 11 (5 removed)"))
        .stdout(predicate::str::contains("Degrees"))
        .stdout(predicate::str::contains("@"));
    engine()
        .args(["check", "puzzles/camel8x8.ron"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("No tour exists"));
}

#[test]
fn large_boards_print_a_summary_unless_asked() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let p = write(
        &dir,
        "wide.ron",
        br#"Puzzle(board: "60x3", piece: "wazir", start: "a1")"#,
    );
    engine()
        .arg("run")
        .arg(&p)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("too large to print"));
    engine()
        .arg("run")
        .arg(&p)
        .arg("--grid")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(" 180"));
}

/// (file text, expected line:col, a fragment of the message)
const BAD: &[(&str, &[u8], &str, &str)] = &[
    ("syntax.ron", b"Puzzle(\n  board: \"8x8\"\n  piece: \"knight\",\n)", ":2:15", "a comma is missing at the end of this line"),
    ("unknown.ron", b"Puzzle(\n  board: \"8x8\",\n  piece: \"knight\",\n  colour: 3,\n)", ":4:3", "unknown field `colour`"),
    ("noboard.ron", b"Puzzle(\n  piece: \"knight\",\n)", ":", "missing field `board`"),
    ("leaper00.ron", b"Puzzle(board: \"8x8\", piece: \"leaper 0 0\")", ":1:30", "(0,0)"),
    ("maxneg.ron", b"Puzzle(board: \"8x8\", piece: \"rider 1 1 max -1\")", ":1:44", "at least 1"),
    ("unknownpiece.ron", b"Puzzle(board: \"8x8\", piece: \"knight | wizard\")", ":1:39", "unknown piece `wizard`"),
    ("cycle.ron", b"Puzzle(\n  board: \"8x8\",\n  piece: \"a\",\n  pieces: { \"a\": \"b | N\", \"b\": \"a\" },\n)", ":4:", "cycle"),
    ("zero.ron", b"Puzzle(board: \"0x5\", piece: \"knight\")", ":1:16", "width"),
    ("huge.ron", b"Puzzle(board: \"5000x5000\", piece: \"knight\")", ":1:16", "4096"),
    ("offboard.ron", b"Puzzle(board: \"8x8 - z9\", piece: \"knight\")", ":1:22", "off the 8x8 board"),
    ("twice.ron", b"Puzzle(board: \"8x8 - a1 a1\", piece: \"knight\")", ":1:25", "removed twice"),
    ("picture.ron", b"Puzzle(\n  board: r#\"\n    ..x.\n    ....\n  \"#,\n  piece: \"knight\",\n)", ":3:7", "`x` in a picture"),
    ("startremoved.ron", b"Puzzle(board: \"4x4 - b1\", piece: \"knight\", start: \"b1\")", ":1:52", "removed square"),
    ("notutf8.ron", b"Puzzle(board: \"8x8\", piece: \"kn\xffight\")", ":1:32", "UTF-8"),
    ("empty.ron", b"", ":1:1", "empty"),
    ("type.ron", b"Puzzle(board: 8, piece: \"knight\")", ":1:", "string"),
];

#[test]
fn bad_input_names_file_line_col_with_a_caret_and_exits_2() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (name, text, at, fragment) in BAD {
        let p = write(&dir, name, text);
        let out = engine()
            .arg("run")
            .arg(&p)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        assert!(
            err.contains(&format!("{}{at}", p.display())),
            "{name}: expected {at} in:\n{err}"
        );
        assert!(
            err.contains(fragment),
            "{name}: expected `{fragment}` in:\n{err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
        if !text.is_empty() {
            assert!(err.contains('^'), "{name}: a caret under the text:\n{err}");
        }
    }
}

#[test]
fn missing_file_and_directory_exit_2() {
    engine()
        .args(["run", "puzzles/no-such-puzzle.ron"])
        .assert()
        .code(2)
        .stderr("error: cannot read puzzles/no-such-puzzle.ron: No such file or directory\n");
    for sub in ["check", "count"] {
        engine()
            .args([sub, "puzzles/no-such-puzzle.ron"])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(
                "error: cannot read puzzles/no-such-puzzle.ron: ",
            ));
    }
    engine()
        .args(["run", "puzzles"])
        .assert()
        .code(2)
        .stderr("error: puzzles: is a directory, not a puzzle file (`-` reads standard input)\n");
}

#[test]
fn bad_flags_exit_2() {
    engine()
        .args(["run", "puzzles/holed4x4.ron", "--start", "z9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: --start: "))
        .stderr(predicate::str::contains("off the 4x4 board"));
    engine()
        .args(["run", "puzzles/holed4x4.ron", "--start", "b1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("removed"));
    engine()
        .args(["run", "puzzles/king-rook-endpoints.ron", "--closed"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("open tours only"));
    engine().args(["run"]).assert().code(2);
    engine()
        .args(["run", "puzzles/holed4x4.ron", "--solver", "magic"])
        .assert()
        .code(2);
    engine()
        .args(["run", "puzzles/holed4x4.ron", "--time-limit", "-1"])
        .assert()
        .code(2);
}

#[test]
fn ctrl_c_prints_the_partial_path_and_exits_130() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Plain backtracking for a closed 10x10 tour runs far longer than this test waits.
    let p = write(
        &dir,
        "long.ron",
        br#"Puzzle(board: "10x10", piece: "jumps (1,2), (1,-2), (-1,2), (-1,-2), (2,1), (2,-1), (-2,1), (-2,-1)", start: "b1", tour: Closed, solver: Backtrack(order: Given))"#,
    );
    let out = interrupt_after(
        engine_process().args(["run", "--format", "json"]).arg(&p),
        Duration::from_millis(400),
    );
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(v["status"], "interrupted");
    assert!(
        v["tour"].as_array().map_or(0, Vec::len) > 40,
        "the best partial path is printed"
    );
}

/// `check --format json` stays JSON when a limit stops the checks, as `run`
/// and `count` do: the object names what stopped them and proves nothing.
#[test]
fn check_json_stopped_by_the_time_limit_is_json() {
    let out = engine_process()
        .args([
            "check",
            "--board",
            "4096x4096",
            "--time-limit",
            "0.05",
            "--format",
            "json",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(v["name"], "Command-line puzzle");
    assert_eq!(v["board"]["squares"], 4096 * 4096);
    assert_eq!(v["stopped"], "the time limit ran out");
    assert_eq!(v["impossible"], false);
    assert!(v["proof"].is_null());
    // A check that finishes says it was not stopped.
    let done = engine_process()
        .args(["check", "--board", "5x5", "--format", "json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value =
        serde_json::from_slice(&done.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(v["stopped"].is_null(), "{v}");
    assert_eq!(v["moves"], 96);
}

/// `--board` on a puzzle with clues or a symmetry names only what the
/// puzzle has.
#[test]
fn board_flag_refusal_names_what_the_puzzle_has() {
    for (puzzle, says) in [
        (
            "puzzles/knight-hidato8x8.ron",
            "this puzzle's clues belong to its own board",
        ),
        (
            "puzzles/knight8x8-halfturn.ron",
            "this puzzle's symmetry belongs to its own board",
        ),
    ] {
        engine()
            .args(["run", puzzle, "--board", "8x8"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

/// The help of `[PUZZLE]` says what happens without a file: --board or
/// --piece must be given.
#[test]
fn puzzle_argument_help_says_when_it_may_be_left_out() {
    for cmd in ["run", "check", "count", "make"] {
        engine()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "left out when --board or --piece is given",
            ))
            .stdout(predicate::str::contains("without one, the puzzle is").not());
    }
}

/// `archive stats PUZZLE` keeps every tour kind, start and end on the
/// file's board and piece, and its help says so.
#[test]
fn archive_stats_help_says_what_the_puzzle_keeps() {
    engine()
        .args(["archive", "stats", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Only this puzzle").not())
        .stdout(predicate::str::contains(
            "every tour kind, start and end on its board and piece",
        ));
}

/// `Auto` on a small board: after Warnsdorff's rule, the complete search
/// starts again with no node limit, and the stats line says so.
#[test]
fn auto_says_the_search_starts_again() {
    engine()
        .args(["run", "--board", "5x5"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Warnsdorff's rule gets one try, then the search starts again with no node limit",
        ));
}

/// A flag that conflicts with the file is named in the error, which is at
/// the flag and says where the file's field is.
#[test]
fn a_flag_that_conflicts_with_the_file_is_named() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = write(
        &dir,
        "saved.ron",
        b"Puzzle(board: \"5x5\", piece: \"knight\", start: \"a1\", save: true)",
    );
    let saved = saved.display().to_string();
    let unique = write(
        &dir,
        "unique.ron",
        b"Puzzle(board: \"5x5\", piece: \"knight\",\n  solutions: Unique)",
    );
    let unique = unique.display().to_string();
    let unique_says = format!(
        "error: --solver: the warnsdorff solver cannot prove a solution unique: only the complete search does (the puzzle asks for `solutions: Unique` at {unique}:2:14)"
    );
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["run", "puzzles/hopido.ron", "--solver", "warnsdorff"],
            "error: --solver: the warnsdorff solver does not honour the puzzle's clues (puzzles/hopido.ron:9:12)",
            "--solver warnsdorff",
        ),
        (
            &["run", "puzzles/knight-hidato8x8.ron", "--solver", "genetic"],
            "error: --solver: the genetic solver does not honour the puzzle's clues (puzzles/knight-hidato8x8.ron:8:12)",
            "--solver genetic",
        ),
        (
            &["run", "puzzles/king-rook-endpoints.ron", "--closed"],
            "error: --closed: a closed tour has no end, and the puzzle gives one (`end` at puzzles/king-rook-endpoints.ron:8:11)",
            "--closed",
        ),
        (
            &["run", &unique, "--solver", "warnsdorff"],
            &unique_says,
            "--solver warnsdorff",
        ),
        (
            &["run", &saved, "--unique"],
            "error: --unique: a search for two solutions prints them only: it does not save or draw",
            "--unique",
        ),
    ];
    for (args, says, shows) in cases {
        let out = engine()
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(says), "{args:?}:\n{err}");
        assert!(err.contains(&format!(" | {shows}\n")), "{args:?}:\n{err}");
    }
    // `--end any` drops the file's end, so `--closed` can ask for a closed tour.
    engine()
        .args([
            "run",
            "puzzles/king-rook-endpoints.ron",
            "--closed",
            "--end",
            "any",
            "--quiet",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("closed tour"));
}

/// A tour of one square is in the singular (the board of one square).
#[test]
fn a_tour_of_one_square_is_singular() {
    engine()
        .args(["run", "--board", "1x1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Found an open tour of 1 square.\n",
        ));
    let out = engine()
        .args(["run", "--board", "1x1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = crate::util::puzzle("Puzzle(board: \"1x1\", piece: \"knight\")");
    assert_verified(&p, &v);
}

/// A flag the command line cannot take is pointed at with a caret, as the
/// engine's own flag errors are: a value a flag refuses, a value not among
/// its choices, two flags that exclude each other, an unknown flag.
#[test]
fn flag_errors_of_the_command_line_point_at_the_flag() {
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["count", "--board", "5x5", "--threads", "0"],
            "error: --threads: a count runs at least 1 worker thread",
            " | --threads 0\n |           ^\n",
        ),
        (
            &["count", "--board", "5x5", "--method", "bfs"],
            "error: --method: bfs is not one of dfs, frontier, subset",
            " | --method bfs\n |          ^^^ a similar value exists: 'dfs'\n",
        ),
        (
            &["count", "--board", "5x5", "--open", "--closed"],
            "error: --open: the argument '--open' cannot be used with '--closed'",
            " | --open\n | ^^^^^^\n",
        ),
        (
            &["count", "--board", "5x5", "--memory", "-5"],
            "error: --memory: a size is a whole number of bytes, or of KiB, MiB, GiB or TiB",
            " | --memory -5\n |          ^^\n",
        ),
    ];
    for (args, first, caret) in cases {
        let out = engine().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.starts_with(first), "{args:?}: {err}");
        assert!(err.contains(caret), "{args:?}: {err}");
    }
    // A flag given no value: what it needs.
    for (args, first) in [
        (
            &["run", "puzzles/holed4x4.ron", "--gif"][..],
            "error: --gif: a value is needed\n",
        ),
        (
            &["count", "--board", "5x5", "--method"],
            "error: --method: a value is needed, one of dfs, frontier, subset\n",
        ),
    ] {
        let out = engine().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(first), "{args:?}: {err}");
    }
    // Help still prints as it did.
    engine().args(["count", "--help"]).assert().code(0);
}

/// `--quiet`, `--format` and `--time-limit` are taken alike by every
/// command, and each does there what its help says: `check` and the
/// `archive` commands print nothing with `--quiet` (the exit code is the
/// answer; errors are still printed), `make` prints its report as JSON,
/// and `archive show` stops drawing its GIF at the time limit (exit 3).
#[test]
fn every_command_takes_the_common_flags() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("a.db");
    let db = db.to_string_lossy();
    let made = dir.path().join("m.ron");
    let made = made.to_string_lossy();
    let common = ["--quiet", "--format", "json", "--time-limit", "60"];
    let run = |args: &[&str]| {
        let out = engine()
            .args(args)
            .args(common)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stdout, stderr)
    };
    let json = |args: &[&str], stdout: &str| -> serde_json::Value {
        serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
    };
    // The commands that search show no progress, and print their report.
    let args = ["run", "puzzles/holed4x4.ron", "--save", "--archive", &db];
    let (code, stdout, _) = run(&args);
    assert_eq!(code, Some(0));
    assert_eq!(json(&args, &stdout)["status"], "found");
    let args = ["count", "--board", "4x4", "--piece", "wazir"];
    let (code, stdout, _) = run(&args);
    assert_eq!(code, Some(0));
    assert_eq!(json(&args, &stdout)["status"], "complete");
    let args = ["make", "--board", "5x5", "--seed", "1", "-o", &made];
    let (code, stdout, _) = run(&args);
    assert_eq!(code, Some(0));
    let v = json(&args, &stdout);
    assert_eq!(
        (&v["status"], &v["reason"]),
        (&"made".into(), &serde_json::Value::Null)
    );
    assert_eq!(v["made"]["clues"][0]["step"], 1);
    assert!(std::path::Path::new(&*made).is_file());
    // `check` and the archive print nothing: the exit code says.
    for (args, want) in [
        (&["check", "--board", "5x5"][..], 0),
        (&["check", "--board", "3x3"][..], 1),
        (&["archive", "stats", "--archive", &db][..], 0),
        (&["archive", "list", "--archive", &db][..], 0),
        (&["archive", "show", "1", "--archive", &db][..], 0),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(want), "{args:?}: {stderr}");
        assert_eq!((stdout.as_str(), stderr.as_str()), ("", ""), "{args:?}");
    }
    // Errors are printed all the same.
    let (code, stdout, stderr) = run(&["check", "no-such-file.ron"]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert!(
        stderr.starts_with("error: cannot read no-such-file.ron"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["archive", "show", "7", "--archive", &db]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no run 7"), "{stderr}");
    // Without `--quiet`, the archive's JSON.
    for (args, key) in [
        (["archive", "stats", "--archive", &db], "rows"),
        (["archive", "list", "--archive", &db], "runs"),
    ] {
        let out = engine()
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(v[key].as_array().map(Vec::len), Some(1), "{args:?}: {v}");
    }
    let out = engine()
        .args(["archive", "show", "1", "--archive", &db, "--format", "json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((&v["status"], &v["run_id"]), (&"found".into(), &1.into()));
    // A GIF stopped by the time limit is not written, and exits 3.
    let gif = dir.path().join("t.gif");
    engine()
        .args([
            "archive",
            "show",
            "1",
            "--archive",
            &db,
            "--time-limit",
            "0",
        ])
        .arg("--gif")
        .arg(&gif)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the time limit ran out: no GIF was written",
        ));
    assert!(!gif.exists());
}

/// `make --format json` says why no puzzle was made, with the exit code
/// of the text report.
#[test]
fn make_says_in_json_why_nothing_was_made() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("m.ron");
    for (args, code, status) in [
        (&["--board", "3x3"][..], 1, "impossible"),
        (
            &["--board", "6x6", "--node-limit", "1", "--attempts", "1"][..],
            3,
            "gave_up",
        ),
    ] {
        let got = engine()
            .args(["make", "--quiet", "--format", "json", "-o"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got.status.code(), Some(code), "{args:?}");
        let v: serde_json::Value =
            serde_json::from_slice(&got.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(v["status"], status, "{v}");
        assert!(v["reason"].is_string() && v["made"].is_null(), "{v}");
        assert!(!out.exists());
    }
}

/// `engine verify` reads a tour as `run` prints it — its JSON, its grid,
/// its whole text report — and agrees with the independent verifier; a
/// tour with a wrong move, a missed square or a square off the board is
/// refused for that reason.
#[test]
fn verify_reads_what_run_prints_and_says_what_is_wrong() {
    for puzzle in ["puzzles/holed4x4.ron", "puzzles/knight8x8-closed.ron"] {
        let json = engine()
            .args(["run", puzzle, "--quiet", "--format", "json"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value =
            serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{e}"));
        let p = load(Path::new(puzzle));
        let names: Vec<String> = v["squares"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        assert_verified(&p, &v);
        let squares = crate::util::tour_from_json(&p, &v);
        let text = engine()
            .args(["run", puzzle, "--quiet", "--grid"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        for input in [json.stdout.clone(), text.stdout] {
            engine()
                .args(["verify", "-", puzzle])
                .write_stdin(input)
                .assert()
                .code(0)
                .stdout(predicate::str::contains("valid: "));
        }
        // The same squares, one move broken: the first two swapped.
        let mut swapped = names.clone();
        swapped.swap(0, 1);
        let mut broken = squares.clone();
        broken.swap(0, 1);
        let said = engine()
            .args(["verify", "-", puzzle, "--format", "json"])
            .write_stdin(swapped.join(" "))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value =
            serde_json::from_slice(&said.stdout).unwrap_or_else(|e| panic!("{e}"));
        let by_verifier = engine::verify::verify(&p.board, &p.piece, &p.goal, &broken).err();
        assert_eq!(
            said.status.code(),
            Some(1 - i32::from(by_verifier.is_none()))
        );
        assert_eq!(v["reason"].as_str(), by_verifier.as_deref(), "{v}");
        // One square left out.
        engine()
            .args(["verify", "-", puzzle])
            .write_stdin(names[1..].join(" "))
            .assert()
            .code(1)
            .stdout(predicate::str::contains(format!(
                "never visited: {}",
                names[0]
            )));
    }
    // A square off the board is an error in the tour's text, at its place.
    engine()
        .args(["verify", "-", "--board", "5x5"])
        .write_stdin("a1 c2\n  z9")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<stdin>:2:3: z9 is off the 5x5 board",
        ));
    // The tour and the puzzle cannot both be standard input.
    engine()
        .args(["verify", "-", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot both come from standard input",
        ));
}

/// `check` names the two classes also when the board falls into parts
/// (the ferz on 4x4: each colour is a part, and in each the files a, c
/// and b, d alternate), and says a piece is colour-bound whether or not
/// its board falls apart.
#[test]
fn check_names_classes_in_parts_and_colour_bound_pieces() {
    let json = |board: &str, piece: &str| -> serde_json::Value {
        let out = engine()
            .args([
                "check", "--board", board, "--piece", piece, "--format", "json",
            ])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{board} {piece}: {e}"))
    };
    let ferz = json("4x4", "ferz");
    assert_eq!(ferz["parts"]["count"], 2);
    assert_eq!(ferz["classes"]["kind"], "files");
    assert_eq!(ferz["classes"]["sizes"], serde_json::json!([8, 8]));
    assert_eq!(ferz["colour_bound"], true);
    let text = engine()
        .args(["check", "--board", "4x4", "--piece", "ferz"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Every move goes between the files a, c, e… and b, d, f…: 8 squares on files a, c, e… and 8 squares on files b, d, f…\n"),
        "{text}"
    );
    assert!(text.contains("The piece (ferz) is colour-bound"), "{text}");
    // The dabbaba falls apart on 6x6 (its parts' classes have no name), and
    // is still colour-bound on four corners it joins into one part.
    let apart = json("6x6", "dabbaba");
    assert_eq!(apart["parts"]["count"], 4);
    assert_eq!(apart["colour_bound"], true);
    assert!(apart["classes"].is_null());
    let joined = json("3x3 - b1 a2 b2 c2 b3", "dabbaba");
    assert!(
        joined["parts"].is_null() || joined["parts"]["count"] == 1,
        "{joined}"
    );
    assert_eq!(joined["colour_bound"], true);
    let text = engine()
        .args([
            "check",
            "--board",
            "3x3 - b1 a2 b2 c2 b3",
            "--piece",
            "dabbaba",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Connected parts: 1\n"), "{text}");
    assert!(
        text.contains("The piece (dabbaba) is colour-bound"),
        "{text}"
    );
    // The knight is not colour-bound, in one part or several.
    assert_eq!(json("3x3", "knight")["colour_bound"], false);
    assert_eq!(json("3x3", "knight")["classes"]["kind"], "board_colours");
    assert_eq!(json("5x5", "knight")["colour_bound"], false);
}

/// Above 40 squares a side, `run`'s text is a summary — the grid and the
/// move list left out, with the flags that print them — and `--moves`
/// prints the whole move list, a tour the verifier accepts.
#[test]
fn a_big_board_is_summed_up_unless_asked() {
    let run = |args: &[&str]| -> String {
        let out = engine()
            .args(["run", "--quiet", "--solver", "warnsdorff", "--seed", "1"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let tour_line = |text: &str| -> String {
        text.lines()
            .find(|l| l.starts_with("Tour: "))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    // 40 a side still shows everything.
    let fits = run(&["--board", "40x40"]);
    assert_eq!(tour_line(&fits).split(' ').count(), 1 + 1600);
    assert!(fits.contains("40 |"), "the grid");

    let summary = run(&["--board", "41x41"]);
    assert!(
        summary.contains("(the 41x41 grid is too large to print; --grid prints it anyway)\n"),
        "{summary}"
    );
    let listed = run(&["--board", "41x41", "--moves"]);
    let line = tour_line(&listed);
    let names: Vec<&str> = line["Tour: ".len()..].split(' ').collect();
    assert_eq!(names.len(), 41 * 41);
    let p = crate::util::puzzle(r#"Puzzle(board: "41x41", piece: "knight")"#);
    let tour: Vec<u32> = names
        .iter()
        .map(|n| engine::puzzle::lang::parse_square(n, 0, &p.board).unwrap())
        .collect();
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    assert_eq!(
        tour_line(&summary),
        format!(
            "Tour: {} … {} (1,681 squares; the move list is too long to print; --moves prints it anyway)",
            names[0],
            names[names.len() - 1]
        )
    );
    assert!(summary.len() < 1000, "{summary}");
    // --grid asks for the grid alone.
    let grid = run(&["--board", "41x41", "--grid"]);
    assert!(grid.contains("41 |"));
    assert!(tour_line(&grid).contains("--moves prints it anyway"));
}

/// A search GIF shows the search's first events one by one only where a
/// cell is large enough to see one square change: a hundred on small
/// boards, ten on cells of 6 to 11 pixels, none below. The sampled trace
/// holds the GIF's samples, each saying whether it is a step.
#[test]
fn the_search_gifs_default_steps_fit_the_board() {
    let (dir, given) = crate::util::setup(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
    );
    let given = given.display().to_string();
    let steps = |args: &[&str]| -> usize {
        let trace = dir.path().join("t.jsonl");
        engine()
            .args(["run", "--quiet"])
            .args(args)
            .arg("--trace")
            .arg(&trace)
            .arg("--trace-sampled")
            .assert()
            .success();
        let text = std::fs::read_to_string(&trace).unwrap();
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|l| l["step"] == true)
            .count()
    };
    // 640 pixels a side: 5x5 has 48-pixel cells, 60x60 10-pixel ones and
    // 120x120 5-pixel ones.
    assert_eq!(steps(&[given.as_str()]), 100);
    assert_eq!(steps(&["--board", "60x60", "--solver", "warnsdorff"]), 10);
    assert_eq!(steps(&["--board", "120x120", "--solver", "warnsdorff"]), 0);
    let opts = engine::render::gif::GifOptions::default();
    let board = |n| engine::model::Board::rectangle(n, n);
    assert_eq!(opts.default_steps(&board(53)), 100);
    assert_eq!(opts.default_steps(&board(54)), 10);
    assert_eq!(opts.default_steps(&board(106)), 10);
    assert_eq!(opts.default_steps(&board(107)), 0);
}
