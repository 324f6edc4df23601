//! Ctrl-C (SIGINT) during every solver and during `count`: the best partial
//! result is printed, no output file is left behind, and the exit code is 130.
//! Also: a time limit stops each of them with exit 3.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{engine_process, files, interrupt_after, load, tour_from_json};

/// Long-running puzzles, one per solver (each runs for minutes if left alone).
const LONG: &[(&str, &str)] = &[
    (
        "backtrack.ron",
        r#"Puzzle(board: "10x10", piece: "jumps (1,2), (1,-2), (-1,2), (-1,-2), (2,1), (2,-1), (-2,1), (-2,-1)", start: "b1", tour: Closed, solver: Backtrack(order: Given))"#,
    ),
    (
        "genetic.ron",
        r#"Puzzle(board: "16x16", piece: "knight", start: "a1", solver: Genetic(preset: Classic))"#,
    ),
    (
        "warnsdorff.ron",
        // No open tour, and no quick proof of it (4x4 itself, and 4x4 - b1,
        // are ruled out at once).
        r#"Puzzle(board: "3x7 - b4", piece: "knight", solver: Warnsdorff(tie_break: Random, restarts: 4000000000))"#,
    ),
];

#[test]
fn ctrl_c_during_every_solver() {
    for (name, text) in LONG {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
        let before = files(dir.path());
        let out = interrupt_after(
            engine_process()
                .args([
                    "run",
                    name,
                    "--format",
                    "json",
                    "--gif",
                    "t.gif",
                    "--search-gif",
                    "s.gif",
                ])
                .current_dir(dir.path()),
            Duration::from_millis(700),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{name}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(v["status"], "interrupted", "{name}");
        // The partial path printed is a legal path of the piece.
        let p = load(&dir.path().join(name));
        let path = tour_from_json(&p, &v);
        assert!(!path.is_empty(), "{name}: a partial path is printed");
        for w in path.windows(2) {
            assert!(
                engine::verify::legal(&p.board, &p.piece, p.board.cell(w[0]), p.board.cell(w[1])),
                "{name}: the partial path is legal"
            );
        }
        assert_eq!(files(dir.path()), before, "{name}: no output file is left");
        // And the files asked for are named as not written.
        assert!(
            err.contains("interrupted, so nothing was written to t.gif and s.gif"),
            "{name}: {err}"
        );
    }
}

#[test]
fn ctrl_c_during_count() {
    let out = interrupt_after(
        engine_process()
            .args([
                "count",
                "puzzles/count-knight7x7.ron",
                "--quiet",
                "--method",
                "dfs",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
        Duration::from_millis(700),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("lower bound"), "{text}");
}

#[test]
fn time_limits_stop_every_solver_and_count() {
    for (name, text) in LONG {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
        let t = Instant::now();
        let out = engine_process()
            .args(["run", "--quiet", "--time-limit", "0.3"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(3), "{name}");
        // Generous: the deadline is checked every few milliseconds; this only
        // catches a limit that is not honoured at all.
        assert!(t.elapsed() < Duration::from_secs(5), "{name}");
    }
    let out = engine_process()
        .args([
            "count",
            "puzzles/count-knight7x7.ron",
            "--quiet",
            "--method",
            "dfs",
            "--time-limit",
            "0.3",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("lower bound"));
}

/// On the largest boards building the move graph, the proofs and a
/// solver's tables take seconds (each of these runs for many seconds or
/// minutes if left alone); a time limit stops them there too.
#[test]
fn time_limits_cover_setup_on_the_largest_boards() {
    let huge = [
        // A hole: the move graph is built as lists, and the proofs are long.
        r#"Puzzle(board: "4096x4096 - b2", piece: "knight", start: "a1")"#,
        // The backtracker's own tables for 16 million squares.
        r#"Puzzle(board: "4096x4096", piece: "knight", start: "a1", solver: Backtrack())"#,
        // The genetic solver's move slots and random population (and, given
        // longer, each walk of 16 million squares).
        r#"Puzzle(board: "4096x4096", piece: "knight", start: "a1", solver: Genetic(population: 30))"#,
    ];
    for text in huge {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("huge.ron");
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
        let t = Instant::now();
        let out = engine_process()
            .args(["run", "--quiet", "--format", "json", "--time-limit", "0.3"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(3), "{text}");
        // On a loaded machine the limit can run out while the file is still
        // being read: then the object says so, and so does standard error.
        let err = String::from_utf8_lossy(&out.stderr);
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(v["status"], "gave_up", "{text}");
        assert_eq!(v["reason"], "time limit", "{text}");
        if v["stage"] == "reading" {
            assert!(err.contains("before the puzzle was read"), "{text}: {err}");
        }
        // Generous, as above: without the limit each runs for many seconds.
        assert!(
            t.elapsed() < Duration::from_secs(4),
            "{text}: {:?}",
            t.elapsed()
        );
        // `count` builds the same graph and runs the same proofs first.
        let t = Instant::now();
        let out = engine_process()
            .args(["count", "--quiet", "--time-limit", "0.3"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(3), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("lower bound")
                || err.contains("before the puzzle was read"),
            "{text}: {err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(4),
            "{text}: {:?}",
            t.elapsed()
        );
    }
}

/// Ctrl-C while a 16-million-square board is still being set up (its move
/// graph takes seconds to build): exit 130 at once, nothing claimed.
#[test]
fn ctrl_c_during_setup_of_the_largest_boards() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let text = r#"Puzzle(board: "4096x4096 - b2", piece: "knight", start: "a1")"#;
    std::fs::write(dir.path().join("huge.ron"), text).unwrap_or_else(|e| panic!("{e}"));
    let t = Instant::now();
    let out = interrupt_after(
        engine_process()
            .args(["run", "huge.ron", "--format", "json"])
            .current_dir(dir.path()),
        Duration::from_millis(500),
    );
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["status"], "interrupted");
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
}

/// `count` sets up its tables after the proofs: on a 16-million-square
/// board that took seconds with no look at the time limit, so a limit that
/// ran out after the proofs was overrun by several seconds.
#[test]
fn count_honours_a_time_limit_that_runs_out_after_the_proofs() {
    let (_dir, file) =
        crate::util::setup(r#"Puzzle(board: "4096x4096", piece: "knight", start: "a1")"#);
    for limit in [0.6, 1.0] {
        let t = Instant::now();
        let out = engine_process()
            .args(["count", "--quiet", "--time-limit", &limit.to_string()])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(3));
        assert!(String::from_utf8_lossy(&out.stdout).contains("lower bound"));
        // Freeing a gigabyte of tables takes a moment too; before, this
        // took 4 to 6 seconds.
        let took = t.elapsed().as_secs_f64();
        assert!(took < limit + 2.0, "--time-limit {limit}: {took:.2} s");
    }
}

/// An interrupted run is not saved: `--save` to a new archive leaves no
/// archive behind (nor the folder made for it), and an archive that was
/// there before keeps its runs.
#[test]
fn ctrl_c_with_save_leaves_no_new_archive() {
    let (name, text) = LONG[0];
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.path().join("small.ron"),
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let before = files(dir.path());
    for db in ["new.db", "sub/new.db"] {
        let out = interrupt_after(
            engine_process()
                .args(["run", name, "--quiet", "--save", "--archive", db])
                .current_dir(dir.path()),
            Duration::from_millis(500),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{db}: {err}");
        assert_eq!(files(dir.path()), before, "{db}: no archive is left");
    }
    // An archive made by a saved run keeps it after an interrupted one.
    let saved = engine_process()
        .args([
            "run",
            "small.ron",
            "--quiet",
            "--save",
            "--archive",
            "old.db",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.status.code(), Some(0));
    let out = interrupt_after(
        engine_process()
            .args(["run", name, "--quiet", "--save", "--archive", "old.db"])
            .current_dir(dir.path()),
        Duration::from_millis(500),
    );
    assert_eq!(out.status.code(), Some(130));
    let list = engine_process()
        .args(["archive", "list", "--archive", "old.db"])
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(list.status.code(), Some(0));
    let text = String::from_utf8_lossy(&list.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("found"), "{text}");
}

/// A second Ctrl-C exits at once, without unwinding: `--save` to a new
/// archive in new folders still leaves neither behind.
#[test]
fn a_second_ctrl_c_with_save_leaves_no_new_folder() {
    let (name, text) = LONG[0];
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    let before = files(dir.path());
    for db in ["new.db", "sub/new.db", "sub/deeper/new.db"] {
        let child = engine_process()
            .args(["run", name, "--quiet", "--save", "--archive", db])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("engine does not start: {e}"));
        std::thread::sleep(Duration::from_millis(500));
        // Two presses at once: the process is stopped while they are sent,
        // so both are there when it goes on, and the second comes before
        // the run has stopped for the first. A stopped process holds one
        // signal of a kind, so the second is SIGTERM, handled alike.
        for signal in ["-STOP", "-INT", "-TERM", "-CONT"] {
            let sent = std::process::Command::new("kill")
                .args([signal, &child.id().to_string()])
                .status()
                .unwrap_or_else(|e| panic!("kill: {e}"));
            assert!(sent.success(), "kill {signal}");
        }
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{db}: {err}");
        assert_eq!(files(dir.path()), before, "{db}: nothing is left");
    }
}

/// A command stopped while it is still reading its puzzle (standard input
/// that never ends, a time limit) prints one JSON object with `--format
/// json` — the status it would give any stop, the reason, and that the
/// stop came while reading — so a script reading standard output always
/// gets an answer.
#[test]
fn a_stop_while_reading_is_still_one_json_object() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let made = dir.path().join("made.ron");
    let made = made.to_str().unwrap_or_else(|| panic!("{made:?}"));
    let cases: [(&[&str], &str, &str); 4] = [
        (&["run"], "status", "gave_up"),
        (&["check"], "stopped", "the time limit ran out"),
        (&["make", "--output", made], "status", "gave_up"),
        (&["count"], "stopped", "the time limit ran out"),
    ];
    for (command, key, value) in cases {
        let mut child = engine_process()
            .args(command)
            .args(["-", "--format", "json", "--time-limit", "0.3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // The pipe stays open (and empty) until the command has exited.
        let stdin = child.stdin.take();
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        drop(stdin);
        assert_eq!(out.status.code(), Some(3), "{command:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{command:?}: {e}: {:?}", out.stdout));
        assert_eq!(v[key], value, "{command:?}: {v}");
        assert_eq!(v["stage"], "reading", "{command:?}: {v}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("before the puzzle was read"), "{err}");
    }
    // Nothing was made.
    assert!(!Path::new(made).exists());
}
