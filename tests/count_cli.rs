//! `engine count` as a user runs it: outputs, shards, exit codes.

use std::time::Duration;

use predicates::prelude::*;

use crate::util::{engine, engine_process, interrupt_after};

/// The value of `key=` in a shard line.
fn field(line: &str, key: &str) -> u128 {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

#[test]
fn counts_the_5x5_knight_tours() {
    engine()
        .args(["count", "puzzles/count-knight5x5.ron"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "1728 directed open tours, summed over all 25 start squares",
        ))
        // Not a terminal: no progress bar.
        .stderr(predicate::str::is_empty());
}

#[test]
fn counts_closed_tours_and_cycles() {
    engine()
        .args([
            "count",
            "puzzles/count-knight6x6-closed.ron",
            "--threads",
            "1",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "19724 directed closed tours from a1",
        ))
        .stdout(predicate::str::contains("9862 distinct cycles"));
}

#[test]
fn shard_lines_add_up() {
    let (mut tours, mut cycles_x2) = (0, 0);
    for k in 1..=3 {
        let out = engine()
            .args([
                "count",
                "puzzles/count-knight6x6-closed.ron",
                "--shard",
                &format!("{k}/3"),
                "--quiet",
            ])
            .output()
            .expect("engine runs");
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("shard={k}/3 ")))
            .unwrap_or_else(|| panic!("no shard line in {stdout}"));
        assert!(line.contains("status=complete"), "{line}");
        tours += field(line, "tours");
        cycles_x2 += field(line, "cycles_x2");
    }
    assert_eq!((tours, cycles_x2 / 2), (19724, 9862));
}

#[test]
fn bad_shards_and_limits_are_usage_errors() {
    for bad in ["5/3", "0/3", "3", "a/3", "1/0", "-1/3", "1/3/4"] {
        engine()
            .args([
                "count",
                "puzzles/count-knight5x5.ron",
                &format!("--shard={bad}"),
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("error: --shard: "))
            .stderr(predicate::str::contains("^"));
    }
    engine()
        .args(["count", "puzzles/count-knight5x5.ron", "--shard", "5/3"])
        .assert()
        .stderr(predicate::str::contains("there is no shard 5 of 3"));
    engine()
        .args(["count", "puzzles/count-knight5x5.ron", "--threads", "0"])
        .assert()
        .code(2);
    engine()
        .args(["count", "puzzles/count-knight5x5.ron", "--time-limit=-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--time-limit"));
    engine()
        .args(["count", "puzzles/no-such-file.ron"])
        .assert()
        .code(2);
}

#[test]
fn a_time_limit_gives_a_lower_bound_and_exit_3() {
    engine()
        .args([
            "count",
            "puzzles/count-knight7x7.ron",
            "--time-limit",
            "0.3",
            "--shard",
            "1/2",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("at least"))
        .stdout(predicate::str::contains(
            "a lower bound: the time limit ran out",
        ))
        .stdout(predicate::str::contains("status=partial"));
}

#[test]
fn impossible_puzzles_count_zero() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Proven without search: 5x5 has 13 squares of one colour, 12 of the other.
    let file = dir.path().join("k5.ron");
    std::fs::write(
        &file,
        "// Closed knight's tours of 5x5: none.\nPuzzle(board: \"5x5\", piece: \"knight\", tour: Closed)\n",
    )
    .expect("written");
    engine()
        .arg("count")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 directed closed tours"))
        .stdout(predicate::str::contains(
            "no tour exists: every move changes the colour of its square",
        ))
        .stdout(predicate::str::contains("0 distinct cycles"));
    // Found by searching: 4x4 has none either.
    let file = dir.path().join("k4.ron");
    std::fs::write(
        &file,
        "// Closed knight's tours of 4x4: none.\nPuzzle(board: \"4x4\", piece: \"knight\", tour: Closed)\n",
    )
    .expect("written");
    engine()
        .arg("count")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 directed closed tours"))
        .stdout(predicate::str::contains("0 distinct cycles"));
}

#[test]
fn ctrl_c_stops_with_a_lower_bound_and_exit_130() {
    let out = interrupt_after(
        // Depth-first: its count so far is a lower bound.
        engine_process().args([
            "count",
            "puzzles/count-knight7x7.ron",
            "--quiet",
            "--method",
            "dfs",
        ]),
        Duration::from_millis(500),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("at least"), "{stdout}");
    assert!(stdout.contains("interrupted"), "{stdout}");
}

/// `tasks=D/T` of a shard line: tasks done and the shard's tasks.
fn tasks(line: &str) -> (u64, u64) {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("tasks="))
        .and_then(|v| v.split_once('/'))
        .and_then(|(d, t)| Some((d.parse().ok()?, t.parse().ok()?)))
        .unwrap_or_else(|| panic!("no tasks=D/T in {line}"))
}

/// The shard line of `engine count` with `args`, and its exit code.
fn shard_line(args: &[&str], k: &str) -> (i32, String) {
    let out = engine()
        .arg("count")
        .args(args)
        .arg("--quiet")
        .output()
        .expect("engine runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!stdout.contains("of 0 tasks"), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("shard={k} ")))
        .unwrap_or_else(|| panic!("no shard line in {stdout}"))
        .to_string();
    (out.status.code().unwrap_or(-1), line)
}

/// A shard stopped by the time limit, even before its count began, still
/// ends with its line, marked partial, giving the shard's real number of
/// tasks.
#[test]
fn a_shard_stopped_early_still_prints_its_line_and_its_tasks() {
    let closed = "puzzles/count-knight6x6-closed.ron";
    let (code, whole) = shard_line(&[closed, "--shard", "1/3"], "1/3");
    assert_eq!(code, 0, "{whole}");
    let (_, all) = tasks(&whole);
    assert!(all > 0, "{whole}");
    let (code, line) = shard_line(&[closed, "--shard", "1/3", "--time-limit", "0.001"], "1/3");
    assert_eq!(code, 3, "{line}");
    assert!(line.contains("status=partial"), "{line}");
    assert!(line.contains(" cycles_x2="), "{line}");
    let (done, of) = tasks(&line);
    assert_eq!(of, all, "{line}");
    assert!(done < of, "{line}");
    // The README's example shard: 44 tasks.
    let (code, line) = shard_line(
        &[
            "puzzles/count-knight7x7.ron",
            "--shard",
            "7/2000",
            "--time-limit",
            "0.01",
        ],
        "7/2000",
    );
    assert_eq!(code, 3, "{line}");
    assert!(line.contains("status=partial"), "{line}");
    let (done, of) = tasks(&line);
    assert_eq!(of, 44, "{line}");
    assert!(done < of, "{line}");
}

/// A count of one takes the singular, by either method: the wazir's one
/// cycle of 2x2, its one path from a1 to b1, the one square of 1x1.
#[test]
fn a_count_of_one_is_singular() {
    for method in ["dfs", "frontier"] {
        let out = engine()
            .args(["count", "--piece", "W", "--board", "2x2", "--closed"])
            .args(["--method", method])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(
            text.contains("\n1 distinct cycle (each counted once"),
            "{text}"
        );
        let out = engine()
            .args(["count", "--piece", "W", "--board", "2x2"])
            .args(["--start", "a1", "--end", "b1", "--method", method])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("\n1 directed open tour from a1 to b1\n"),
            "{text}"
        );
    }
    let out = engine()
        .args(["count", "--piece", "W", "--board", "2x2", "--closed"])
        .args(["--method", "frontier"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(" · at most 1 state ("), "{text}");
    let out = engine().args(["count", "--board", "1x1"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\n1 directed open tour, from its one square\n"),
        "{text}"
    );
    assert!(text.contains("(prefixes of up to 1 square)"), "{text}");
}

/// A count past 64 bits is written whole in JSON, as the number the text
/// gives (the king's open tours of 10x6: 22,559,393,222,574,518,324,524).
#[test]
fn json_counts_past_64_bits_are_exact_numbers() {
    let args = ["count", "--board", "10x6", "--piece", "king", "--quiet"];
    let text = engine().args(args).output().unwrap();
    assert_eq!(text.status.code(), Some(0));
    let text = String::from_utf8_lossy(&text.stdout);
    let n = text
        .lines()
        .find_map(|l| l.strip_suffix(" directed open tours, summed over all 60 start squares"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(n.parse::<u128>().unwrap() > u128::from(u64::MAX), "{n}");
    let out = engine()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains(&format!("\"tours\":{n}")), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["exact"], true, "{json}");
    assert_eq!(v["tours"].to_string(), n, "{json}");
}
