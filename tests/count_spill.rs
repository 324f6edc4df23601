//! Frontier counts whose states pass `--memory`: written to disk as sorted
//! runs and merged, they count what the count in memory counts, with the
//! same check figure, and leave nothing in the spill folder however they
//! end; a folder that does not exist, or a disk too small for the
//! estimate, is refused before the start.

use predicates::prelude::*;

use crate::util::{count_json as json, engine};

fn entries(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, Iterator::count)
}

#[test]
fn a_small_memory_spills_and_counts_the_same() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let spill = dir.path().to_str().unwrap_or_default();
    // (The closed tours of 6x6 never hold more than 404 states: nothing
    // to spill.)
    for (board, closed) in [("8x5", false), ("8x5", true), ("6x6", false)] {
        {
            let mut args = vec!["--board", board, "--method", "frontier"];
            if closed {
                args.push("--closed");
            }
            let (held, code) = json(&args);
            assert_eq!(code, 0);
            args.extend(["--memory", "96KiB", "--spill", spill]);
            let (spilled, code) = json(&args);
            assert_eq!(code, 0);
            assert_eq!(held["tours"], spilled["tours"], "{args:?}");
            assert_eq!(held["cycles"], spilled["cycles"], "{args:?}");
            assert_eq!(held["check"], spilled["check"], "{args:?}");
            assert_eq!(held["frontier"]["spilled_bytes"], 0);
            assert!(
                spilled["frontier"]["spilled_bytes"].as_u64() > Some(0),
                "{args:?}: {spilled}"
            );
            assert_eq!(entries(dir.path()), 0, "runs left behind");
        }
    }
    // The text says what went to disk and ends with the check figure.
    engine()
        .args(["count", "--board", "8x5", "--method", "frontier", "--quiet"])
        .args(["--memory", "96KiB", "--spill", spill])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("written to disk"))
        .stdout(predicate::str::contains("check: "));
}

#[test]
fn a_stopped_spilling_count_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let spill = dir.path().to_str().unwrap_or_default();
    let (v, code) = json(&[
        "--board",
        "8x6",
        "--method",
        "frontier",
        "--memory",
        "64KiB",
        "--spill",
        spill,
        "--time-limit",
        "1",
    ]);
    assert_eq!((code, &v["status"]), (3, &serde_json::json!("stopped")));
    assert_eq!(entries(dir.path()), 0, "runs left behind");
}

#[test]
fn a_missing_folder_or_too_little_disk_is_refused() {
    engine()
        .args(["count", "--board", "6x6", "--method", "frontier"])
        .args(["--spill", "/no/such/folder"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--spill"));
    engine()
        .args([
            "count", "--board", "11x12", "--closed", "--method", "frontier",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("of disk for its states"));
}

/// A spilling count holds its states within the budget: the tables are
/// written out before they, the list they are sorted into and the states
/// being read pass it, though the 64 tables may all double within a block
/// (7x6 open: the states reach 6 MiB at their widest).
#[test]
fn a_spilling_count_keeps_its_states_within_the_budget() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let spill = dir.path().to_str().unwrap_or_default();
    let (held, code) = json(&["--board", "7x6", "--method", "frontier"]);
    assert_eq!(code, 0);
    for (memory, budget) in [("2MiB", 2u64 << 20), ("4MiB", 4 << 20)] {
        let (spilled, code) = json(&[
            "--board", "7x6", "--method", "frontier", "--memory", memory, "--spill", spill,
        ]);
        assert_eq!(code, 0);
        assert_eq!(held["tours"], spilled["tours"]);
        assert_eq!(held["check"], spilled["check"]);
        let peak = spilled["frontier"]["peak_bytes"]
            .as_u64()
            .unwrap_or(u64::MAX);
        assert!(peak <= budget, "{memory}: {peak} bytes held: {spilled}");
        assert!(spilled["frontier"]["spilled_bytes"].as_u64() > Some(0));
    }
    assert_eq!(entries(dir.path()), 0, "runs left behind");
}
