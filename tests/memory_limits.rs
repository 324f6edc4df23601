//! Runs that would need too much memory are refused before anything large
//! is allocated, with exit 2 and a message at the flag or the file's text
//! to change; runs just under the limits go ahead.

use std::path::Path;

use crate::util::{assert_verified, engine, files, load, setup};

/// Runs `engine run FILE ARGS`; returns the exit code, stdout and stderr.
fn run(file: &Path, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = engine()
        .arg("run")
        .arg(file)
        .arg("--quiet")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code(), out.stdout, err)
}

/// The number in a `… N fits` hint.
fn hinted(err: &str) -> usize {
    err.split_whitespace()
        .filter_map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no number in\n{err}"))
}

#[test]
fn the_genetic_flag_is_refused_on_a_board_too_large_for_its_population() {
    // 50 individuals × 2 generations × 16.7 million 2-byte genes: 3.1 GiB of
    // genes alone, 5 GiB with the move slots and the reversed graph.
    let (_dir, file) = setup(r#"Puzzle(board: "4096x4096", piece: "knight")"#);
    let (code, out, err) = run(&file, &["--solver", "genetic"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty());
    assert!(err.starts_with("error: --solver: "), "{err}");
    assert!(
        err.contains("population of 50 on this board of 16777216 squares")
            && err.contains("more than the 4.0 GiB allowed")
            && err.contains("^^^^^^^ a population of at most"),
        "{err}"
    );
}

#[test]
fn the_genetic_flag_runs_where_it_fits() {
    let (_dir, file) = setup(r#"Puzzle(board: "6x6", piece: "knight", start: "a1")"#);
    let (code, out, err) = run(&file, &["--solver", "genetic", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        v["solver"].as_str().unwrap_or("").starts_with("genetic"),
        "{v}"
    );
    assert_verified(&load(&file), &v);
}

#[test]
fn a_population_just_under_the_limit_is_accepted() {
    // 100,000 individuals: 3.95 GiB on 103x103, 4.03 GiB on 104x104
    // (`check` reads the file but runs no solver, so nothing is allocated).
    let check = |board: &str| {
        let (_dir, file) = setup(&format!(
            "Puzzle(board: \"{board}\", piece: \"knight\", solver: Genetic(population: 100000))"
        ));
        let out = engine()
            .arg("check")
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = check("103x103");
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = check("104x104");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("p.ron:1:71: ") && err.contains("would need about 4.03"),
        "{err}"
    );
}

#[test]
fn a_search_gif_with_too_many_frames_is_refused_before_the_search() {
    // Each kept snapshot may hold a whole path: 100 million of them, even of
    // 25 squares, are more than 4 GiB.
    let (dir, file) = setup(r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#);
    let gif = dir.path().join("s.gif");
    let gif_arg = gif.to_string_lossy().into_owned();
    let (code, out, err) = run(
        &file,
        &["--search-gif", &gif_arg, "--max-frames", "100000000"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "no search ran");
    assert!(err.starts_with("error: --max-frames: "), "{err}");
    // The image size is named: 5x5 at 48 pixels, with its labels, widened
    // for the caption.
    assert!(
        err.contains("270x386-pixel images")
            && err.contains("99999999 snapshots of the search over 25 squares")
            && err.contains("more than the 4.0 GiB allowed"),
        "{err}"
    );
    assert_eq!(files(dir.path()), ["p.ron"], "no file left behind");

    // The hint's frame count is the most that fits: it runs (the search
    // keeps only as many snapshots as it has events), one more does not.
    let most = hinted(&err);
    assert!(most > 1_000_000 && most < 100_000_000, "{most}");
    let over = (most + 1).to_string();
    let (code, _, err) = run(&file, &["--search-gif", &gif_arg, "--max-frames", &over]);
    assert_eq!(code, Some(2), "{err}");
    let fits = most.to_string();
    let (code, out, err) = run(
        &file,
        &[
            "--search-gif",
            &gif_arg,
            "--max-frames",
            &fits,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_verified(&load(&file), &v);
    let decoded = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&gif).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((decoded.width(), decoded.height()), (270, 386));
}

#[test]
fn a_search_gif_of_a_huge_board_fits_at_the_default_frames() {
    // 599 snapshots of up to 16.7 million squares would be 37.5 GiB at
    // worst; the recorder's byte budget caps them (it thins early), so the
    // estimate stays under the limit and the run is not refused.
    let board = engine::model::Board::rectangle(4096, 4096);
    let opts = engine::render::gif::GifOptions {
        max_frames: Some(600),
        ..Default::default()
    };
    let m = engine::render::gif::memory(&board, &opts, true, true);
    let path = 4 * board.len() as u64;
    assert!(
        // A genetic run's lineage (repaired moves, generation 1's walks)
        // may add two eighths of the budget and a walk.
        m.recording <= engine::budget::RECORD * 5 / 4 + 5 * path + (1 << 20),
        "{m:?}"
    );
    assert!(m.recording >= engine::budget::RECORD, "{m:?}");
    assert!(m.total() < engine::render::gif::GIF_BUDGET, "{m:?}");
}
