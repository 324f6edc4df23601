//! Frontier counts in shards, and `count --merge`: the shards' counts add
//! up to the whole count for every way of splitting (pairs of ends, parts
//! at a cut square, both), their check figures are reproduced by a second
//! run, and the merge refuses what does not belong together.

use engine::count::{self, CountRequest, Method, Shard};
use engine::halt::Limits;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use predicates::prelude::*;

use crate::util::{engine, puzzle};

fn count_of(p: &Puzzle, request: &CountRequest) -> count::Count {
    let job = count::Job {
        board: &p.board,
        piece: &p.piece,
        goal: p.goal,
        constraints: &p.constraints,
    };
    count::count_job(&job, request, &Limits::none(), &Progress::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn frontier(shard: Option<Shard>) -> CountRequest {
    CountRequest {
        method: Some(Method::Frontier),
        shard,
        ..CountRequest::default()
    }
}

/// Every split adds up to the whole count: open tours from any square
/// (pairs of ends, and parts of them when shards outnumber the pairs),
/// from a fixed start or to a fixed end (pairs with the fixed square),
/// between two fixed squares and closed tours (parts at a cut square), on
/// plain and wrapping boards.
#[test]
fn the_shards_add_up_to_the_whole_count() {
    let cases = [
        r#"Puzzle(board: "5x5", piece: "knight")"#,
        r#"Puzzle(board: "6x5", piece: "knight", start: "a1")"#,
        r#"Puzzle(board: "5x6", piece: "knight", end: "c3")"#,
        r#"Puzzle(board: "6x5", piece: "knight", start: "a1", end: "f5")"#,
        r#"Puzzle(board: "6x6", piece: "knight", tour: Closed)"#,
        r#"Puzzle(board: "4x4 torus", piece: "knight")"#,
        r#"Puzzle(board: "5x4", piece: "wazir")"#,
    ];
    for text in cases {
        let p = puzzle(text);
        let whole = count_of(&p, &frontier(None));
        assert!(whole.tours > 0, "{text}");
        for n in [1u32, 2, 3, 7, 40, 300] {
            let mut tours = 0;
            let mut cycles = 0;
            for k in 1..=n {
                let c = count_of(&p, &frontier(Shard::new(k, n)));
                assert!(c.complete(), "{text} {k}/{n}");
                let split = c.split.clone().unwrap_or_else(|| panic!("no split"));
                assert_eq!(split.method, "frontier");
                assert_eq!(split.done, split.units, "{text} {k}/{n}");
                assert_eq!(split.covered.len(), split.units);
                tours += c.tours;
                cycles += c.cycles_x2.unwrap_or(0);
            }
            assert_eq!(tours, whole.tours, "{text} in {n} shards");
            assert_eq!(whole.cycles_x2.map(|_| cycles), whole.cycles_x2, "{text}");
        }
    }
}

/// A shard run again gives the same check figure, on one thread or two;
/// another shard of the same count gives another.
#[test]
fn a_second_run_reproduces_the_check_figure() {
    let p = puzzle(r#"Puzzle(board: "6x6", piece: "knight", tour: Closed)"#);
    let run = |k, threads| {
        let c = count_of(
            &p,
            &CountRequest {
                threads: Some(threads),
                ..frontier(Shard::new(k, 4))
            },
        );
        (c.tours, c.check)
    };
    assert_eq!(run(1, 1), run(1, 2));
    assert_ne!(run(1, 2).1, run(2, 2).1);
    // A whole count has its figure too, the same on any number of threads.
    let whole = |threads| {
        count_of(
            &p,
            &CountRequest {
                threads: Some(threads),
                ..frontier(None)
            },
        )
        .check
    };
    assert!(whole(1).is_some());
    assert_eq!(whole(1), whole(2));
}

/// The shards' output merged by the command: the whole count, exit 0; a
/// missing shard named, with a lower bound and exit 3; shards of another
/// puzzle, or a line cut short, refused with exit 2.
#[test]
fn merge_adds_up_the_shards_and_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut files = Vec::new();
    for k in 1..=3 {
        let out = engine()
            .args(["count", "--board", "6x5", "--method", "frontier", "--quiet"])
            .args(["--shard", &format!("{k}/3")])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(out.status.success());
        let path = dir.path().join(format!("shard-{k}.txt"));
        std::fs::write(&path, &out.stdout).unwrap_or_else(|e| panic!("{e}"));
        files.push(path);
    }
    let whole = count_of(
        &puzzle(r#"Puzzle(board: "6x5", piece: "knight")"#),
        &frontier(None),
    );
    engine()
        .args(["count", "--merge"])
        .args(&files)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(format!(
            "total tours={} shards=3 status=complete",
            whole.tours
        )));
    // Standard input, in JSON.
    let all: Vec<u8> = files
        .iter()
        .flat_map(|f| std::fs::read(f).unwrap_or_default())
        .collect();
    engine()
        .args(["count", "--merge", "--format", "json"])
        .write_stdin(all)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            r#""exact":true,"method":"frontier","missing":[],"partial":[]"#,
        ))
        .stdout(predicate::str::contains(format!(
            r#""tours":{}}}"#,
            whole.tours
        )));
    engine()
        .args(["count", "--merge"])
        .args(&files[..2])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("no line of shard 3 of 3"));
    // A shard of another board.
    let other = dir.path().join("other.txt");
    let out = engine()
        .args([
            "count", "--board", "5x6", "--method", "frontier", "--quiet", "--shard", "3/3",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&other, &out.stdout).unwrap_or_else(|e| panic!("{e}"));
    engine()
        .args(["count", "--merge"])
        .args(&files[..2])
        .arg(&other)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is of another puzzle"));
    // A line cut short in the middle of its check figure.
    let text = std::fs::read_to_string(&files[2]).unwrap_or_default();
    let cut = dir.path().join("cut.txt");
    std::fs::write(&cut, &text.trim_end()[..text.trim_end().len() - 5])
        .unwrap_or_else(|e| panic!("{e}"));
    engine()
        .args(["count", "--merge"])
        .args(&files[..2])
        .arg(&cut)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cut.txt:"))
        .stderr(predicate::str::contains("sixteen hexadecimal digits"))
        .stderr(predicate::str::contains("^"));
}

/// The depth-first search's shards carry a check figure too, and merge.
#[test]
fn depth_first_shards_merge_too() {
    let mut all = Vec::new();
    for k in 1..=2 {
        let out = engine()
            .args(["count", "--board", "5x5", "--method", "dfs", "--quiet"])
            .args(["--shard", &format!("{k}/2")])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(text.contains(" method=dfs "), "{text}");
        assert!(text.contains(" check="), "{text}");
        all.extend(out.stdout);
    }
    engine()
        .args(["count", "--merge", "-"])
        .write_stdin(all)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "total tours=1728 shards=2 status=complete",
        ));
}

/// The guide's recipe of shards run by GNU parallel (or, where it is
/// missing, the plain loop beside it) prints what the guide shows.
#[test]
fn the_guides_parallel_recipe_prints_what_it_shows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide =
        std::fs::read_to_string(root.join("docs/src/shards.md")).unwrap_or_else(|e| panic!("{e}"));
    let from = guide
        .find("in four frontier shards")
        .unwrap_or_else(|| panic!("no recipe in the guide"));
    // The blocks after it: the recipe, its output, the loop.
    let blocks: Vec<&str> = guide[from..]
        .split("```")
        .skip(1)
        .step_by(2)
        .take(3)
        .collect();
    let body = |b: &str, lang: &str| -> String {
        b.strip_prefix(lang)
            .unwrap_or_else(|| panic!("a {lang} block: {b}"))
            .trim_start_matches('\n')
            .to_string()
    };
    let (with_parallel, shown, plain) = (
        body(blocks[0], "sh"),
        body(blocks[1], "text"),
        body(blocks[2], "sh"),
    );
    assert!(with_parallel.starts_with("seq 4 | parallel"));
    let has_parallel = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let recipe = if has_parallel { with_parallel } else { plain };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(root.join("puzzles"), dir.path().join("puzzles"))
        .unwrap_or_else(|e| panic!("{e}"));
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_engine"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap_or(root).display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-e", "-c", &recipe])
        .current_dir(dir.path())
        .env("PATH", path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
}

/// A frontier shard of an open count sweeps in the narrowest order: it does
/// not first count the whole board's closed tours to weigh an order a
/// square wider, as the count in one piece does (on 10x4 it takes the wider
/// one). Those closed counts are the same in every shard and may cost far
/// more than a shard's unit: for the knight's 8x8, two counts of its
/// closed tours, 14 GB each, before each of the 136 pairs.
#[test]
fn a_frontier_shard_does_not_weigh_a_wider_order_by_the_closed_tours() {
    let p = puzzle(r#"Puzzle(board: "10x4", piece: "knight")"#);
    let Ok(g) = p.graph(&engine::halt::Never);
    let narrowest = count::frontier::fit(&p.board, &g).unwrap_or_else(|e| panic!("{e}"));
    let wider = narrowest
        .wider(&p.board)
        .unwrap_or_else(|| panic!("no wider order"));
    let print = |plan| count::shard::fingerprint(&g, &p.goal, "frontier", Some(plan));
    assert_ne!(print(&narrowest), print(&wider));
    // The count in one piece weighs the two orders and takes the wider.
    let whole = count_of(&p, &frontier(None));
    let why = whole
        .method
        .as_ref()
        .map(|m| m.why.clone())
        .unwrap_or_default();
    assert!(why.contains("taken one square wider"), "{why}");
    let mut tours = 0;
    for k in 1..=3 {
        let c = count_of(&p, &frontier(Shard::new(k, 3)));
        let split = c.split.clone().unwrap_or_else(|| panic!("no split"));
        assert_eq!(split.fingerprint, print(&narrowest), "shard {k}/3");
        tours += c.tours;
    }
    assert_eq!(tours, whole.tours);
}
