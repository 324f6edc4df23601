//! `engine run --gif / --search-gif` as a user runs it: files written whole
//! or not at all, whatever happens.

use std::path::Path;

use engine::verify::verify;

use crate::util::{ctrl_c, engine, engine_process, files, load, setup, tour_from_json};

/// Frame count and size of a GIF file, decoded with the `gif` crate.
fn frames(path: &Path) -> (usize, u16, u16) {
    let f = std::fs::File::open(path).expect("GIF exists");
    let mut d = gif::DecodeOptions::new().read_info(f).expect("a GIF");
    let mut n = 0;
    while d.read_next_frame().expect("frame").is_some() {
        n += 1;
    }
    assert_eq!(d.repeat(), gif::Repeat::Infinite);
    (n, d.width(), d.height())
}

/// Checks the tour printed by `--format json` with the verifier.
fn verify_json(puzzle_file: &Path, stdout: &[u8]) -> usize {
    let p = load(puzzle_file);
    let v: serde_json::Value = serde_json::from_slice(stdout).expect("JSON");
    let tour = tour_from_json(&p, &v);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    tour.len()
}

const HOLED: &str = r#"Puzzle(
    name: "Holed 4x4",
    board: "4x4 - b1 a3 a4 c4 d4",
    piece: "knight",
    solver: Backtrack(),
)"#;

#[test]
fn writes_both_gifs_and_nothing_else() {
    let (dir, file) = setup(HOLED);
    let out = engine()
        .arg("run")
        .arg(&file)
        .args(["--format", "json", "--gif"])
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .success();
    let n = verify_json(&file, &out.get_output().stdout);
    assert_eq!(files(dir.path()), ["p.ron", "search.gif", "tour.gif"]);
    let (count, w, h) = frames(&dir.path().join("tour.gif"));
    assert_eq!((count, w), (n, 256));
    assert!(h > 4 * 48);
    let (count, _, _) = frames(&dir.path().join("search.gif"));
    assert!((2..=600).contains(&count));
}

#[test]
fn flags_shape_the_gif() {
    let (dir, file) = setup(HOLED);
    let gif = dir.path().join("t.gif");
    engine()
        .arg("run")
        .arg(&file)
        .args(["--cell", "100", "--max-frames", "4", "--fps", "20", "--gif"])
        .arg(&gif)
        .assert()
        .success();
    let (count, w, h) = frames(&gif);
    // 4x4 squares of 100 pixels, the rank numbers beside them.
    assert_eq!(count, 4);
    assert!((410..=460).contains(&w), "{w}");
    assert!(h > 400);
}

#[test]
fn a_missing_directory_fails_before_searching() {
    let (dir, file) = setup(HOLED);
    engine()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("no/such/dir/t.gif"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("cannot write a GIF"));
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn bad_gif_flags_are_usage_errors() {
    let (dir, file) = setup(HOLED);
    for args in [
        ["--cell", "2"],
        ["--fps", "0"],
        ["--fps", "100"],
        ["--max-frames", "1"],
    ] {
        engine()
            .arg("run")
            .arg(&file)
            .args(args)
            .arg("--gif")
            .arg(dir.path().join("t.gif"))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(args[0]));
    }
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn giving_up_writes_no_tour_gif_but_the_search_gif() {
    let (dir, file) = setup(
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed,
                  solver: Backtrack(order: Given, node_limit: 50000))"#,
    );
    engine()
        .arg("run")
        .arg(&file)
        .args(["--max-frames", "30", "--gif"])
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .code(3)
        .stderr(predicates::str::contains("no GIF was written"));
    assert_eq!(files(dir.path()), ["p.ron", "search.gif"]);
    let (count, _, _) = frames(&dir.path().join("search.gif"));
    assert!((16..=30).contains(&count), "{count}");
}

#[test]
fn a_proof_without_search_still_gets_its_search_gif() {
    let (dir, file) = setup(r#"Puzzle(board: "5x5", piece: "knight", tour: Closed)"#);
    engine()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .code(1);
    assert_eq!(files(dir.path()), ["p.ron", "search.gif"]);
    // The bare board, then the proof drawn.
    assert_eq!(frames(&dir.path().join("search.gif")).0, 2);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_gif() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    // A closed 8x8 tour by plain backtracking from a1 takes far too long.
    let (dir, file) = setup(
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, solver: Backtrack(order: Given))"#,
    );
    let mut child = engine_process()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("started");
    std::thread::sleep(Duration::from_millis(1000));
    ctrl_c(&child);
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("engine did not stop after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert_eq!(files(dir.path()), ["p.ron"]);
}
