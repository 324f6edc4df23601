//! Frontier counts with `--checkpoint DIR`: a count stopped by its time
//! limit goes on from the square it saved when run again; a finished
//! count, sharded or not, gives the same result again from its checkpoint;
//! a damaged checkpoint, or one asked of another method, is refused with
//! exit 2, naming the file or the flag.

use predicates::prelude::*;

use crate::util::{count_json as json, engine};

/// The figures file of the one entry in `dir`.
fn figures_file(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap_or_else(|| panic!("no checkpoint in {}", dir.display()))
}

/// The figures of the one entry in `dir`.
fn figures(dir: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(figures_file(dir)).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_count_stopped_by_its_time_limit_goes_on_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ck = dir.path().to_str().unwrap_or_default();
    // The knight's 7x7 open tours: some 40 s of work on one thread, so
    // two seconds stop it part way whatever the machine.
    let args = [
        "--board",
        "7x7",
        "--method",
        "frontier",
        "--threads",
        "1",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0",
        "--time-limit",
        "3",
    ];
    let (first, code) = json(&args);
    assert_eq!(code, 3, "{first}");
    let done = first["frontier"]["squares_done"].as_u64().unwrap_or(0);
    assert!(done > 0, "{first}");
    assert!(first["frontier"].get("resumed_at").is_none());
    // Every square was saved: the checkpoint is of the last one taken.
    let saved = figures(dir.path());
    assert_eq!(saved["done"].as_u64(), Some(done));
    let (second, code) = json(&args);
    assert_eq!(code, 3, "{second}");
    assert_eq!(second["frontier"]["resumed_at"].as_u64(), Some(done));
    assert!(second["frontier"]["squares_done"].as_u64() >= Some(done));
}

#[test]
fn a_finished_count_gives_its_result_again_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ck = dir.path().to_str().unwrap_or_default();
    let plain = ["puzzles/count-knight5x5.ron", "--method", "frontier"];
    let (want, code) = json(&plain);
    assert_eq!(code, 0);
    for shard in [None, Some("1/2"), Some("2/2")] {
        let mut args = plain.to_vec();
        args.extend(["--checkpoint", ck]);
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let (first, code) = json(&args);
        assert_eq!(code, 0, "{first}");
        let (again, code) = json(&args);
        assert_eq!(code, 0, "{again}");
        assert_eq!(
            (&first["tours"], &first["check"]),
            (&again["tours"], &again["check"])
        );
        assert_eq!(
            again["frontier"]["resumed_at"],
            again["frontier"]["squares"]
        );
        if shard.is_none() {
            assert_eq!(first["tours"], want["tours"]);
            assert_eq!(first["check"], want["check"]);
        }
    }
}

#[test]
fn a_damaged_checkpoint_or_another_method_is_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ck = dir.path().to_str().unwrap_or_default();
    let args = [
        "count",
        "puzzles/count-knight5x5.ron",
        "--method",
        "frontier",
        "--checkpoint",
        ck,
        "--quiet",
    ];
    engine().args(args).assert().code(0);
    let head = figures_file(dir.path());
    std::fs::write(&head, "{ not a checkpoint").unwrap_or_else(|e| panic!("{e}"));
    engine()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(head.display().to_string()));
    engine()
        .args(["count", "puzzles/count-knight5x5.ron", "--checkpoint", ck])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a checkpoint saves a frontier count: add --method frontier",
        ));
}
